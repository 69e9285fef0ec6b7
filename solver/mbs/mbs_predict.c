// SPDX-License-Identifier: MIT
// The active-set prediction of the conic step (mbs_qcp.c).
// At rest, or sliding steadily, a step keeps the last step's active set. With the set known the
// relaxed problem is an equality-constrained QP: open rows are fixed at λ = 0, closed rows are
// free (sticking: λ inside its cone, so the cone constraint is inactive), and the optimum solves
// one linear KKT system [P Aᵀ; A 0] (x; y) = (−c; b). If every dropped condition then holds —
// closed: λ_u ≥ 0, ‖λ_t‖ ≤ μλ_n; open: the dual ρ = r̂ in F* (relaxed ρ_n ≥ μ‖ρ_t‖; coulomb
// ρ_n ≥ 0, whose shift is μ‖ρ_t‖), to qcp's tolerance — the point satisfies the conic problem's
// KKT conditions, and being strictly convex the problem has no other optimum: the step takes it
// without an interior-point solve. Otherwise (a contact slides, opens or closes) the
// interior-point solve runs as before. Sliding contacts are not predicted (their cone is active,
// a nonlinear condition).
#include "mbs_qcp_internal.h"

#ifdef MBS_HAVE_QCP

#include <math.h>
#include <stdlib.h>
#include <string.h>

// max(m, v) ignoring a NaN v, as fmax(m, v) for m not NaN: inline in the prediction's loops
static inline double max_of(double m, double v) { return v > m ? v : m; }

int mbs_predict_applies(const mbs_workspace *ws) {
  return ws->settings.predict && ws->settings.formulation != MBS_PAPER;
}

// zeroed memory for count items of the current pattern (the arena's; NULL when out of memory)
static void *pattern_alloc(struct mbs_qcp *q, size_t size, size_t count) {
  const size_t bytes = size * (count ? count : 1);
  void *p = qcp_arena_allocator(&q->arena).alloc(bytes, &q->arena);
  if (p) memset(p, 0, bytes);
  return p;
}

// an entry of the mass block (P's or A's columns of w) off its diagonal and zero at the pattern's
// setup: left out of K (mass blocks come dense, bs × bs, and a rigid body's is diagonal in its
// frame — 6 of 36 entries — so they made most of K and, through fill, of its factor: the column
// of 1000 spheres, K 102 000 → 57 000 entries, L 114 000 → 54 000). A build where one is no
// longer zero stops the prediction for the pattern (predict_values)
static int mass_zero(const struct mbs_qcp *q, int col, int diag, int row, double v) {
  return col >= q->nlam && row != diag && v == 0;
}

