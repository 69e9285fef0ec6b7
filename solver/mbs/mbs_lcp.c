// SPDX-License-Identifier: MIT
// Exact dense solvers for the unilateral rows of paper A's step (SPEC §1.3).
//
// Both work on the scaled row system of mbs_step.c: with A = C + W (C = diag(1/D_i),
// W = G M⁻¹ Gᵀ) and b = ĉ, the scaled residual of row i is r̂_i = (Aλ − b)_i = r_i / D_i.
//
// relaxed: the KKT conditions of min ½λᵀAλ − bᵀλ over λ_U ≥ 0, λ_B free, are the mixed LCP
//   r̂_B = 0,   0 ≤ λ_U ⊥ r̂_U ≥ 0.
// A is SPD, hence a P-matrix, and Murty's least-index principal pivoting method terminates: keep
// a set F ⊇ B, solve A_FF λ_F = b_F with λ = 0 off F, and flip the lowest-index row that violates
// λ_i ≥ 0 (in F) or r̂_i ≥ 0 (out of F).
//
// paper (eqs. 83–85): min ½‖λ_U‖² s.t. r̂_B = 0, r̂_U ≥ 0, λ_U ≥ 0. (The paper writes the rows as
// (I + D W)λ ≥ c; dividing row i by D_i > 0 gives the same set.) Eliminating λ_B through the
// equalities, λ_B = A_BB⁻¹(b_B − A_BU λ_U), leaves min ½‖x‖² s.t. S x ≥ e, x ≥ 0 with the Schur
// complement S = A_UU − A_UB A_BB⁻¹ A_BU and e = b_U − A_UB A_BB⁻¹ b_B. The relaxed solution is
// feasible and a vertex (for each row either λ_i = 0 or r̂_i = 0 is active, and those constraint
// normals are independent since S_FF is nonsingular), so a primal active-set method starts there:
// project the gradient x onto the working set's null space, step to the first blocking
// constraint, drop the constraint with the most negative multiplier at a stationary point.
#include "mbs_lcp.h"

#include <math.h>
#include <stdlib.h>

#include "mdl/mdl_dense.h"

int mbs_lcp_ws_init(mbs_lcp_ws *w, int cap) {
  size_t c = (size_t)(cap > 0 ? cap : 1), c2 = c * c;
  w->cap = cap;
  w->F = malloc(c2 * sizeof(double));
  w->S = malloc(c2 * sizeof(double));
  w->Z = malloc(c2 * sizeof(double));
  w->GW = malloc(c2 * sizeof(double));
  w->AW = malloc(c2 * sizeof(double));
  w->x = malloc(c * sizeof(double));
  w->r = malloc(c * sizeof(double));
  w->rhs = malloc(c * sizeof(double));
  w->e = malloc(c * sizeof(double));
  w->z = malloc(c * sizeof(double));
  w->mu = malloc(c * sizeof(double));
  w->p = malloc(c * sizeof(double));
  w->set = malloc(c * sizeof(int));
  w->idx = malloc(c * sizeof(int));
  w->bidx = malloc(c * sizeof(int));
  w->uidx = malloc(c * sizeof(int));
  w->work = malloc(c * sizeof(int));
  if (!w->F || !w->S || !w->Z || !w->GW || !w->AW || !w->x || !w->r || !w->rhs || !w->e || !w->z ||
      !w->mu || !w->p || !w->set || !w->idx || !w->bidx || !w->uidx || !w->work)
    return -1;
  return 0;
}

void mbs_lcp_ws_free(mbs_lcp_ws *w) {
  free(w->F), free(w->S), free(w->Z), free(w->GW), free(w->AW);
  free(w->x), free(w->r), free(w->rhs), free(w->e), free(w->z), free(w->mu), free(w->p);
  free(w->set), free(w->idx), free(w->bidx), free(w->uidx), free(w->work);
}

static double vec_maxabs(const double *x, int n) {
  double m = 0;
  for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
  return m;
}

// λ = 0 off the set, A_FF λ_F = b_F on it; 0 or −1 (singular)
static int solve_on_set(mbs_lcp_ws *w, const double *A, int lda, const double *b, int n,
                        double *lambda) {
  int m = 0;
  for (int i = 0; i < n; i++)
    if (w->set[i]) w->idx[m++] = i;
  for (int a = 0; a < m; a++) {
    for (int c = 0; c <= a; c++) w->F[a * w->cap + c] = A[w->idx[a] * lda + w->idx[c]];
    w->rhs[a] = b[w->idx[a]];
  }
  if (mdl_chol_factor(w->F, m, w->cap)) return -1;
  mdl_chol_solve(w->F, m, w->cap, w->rhs);
  for (int i = 0; i < n; i++) lambda[i] = 0;
  for (int a = 0; a < m; a++) lambda[w->idx[a]] = w->rhs[a];
  return 0;
}

