// SPDX-License-Identifier: MIT
// The sparse LDLᵀ kernel against dense reference computations: random quasidefinite matrices
// (factor residual ‖LDLᵀ − K‖), the elimination-tree column counts, and an exact zero pivot that
// the dynamic regularisation replaces (then iterative refinement through the KKT solve path).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <amd.h>
#include <cmocka.h>

#include "qcp/qcp_qd.h"
#include "qcp_gen.h"
#include "qcp_internal.h"

static uint64_t rng = 12345;
static double urand(void) {
  rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(rng >> 11) * 0x1.0p-53;
}

// dense symmetric N×N quasidefinite matrix with n1 positive-definite leading block
static void random_quasidefinite(int N, int n1, double density, double *K) {
  memset(K, 0, (size_t)N * N * sizeof *K);
  for (int j = 0; j < N; j++)
    for (int i = 0; i < j; i++)
      if (urand() < density) K[i * N + j] = K[j * N + i] = urand() - 0.5;
  // diagonal dominance with the block signs makes each block definite
  for (int i = 0; i < N; i++) {
    double r = 0.0;
    for (int j = 0; j < N; j++) r += i != j ? fabs(K[i * N + j]) : 0.0;
    K[i * N + i] = (i < n1 ? 1.0 : -1.0) * (r + 0.1 + urand());
  }
}

// upper-triangular CSC of a dense matrix (all diagonal entries kept)
static void dense_upper(int N, const double *K, int *Kp, int *Ki, double *Kx) {
  int t = 0;
  for (int j = 0; j < N; j++) {
    Kp[j] = t;
    for (int i = 0; i <= j; i++)
      if (K[i * N + j] != 0.0 || i == j) Ki[t] = i, Kx[t++] = K[i * N + j];
  }
  Kp[N] = t;
}

static void factor_and_check(int N, const double *K, const signed char *sign, int expect_reg) {
  int *Kp = malloc(((size_t)N + 1) * sizeof *Kp), *Ki = malloc((size_t)N * N * sizeof *Ki);
  double *Kx = malloc((size_t)N * N * sizeof *Kx);
  dense_upper(N, K, Kp, Ki, Kx);
  int *iwork = malloc(3 * (size_t)N * sizeof *iwork), *Lnz = malloc((size_t)N * sizeof *Lnz);
  int *etree = malloc((size_t)N * sizeof *etree), *Lp = malloc(((size_t)N + 1) * sizeof *Lp);
  long nnzL = qcp_ldl_etree(N, Kp, Ki, iwork, Lnz, etree);
  assert_true(nnzL >= 0);
  Lp[0] = 0;
  for (int j = 0; j < N; j++) Lp[j + 1] = Lp[j] + Lnz[j];
  int *Li = malloc(((size_t)nnzL + 1) * sizeof *Li);
  double *Lx = malloc(((size_t)nnzL + 1) * sizeof *Lx), *D = malloc((size_t)N * sizeof *D);
  double *Dinv = malloc((size_t)N * sizeof *Dinv), *fw = malloc((size_t)N * sizeof *fw);
  int nreg =
      qcp_ldl_factor(N, Kp, Ki, Kx, Lp, Li, Lx, D, Dinv, etree, sign, 1e-13, 1e-7, iwork, fw);
  assert_int_equal(nreg, expect_reg);
  // rebuild L D Lᵀ densely and compare (the regularised pivot changes only that diagonal)
  double *L = calloc((size_t)N * N, sizeof *L), err = 0.0;
  for (int j = 0; j < N; j++) {
    L[j * N + j] = 1.0;
    for (int p = Lp[j]; p < Lp[j + 1]; p++) L[Li[p] * N + j] = Lx[p];
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double v = 0.0;
      for (int k = 0; k < N; k++) v += L[i * N + k] * D[k] * L[j * N + k];
      double want = K[i * N + j];
      if (expect_reg && i == j && K[i * N + j] == 0.0) want = v;  // the replaced pivot
      err = fmax(err, fabs(v - want));
    }
  if (expect_reg == 0 && !(err <= 1e-12 * N)) {
    print_error("|LDL' - K| = %.3e (N = %d)\n", err, N);
    fail();
  }
  // sign pattern of the pivots: quasidefinite ⇒ D has the block signs
  for (int k = 0; k < N; k++) assert_true(D[k] * sign[k] > 0.0);
  free(Kp), free(Ki), free(Kx), free(iwork), free(Lnz), free(etree), free(Lp), free(Li), free(Lx);
  free(D), free(Dinv), free(fw), free(L);
}

static void test_random_quasidefinite(void **state) {
  (void)state;
  for (int trial = 0; trial < 20; trial++) {
    int N = 5 + trial * 3, n1 = N / 2;
    double *K = malloc((size_t)N * N * sizeof *K);
    signed char *sign = malloc((size_t)N);
    random_quasidefinite(N, n1, 0.2, K);
    for (int i = 0; i < N; i++) sign[i] = (signed char)(i < n1 ? 1 : -1);
    factor_and_check(N, K, sign, 0);
    free(K), free(sign);
  }
}

static void test_zero_pivot(void **state) {
  (void)state;
  // K = [1 1 0; 1 1 0; 0 0 -1]: the second pivot is exactly 0 → replaced by +delta
  double K[9] = {1, 1, 0, 1, 1, 0, 0, 0, -1};
  signed char sign[3] = {1, 1, -1};
  factor_and_check(3, K, sign, 1);
}

