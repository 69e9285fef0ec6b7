// SPDX-License-Identifier: MIT
// Cross-check against CVXOPT's coneqp (Debian python3-cvxopt via /usr/bin/python3): the problem
// is dumped as text, qcp_cvxopt.py solves it, and objective (1e-6 relative) and solution (1e-5
// relative to max(1, ‖x‖∞)) must agree. Skipped (77) when python3 or cvxopt is missing.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "qcp/qcp.h"
#include "qcp_gen.h"

static const char *script;

static void dump_csc(FILE *f, const qcp_csc *M, int ncols) {
  for (int j = 0; j <= ncols; j++) fprintf(f, "%d\n", M->colptr ? M->colptr[j] : 0);
  int nnz = M->colptr ? M->colptr[ncols] : 0;
  for (int k = 0; k < nnz; k++) fprintf(f, "%d\n", M->rowind[k]);
  for (int k = 0; k < nnz; k++) fprintf(f, "%.17g\n", M->values[k]);
}

static void dump_problem(const char *path, const qcp_problem *pr) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  int m = pr->G.nrows;
  fprintf(f, "%d %d %d %d %d\n", pr->n, pr->p, m, pr->l, pr->nsoc);
  for (int k = 0; k < pr->nsoc; k++) fprintf(f, "%d\n", pr->q[k]);
  dump_csc(f, &pr->P, pr->n);
  dump_csc(f, &pr->A, pr->n);
  dump_csc(f, &pr->G, pr->n);
  for (int i = 0; i < pr->n; i++) fprintf(f, "%.17g\n", pr->c[i]);
  for (int i = 0; i < pr->p; i++) fprintf(f, "%.17g\n", pr->b[i]);
  for (int i = 0; i < m; i++) fprintf(f, "%.17g\n", pr->h[i]);
  fclose(f);
}

// runs cvxopt; returns 0 with objective and x, 77 if unavailable, -1 on failure
static int run_cvxopt(const char *path, int n, double *obj, double *x, char *status) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "/usr/bin/python3 '%s' '%s'", script, path);
  FILE *p = popen(cmd, "r");
  if (!p) return -1;
  int ok = fscanf(p, "%63s %lf", status, obj) == 2;
  for (int i = 0; ok && i < n; i++) ok = fscanf(p, "%lf", &x[i]) == 1;
  int rc = pclose(p);
  if (rc != -1 && WEXITSTATUS(rc) == 77) return 77;
  return ok && rc == 0 ? 0 : -1;
}

// eps = 0: default settings; otherwise eps_abs = eps_rel = eps; cold_rho > 0 sets the cold start's
// ρ (the contact family: 1e4, the all-active start its callers set)
static void compare(qcp_gen *g, double eps, double cold_rho) {
  char path[256];
  snprintf(path, sizeof path, "qcp_cvxopt_%s.txt", g->name);
  dump_problem(path, &g->prob);
  int n = g->prob.n;
  double *xc = calloc((size_t)n, sizeof *xc), obj_c = 0.0;
  char status[64];
  int rc = run_cvxopt(path, n, &obj_c, xc, status);
  remove(path);
  if (rc == 77) {
    free(xc);
    skip();
  }
  assert_int_equal(rc, 0);
  assert_string_equal(status, "optimal");  // the reference itself must have solved
  qcp_workspace *ws = NULL;
  qcp_error err;
  qcp_settings set = qcp_settings_default();
  if (eps > 0) set.eps_abs = set.eps_rel = eps;
  if (cold_rho > 0) set.cold_rho = cold_rho;
  assert_int_equal(qcp_setup(&ws, &g->prob, &set, &err), QCP_OK);
  assert_int_equal(qcp_solve(ws, QCP_START_COLD, NULL, NULL, NULL, NULL, &err), QCP_OK);
  assert_int_equal(qcp_info_get(ws)->status, QCP_SOLVED);
  const double *x = qcp_solution_x(ws);
  double obj = qcp_info_get(ws)->pobj;
  double xmax = 0.0, dx = 0.0;
  for (int i = 0; i < n; i++) {
    xmax = fmax(xmax, fabs(x[i]));
    dx = fmax(dx, fabs(x[i] - xc[i]));
  }
  double obj_rel = fabs(obj - obj_c) / fmax(1.0, fabs(obj_c)), x_rel = dx / fmax(1.0, xmax);
  printf("| %-20s | %-8s | %+.12e | %+.12e | %.2e | %.2e |\n", g->name, status, obj, obj_c, obj_rel,
         x_rel);
  if (!(obj_rel <= 1e-6 && x_rel <= 1e-5)) {
    print_error("%s: objective %.12g vs cvxopt %.12g (rel %.2e), x diff %.2e\n", g->name, obj,
                obj_c, obj_rel, x_rel);
    fail();
  }
  qcp_workspace_free(ws);
  free(xc);
}