// K's pattern (upper triangle, CSC, size n + p): column j < n holds P's column j (its diagonal
// added if P has none), column n + i row i of A and the diagonal (the mass blocks' zeros left
// out: mass_zero); then the symbolic factor
int mbs_predict_setup(struct mbs_qcp *q) {
  mbs_predict_release(q);
  const int n = q->nn, p = q->np, N = n + p, nP = q->nP, nA = q->nA;
  const size_t un = (size_t)N, nnz = (size_t)nP + (size_t)nA + un;
  const qcp_allocator al = qcp_arena_allocator(&q->arena);
  q->Kp = pattern_alloc(q, sizeof(int), un + 1), q->Ki = pattern_alloc(q, sizeof(int), nnz);
  q->pmap = pattern_alloc(q, sizeof(int), (size_t)nP + 1),
  q->amap = pattern_alloc(q, sizeof(int), (size_t)nA + 1);
  q->kdiag = pattern_alloc(q, sizeof(int), un),
  q->open = pattern_alloc(q, sizeof(int), (size_t)n + 1);
  q->Kx = pattern_alloc(q, sizeof(double), nnz), q->Kx0 = pattern_alloc(q, sizeof(double), nnz);
  q->krhs = pattern_alloc(q, sizeof(double), un), q->ksol = pattern_alloc(q, sizeof(double), un);
  q->kres = pattern_alloc(q, sizeof(double), un);
  q->changed = pattern_alloc(q, sizeof(int), (size_t)n);
  q->guessed = pattern_alloc(q, sizeof(int), (size_t)n);
  q->open_f = pattern_alloc(q, sizeof(int), (size_t)n);
  int *order = pattern_alloc(q, sizeof(int), un);
  signed char *sign = pattern_alloc(q, 1, un);
  int *rowcnt = pattern_alloc(q, sizeof(int), un + 1);
  int ok = q->Kp && q->Ki && q->pmap && q->amap && q->kdiag && q->open && q->Kx && q->Kx0 &&
           q->krhs && q->ksol && q->kres && q->changed && q->guessed && q->open_f && order &&
           sign && rowcnt;
  if (ok) {
    int e = 0;
    for (int j = 0; j < n; j++) {  // P columns, diagonal last (added if missing)
      q->Kp[j] = e;
      q->kdiag[j] = -1;
      for (int k = q->Pp[j]; k < q->Pp[j + 1]; k++) {
        q->pmap[k] = mass_zero(q, j, j, q->Pi[k], q->Px[k]) ? -1 : e;
        if (q->pmap[k] < 0) continue;
        if (q->Pi[k] == j) q->kdiag[j] = e;
        q->Ki[e++] = q->Pi[k];
      }
      if (q->kdiag[j] < 0) q->kdiag[j] = e, q->Ki[e++] = j;
    }
    // A by rows: column n + i of K holds row i of A, then its diagonal; rowcnt becomes the next
    // free slot of each such column
    for (int j = 0; j < n; j++)  // (w_j's own row of A is mass row j − nlam)
      for (int k = q->Ap[j]; k < q->Ap[j + 1]; k++)
        if ((q->amap[k] = mass_zero(q, j, j - q->nlam, q->Ai[k], q->Ax[k]) ? -1 : 0) == 0)
          rowcnt[q->Ai[k] + 1]++;
    for (int i = 0; i < p; i++) rowcnt[i + 1] += rowcnt[i];
    const int kept = rowcnt[p];
    for (int i = 0; i < p; i++) q->Kp[n + i] = rowcnt[i] = e + rowcnt[i] + i;
    for (int j = 0; j < n; j++)
      for (int k = q->Ap[j]; k < q->Ap[j + 1]; k++) {
        if (q->amap[k] < 0) continue;
        int at = rowcnt[q->Ai[k]]++;
        q->amap[k] = at, q->Ki[at] = j;
      }
    for (int i = 0; i < p; i++) q->kdiag[n + i] = rowcnt[i], q->Ki[rowcnt[i]] = n + i;
    q->Kp[N] = e + kept + p;
    for (int j = 0; j < N; j++) sign[j] = j < n ? 1 : -1;
    // elimination order: w and y first (block-diagonal M: fill only within a body), the λ rows
    // last, by row — a correction that flips λ rows then refactors only the rows from the first
    // flipped one on (qcp_qd_refactor); eliminating the bodies leaves G M⁻¹ Gᵀ's pattern on the λ
    // rows: all λ rows of a body coupled. That is banded on a column (≤ 9 rows per velocity) but
    // dense for many contacts on one body (the foundation: 10 000 rows on one cube, measured
    // 55 µs/step with AMD and over a minute this way), so only while no velocity carries more
    // than ORDER_MAX_ROWS λ rows; otherwise AMD (λ rows first there, and the refactor keeps less)
    enum { ORDER_MAX_ROWS = 64 };
    int crowded = 0;
    for (int i = 0; i < p && !crowded; i++) {
      int rows = 0;
      for (int e2 = q->Kp[n + i]; e2 < q->kdiag[n + i]; e2++) rows += q->Ki[e2] < q->nlam;
      crowded = rows > ORDER_MAX_ROWS;
    }
    int k = 0;
    for (int j = q->nlam; j < N; j++) order[k++] = j;
    for (int j = 0; j < q->nlam; j++) order[k++] = j;
    sc_error err = {0};
    q->qd = qcp_qd_create(N, q->Kp, q->Ki, sign, crowded ? NULL : order, &al, &err);
    q->bodies_first = !crowded;
    if (!crowded) q->Kx = q->Kx0;  // factored unregularised (predict_factor_solve): K_δ = K0
    ok = q->qd != NULL;
  }
  if (!ok) return mbs_predict_release(q), -1;
  q->kn = N;
  return 0;
}

