// SPDX-License-Identifier: MIT
// The active-set prediction of the conic step (mbs_qcp.c).
// At rest, or sliding steadily, a step keeps the last step's active set. With the set known the
// relaxed problem is an equality-constrained QP: open rows are fixed at λ = 0, closed rows are
// free (sticking: λ inside its cone, so the cone constraint is inactive), and the optimum solves
// one linear KKT system [P Aᵀ; A 0] (x; y) = (−c; b). If every dropped condition then holds —
// closed: λ_u ≥ 0, ‖λ_t‖ ≤ μλ_n; open: the dual ρ = r̂ in F* (relaxed ρ_n ≥ μ‖ρ_t‖; coulomb
// ρ_n ≥ 0, whose shift is μ‖ρ_t‖), to qcp's tolerance — the point satisfies the conic problem's
// KKT conditions, and being strictly convex the problem has no other optimum: the step takes it
// without an interior-point solve. Otherwise (a contact opens or closes) the interior-point solve
// runs as before.
// A sliding contact (relaxed formulation) has λ on its cone's boundary and ρ on the dual cone's,
// orthogonal: λ = λ_n (1, μt̂), ρ = σ (μ, −t̂), σ ≥ 0. With the slide direction t̂ fixed that is
// linear: one unknown λ_n along the generator g = (1, μt̂) and one equation gᵀρ = 0 (the contact's
// λ columns combined into one, K's pattern kept: slide_column). The prediction takes t̂ from the
// last step and corrects it by Newton steps on the direction (slide_update: an across force with
// the linearised turn's stiffness, one refactor of the contact's rows per round) until ρ_t ∥ −t̂
// to tolerance. The exact-Coulomb formulation's sliding contacts are not predicted (their
// condition is De Saxcé's shifted one).
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

// the λ columns of contact s's rows (its normal row s first); their count
static int contact_members(const struct mbs_qcp *q, int s, int m[3]) {
  m[0] = s, m[1] = q->tan1[s], m[2] = q->ntan[s] > 1 ? q->tan2[s] : -1;
  return q->ntan[s] > 1 ? 3 : 2;
}

// 1 if every A entry of column `from` has one of column `into` in its row, that entry's index
// stored in map[k] for each entry k of `from` (columns short: a contact row's ≤ 12 entries)
static int column_held(const struct mbs_qcp *q, int from, int into, int *map) {
  for (int k = q->Ap[from]; k < q->Ap[from + 1]; k++) {
    map[k] = -1;
    for (int ki = q->Ap[into]; ki < q->Ap[into + 1] && map[k] < 0; ki++)
      if (q->Ai[ki] == q->Ai[k]) map[k] = ki;
    if (map[k] < 0) return 0;
  }
  return 1;
}