static void test_kkt_refinement(void **state) {
  (void)state;
  // a singular but consistent KKT (LP with an unused variable) solved through the workspace: the
  // zero pivot is regularised and refinement brings the residual of the true system down
  double G[6] = {-1, 0, 0, 0, -1, 0}, h[2] = {0, -1}, c[3] = {1, 1, 0};
  qcp_gen g;
  assert_int_equal(qcp_gen_dense(&g, 3, 0, 2, 0, NULL, NULL, NULL, G, c, NULL, h), 0);
  qcp_workspace *ws;
  qcp_error err;
  assert_int_equal(qcp_setup(&ws, &g.prob, NULL, &err), QCP_OK);
  qcp_kkt_fill(&ws->kkt, &ws->prob, &ws->K, 0.0);  // no static δ: the zero pivot is exact
  int nreg = qcp_kkt_factor(&ws->kkt, 1e-13, 1e-7);
  assert_true(nreg >= 1);
  double rhs[5] = {-1, -1, 0, 0, -1}, sol[5];  // x2 row is zero: consistent with x2 free
  double res = qcp_kkt_solve(&ws->kkt, rhs, sol, 10, 1e-13);
  assert_true(res <= 1e-9);
  qcp_workspace_free(ws);
  qcp_gen_free(&g);
}

// a workspace for g's problem without equilibration (its KKT matrix is the problem's own)
static qcp_workspace *setup_unscaled(const qcp_gen *g) {
  qcp_settings set = qcp_settings_default();
  set.equilibrate = 0;
  qcp_workspace *ws;
  qcp_error err;
  assert_int_equal(qcp_setup(&ws, &g->prob, &set, &err), QCP_OK);
  return ws;
}

// The KKT system of min ½‖x‖² + x₁ over x ∈ R² with equality rows A x = b (2×2, row-major) and
// the inactive row x₂ ≤ 10, as the polish writes it (G_i x − z_i = rhs, δ = 1e-8), factored
static qcp_workspace *factor_two_rows(qcp_gen *g, const double *A, const double *b) {
  double P[4] = {1, 0, 0, 1}, G[2] = {0, 1}, c[2] = {1, 0}, h[1] = {10};
  assert_int_equal(qcp_gen_dense(g, 2, 2, 1, 0, NULL, P, A, G, c, b, h), 0);
  qcp_workspace *ws = setup_unscaled(g);
  qcp_kkt *kkt = &ws->kkt;
  qcp_kkt_fill(kkt, &ws->prob, &ws->K, 1e-8);
  kkt->Kx[kkt->mapW[0]] = -1.0 - kkt->delta;
  assert_true(qcp_kkt_factor(kkt, 1e-13, 1e-7) >= 0);
  return ws;
}

// Redundant equality rows (a degenerate active set in the polish): min ½‖x‖² + x₁ with
// x₁ + x₂ = 1 twice over (rows (1, 1) and (2, 2)) and one inactive row. x = (0, 1) is unique, the
// multipliers only up to y₁ + 2y₂ = −1 (the inactive row reads x₂ − z = x₂ at x, so z = 0).
// Refinement from K_reg⁻¹ rhs ends at the smallest pair −(1, 2)/5; refined from a guess (the
// polish's interior-point point), at the pair nearest to the guess: y_g + ((−1 − y_g·(1, 2))/5)(1,
// 2).
static void test_kkt_refine_from_guess(void **state) {
  (void)state;
  double A[4] = {1, 1, 2, 2}, b[2] = {1, 2};
  qcp_gen g;
  qcp_workspace *ws = factor_two_rows(&g, A, b);
  qcp_kkt *kkt = &ws->kkt;
  double rhs[5] = {-1, 0, 1, 2, 1}, sol[5], guess[5] = {0, 1, 1, 1, 0};  // z = x₂ − 1 = 0
  assert_true(qcp_kkt_solve_accurate(kkt, rhs, sol, 50, 0.0) <= 1e-14);
  assert_true(fabs(sol[0]) <= 1e-12 && fabs(sol[1] - 1) <= 1e-12);
  // the smallest pair up to the regularisation's own pull (δ = 1e-8: seen 1.0e-8)
  assert_true(fabs(sol[2] + 0.2) <= 1e-7 && fabs(sol[3] + 0.4) <= 1e-7);
  assert_true(qcp_kkt_refine_from(kkt, rhs, guess, sol, 50, 0.0) <= 1e-14);
  assert_true(fabs(sol[0]) <= 1e-12 && fabs(sol[1] - 1) <= 1e-12);
  printf("multipliers from 0: smallest pair; from the guess (1, 1): (%.12f, %.12f)\n", sol[2],
         sol[3]);
  assert_true(fabs(sol[2] - 0.2) <= 1e-7 && fabs(sol[3] + 0.6) <= 1e-7);
  qcp_workspace_free(ws);
  qcp_gen_free(&g);
}