// y = K0 x for the symmetric K0 given by its upper triangle (column j's diagonal at kdiag[j]);
// column j's own sum is kept in a register (y[j] would alias the y[i] updates)
static void sym_mv(int N, const int *Kp, const int *Ki, const int *kdiag, const double *Kx,
                   const double *x, double *y) {
  for (int i = 0; i < N; i++) y[i] = 0;
  for (int j = 0; j < N; j++) {
    const int d = kdiag[j];
    const double xj = x[j];
    double yj = Kx[d] * xj;
    for (int k = Kp[j]; k < Kp[j + 1]; k++) {
      if (k == d) continue;
      const int i = Ki[k];
      y[i] += Kx[k] * xj;
      yj += Kx[k] * x[i];
    }
    y[j] += yj;
  }
}

// the last solve's active set, by model row (rows new to this solve are predicted closed: a row
// joins because it penetrates): open[s] = 1 for rows fixed at λ = 0; −1 if a contact slides
static int predict_classify(const mbs_workspace *ws, int ns, const int *sidx) {
  const struct mbs_qcp *q = ws->qcp;
  double lmax = 0;
  for (int s = 0; s < ns; s++) {
    const int i = ws->act[sidx[s]];
    if (q->row_stamp[i] == q->stamp) lmax = max_of(lmax, fabs(q->lam_row[i]));
  }
  const double open_tol = 1e-6 * lmax;  // an interior point's open rows end near 0, not at 0
  for (int s = 0; s < ns; s++) {
    const int role = q->role[s], i = ws->act[sidx[s]];
    const int known = q->row_stamp[i] == q->stamp;
    const double l = known ? q->lam_row[i] : INFINITY;
    q->open[s] = role == ROLE_OFF || ((role == ROLE_UNI || role == ROLE_NORMAL) && l <= open_tol);
    if (role != ROLE_NORMAL || q->open[s] || !known) continue;
    double lt = 0;
    for (int k = 0; k < q->ntan[s]; k++) {
      const int t = ws->act[sidx[k ? q->tan2[s] : q->tan1[s]]];
      if (q->row_stamp[t] == q->stamp) lt += q->lam_row[t] * q->lam_row[t];
    }
    if (sqrt(lt) > (1 - 1e-6) * ws->rows->mu[i] * l) return -1;  // sliding: the cone is active
  }
  for (int s = 0; s < ns; s++)
    if (q->role[s] == ROLE_TANGENT) q->open[s] = q->open[q->tn[s]];
  return 0;
}

// records the solve's λ (q->wx) by model row for the next step's prediction
void mbs_predict_record(mbs_workspace *ws, int ns, const int *sidx) {
  struct mbs_qcp *q = ws->qcp;
  q->stamp++;
  for (int s = 0; s < ns; s++) {
    const int i = ws->act[sidx[s]];
    q->lam_row[i] = q->role[s] == ROLE_OFF ? 0 : q->wx[s], q->row_stamp[i] = q->stamp;
  }
  memcpy(q->w_last, q->wx + ns, sizeof(double) * (size_t)ws->nv);
}