// per contact the columns of a sliding contact's two unknowns (slide_column): the carrier of λ_n
// — the member column with the most A entries, if it holds every other member's (a sphere
// contact's three rows share one pattern; a rolling cone's load row has none) — and, with two
// tangents, the other tangent-holding member for the across force b (bslot); slide_map and bmap
// say where each member's A entries land in them. A contact without both is never predicted
// sliding (carrier −1). 0, or −1 out of memory
static int slide_setup(struct mbs_qcp *q) {
  const size_t n = (size_t)q->nn, nA = (size_t)q->nA;
  q->slide = pattern_alloc(q, sizeof(int), n), q->slide_f = pattern_alloc(q, sizeof(int), n);
  q->carrier = pattern_alloc(q, sizeof(int), n), q->bslot = pattern_alloc(q, sizeof(int), n);
  q->slide_map = pattern_alloc(q, sizeof(int), nA), q->bmap = pattern_alloc(q, sizeof(int), nA);
  q->tdir = pattern_alloc(q, sizeof(double), 4 * n);
  if (!(q->slide && q->slide_f && q->carrier && q->bslot && q->slide_map && q->bmap && q->tdir))
    return -1;
  for (int s = 0; s < q->nlam; s++) {
    q->carrier[s] = q->bslot[s] = -1;
    if (q->role[s] != ROLE_NORMAL) continue;
    int m[3], c = s, b = -1;
    const int nm = contact_members(q, s, m);
    for (int a = 1; a < nm; a++)
      if (q->Ap[m[a] + 1] - q->Ap[m[a]] > q->Ap[c + 1] - q->Ap[c]) c = m[a];
    int held = 1;
    for (int a = 0; a < nm && held; a++) held = m[a] == c || column_held(q, m[a], c, q->slide_map);
    for (int a = 1; nm == 3 && held && b < 0 && a < 3; a++) {
      const int other = m[3 - a];  // the other tangent
      if (m[a] != c && column_held(q, other, m[a], q->bmap)) b = m[a];
    }
    if (held && (nm == 2 || b >= 0)) q->carrier[s] = c, q->bslot[s] = b;
  }
  return 0;
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
           sign && rowcnt && slide_setup(q) == 0;
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

// sliding contacts are predicted: the relaxed formulation, outside a back-off after a failure
static int slides_predicted(const mbs_workspace *ws) {
  return ws->settings.formulation == MBS_RELAXED && ws->qcp->slide_skip == 0;
}

// the normal row of compact row s's contact (−1: not a contact row)
static int contact_of(const struct mbs_qcp *q, int s) {
  return q->role[s] == ROLE_NORMAL ? s : q->role[s] == ROLE_TANGENT ? q->tn[s] : -1;
}

// λ column j's compliance C_jj, P's entry on it (P holds only its diagonal in the λ columns)
static double lambda_compliance(const struct mbs_qcp *q, int j) {
  return q->Pp[j + 1] > q->Pp[j] ? q->Px[q->Pp[j]] : 0;
}

// the two generators of sliding contact s by member (contact_members' order): λ_n's, g = (1, μt̂),
// and the across force's, u = (0, t̂⊥), t̂⊥ = (−t̂_2, t̂_1)
static void slide_generators(const struct mbs_qcp *q, int s, double g[3], double u[3]) {
  const double *t = q->tdir + 4 * s;
  g[0] = 1, g[1] = t[2] * t[0], g[2] = t[2] * t[1];
  u[0] = 0, u[1] = -t[1], u[2] = t[0];
}

// 1 if sliding contact s's across force b is a variable (Newton's correction of t̂), 0 if held
// at 0 (k = ∞; slide_update makes it a variable only for tangents of equal compliance, C_t1 =
// C_t2: the two unknowns' columns are then uncoupled in P, as K's pattern has them)
static int slide_across(const struct mbs_qcp *q, int s) {
  return q->bslot[s] >= 0 && isfinite(q->tdir[4 * s + 3]);
}

// λ of compact row s at the linear solution q->ksol: 0 if open; a sliding contact's member
// a g + b u from its carrier's a and its across slot's b
static double predict_lambda(const struct mbs_qcp *q, int s) {
  if (q->open[s]) return 0;
  const int n = contact_of(q, s);
  if (n < 0 || !q->slide[n]) return q->ksol[s];
  int m[3];
  double g[3], u[3];
  const int nm = contact_members(q, n, m);
  slide_generators(q, n, g, u);
  const double a = q->ksol[q->carrier[n]], b = slide_across(q, n) ? q->ksol[q->bslot[n]] : 0;
  for (int k = 0; k < nm; k++)
    if (m[k] == s) return g[k] * a + u[k] * b;
  return 0;
}

// one unknown's column of sliding contact s in member column `slot`: its λ = v x (v a generator,
// by member), so the diagonal vᵀCv + extra, A column Σ v_m A_m (in slot's pattern: map), rhs
// vᵀĉ0; Kx0 and K_δ's Kx both
static void slide_unknown(struct mbs_qcp *q, const int m[3], int nm, const double *v, int slot,
                          const int *map, double extra) {
  double diag = extra, rhs = 0;
  for (int k = q->Ap[slot]; k < q->Ap[slot + 1]; k++) q->Kx0[q->amap[k]] = 0;
  for (int a = 0; a < nm; a++) {
    const int j = m[a];
    if (v[a] == 0) continue;
    const double C = lambda_compliance(q, j);
    diag += v[a] * v[a] * C, rhs -= v[a] * q->c[j];
    for (int k = q->Ap[j]; k < q->Ap[j + 1]; k++)
      q->Kx0[q->amap[j == slot ? k : map[k]]] += v[a] * q->Ax[k];
  }
  for (int k = q->Ap[slot]; k < q->Ap[slot + 1]; k++) q->Kx[q->amap[k]] = q->Kx0[q->amap[k]];
  q->Kx0[q->kdiag[slot]] = diag;
  q->Kx[q->kdiag[slot]] = diag == 0 ? q->kdelta : diag;
  q->krhs[slot] = rhs;
}

// K0's (and K_δ's) columns and rhs of sliding contact s (λ = a g + b u): a in the carrier's
// column, b in bslot's with the across stiffness k on its diagonal (the linearised turn of t̂:
// Newton on the direction, ρ_t·t̂⊥ = −k b, k = σ/(μ a)) unless it is held at 0, the other
// members fixed at 0 as open rows are
static void slide_column(struct mbs_qcp *q, int s) {
  int m[3];
  double g[3], u[3];
  const int nm = contact_members(q, s, m), c = q->carrier[s];
  const int b = slide_across(q, s) ? q->bslot[s] : -1;
  slide_generators(q, s, g, u);
  for (int a = 0; a < nm; a++) {
    const int j = m[a];
    if (j == c || j == b) continue;
    for (int k = q->Ap[j]; k < q->Ap[j + 1]; k++) q->Kx[q->amap[k]] = q->Kx0[q->amap[k]] = 0;
    q->Kx0[q->kdiag[j]] = q->Kx[q->kdiag[j]] = 1;
    q->krhs[j] = 0;
  }
  slide_unknown(q, m, nm, g, c, q->slide_map, 0);
  if (b >= 0) slide_unknown(q, m, nm, u, b, q->bmap, q->tdir[4 * s + 3]);
}

// contact s starts sliding along the direction of (x, y) (its tangents' components), its
// direction held (k = ∞) until a solve says it turns
static void slide_start(struct mbs_qcp *q, int s, double x, double y, double mu) {
  const double l = sqrt(x * x + y * y);
  double *t = q->tdir + 4 * s;
  q->slide[s] = 1, q->slid = 1;
  t[0] = l > 0 ? x / l : 1, t[1] = l > 0 ? y / l : 0, t[2] = mu, t[3] = INFINITY;
}

// the last solve's active set, by model row (rows new to this solve are predicted closed: a row
// joins because it penetrates): open[s] = 1 for rows fixed at λ = 0, slide[s] = 1 for contacts
// on their cone's boundary (relaxed); −1 if a contact slides that cannot be predicted
static int predict_classify(const mbs_workspace *ws, int ns, const int *sidx) {
  struct mbs_qcp *q = ws->qcp;
  const int slides = slides_predicted(ws);
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
    q->slide[s] = 0;
    if (role != ROLE_NORMAL || q->open[s] || !known) continue;
    double lt[2] = {0, 0};
    for (int k = 0; k < q->ntan[s]; k++) {
      const int t = ws->act[sidx[k ? q->tan2[s] : q->tan1[s]]];
      if (q->row_stamp[t] == q->stamp) lt[k] = q->lam_row[t];
    }
    const double mu = ws->rows->mu[i];
    if (!(hypot(lt[0], lt[1]) > (1 - 1e-6) * mu * l)) continue;
    if (!slides || q->carrier[s] < 0) return -1;  // sliding: the cone is active
    slide_start(q, s, lt[0], lt[1], mu);
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

// K's right side for the predicted set: open rows 0; sliding contacts gᵀĉ0 on their carrier,
// written with their columns (slide_column)
static void predict_rhs(struct mbs_qcp *q) {
  const int n = q->nn;
  for (int j = 0; j < n; j++) q->krhs[j] = q->open[j] ? 0 : -q->c[j];
  for (int i = 0; i < q->np; i++) q->krhs[n + i] = q->b[i];
  for (int s = 0; s < q->nlam; s++)
    if (q->slide[s]) slide_column(q, s);
}

// K's values for the predicted set: open rows' λ columns become the identity (λ = 0), sliding
// contacts' combined (slide_column, with the rhs); −1 if an entry left out of K's pattern is no
// longer zero (mass_zero)
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
  predict_rhs(q);
  return 0;
}

// K0's column s and the rhs after row s opened, closed, started or stopped sliding (as
// predict_values would set them), and the regularised copy Kx beside it
static void predict_column(struct mbs_qcp *q, int s) {
  const int contact = contact_of(q, s);
  if (contact >= 0 && q->slide[contact]) {
    slide_column(q, contact);
    return;
  }
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
  // the open and slide flags of the factored matrix (predict_kept's reference)
  memcpy(q->open_f, q->open, sizeof(int) * (size_t)q->nlam);
  memcpy(q->slide_f, q->slide, sizeof(int) * (size_t)q->nlam);
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
  const int ns = q->nlam;
  if (q->kbuild != q->build_id) return 0;
  double dmax = q->kdmax_w;
  for (int j = 0; j < ns; j++) dmax = max_of(dmax, fabs(q->open[j] ? 1 : q->Px[q->Pp[j]]));
  if ((dmax > 0 ? dmax : 1) != q->kscale) return 0;
  q->nchanged = 0;
  for (int s = 0; s < ns; s++) {
    const double d = q->open[s] ? 1 : q->Px[q->Pp[s]];
    const int contact = contact_of(q, s);
    const int sliding = contact >= 0 && (q->slide[contact] || q->slide_f[contact]);
    if (sliding || q->open[s] != q->open_f[s] || q->Kx0[q->kdiag[s]] != d)
      q->changed[q->nchanged++] = s;
  }
  for (int c = 0; c < q->nchanged; c++) predict_column(q, q->changed[c]);
  predict_rhs(q);
  qcp_qd_refactor(q->qd, q->Kx, q->nchanged, q->changed, q->keps, q->kdyn);
  memcpy(q->open_f, q->open, sizeof(int) * (size_t)ns);
  memcpy(q->slide_f, q->slide, sizeof(int) * (size_t)ns);
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

// guessed[] bits of a row within one prediction: closed as a neighbour (GUESS_CLOSED), opened by
// this correction (GUESS_OPENED), its contact's slide changed by this correction (GUESS_SLIDE),
// its contact left sliding (GUESS_UNSLID: it may not slide again in this prediction, no cycles);
// from bit GUESS_ROUND on, the contact's direction corrections
enum { GUESS_CLOSED = 1, GUESS_OPENED = 2, GUESS_SLIDE = 4, GUESS_UNSLID = 8, GUESS_ROUND = 16 };

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
      q->open[u] = 0, q->guessed[u] |= GUESS_CLOSED, q->changed[q->nchanged++] = u, closed++;
    }
  }
  return closed;
}