// Nearly dependent equality rows: min ½‖x‖² + x₁ with x₁ + x₂ = 1 and x₁ + (1 + ε)x₂ = 1 + ε
// (ε = 2⁻²⁰) and one inactive row, solution x = (0, 1), y = (−1, 0), z = 0. The Schur complement
// of K has an eigenvalue ~ε²/4 ≈ 2e-13 far below δ = 1e-8, along which refinement with the factor
// of K_reg converges at δ/(λ + δ) ≈ 1 − 2e-5 per step: it stops (residual 7.6e-14, no step lowers
// it) with x off by 1.6e-7. One GMRES cycle preconditioned with the same factor
// (qcp_kkt_refine_krylov) brings the residual to 8e-17 and x to 3e-14 (y, conditioned by 1/λ,
// to 1e-7).
static void test_kkt_refine_krylov(void **state) {
  (void)state;
  const double e = ldexp(1.0, -20);
  double A[4] = {1, 1, 1, 1 + e}, b[2] = {1, 1 + e};
  qcp_gen g;
  qcp_workspace *ws = factor_two_rows(&g, A, b);
  qcp_kkt *kkt = &ws->kkt;
  double rhs[5] = {-1, 0, 1, 1 + e, 1}, sol[5], work[QCP_KRYLOV_WORK * 5];
  const double plain = qcp_kkt_solve_accurate(kkt, rhs, sol, 50, 0.0);
  const double err_plain = fmax(fabs(sol[0]), fabs(sol[1] - 1));
  const double krylov = qcp_kkt_refine_krylov(kkt, rhs, sol, work);
  const double err_x = fmax(fabs(sol[0]), fabs(sol[1] - 1));
  printf(
      "plain refinement: residual %.2e, x error %.2e; one Krylov cycle: %.2e, %.2e, y (%.3g, "
      "%.3g)\n",
      plain, err_plain, krylov, err_x, sol[2], sol[3]);
  assert_true(err_plain >= 1e-8);
  assert_true(krylov <= 1e-15 && err_x <= 1e-12);
  assert_true(fabs(sol[2] + 1) <= 1e-6 && fabs(sol[3]) <= 1e-6 && fabs(sol[4]) <= 1e-12);
  qcp_workspace_free(ws);
  qcp_gen_free(&g);
}

// ‖rhs − K sol‖∞ for the unregularised KKT matrix of a dense problem whose W² block is w2·I
// (original order: x, y, z)
static double kkt_dense_residual(int n, int p, int m, const double *P, const double *A,
                                 const double *G, double w2, const double *rhs, const double *sol) {
  const double *x = sol, *y = sol + n, *z = sol + n + p;
  double worst = 0.0;
  for (int i = 0; i < n; i++) {
    double v = rhs[i];
    for (int j = 0; j < n; j++) v -= P[i * n + j] * x[j];
    for (int k = 0; k < p; k++) v -= A[k * n + i] * y[k];
    for (int k = 0; k < m; k++) v -= G[k * n + i] * z[k];
    worst = fmax(worst, fabs(v));
  }
  for (int k = 0; k < p + m; k++) {
    const double *row = k < p ? A + k * n : G + (k - p) * n;
    double v = rhs[n + k] + (k < p ? 0.0 : w2 * z[k - p]);
    for (int j = 0; j < n; j++) v -= row[j] * x[j];
    worst = fmax(worst, fabs(v));
  }
  return worst;
}

// The proximal solves of one factor (a direction and its centrality corrections): a solve after
// another with the same K_reg starts from that one's refined solution and solves only for the
// difference of the right-hand sides. With δ = 0.05 against eigenvalues of order 0.1 a solve
// from scratch needs several refinement steps to bring its error δ·S·x below 1e-9; the same
// right-hand side again needs none, a right-hand side changed in the complementarity (z) rows
// fewer, and each returned residual is the true one against K (checked densely). A new factor
// (other W², δ kept) starts from scratch again: its residual is the new matrix's.
static void test_kkt_prox_from_kept(void **state) {
  (void)state;
  enum { n = 3, p = 1, m = 3, N = n + p + m };
  double P[n * n] = {0.2, 0.1, 0, 0.1, 0.3, 0.05, 0, 0.05, 0.1}, A[p * n] = {1, 1, 1};
  double G[m * n] = {-1, 0.9, 0, 0, -1, 0.9, 0.5, 0, -1}, c[n] = {1, -1, 0.5}, b[p] = {1};
  double h[m] = {0, 0, 1};
  qcp_gen g;
  assert_int_equal(qcp_gen_dense(&g, n, p, m, 0, NULL, P, A, G, c, b, h), 0);
  qcp_workspace *ws = setup_unscaled(&g);
  qcp_kkt *kkt = &ws->kkt;
  qcp_kkt_fill(kkt, &ws->prob, &ws->K, 0.05);  // W² = I
  kkt->from_kept = 1;                          // as the centrality corrections ask
  assert_int_equal(qcp_kkt_factor(kkt, 1e-13, 1e-7), 0);
  const double lim = 1e-9;
  double rhs[N] = {0.3, -0.2, 0.7, 1.0, -0.5, 0.4, 0.8}, sol[N], again[N];
  int steps[4];
  for (int k = 0; k < 4; k++) {
    if (k == 2) rhs[n + p + 1] += 1e-4;  // a correction's change: complementarity rows only
    if (k == 3) {                        // the next iterate's factor: W² = 2I, δ unchanged
      qcp_kkt_set_w(kkt, &ws->K, NULL, 2.0);
      assert_int_equal(qcp_kkt_factor(kkt, 1e-13, 1e-7), 0);
    }
    int before = kkt->refines;
    kkt->lim_d = kkt->lim_p = lim;
    double nr = qcp_kkt_solve_prox(kkt, rhs, k == 1 ? again : sol, 2, 50, 1e-16);
    kkt->lim_d = kkt->lim_p = 0.0;
    steps[k] = kkt->refines - before;
    double true_res =
        kkt_dense_residual(n, p, m, P, A, G, k == 3 ? 2.0 : 1.0, rhs, k == 1 ? again : sol);
    print_message("solve %d: %d refinement steps, residual %.2e (true %.2e)\n", k, steps[k], nr,
                  true_res);
    assert_true(kkt->met_limits);
    assert_true(true_res <= lim && fabs(true_res - nr) <= 1e-14);
    if (k == 1)
      for (int i = 0; i < N; i++) assert_true(fabs(again[i] - sol[i]) <= 1e-14);
  }
  assert_true(steps[0] >= 3 && steps[3] >= 3);  // from scratch: the proximal error refined away
  assert_int_equal(steps[1], 0);                // the same right-hand side: already refined
  assert_true(steps[2] < steps[0]);             // only the change's proximal error is new
  qcp_workspace_free(ws);
  qcp_gen_free(&g);
}