// K's values for the predicted set: open rows' λ columns become the identity (λ = 0); −1 if an
// entry left out of K's pattern is no longer zero (mass_zero)
static int predict_values(struct mbs_qcp *q) {
  const int n = q->nn, p = q->np, N = n + p;
  // every slot is a diagonal, an entry of P or one of A: zero the diagonals, then scatter P, A
  for (int j = 0; j < N; j++) q->Kx0[q->kdiag[j]] = 0;
  int lost = 0;
  for (int k = 0; k < q->nP; k++) {
    if (q->pmap[k] >= 0)
      q->Kx0[q->pmap[k]] = q->Px[k];
    else
      lost |= q->Px[k] != 0;
  }
  for (int k = 0; k < q->nA; k++) {
    if (q->amap[k] >= 0)
      q->Kx0[q->amap[k]] = q->Ax[k];
    else
      lost |= q->Ax[k] != 0;
  }
  if (lost) return -1;
  for (int s = 0; s < n; s++) {
    if (!q->open[s]) continue;
    q->Kx0[q->kdiag[s]] = 1;
    for (int k = q->Ap[s]; k < q->Ap[s + 1]; k++) q->Kx0[q->amap[k]] = 0;
  }
  for (int j = 0; j < n; j++) q->krhs[j] = q->open[j] ? 0 : -q->c[j];
  for (int i = 0; i < p; i++) q->krhs[n + i] = q->b[i];
  return 0;
}

// K0's column s and the rhs after row s opened or closed (as predict_values would set them),
// and the regularised copy Kx beside it
static void predict_column(struct mbs_qcp *q, int s) {
  double d = 0;  // P's diagonal entry of column s, if any
  for (int k = q->Pp[s]; k < q->Pp[s + 1]; k++)
    if (q->Pi[k] == s) d = q->Px[k];
  const int e = q->kdiag[s];
  q->Kx0[e] = q->open[s] ? 1 : d;
  q->Kx[e] = q->Kx0[e] == 0 ? q->kdelta : q->Kx0[e];
  for (int k = q->Ap[s]; k < q->Ap[s + 1]; k++)
    q->Kx[q->amap[k]] = q->Kx0[q->amap[k]] = q->open[s] ? 0 : q->Ax[k];
  q->krhs[s] = q->open[s] ? 0 : -q->c[s];
}

// factor K0 regularised (zero diagonals of P ± δ, −δI on the y block) and solve: x = K_δ⁻¹ rhs,
// off K0's solution by O(δ) (predict_refine removes that). The first factor of a step builds K0
// and sets δ from its largest diagonal; a correction changes the flipped rows' columns only and
// refactors from the first of them on (the λ rows are eliminated last: predict_setup).
static int predict_factor_solve(struct mbs_qcp *q, int first) {
  const int n = q->nn, N = n + q->np, nnz = q->Kp[N];
  if (first) {
    if (predict_values(q)) return -1;
    double dmax = 0;
    for (int j = q->nlam; j < N; j++) dmax = max_of(dmax, fabs(q->Kx0[q->kdiag[j]]));
    q->kdmax_w = dmax;  // the w and y columns' part (a re-solve of this build changes λ only)
    for (int j = 0; j < q->nlam; j++) dmax = max_of(dmax, fabs(q->Kx0[q->kdiag[j]]));
    // bodies first: no static regularisation — in that order every pivot has its sign (a body's
    // w block M_b > 0, then its y block −M_b, then the λ rows C + G M⁻¹ Gᵀ > 0 or 1 if open), so
    // K0 itself is factored; a pivot that still fails the sign test becomes ±kdyn. AMD's order
    // may meet a y row before its body: −δ on the y block then (refined away)
    const double scale = dmax > 0 ? dmax : 1;
    q->kdelta = q->bodies_first ? 0 : 1e-10 * scale;
    q->kdyn = 1e-10 * scale;
    q->keps = 1e-14 * scale;
    if (q->Kx != q->Kx0) {  // K_δ beside K0 (AMD's order)
      memcpy(q->Kx, q->Kx0, sizeof(double) * (size_t)nnz);
      for (int j = 0; j < N; j++)
        if (j >= n || q->Kx[q->kdiag[j]] == 0) q->Kx[q->kdiag[j]] = j < n ? q->kdelta : -q->kdelta;
    }
    // the factor's rows before the first that differs from the last factored matrix stand: a
    // pass of the same pattern keeps the bodies' rows when their mass matrix is constant
    // (spheres), and the λ rows below the first whose stiffness changed (a second pass of a
    // landing step: the rows that closed at the landing front)
    qcp_qd_factor_update(q->qd, q->Kx, q->keps, q->kdyn);
    q->kscale = scale, q->kbuild = q->build_id;
  } else {
    for (int c = 0; c < q->nchanged; c++) predict_column(q, q->changed[c]);
    qcp_qd_refactor(q->qd, q->Kx, q->nchanged, q->changed, q->keps, q->kdyn);
  }
  // the open flags of the factored matrix (predict_kept's reference)
  memcpy(q->open_f, q->open, sizeof(int) * (size_t)q->nlam);
  qcp_qd_solve_rhs(q->qd, q->krhs, q->ksol);
  return 0;
}