// most corrections of one contact's slide direction in a prediction (then the interior point)
enum { SLIDE_MAX_ROUNDS = 6 };

// contact s's rows enter the changed list (their columns are rewritten), marked with bits
static void contact_changed(struct mbs_qcp *q, int s, int bits) {
  int m[3];
  const int nm = contact_members(q, s, m);
  for (int a = 0; a < nm; a++) q->guessed[m[a]] |= bits, q->changed[q->nchanged++] = m[a];
}

// the conditions of sliding contact s (λ = a g + b u) at the linear solution: a > 0 (else it
// opens) and ρ = σ(μ, −t̂) with σ ≥ 0 (else it sticks: ρ_t turned back along t̂), i.e. ρ_t's part
// across t̂ and the across force b within tolerance. Otherwise a Newton step on the direction:
// t̂ turns to λ_t's (a μ t̂ + b t̂⊥) and b becomes a variable with the across stiffness
// k = σ/(μ a) — the linearised turn (ρ_t = −σ t̂(θ): δρ_t·t̂⊥ = −σ δθ, δλ_t·t̂⊥ = μ a δθ = b) —
// so the direction converges quadratically (a fixed point t̂ ← −ρ_t/‖ρ_t‖ diverges where the
// slip σ is small beside the contact's coupling: a rolling cone at its cap). The tolerance on ρ
// is eps relative to the contact's own tangential targets ĉ0_t (the step's largest |ĉ0|, from a
// stiff normal or a rolling cone's load row, can be 1e6 times larger, and a slip that small
// decides stick or slide). Returns 1 if the contact changed, 0 if its conditions hold, −1 if
// it cannot be settled (SLIDE_MAX_ROUNDS, or tangents of unequal compliance)
static int slide_update(const mbs_workspace *ws, int s, const int *sidx, const double *chat0,
                        double tl, double eps) {
  struct mbs_qcp *q = ws->qcp;
  int m[3];
  const int nm = contact_members(q, s, m), c = q->carrier[s];
  const double a = q->ksol[c], *w = q->ksol + q->nlam;
  double *t = q->tdir + 4 * s;
  if (!(a > tl)) {
    q->slide[s] = 0;
    for (int k = 0; k < nm; k++) q->open[m[k]] = 1;
    contact_changed(q, s, GUESS_OPENED | GUESS_SLIDE | GUESS_UNSLID);
    return 1;
  }
  double rho[3] = {0, 0, 0}, C[3] = {0, 0, 0}, cmax = 0;
  for (int k = 0; k < nm; k++) {
    const int j = m[k];
    C[k] = lambda_compliance(q, j);
    rho[k] =
        C[k] * predict_lambda(q, j) + mdl_eval_row_dot(ws->rows, ws->act[sidx[j]], w) - chat0[j];
    if (k > 0) cmax = max_of(cmax, fabs(chat0[j]));
  }
  const double tr = eps * (1 + cmax);
  const double sigma = -(t[0] * rho[1] + t[1] * rho[2]);
  const double across = fabs(t[0] * rho[2] - t[1] * rho[1]);
  const double b = slide_across(q, s) ? q->ksol[q->bslot[s]] : 0;
  if (sigma < -tr && across <= -sigma) {
    q->slide[s] = 0;
    contact_changed(q, s, GUESS_SLIDE | GUESS_UNSLID);
    return 1;
  }
  if (!(sigma < -tr) && !(across > tr) && !(fabs(b) > tl)) return 0;
  if (q->guessed[s] >= GUESS_ROUND * SLIDE_MAX_ROUNDS || q->bslot[s] < 0 || C[1] != C[2]) return -1;
  const double mu = t[2], x = mu * a * t[0] - b * t[1], y = mu * a * t[1] + b * t[0];
  slide_start(q, s, x, y, mu);
  t[3] = fmax(sigma, 0) / (mu * a);
  contact_changed(q, s, GUESS_SLIDE);
  q->guessed[s] += GUESS_ROUND;
  return 1;
}