int mbs_lcp_relaxed(mbs_lcp_ws *w, const double *A, int lda, const double *b, const int *free_row,
                    int n, int max_iter, double tol, double *lambda, int *iters) {
  // start: free rows and the rows that would push on their own (b_i > 0)
  for (int i = 0; i < n; i++) w->set[i] = free_row[i] || b[i] > 0;
  double bscale = vec_maxabs(b, n);
  for (int it = 0;; it++) {
    if (solve_on_set(w, A, lda, b, n, lambda)) return *iters += it, MBS_LCP_SINGULAR;
    for (int i = 0; i < n; i++) {
      double s = -b[i];
      for (int j = 0; j < n; j++) s += A[i * lda + j] * lambda[j];
      w->r[i] = s;
    }
    double lscale = vec_maxabs(lambda, n);
    double ltol = tol * (lscale > 0 ? lscale : 1), rtol = tol * (bscale > 0 ? bscale : 1);
    int flip = -1;
    for (int i = 0; i < n && flip < 0; i++) {
      if (free_row[i]) continue;
      if ((w->set[i] && lambda[i] < -ltol) || (!w->set[i] && w->r[i] < -rtol)) flip = i;
    }
    if (flip < 0) {
      for (int i = 0; i < n; i++)
        if (!free_row[i] && lambda[i] < 0) lambda[i] = 0;  // within tolerance
      *iters += it;
      return MBS_LCP_OK;
    }
    if (it >= max_iter) return *iters += it, MBS_LCP_MAX_ITER;
    w->set[flip] = !w->set[flip];
  }
}

// constraint j of the reduced paper QP: j < nu is row j of S (rhs e_j), else the bound x_{j−nu} ≥ 0
static double con_dot(const mbs_lcp_ws *w, int nu, int j, const double *x) {
  if (j >= nu) return x[j - nu];
  double s = 0;
  for (int k = 0; k < nu; k++) s += w->S[j * w->cap + k] * x[k];
  return s;
}
static double con_rhs(const mbs_lcp_ws *w, int nu, int j) { return j < nu ? w->e[j] : 0.0; }
static void con_row(const mbs_lcp_ws *w, int nu, int j, double *row) {
  for (int k = 0; k < nu; k++) row[k] = j < nu ? w->S[j * w->cap + k] : (k == j - nu);
}

// builds S, e (and Z = A_BB⁻¹ A_BU, z = A_BB⁻¹ b_B in w) from A, b; 0 or −1 (singular A_BB)
static int paper_reduce(mbs_lcp_ws *w, const double *A, int lda, const double *b, int nb, int nu) {
  const int cap = w->cap;
  for (int a = 0; a < nb; a++)
    for (int c = 0; c <= a; c++) w->F[a * cap + c] = A[w->bidx[a] * lda + w->bidx[c]];
  if (nb > 0 && mdl_chol_factor(w->F, nb, cap)) return -1;
  // z = A_BB⁻¹ b_B; column u of Z = A_BB⁻¹ A_BU[:, u]
  for (int a = 0; a < nb; a++) w->z[a] = b[w->bidx[a]];
  if (nb > 0) mdl_chol_solve(w->F, nb, cap, w->z);
  for (int u = 0; u < nu; u++) {
    for (int a = 0; a < nb; a++) w->rhs[a] = A[w->bidx[a] * lda + w->uidx[u]];
    if (nb > 0) mdl_chol_solve(w->F, nb, cap, w->rhs);
    for (int a = 0; a < nb; a++) w->Z[a * cap + u] = w->rhs[a];
  }
  for (int i = 0; i < nu; i++) {
    double ei = b[w->uidx[i]];
    for (int a = 0; a < nb; a++) ei -= A[w->uidx[i] * lda + w->bidx[a]] * w->z[a];
    w->e[i] = ei;
    for (int j = 0; j < nu; j++) {
      double s = A[w->uidx[i] * lda + w->uidx[j]];
      for (int a = 0; a < nb; a++) s -= A[w->uidx[i] * lda + w->bidx[a]] * w->Z[a * cap + j];
      w->S[i * cap + j] = s;
    }
  }
  return 0;
}