// qcp_qd with a caller's elimination order and qcp_qd_refactor: a random quasidefinite matrix is
// factored, a few of its variables' rows and columns change (values only, the pattern kept), and
// the partial refactor must solve the changed system as accurately as a fresh factor — checked
// by the residual of a solve against the dense matrix, with the changed variables both last in
// the order (the use in paper A's prediction) and anywhere (refactor from an early row)
static void test_qd_refactor(void **state) {
  (void)state;
  for (int trial = 0; trial < 40; trial++) {
    const int N = 6 + trial, n1 = N / 2 + trial % 3;
    double *K = malloc((size_t)N * N * sizeof *K), *Kx = malloc((size_t)N * N * sizeof *Kx);
    int *Kp = malloc(((size_t)N + 1) * sizeof *Kp), *Ki = malloc((size_t)N * N * sizeof *Ki);
    int *order = malloc((size_t)N * sizeof *order), changed[3];
    signed char *sign = malloc((size_t)N);
    random_quasidefinite(N, n1, 0.3, K);
    for (int i = 0; i < N; i++) sign[i] = (signed char)(i < n1 ? 1 : -1);
    for (int k = 0; k < N; k++) order[k] = (k * 7 + trial) % N;  // a permutation (7 ∤ N…)
    int perm_ok = 1;
    for (int a = 0; a < N && perm_ok; a++)
      for (int b = a + 1; b < N; b++) perm_ok &= order[a] != order[b];
    if (!perm_ok)
      for (int k = 0; k < N; k++) order[k] = N - 1 - k;
    dense_upper(N, K, Kp, Ki, Kx);
    sc_error err = {0};
    qcp_qd *f = qcp_qd_create(N, Kp, Ki, sign, trial % 2 ? order : NULL, NULL, &err);
    assert_non_null(f);
    assert_int_equal(qcp_qd_factor(f, Kx, 1e-13, 1e-7), 0);
    // change the rows and columns of up to three variables: off-diagonals scaled by factors in
    // (−1, 1) keep every other row diagonally dominant; the changed diagonal is re-dominated
    const int nc = 1 + trial % 3;
    for (int c = 0; c < nc; c++) {
      const int v = trial % 2 ? order[N - 1 - c] : (int)(urand() * N);
      changed[c] = v;
      double r = 0;
      for (int j = 0; j < N; j++)
        if (j != v && K[v * N + j] != 0) K[v * N + j] = K[j * N + v] *= 2 * urand() - 1;
      for (int j = 0; j < N; j++) r += j != v ? fabs(K[v * N + j]) : 0;
      K[v * N + v] = (v < n1 ? 1.0 : -1.0) * (r + 0.1 + urand());
    }
    dense_upper(N, K, Kp, Ki, Kx);  // same pattern: only values moved
    assert_int_equal(qcp_qd_refactor(f, Kx, nc, changed, 1e-13, 1e-7), 0);
    double *x = malloc((size_t)N * sizeof *x), *b = malloc((size_t)N * sizeof *b), res = 0;
    for (int i = 0; i < N; i++) b[i] = x[i] = urand() - 0.5;
    qcp_qd_solve(f, x);
    for (int i = 0; i < N; i++) {
      double v = -b[i];
      for (int j = 0; j < N; j++) v += K[i * N + j] * x[j];
      res = fmax(res, fabs(v));
    }
    if (!(res <= 1e-12)) {
      print_error("refactor trial %d: residual %.3e\n", trial, res);
      fail();
    }
    qcp_qd_free(f);
    free(K), free(Kx), free(Kp), free(Ki), free(order), free(sign), free(x), free(b);
  }
}