// every dropped condition at the linear solution x (λ_S, w): closed rows λ_u ≥ 0 and λ in its
// cone; open rows ρ = λ/D + G w − ĉ0 in the dual cone (relaxed ρ_n ≥ μ‖ρ_t‖, coulomb ρ_n ≥ 0);
// sliding contacts slide_update's. A violated sign flips the row (closed with λ < 0 opens, open
// with ρ < 0 closes: one step of a primal–dual active-set method; relaxed, a closed contact whose
// λ leaves its cone slides along λ_t); returns the number of flips, or −1 if a contact slides
// that cannot be predicted
static int predict_update(const mbs_workspace *ws, int ns, const int *sidx, const double *chat0) {
  struct mbs_qcp *q = ws->qcp;
  const mdl_rows *r = ws->rows;
  const double *x = q->ksol, *w = q->ksol + ns;
  const double eps = ws->settings.qcp_eps > 0 ? ws->settings.qcp_eps : 1e-8;
  double lmax = 0, cmax = 0;
  for (int s = 0; s < ns; s++)
    lmax = max_of(lmax, fabs(predict_lambda(q, s))), cmax = max_of(cmax, fabs(chat0[s]));
  const double tl = eps * (1 + lmax), tr = eps * (1 + cmax);
  const int coulomb = ws->settings.formulation == MBS_COULOMB;
  const int slides = slides_predicted(ws);
  int flips = 0;
  q->nchanged = 0;
  for (int s = 0; s < ns; s++) {
    const int role = q->role[s];
    if (role != ROLE_UNI && role != ROLE_NORMAL) continue;
    if (role == ROLE_NORMAL && q->slide[s]) {
      const int changed = slide_update(ws, s, sidx, chat0, tl, eps);
      if (changed < 0) return -1;
      flips += changed;
      continue;
    }
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
      q->open[s] = 1, q->guessed[s] |= GUESS_OPENED, flips++, q->changed[q->nchanged++] = s;
    } else if (!q->open[s] && vt > mu * v[0] + tl) {
      if (!slides || q->carrier[s] < 0 || (q->guessed[s] & GUESS_UNSLID)) return -1;
      slide_start(q, s, v[1], v[2], mu);
      contact_changed(q, s, GUESS_SLIDE), flips++;
    } else if (q->open[s] && v[0] < (coulomb ? 0 : mu * vt) - tr) {
      q->open[s] = 0, flips++, q->changed[q->nchanged++] = s;
    }
  }
  // guesses over two hops: the neighbours' neighbours close too (measured 3–5 % less CPU on the
  // dropped column of 1000 than one hop; three no better); from rows that closed, not from a
  // contact's change of slide. A row opened by this correction is not closed again by a
  // neighbour in it (so each row enters changed once)
  for (int hop = 0, from = 0; hop < 2; hop++) {
    const int to = q->nchanged;
    for (int c = from; c < to; c++) {
      const int u = q->changed[c];
      if (!q->open[u] && !(q->guessed[u] & GUESS_SLIDE))
        flips += predict_close_neighbours(ws, sidx, u);
    }
    from = to;
  }
  for (int c = 0; c < q->nchanged; c++) q->guessed[q->changed[c]] &= ~(GUESS_OPENED | GUESS_SLIDE);
  for (int s = 0; flips && s < ns; s++)
    if (q->role[s] == ROLE_TANGENT && q->open[s] != q->open[q->tn[s]])
      q->open[s] = q->open[q->tn[s]], q->changed[q->nchanged++] = s;
  return flips;
}