// the first solve of a pass that re-solves the rows of a pass whose build the factor holds
// (same step: G, M and b stand): K0 differs from the factored matrix only in the λ columns whose
// stiffness (C = 1/D) or open flag changed, so those columns are rewritten and the factor redone
// from the first of them on — what predict_factor_solve's first factor computes (it finds the
// same first differing row by comparing every entry), without rebuilding and comparing all of
// K. Returns 0 when that does not apply (another build factored, or the scale of the
// regularisation moved): the full first factor then.
static int predict_kept(struct mbs_qcp *q) {
  const int ns = q->nlam, n = q->nn;
  if (q->kbuild != q->build_id) return 0;
  double dmax = q->kdmax_w;
  for (int j = 0; j < ns; j++) dmax = max_of(dmax, fabs(q->open[j] ? 1 : q->Px[q->Pp[j]]));
  if ((dmax > 0 ? dmax : 1) != q->kscale) return 0;
  q->nchanged = 0;
  for (int s = 0; s < ns; s++) {
    const double d = q->open[s] ? 1 : q->Px[q->Pp[s]];
    if (q->open[s] != q->open_f[s] || q->Kx0[q->kdiag[s]] != d) q->changed[q->nchanged++] = s;
  }
  for (int c = 0; c < q->nchanged; c++) predict_column(q, q->changed[c]);
  for (int j = 0; j < n; j++) q->krhs[j] = q->open[j] ? 0 : -q->c[j];
  for (int i = 0; i < q->np; i++) q->krhs[n + i] = q->b[i];
  qcp_qd_refactor(q->qd, q->Kx, q->nchanged, q->changed, q->keps, q->kdyn);
  memcpy(q->open_f, q->open, sizeof(int) * (size_t)ns);
  qcp_qd_solve_rhs(q->qd, q->krhs, q->ksol);
  return 1;
}

// iterative refinement of q->ksol against K0 itself removes δ's perturbation (one pass takes the
// residual from ~δ to round-off, ~1e-14 relative); stops at round-off or when a pass gains less
// than 10×; returns ‖K0 x − rhs‖∞ / (1 + ‖rhs‖∞), *moved = 0 if x was left as it was
static double predict_refine(struct mbs_qcp *q, int *moved) {
  const int N = q->nn + q->np;
  double bmax = 0;
  for (int j = 0; j < N; j++) bmax = max_of(bmax, fabs(q->krhs[j]));
  // first pass without a product: K_δ x = rhs, so rhs − K0 x = (K_δ − K0) x, the regularised
  // diagonals times x (up to the solve's rounding, which the checked passes below remove)
  *moved = q->kdelta > 0;
  if (q->kdelta > 0) {
    for (int j = 0; j < N; j++)
      q->kres[j] = (q->Kx[q->kdiag[j]] - q->Kx0[q->kdiag[j]]) * q->ksol[j];
    qcp_qd_solve(q->qd, q->kres);
    for (int j = 0; j < N; j++) q->ksol[j] += q->kres[j];
  }
  double res = INFINITY;
  for (int it = 0; it < 4; it++) {
    sym_mv(N, q->Kp, q->Ki, q->kdiag, q->Kx0, q->ksol, q->kres);
    double r = 0;
    for (int j = 0; j < N; j++)
      q->kres[j] = q->krhs[j] - q->kres[j], r = max_of(r, fabs(q->kres[j]));
    if (r > 0.1 * res) {  // no longer converging: stop here
      res = r;
      break;
    }
    res = r;
    if (res <= 1e-13 * (1 + bmax)) break;
    qcp_qd_solve(q->qd, q->kres);
    for (int j = 0; j < N; j++) q->ksol[j] += q->kres[j];
    *moved = 1;
  }
  return res / (1 + bmax);
}