// the values of the pattern (Kp, Ki) of K with the rows and columns of the variables open[] set
// to the identity's (an open contact row of paper A's prediction), into the dense Kd as well
static void open_values(int N, const double *K, const int *Kp, const int *Ki, const int *open,
                        double *Kx, double *Kd) {
  for (int j = 0; j < N; j++)
    for (int e = Kp[j]; e < Kp[j + 1]; e++) {
      const int i = Ki[e];
      Kx[e] = open[i] || open[j] ? (i == j ? 1.0 : 0.0) : K[i * N + j];
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      Kd[i * N + j] = open[i] || open[j] ? (i == j ? 1.0 : 0.0) : K[i * N + j];
}

// qcp_qd_factor_update finds what changed itself, skips the zero rows of open variables (their L
// rows are zero: written without a triangular solve) and stops the solves at each column's last
// nonzero: over a sequence of opened and closed rows and moved diagonals, each update solves to
// round-off and gives bitwise the solution of a fresh factor of the same values — and so does
// qcp_qd_refactor told which variables changed (the prediction's corrections: rows that opened
// or closed, a moved diagonal), on a second factor kept alongside
static void test_qd_factor_update(void **state) {
  (void)state;
  for (int trial = 0; trial < 30; trial++) {
    const int N = 8 + trial, n1 = N / 2 + trial % 3;
    const size_t NN = (size_t)N * N;
    double *K = malloc(NN * sizeof *K), *Kd = malloc(NN * sizeof *Kd);
    double *Kx = malloc(NN * sizeof *Kx), *x = malloc((size_t)N * sizeof *x);
    double *x2 = malloc((size_t)N * sizeof *x2), *b = malloc((size_t)N * sizeof *b);
    int *Kp = malloc(((size_t)N + 1) * sizeof *Kp), *Ki = malloc(NN * sizeof *Ki);
    int *order = malloc((size_t)N * sizeof *order), *open = calloc((size_t)N, sizeof *open);
    int *changed = malloc((size_t)N * sizeof *changed);
    double *x3 = malloc((size_t)N * sizeof *x3);
    signed char *sign = malloc((size_t)N);
    random_quasidefinite(N, n1, 0.3, K);
    for (int i = 0; i < N; i++) sign[i] = (signed char)(i < n1 ? 1 : -1);
    for (int k = 0; k < N; k++) order[k] = k < N - n1 ? n1 + k : k - (N - n1);  // − block first
    dense_upper(N, K, Kp, Ki, Kx);
    sc_error err = {0};
    qcp_qd *f = qcp_qd_create(N, Kp, Ki, sign, trial % 2 ? order : NULL, NULL, &err);
    qcp_qd *f2 = qcp_qd_create(N, Kp, Ki, sign, trial % 2 ? order : NULL, NULL, &err);
    assert_non_null(f);
    assert_non_null(f2);
    for (int round = 0; round < 12; round++) {
      int nc = 0;
      for (int i = 0; i < n1; i++) {  // rows open and close: all of them, or one to three
        const int o = round < 6 ? urand() < 0.4 : open[i] ^ (urand() < 2.0 / n1);
        if (o != open[i]) open[i] = o, changed[nc++] = i;
      }
      if (round % 2) {  // and a diagonal moves (still dominant)
        const int v = (int)(urand() * N);
        K[v * N + v] *= 1.5, changed[nc++] = v;
      }
      open_values(N, K, Kp, Ki, open, Kx, Kd);
      assert_int_equal(qcp_qd_factor_update(f, Kx, 1e-13, 1e-7), 0);
      assert_int_equal(qcp_qd_refactor(f2, Kx, nc, changed, 1e-13, 1e-7), 0);
      for (int i = 0; i < N; i++) b[i] = x[i] = x2[i] = x3[i] = urand() - 0.5;
      qcp_qd_solve(f, x);
      qcp_qd_solve(f2, x3);
      double res = 0;
      for (int i = 0; i < N; i++) {
        double v = -b[i];
        for (int j = 0; j < N; j++) v += Kd[i * N + j] * x[j];
        res = fmax(res, fabs(v));
      }
      if (!(res <= 1e-12)) {
        print_error("factor update trial %d round %d: residual %.3e\n", trial, round, res);
        fail();
      }
      qcp_qd *g = qcp_qd_create(N, Kp, Ki, sign, trial % 2 ? order : NULL, NULL, &err);
      assert_non_null(g);
      assert_int_equal(qcp_qd_factor(g, Kx, 1e-13, 1e-7), 0);
      qcp_qd_solve(g, x2);
      assert_memory_equal(x, x2, (size_t)N * sizeof *x);
      assert_memory_equal(x3, x2, (size_t)N * sizeof *x);
      qcp_qd_free(g);
    }
    qcp_qd_free(f), qcp_qd_free(f2);
    free(K), free(Kd), free(Kx), free(x), free(x2), free(b), free(Kp), free(Ki), free(order);
    free(open), free(sign), free(changed), free(x3);
  }
}

// qcp_amd_order (amd_2 with the caller's memory, for allocation-free pattern changes) gives
// amd_order's ordering: random upper triangles with and without diagonals, densities from a
// path-like 1 % to a dense-row 40 %, and an arrow matrix (one dense row, AMD's special case)
// factor of K (sign from n1) by the scalar rows and by the dense-tail path; same pattern, same
// pivot replacements, values equal to rounding; each path with precomputed reaches bit for bit
// as without
static void compare_tail(int N, const double *K, const signed char *sign, int min_tail) {
  int *Kp = malloc(((size_t)N + 1) * sizeof *Kp), *Ki = calloc((size_t)N * N, sizeof *Ki);
  double *Kx = malloc((size_t)N * N * sizeof *Kx);
  dense_upper(N, K, Kp, Ki, Kx);
  int *iwork = malloc(3 * (size_t)N * sizeof *iwork), *Lnz = malloc((size_t)N * sizeof *Lnz);
  int *etree = malloc((size_t)N * sizeof *etree), *Lp = malloc(((size_t)N + 1) * sizeof *Lp);
  long nnzL = qcp_ldl_etree(N, Kp, Ki, iwork, Lnz, etree);
  Lp[0] = 0;
  for (int j = 0; j < N; j++) Lp[j + 1] = Lp[j] + Lnz[j];
  const int k0 = qcp_ldl_dense_tail(N, Lnz), nt = N - k0;
  assert_true(nt >= min_tail);
  int *Li[2] = {malloc((size_t)nnzL * sizeof(int)), malloc((size_t)nnzL * sizeof(int))};
  double *Lx[2] = {malloc((size_t)nnzL * sizeof(double)), malloc((size_t)nnzL * sizeof(double))};
  double *D[2] = {malloc((size_t)N * sizeof(double)), malloc((size_t)N * sizeof(double))};
  double *Dinv = malloc((size_t)N * sizeof *Dinv), *fwork = malloc((size_t)N * sizeof *fwork);
  double *S = malloc((size_t)nt * nt * sizeof *S);
  double *dwork = malloc(qcp_ldl_tail_fwork(N, nt) * sizeof *dwork);
  int *tiwork = malloc(qcp_ldl_tail_iwork(N, nt) * sizeof *tiwork);
  int nreg0 = qcp_ldl_factor(N, Kp, Ki, Kx, Lp, Li[0], Lx[0], D[0], Dinv, etree, sign, 1e-10, 1e-7,
                             iwork, fwork);
  int nreg1 = qcp_ldl_factor_tail(k0, N, Kp, Ki, Kx, Lp, Li[1], Lx[1], D[1], Dinv, etree, sign,
                                  1e-10, 1e-7, iwork, fwork, S, tiwork, dwork, NULL, NULL);
  assert_int_equal(nreg0, nreg1);
  double err = 0.0, scale = 0.0;
  for (long p = 0; p < nnzL; p++) {
    assert_int_equal(Li[0][p], Li[1][p]);
    err = fmax(err, fabs(Lx[0][p] - Lx[1][p]));
    scale = fmax(scale, fabs(Lx[0][p]));
  }
  for (int i = 0; i < N; i++) {
    assert_true(D[0][i] * sign[i] > 0.0);
    assert_true(fabs(D[0][i] - D[1][i]) <= 1e-12 * fabs(D[0][i]));
  }
  assert_true(err <= 1e-12 * (1.0 + scale));
  // the reaches read from qcp_ldl_reach_order instead of the elimination tree: the same factors
  // bit for bit, the scalar one and the tail's
  int *Rp = malloc(((size_t)N + 1) * sizeof *Rp), *Rj = malloc((size_t)nnzL * sizeof *Rj);
  int *Li2 = malloc((size_t)nnzL * sizeof *Li2);
  double *Lx2 = malloc((size_t)nnzL * sizeof *Lx2), *D2 = malloc((size_t)N * sizeof *D2);
  assert_int_equal(qcp_ldl_reach_order(N, Kp, Ki, etree, iwork, NULL, NULL), nnzL);
  assert_int_equal(qcp_ldl_reach_order(N, Kp, Ki, etree, iwork, Rp, Rj), nnzL);
  // listed with the elimination tree in one pass: the same tree, counts and reaches; with too
  // little room, the rows that fit and where they end
  int *Rp3 = malloc(((size_t)N + 1) * sizeof *Rp3), *Rj3 = malloc((size_t)nnzL * sizeof *Rj3);
  int *Lnz3 = malloc((size_t)N * sizeof *Lnz3), *etree3 = malloc((size_t)N * sizeof *etree3);
  for (int c = 0; c < 2; c++) {
    const long cap = c ? nnzL / 2 : nnzL;
    int rows = -1;
    assert_int_equal(qcp_ldl_etree_reach(N, Kp, Ki, iwork, Lnz3, etree3, Rp3, Rj3, cap, &rows),
                     nnzL);
    assert_memory_equal(Lnz3, Lnz, (size_t)N * sizeof *Lnz);
    assert_memory_equal(etree3, etree, (size_t)N * sizeof *etree);
    assert_int_equal(rows == N, cap == nnzL);
    assert_true(rows == N || Rp[rows + 1] > cap);
    assert_memory_equal(Rp3, Rp, ((size_t)rows + 1) * sizeof *Rp);
    assert_memory_equal(Rj3, Rj, (size_t)Rp[rows] * sizeof *Rj);
  }
  free(Rp3), free(Rj3), free(Lnz3), free(etree3);
  int nreg2 = qcp_ldl_factor_ordered(N, Kp, Ki, Kx, Lp, Li2, Lx2, D2, Dinv, Rp, Rj, sign, 1e-10,
                                     1e-7, iwork, fwork);
  assert_int_equal(nreg2, nreg0);
  assert_memory_equal(Li2, Li[0], (size_t)nnzL * sizeof *Li2);
  assert_memory_equal(Lx2, Lx[0], (size_t)nnzL * sizeof *Lx2);
  assert_memory_equal(D2, D[0], (size_t)N * sizeof *D2);
  long above = qcp_ldl_reach_order(k0, Kp, Ki, etree, iwork, Rp, Rj);
  assert_true(above <= nnzL);
  nreg2 = qcp_ldl_factor_tail(k0, N, Kp, Ki, Kx, Lp, Li2, Lx2, D2, Dinv, etree, sign, 1e-10, 1e-7,
                              iwork, fwork, S, tiwork, dwork, Rp, Rj);
  assert_int_equal(nreg2, nreg1);
  assert_memory_equal(Li2, Li[1], (size_t)nnzL * sizeof *Li2);
  assert_memory_equal(Lx2, Lx[1], (size_t)nnzL * sizeof *Lx2);
  assert_memory_equal(D2, D[1], (size_t)N * sizeof *D2);
  free(Rp), free(Rj), free(Li2), free(Lx2), free(D2);
  for (int t = 0; t < 2; t++) free(Li[t]), free(Lx[t]), free(D[t]);
  free(Kp), free(Ki), free(Kx), free(iwork), free(Lnz), free(etree), free(Lp), free(Dinv);
  free(fwork), free(S), free(dwork), free(tiwork);
}

// Random sparse quasidefinite matrices in their natural order fill in to a dense trailing block
// (sizes not multiples of the kernel's tile or panel); one pivot of the wrong sign forces a
// replacement inside the tail.
static void test_dense_tail(void **state) {
  (void)state;
  const int sizes[][2] = {{300, 200}, {421, 150}, {263, 263}};
  for (int c = 0; c < 3; c++) {
    const int N = sizes[c][0], n1 = sizes[c][1];
    double *K = malloc((size_t)N * N * sizeof *K);
    signed char *sign = malloc((size_t)N);
    random_quasidefinite(N, n1, 0.03, K);
    for (int i = 0; i < N; i++) sign[i] = (signed char)(i < n1 ? 1 : -1);
    compare_tail(N, K, sign, 70);
    sign[N - 5] = (signed char)-sign[N - 5];
    compare_tail(N, K, sign, 70);
    free(K), free(sign);
  }
}

static void test_amd_same_as_amd_order(void **state) {
  (void)state;
  int tried = 0;
  for (int t = 0; t < 300; t++) {
    const int n = 1 + (int)(urand() * 120), arrow = t % 10 == 9;
    const double density = 0.01 + 0.4 * urand() * urand();
    int *Up = calloc((size_t)n + 1, sizeof *Up), *Ui = malloc((size_t)n * n * sizeof *Ui);
    int *p1 = malloc((size_t)n * sizeof *p1), *p2 = malloc((size_t)n * sizeof *p2);
    assert_true(Up && Ui && p1 && p2);
    int e = 0;
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < j; i++)
        if ((arrow && i == 0) || urand() < density) Ui[e++] = i;
      if (urand() < 0.8) Ui[e++] = j;
      Up[j + 1] = e;
    }
    double control[AMD_CONTROL], info[AMD_INFO];
    amd_defaults(control);
    assert_int_equal(amd_order(n, Up, Ui, p1, control, info), AMD_OK);
    const qcp_allocator al = {0};
    assert_int_equal(qcp_amd_order(n, Up, Ui, p2, &al, NULL), AMD_OK);
    assert_memory_equal(p1, p2, sizeof(int) * (size_t)n);
    tried++;
    free(Up), free(Ui), free(p1), free(p2);
  }
  // an entry below the diagonal is refused, not ordered
  const int Lp[] = {0, 2, 3}, Li[] = {0, 1, 1};
  int perm[2];
  const qcp_allocator al = {0};
  assert_int_equal(qcp_amd_order(2, Lp, Li, perm, &al, NULL), AMD_INVALID);
  printf("qcp_amd_order = amd_order on %d random patterns\n", tried);
}

