// SPDX-License-Identifier: MIT
// Refinement of a KKT solve by restarted GMRES preconditioned with the LDLᵀ factor (GMRES-based
// iterative refinement: Carson & Higham, SIAM J. Sci. Comput. 40 (2018) A817; Saad & Schultz,
// SIAM J. Sci. Stat. Comput. 7 (1986)). Plain refinement with the factor of K_reg = K + δS
// against K converges at the rate δ/(λ + δ) on each eigen-direction of K: where K has a few
// eigenvalues λ far below δ (a degenerate active set: more active rows than variables) those
// components hardly move in hundreds of steps. The preconditioned operator K·K_reg⁻¹ is the
// identity but for those few eigenvalues λ/(λ + δ), which GMRES resolves in as many Krylov
// steps. Each cycle solves the correction equation K d = r for the residual r = b − K x
// accumulated in long double, so the solution converges to the working-precision one.
#include <math.h>
#include <string.h>

#include "qcp_internal.h"

enum { BASIS = QCP_KRYLOV_BASIS };

// a cycle stops once its residual fell by this factor (the outer residual, accumulated in long
// double, then decides)
#define KRYLOV_RTOL 1e-10

// w = K·K_reg⁻¹ v (t: scratch, zero: N zeros)
static void apply(qcp_kkt *kkt, const double *v, double *t, const double *zero, double *w) {
  const int N = kkt->N;
  memcpy(t, v, (size_t)N * sizeof *t);
  qcp_ldl_solve(N, kkt->Lp, kkt->Li, kkt->Lx, kkt->Dinv, t);
  qcp_kkt_residual(kkt, zero, t, w, 0);  // −K t
  for (int i = 0; i < N; i++) w[i] = -w[i];
}

// One GMRES(BASIS) cycle on K d = r, right-preconditioned (K·K_reg⁻¹ u = r, d = K_reg⁻¹ u), from
// d = 0 (work: QCP_KRYLOV_WORK·N doubles). d receives the correction.
static void gmres_cycle(qcp_kkt *kkt, const double *r, double *d, double *work) {
  const int N = kkt->N;
  double *V = work, *t = work + (size_t)(BASIS + 1) * N, *zero = t + N;
  memset(zero, 0, (size_t)N * sizeof *zero);
  double H[BASIS + 1][BASIS], cs[BASIS], sn[BASIS], g[BASIS + 1], y[BASIS];
  const double beta = sqrt(qcp_vec_dot(r, r, N));
  memset(d, 0, (size_t)N * sizeof *d);
  if (!(beta > 0.0) || !isfinite(beta)) return;
  for (int i = 0; i < N; i++) V[i] = r[i] / beta;
  g[0] = beta;
  int k = 0;
  for (int j = 0; j < BASIS; j++) {
    double *w = V + (size_t)(j + 1) * N;
    apply(kkt, V + (size_t)j * N, t, zero, w);
    for (int i = 0; i <= j; i++) {  // modified Gram–Schmidt
      const double *vi = V + (size_t)i * N;
      H[i][j] = qcp_vec_dot(w, vi, N);
      for (int l = 0; l < N; l++) w[l] -= H[i][j] * vi[l];
    }
    const double hn = sqrt(qcp_vec_dot(w, w, N));
    H[j + 1][j] = hn;
    if (hn > 0.0)
      for (int l = 0; l < N; l++) w[l] /= hn;
    for (int i = 0; i < j; i++) {  // the earlier rotations on the new column
      const double a = H[i][j], b = H[i + 1][j];
      H[i][j] = cs[i] * a + sn[i] * b;
      H[i + 1][j] = -sn[i] * a + cs[i] * b;
    }
    const double a = H[j][j], b = H[j + 1][j], rr = hypot(a, b);
    cs[j] = rr > 0.0 ? a / rr : 1.0, sn[j] = rr > 0.0 ? b / rr : 0.0;
    H[j][j] = rr, H[j + 1][j] = 0.0;
    g[j + 1] = -sn[j] * g[j], g[j] = cs[j] * g[j];
    k = j + 1;
    if (!(fabs(g[j + 1]) > KRYLOV_RTOL * beta) || hn == 0.0) break;
  }
  for (int i = k - 1; i >= 0; i--) {  // H y = g, upper triangular
    double s = g[i];
    for (int l = i + 1; l < k; l++) s -= H[i][l] * y[l];
    y[i] = H[i][i] != 0.0 ? s / H[i][i] : 0.0;
  }
  kkt->solves += k + 1;
  memset(t, 0, (size_t)N * sizeof *t);
  for (int i = 0; i < k; i++) {
    const double *vi = V + (size_t)i * N;
    for (int l = 0; l < N; l++) t[l] += y[i] * vi[l];
  }
  qcp_ldl_solve(N, kkt->Lp, kkt->Li, kkt->Lx, kkt->Dinv, t);
  memcpy(d, t, (size_t)N * sizeof *d);
}

double qcp_kkt_refine_krylov(qcp_kkt *kkt, const double *rhs, double *sol, double *work) {
  const int N = kkt->N;
  double *b = kkt->rhs, *x = kkt->sol, *r = kkt->res, *d = kkt->cor;
  kkt->prox_kept = 0;
  for (int i = 0; i < N; i++) b[i] = rhs[kkt->perm[i]], x[i] = sol[kkt->perm[i]];
  kkt->rhs_norm = qcp_vec_norm_inf(b, N);
  qcp_kkt_residual(kkt, b, x, r, 1);
  gmres_cycle(kkt, r, d, work);
  kkt->refines++;
  for (int i = 0; i < N; i++) x[i] += d[i];
  const double nr = qcp_kkt_residual(kkt, b, x, r, 1);
  for (int i = 0; i < N; i++) sol[kkt->perm[i]] = x[i];
  return nr;
}