// the open unilateral/normal rows that share a velocity with row s (just closed) close with it:
// where contacts close in a chain (a column landing) closing a row only makes its neighbour
// penetrate in the next solve, one contact per correction; closing the neighbours at once cuts
// the corrections (measured: a landing column of 1000 needed up to 73 and 30–60 per step). A
// guess only — a neighbour that should stay open gets λ < 0 and opens again, a row is guessed once
// per solve (so the corrections cannot cycle on guesses), and the final set is checked as before;
// returns the rows closed
static int predict_close_neighbours(const mbs_workspace *ws, const int *sidx, int s) {
  struct mbs_qcp *q = ws->qcp;
  const mdl_rows *r = ws->rows;
  const int i = ws->act[sidx[s]];
  int closed = 0;
  for (int k = r->start[i]; k < r->start[i + 1]; k++) {
    const int j = r->col[k];
    for (int t = q->Tp[j]; t < q->Tp[j + 1]; t++) {
      const int u = q->Ti[t], role = q->role[u];
      if ((role != ROLE_UNI && role != ROLE_NORMAL) || !q->open[u] || q->guessed[u]) continue;
      q->open[u] = 0, q->guessed[u] |= 1, q->changed[q->nchanged++] = u, closed++;
    }
  }
  return closed;
}

// every dropped condition at the linear solution x (λ_S, w): closed rows λ_u ≥ 0 and λ in its
// cone; open rows ρ = λ/D + G w − ĉ0 in the dual cone (relaxed ρ_n ≥ μ‖ρ_t‖, coulomb ρ_n ≥ 0).
// A violated sign flips the row (closed with λ < 0 opens, open with ρ < 0 closes: one step of a
// primal–dual active-set method); returns the number of flips, or −1 if a contact slides
static int predict_update(const mbs_workspace *ws, int ns, const int *sidx, const double *chat0) {
  struct mbs_qcp *q = ws->qcp;
  const mdl_rows *r = ws->rows;
  const double *x = q->ksol, *w = q->ksol + ns;
  const double eps = ws->settings.qcp_eps > 0 ? ws->settings.qcp_eps : 1e-8;
  double lmax = 0, cmax = 0;
  for (int s = 0; s < ns; s++) lmax = max_of(lmax, fabs(x[s])), cmax = max_of(cmax, fabs(chat0[s]));
  const double tl = eps * (1 + lmax), tr = eps * (1 + cmax);
  const int coulomb = ws->settings.formulation == MBS_COULOMB;
  int flips = 0;
  q->nchanged = 0;
  for (int s = 0; s < ns; s++) {
    const int role = q->role[s];
    if (role != ROLE_UNI && role != ROLE_NORMAL) continue;
    const double mu = role == ROLE_NORMAL ? r->mu[ws->act[sidx[s]]] : 0;
    double v[3] = {0, 0, 0};  // λ (closed) or ρ (open) of the row and its tangents
    // (coulomb's open rows test ρ_n alone: their tangents' ρ is not formed)
    const int tangents = role == ROLE_NORMAL && !(coulomb && q->open[s]);
    const int rows[3] = {s, tangents ? q->tan1[s] : -1,
                         tangents && q->ntan[s] > 1 ? q->tan2[s] : -1};
    for (int k = 0; k < 3; k++) {
      int t = rows[k];
      if (t < 0) continue;
      v[k] = q->open[s] ? mdl_eval_row_dot(r, ws->act[sidx[t]], w) - chat0[t] : x[t];
    }
    const double vt = sqrt(v[1] * v[1] + v[2] * v[2]);
    if (!q->open[s] && v[0] < -tl) {
      q->open[s] = 1, q->guessed[s] |= 2, flips++, q->changed[q->nchanged++] = s;
    } else if (!q->open[s] && vt > mu * v[0] + tl) {
      return -1;
    } else if (q->open[s] && v[0] < (coulomb ? 0 : mu * vt) - tr) {
      q->open[s] = 0, flips++, q->changed[q->nchanged++] = s;
    }
  }
  // guesses over two hops: the neighbours' neighbours close too (measured 3–5 % less CPU on the
  // dropped column of 1000 than one hop; three no better). Bit 2 of guessed: opened by this
  // correction, not closed again by a neighbour in it (so each row enters changed once)
  for (int hop = 0, from = 0; hop < 2; hop++) {
    const int to = q->nchanged;
    for (int c = from; c < to; c++)
      if (!q->open[q->changed[c]]) flips += predict_close_neighbours(ws, sidx, q->changed[c]);
    from = to;
  }
  for (int c = 0; c < q->nchanged; c++) q->guessed[q->changed[c]] &= 1;
  for (int s = 0; flips && s < ns; s++)
    if (q->role[s] == ROLE_TANGENT && q->open[s] != q->open[q->tn[s]])
      q->open[s] = q->open[q->tn[s]], q->changed[q->nchanged++] = s;
  return flips;
}