// Bound rows behind dense rows: min ½‖x‖² over x ≥ 0 with the rows Σ x_j = 1 and
// Σ (−1)^j x_j = 0 (n = 250 even: x = 1/n, the multipliers of x ≥ 0 zero). Both equality rows
// touch every variable, above AMD's dense threshold max(16, 10·√N) for N = 2n + 2, so AMD orders
// them last and sees each bound row and its variable as an isolated pair. With every bound row
// eliminated before its variable, L holds one entry per bound row, two per variable (the dense
// rows) and one between the dense rows: 3n + 1; a bound row after its variable would take both
// dense rows as fill (5n + 1 in all).
static void test_bound_rows_before_their_variables(void **state) {
  (void)state;
  enum { n = 250 };
  double *A = calloc(2 * (size_t)n, sizeof *A), *G = calloc((size_t)n * n, sizeof *G);
  double *P = calloc((size_t)n * n, sizeof *P), *c = calloc(n, sizeof *c);
  double *h = calloc(n, sizeof *h), b[2] = {1.0, 0.0};
  assert_true(A && G && P && c && h);
  for (int j = 0; j < n; j++) {
    A[j] = 1.0, A[n + j] = j % 2 ? -1.0 : 1.0;
    G[(size_t)j * n + j] = -1.0;
    P[(size_t)j * n + j] = 1.0;
  }
  qcp_gen g;
  assert_int_equal(qcp_gen_dense(&g, n, 2, n, 0, NULL, P, A, G, c, b, h), 0);
  qcp_workspace *ws;
  qcp_error err;
  assert_int_equal(qcp_setup(&ws, &g.prob, NULL, &err), QCP_OK);
  const qcp_info *info = qcp_info_get(ws);
  assert_int_equal(info->nnz_l, 3 * n + 1);
  assert_int_equal(qcp_solve(ws, QCP_START_COLD, NULL, NULL, NULL, NULL, &err), QCP_OK);
  assert_int_equal(info->status, QCP_SOLVED);
  const double *x = qcp_solution_x(ws);
  double dev = 0.0;
  for (int j = 0; j < n; j++) dev = fmax(dev, fabs(x[j] - 1.0 / n));
  assert_true(dev <= 1e-9);
  qcp_workspace_free(ws);
  qcp_gen_free(&g);
  free(A), free(G), free(P), free(c), free(h);
}