static void test_cvxopt_family(void **state) {
  (void)state;
  printf("| %-20s | %-8s | %-19s | %-19s | %-8s | %-8s |\n", "instance", "cvxopt", "qcp objective",
         "cvxopt objective", "obj rel", "x rel");
  double mus[] = {0.1, 0.5, 1.0};
  int Ns[] = {10, 100};
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < 3; k++) {
      qcp_gen g;
      assert_int_equal(qcp_gen_stack(&g, Ns[i], mus[k], 3, 0), 0);
      compare(&g, 0.0, 1e4);
      qcp_gen_free(&g);
    }
  int Rs[] = {100, 900};
  for (int i = 0; i < 2; i++) {
    qcp_gen g;
    assert_int_equal(qcp_gen_foundation(&g, Rs[i], 3, 0), 0);
    compare(&g, 0.0, 1e4);
    qcp_gen_free(&g);
  }
}

// a small generic conic QP mixing all three parts (equalities, orthant, two cones)
static void test_cvxopt_mixed(void **state) {
  (void)state;
  enum { N = 5, PR = 1, L = 2, M = 2 + 3 + 4 };
  double P[N * N] = {0};
  for (int i = 0; i < N; i++) P[i * N + i] = 1.0 + i;
  P[0 * N + 1] = 0.5;
  P[2 * N + 4] = -0.3;
  double A[PR * N] = {1, 1, 1, 1, 1}, b[PR] = {1};
  double G[M * N] = {0};
  double h[M] = {0.4, 0.4, 1.0, 0, 0, 2.0, 0, 0, 0};
  G[0 * N + 0] = 1;   // x0 ≤ 0.4
  G[1 * N + 1] = 1;   // x1 ≤ 0.4
  G[3 * N + 2] = -1;  // ‖(x2, x3)‖ ≤ 1
  G[4 * N + 3] = -1;
  G[6 * N + 1] = -1;  // ‖(x1, x2, x4)‖ ≤ 2
  G[7 * N + 2] = -1;
  G[8 * N + 4] = -1;
  double c[N] = {-1, -2, 0.5, -3, 1};
  int q[2] = {3, 4};
  qcp_gen g;
  assert_int_equal(qcp_gen_dense(&g, N, PR, L, 2, q, P, A, G, c, b, h), 0);
  snprintf(g.name, sizeof g.name, "mixed5");
  compare(&g, 0.0, 0.0);
  qcp_gen_free(&g);
}

// random conic QPs that are strictly primal and dual feasible by construction: x0, s0 ∈ int K
// give h = Gx0 + s0, b = Ax0; z0 ∈ int K, y0 give c = −(P x1 + Aᵀy0 + Gᵀz0); P = BᵀB + 0.1 I
static uint64_t rng_state = 2024;
static double urand(void) {
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(rng_state >> 11) * 0x1.0p-53 - 0.5;
}

// a random vector strictly inside K (orthant l, cones q)
static void interior(int l, int nsoc, const int *q, double *v) {
  for (int i = 0; i < l; i++) v[i] = 0.1 + fabs(urand());
  for (int k = 0, o = l; k < nsoc; k++) {
    double nrm = 0.0;
    for (int i = 1; i < q[k]; i++) v[o + i] = urand(), nrm += v[o + i] * v[o + i];
    v[o] = sqrt(nrm) + 0.1 + fabs(urand());
    o += q[k];
  }
}