int mbs_predict_solve(mbs_workspace *ws, int ns, const int *sidx, const double *chat0,
                      double *lam_s, double *w) {
  struct mbs_qcp *q = ws->qcp;
  if (!q->kn || predict_classify(ws, ns, sidx)) return 0;
  // active-set corrections (rows joining or leaving); a set that does not settle in
  // PREDICT_MAX_SOLVES linear solves goes to the interior point. A correction refactors the λ
  // rows from the first flipped one on and solves once: on a landing column of 1000 about 1/100
  // of the interior point's solve with its exact-Coulomb polish (measured: 0.35 vs ~75 ms per
  // step, loaded machine), where up to 73 corrections settle the set; beyond 100 the interior
  // point is cheaper
  enum { PREDICT_MAX_SOLVES = 100 };
  memset(q->guessed, 0, sizeof(int) * (size_t)ns);
  // the corrections work on the regularised solution (its O(δ) error, ~1e-10 relative, moves no
  // sign that matters); the set they settle on is refined against K0 and checked again
  int flips = 1, solves = 0;
  for (;;) {
    if (flips) {
      if (++solves > PREDICT_MAX_SOLVES) return 0;
      if (!(solves == 1 && ws->rows_kept && predict_kept(q)) &&
          predict_factor_solve(q, solves == 1))
        return q->kn = 0, 0;  // K's pattern no longer holds the values: no prediction with it
    } else {
      int moved;
      if (!(predict_refine(q, &moved) <= 1e-10)) return 0;
      if (!moved) break;  // the point just checked stands: no second check
    }
    const int refined = !flips;
    if ((flips = predict_update(ws, ns, sidx, chat0)) < 0) return 0;
    if (!flips && refined) break;
  }
  memcpy(q->wx, q->ksol, sizeof(double) * (size_t)q->nn);
  memcpy(q->wy, q->ksol + q->nn, sizeof(double) * (size_t)q->np);
  for (int s = 0; s < ns; s++) q->wx[s] = q->open[s] ? 0 : q->wx[s];
  for (int s = 0; s < ns; s++) lam_s[s] = q->open[s] ? 0 : q->ksol[s];
  for (int j = 0; j < ws->nv; j++) w[j] = q->ksol[ns + j];
  return 1;
}

void mbs_predict_release(struct mbs_qcp *q) {
  q->qd = NULL, q->kn = 0;
  q->Kp = q->Ki = q->pmap = q->amap = q->kdiag = q->open = q->changed = q->guessed = NULL;
  q->open_f = NULL, q->kbuild = -1;
  q->Kx = q->Kx0 = q->krhs = q->ksol = q->kres = NULL;
}

#endif  // MBS_HAVE_QCP