// (about 90 lines: one algorithm, the dual active-set iteration on the reduced system, whose
// steps share its index sets and factor; split, it would pass the whole workspace around)
int mbs_lcp_paper(mbs_lcp_ws *w, const double *A, int lda, const double *b, const int *free_row,
                  int n, int max_iter, double tol, double *lambda, int *iters) {
  int st = mbs_lcp_relaxed(w, A, lda, b, free_row, n, max_iter, tol, lambda, iters);
  if (st != MBS_LCP_OK) return st;
  const int cap = w->cap;
  int nb = 0, nu = 0;
  for (int i = 0; i < n; i++) {
    if (free_row[i])
      w->bidx[nb++] = i;
    else
      w->uidx[nu++] = i;
  }
  if (nu == 0) return MBS_LCP_OK;
  if (paper_reduce(w, A, lda, b, nb, nu)) return MBS_LCP_SINGULAR;
  double *x = w->x, *p = w->p, *mu = w->mu;
  int *ws = w->work;  // working set: constraint indices in [0, 2 nu)
  int k = 0;
  double xscale = 0;
  for (int i = 0; i < nu; i++) x[i] = lambda[w->uidx[i]], xscale = fmax(xscale, fabs(x[i]));
  for (int i = 0; i < nu; i++) ws[k++] = x[i] > tol * (1 + xscale) ? i : nu + i;
  // stationary: the last step was a full one (no blocking constraint) or the working set is
  // full (a vertex). Then p is 0 in exact arithmetic, but computed through the normal equations
  // (error ∝ cond²) it is noise that can sit above the pnorm test and cycle to max_iter.
  int stationary = 0;
  for (int it = 0;; it++) {
    // μ = (A_W A_Wᵀ)⁻¹ A_W x, p = −x + A_Wᵀ μ
    for (int a = 0; a < k; a++) {
      con_row(w, nu, ws[a], w->AW + a * cap);
      mu[a] = con_dot(w, nu, ws[a], x);
    }
    double gmax = 0;
    for (int a = 0; a < k; a++)
      for (int c = 0; c <= a; c++) {
        double s = 0;
        for (int j = 0; j < nu; j++) s += w->AW[a * cap + j] * w->AW[c * cap + j];
        w->GW[a * cap + c] = s;
        if (a == c) gmax = fmax(gmax, s);
      }
    // a tiny ridge: nearly dependent working rows (redundant constraints) make A_W A_Wᵀ
    // numerically singular (cond(S)²); the projection stays accurate to ~1e-14 relative
    for (int a = 0; a < k; a++) w->GW[a * cap + a] += 1e-14 * gmax;
    if (k > 0 && mdl_chol_factor(w->GW, k, cap)) return *iters += it, MBS_LCP_SINGULAR;
    if (k > 0) mdl_chol_solve(w->GW, k, cap, mu);
    double pnorm = 0;
    xscale = vec_maxabs(x, nu);
    for (int j = 0; j < nu; j++) {
      double s = -x[j];
      for (int a = 0; a < k; a++) s += w->AW[a * cap + j] * mu[a];
      p[j] = s;
      pnorm = fmax(pnorm, fabs(s));
    }
    if (it >= max_iter) return *iters += it, MBS_LCP_MAX_ITER;
    if (stationary || k >= nu || pnorm <= tol * (1 + xscale)) {
      // stationary on the working set: optimal if every multiplier is ≥ 0
      int drop = -1;
      double mumin = -tol * (1 + vec_maxabs(mu, k));
      for (int a = 0; a < k; a++)
        if (mu[a] < mumin) mumin = mu[a], drop = a;
      if (drop < 0) {
        *iters += it;
        break;
      }
      ws[drop] = ws[--k];
      stationary = 0;
      continue;
    }
    // step to the first blocking constraint
    double alpha = 1;
    int block = -1;
    for (int j = 0; j < 2 * nu; j++) {
      int in = 0;
      for (int a = 0; a < k; a++) in |= ws[a] == j;
      if (in) continue;
      double ajp = con_dot(w, nu, j, p);
      if (ajp >= -1e-300) continue;
      double ratio = (con_rhs(w, nu, j) - con_dot(w, nu, j, x)) / ajp;
      if (ratio < 0) ratio = 0;
      if (ratio < alpha) alpha = ratio, block = j;
    }
    for (int j = 0; j < nu; j++) x[j] += alpha * p[j];
    if (block >= 0 && k < nu) ws[k++] = block;
    stationary = block < 0;  // a full step reaches the working set's minimiser
  }
  // back-substitute λ_U = x, λ_B = z − Z x
  for (int i = 0; i < nu; i++) lambda[w->uidx[i]] = x[i] > 0 ? x[i] : 0;
  for (int a = 0; a < nb; a++) {
    double s = w->z[a];
    for (int u = 0; u < nu; u++) s -= w->Z[a * cap + u] * lambda[w->uidx[u]];
    lambda[w->bidx[a]] = s;
  }
  return MBS_LCP_OK;
}