// The orthant step to the boundary is the smallest −v_i/d_i over d_i < 0, capped at amax, whatever
// rows qcp_cone_step skips the division of: bit for bit the minimum of every quotient, on random
// rows, on rows whose quotient ties the running minimum to within a few ulps either side, and on
// products at and below the subnormal range
static double step_every_row(int l, const double *v, const double *d, double amax) {
  double a = amax;
  for (int i = 0; i < l; i++)
    if (d[i] < 0.0) a = fmin(a, -v[i] / d[i]);
  return fmax(a, 0.0);
}

static void test_cone_step_every_row(void **state) {
  (void)state;
  enum { L = 64 };
  double v[L], d[L];
  const int q0 = 0;
  const qcp_cones K = {.l = L, .nsoc = 0, .m = L, .deg = L, .q = &q0, .off = NULL};
  int ties = 0;
  for (int t = 0; t < 4000; t++) {
    const double scale = t % 4 == 3 ? 1e-300 : (t % 4 == 2 ? 1e300 : 1.0);
    for (int i = 0; i < L; i++) {
      v[i] = scale * (0.5 + urand()) * pow(10.0, -8.0 * urand());
      d[i] = (urand() - 0.7) * pow(10.0, 6.0 * urand() - 3.0);
    }
    // rows whose quotient lies within a few ulps of an earlier row's
    for (int i = 1; i < L; i += 3) {
      const int j = (int)(urand() * i);
      if (d[j] >= 0.0) continue;
      const double a = -v[j] / d[j];
      d[i] = d[j] * (urand() < 0.5 ? 1.0 : 0.5);
      v[i] = a * -d[i];
      for (int k = (int)(urand() * 7.0) - 3; k != 0; k += k > 0 ? -1 : 1)
        v[i] = nextafter(v[i], k > 0 ? INFINITY : 0.0);
      ties++;
    }
    const double amax = t % 3 == 0 ? INFINITY : 1.0;
    const double got = qcp_cone_step(&K, v, d, amax), want = step_every_row(L, v, d, amax);
    assert_memory_equal(&got, &want, sizeof got);
  }
  printf("qcp_cone_step = the minimum over every row on 4000 draws (%d rows near a tie)\n", ties);
}