// the active-set corrections from the classified set: 1 when a set settles whose solution meets
// every condition, 0 when none does (or K's pattern no longer holds the values)
static int predict_settle(mbs_workspace *ws, int ns, const int *sidx, const double *chat0) {
  struct mbs_qcp *q = ws->qcp;
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
  return 1;
}

int mbs_predict_solve(mbs_workspace *ws, int ns, const int *sidx, const double *chat0,
                      double *lam_s, double *w) {
  struct mbs_qcp *q = ws->qcp;
  if (q->slide_skip > 0) q->slide_skip--;
  q->slid = 0;
  if (!q->kn || predict_classify(ws, ns, sidx)) return 0;
  const int ok = predict_settle(ws, ns, sidx, chat0);
  if (q->slid && !ok) {
    enum { SLIDE_SKIP_MAX = 32 };
    q->slide_fails++;
    q->slide_skip = q->slide_fails < 6 ? 1 << (q->slide_fails - 1) : SLIDE_SKIP_MAX;
  } else if (q->slid) {
    q->slide_fails = 0;
  }
  if (!ok) return 0;
  memcpy(q->wx, q->ksol, sizeof(double) * (size_t)q->nn);
  memcpy(q->wy, q->ksol + q->nn, sizeof(double) * (size_t)q->np);
  for (int s = 0; s < ns; s++) lam_s[s] = q->wx[s] = predict_lambda(q, s);
  for (int j = 0; j < ws->nv; j++) w[j] = q->ksol[ns + j];
  int sliding = 0;
  for (int s = 0; s < ns && !sliding; s++) sliding = q->role[s] == ROLE_NORMAL && q->slide[s];
  return 1 + sliding;
}

void mbs_predict_release(struct mbs_qcp *q) {
  q->qd = NULL, q->kn = 0;
  q->Kp = q->Ki = q->pmap = q->amap = q->kdiag = q->open = q->changed = q->guessed = NULL;
  q->open_f = q->slide = q->slide_f = q->carrier = q->slide_map = q->bslot = q->bmap = NULL;
  q->tdir = NULL, q->kbuild = -1;
  q->Kx = q->Kx0 = q->krhs = q->ksol = q->kres = NULL;
}

#endif  // MBS_HAVE_QCP