static void test_cvxopt_random(void **state) {
  (void)state;
  for (int trial = 0; trial < 6; trial++) {
    int n = 10 + 8 * trial, p = trial % 3, l = 3 + trial, nsoc = 1 + trial % 4;
    int q[8];
    int m = l;
    for (int k = 0; k < nsoc; k++) q[k] = 1 + (k * 3 + trial) % 7, m += q[k];
    if (trial == 5) q[0] = 12, m += 12 - (1 + (0 * 3 + trial) % 7);  // one larger cone
    double *B = calloc((size_t)n * n, sizeof *B), *P = calloc((size_t)n * n, sizeof *P);
    double *A = calloc((size_t)(p + 1) * n, sizeof *A), *G = calloc((size_t)m * n, sizeof *G);
    double *x0 = calloc((size_t)n, sizeof *x0), *s0 = calloc((size_t)m, sizeof *s0);
    double *z0 = calloc((size_t)m, sizeof *z0), *y0 = calloc((size_t)p + 1, sizeof *y0);
    double *c = calloc((size_t)n, sizeof *c), *b = calloc((size_t)p + 1, sizeof *b);
    double *h = calloc((size_t)m, sizeof *h);
    for (int i = 0; i < n / 2; i++)
      for (int j = 0; j < n; j++) B[i * n + j] = urand() < 0.0 ? 0.0 : urand();
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        for (int k = 0; k < n / 2; k++) P[i * n + j] += B[k * n + i] * B[k * n + j];
    // + 0.1 I: a unique solution, so x can be compared and not only the objective
    for (int i = 0; i < n; i++) P[i * n + i] += 0.1;
    for (int i = 0; i < p * n; i++) A[i] = urand();
    for (int i = 0; i < m * n; i++) G[i] = urand() < -0.2 ? urand() : 0.0;
    for (int j = 0; j < n; j++) x0[j] = urand();
    interior(l, nsoc, q, s0);
    interior(l, nsoc, q, z0);
    for (int i = 0; i < p; i++) y0[i] = urand();
    for (int i = 0; i < m; i++) {
      h[i] = s0[i];
      for (int j = 0; j < n; j++) h[i] += G[i * n + j] * x0[j];
    }
    for (int i = 0; i < p; i++)
      for (int j = 0; j < n; j++) b[i] += A[i * n + j] * x0[j];
    for (int j = 0; j < n; j++) {
      c[j] = 0.0;
      for (int i = 0; i < n; i++) c[j] -= P[j * n + i] * 0.5 * x0[i];
      for (int i = 0; i < p; i++) c[j] -= A[i * n + j] * y0[i];
      for (int i = 0; i < m; i++) c[j] -= G[i * n + j] * z0[i];
    }
    qcp_gen g;
    assert_int_equal(qcp_gen_dense(&g, n, p, l, nsoc, q, P, A, G, c, b, h), 0);
    snprintf(g.name, sizeof g.name, "random%d_n%d_m%d", trial, n, m);
    // x is only determined to ~sqrt(gap/λ_min(P)): solve to 1e-10 so that 1e-5 is meaningful
    compare(&g, 1e-10, 0.0);
    qcp_gen_free(&g);
    free(B), free(P), free(A), free(G), free(x0), free(s0), free(z0), free(y0), free(c), free(b);
    free(h);
  }
}

int main(void) {
  script = getenv("QCP_CVXOPT_SCRIPT");
  if (!script || access("/usr/bin/python3", X_OK) != 0) {
    printf("skipped: /usr/bin/python3 or QCP_CVXOPT_SCRIPT missing\n");
    return 77;
  }
  if (system("/usr/bin/python3 -c 'import cvxopt' 2>/dev/null") != 0) {
    printf("skipped: cvxopt not importable by /usr/bin/python3\n");
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cvxopt_mixed),
      cmocka_unit_test(test_cvxopt_random),
      cmocka_unit_test(test_cvxopt_family),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