// qcp_ldl_solve (D⁻¹ applied within the backward sweep) against the three sweeps done one after
// another: the same bits
static void test_ldl_solve_sweeps(void **state) {
  (void)state;
  const int N = 60, n1 = 30;
  double *K = malloc((size_t)N * N * sizeof *K);
  random_quasidefinite(N, n1, 0.2, K);
  int *Kp = malloc((N + 1) * sizeof *Kp), *Ki = malloc((size_t)N * N * sizeof *Ki);
  double *Kx = malloc((size_t)N * N * sizeof *Kx);
  int e = 0;
  Kp[0] = 0;
  for (int j = 0; j < N; j++) {
    for (int i = 0; i <= j; i++)
      if (K[i * N + j] != 0.0 || i == j) Ki[e] = i, Kx[e++] = K[i * N + j];
    Kp[j + 1] = e;
  }
  int *iwork = malloc(3 * N * sizeof *iwork), *Lnz = malloc(N * sizeof *Lnz);
  int *etree = malloc(N * sizeof *etree), *Lp = malloc((N + 1) * sizeof *Lp);
  signed char sign[60];
  for (int i = 0; i < N; i++) sign[i] = (signed char)(i < n1 ? 1 : -1);
  long nnzL = qcp_ldl_etree(N, Kp, Ki, iwork, Lnz, etree);
  Lp[0] = 0;
  for (int j = 0; j < N; j++) Lp[j + 1] = Lp[j] + Lnz[j];
  int *Li = malloc((size_t)(nnzL + 1) * sizeof *Li);
  double *Lx = malloc((size_t)(nnzL + 1) * sizeof *Lx), *D = malloc(N * sizeof *D);
  double *Dinv = malloc(N * sizeof *Dinv), *fw = malloc(N * sizeof *fw);
  double x[60], r[60];
  assert_true(
      qcp_ldl_factor(N, Kp, Ki, Kx, Lp, Li, Lx, D, Dinv, etree, sign, 1e-13, 1e-7, iwork, fw) >= 0);
  for (int i = 0; i < N; i++) x[i] = r[i] = urand() - 0.5;
  qcp_ldl_solve(N, Lp, Li, Lx, Dinv, x);
  for (int j = 0; j < N; j++)
    for (int p = Lp[j]; p < Lp[j + 1]; p++) r[Li[p]] -= Lx[p] * r[j];
  for (int j = 0; j < N; j++) r[j] *= Dinv[j];
  for (int j = N - 1; j >= 0; j--)
    for (int p = Lp[j]; p < Lp[j + 1]; p++) r[j] -= Lx[p] * r[Li[p]];
  assert_memory_equal(x, r, sizeof x);
  free(K), free(Kp), free(Ki), free(Kx), free(iwork), free(Lnz), free(etree), free(Lp);
  free(Li), free(Lx), free(D), free(Dinv), free(fw);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_amd_same_as_amd_order),
      cmocka_unit_test(test_bound_rows_before_their_variables),
      cmocka_unit_test(test_random_quasidefinite),
      cmocka_unit_test(test_zero_pivot),
      cmocka_unit_test(test_dense_tail),
      cmocka_unit_test(test_kkt_refinement),
      cmocka_unit_test(test_kkt_refine_from_guess),
      cmocka_unit_test(test_kkt_refine_krylov),
      cmocka_unit_test(test_kkt_prox_from_kept),
      cmocka_unit_test(test_qd_refactor),
      cmocka_unit_test(test_qd_factor_update),
      cmocka_unit_test(test_cone_step_every_row),
      cmocka_unit_test(test_ldl_solve_sweeps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
