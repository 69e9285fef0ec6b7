// SPDX-License-Identifier: MIT
// A conic subproblem dumped from a step of paper A's foundation (n = 10, E = 1e11, F = 50, paper
// formulation; data/foundation_step.txt: 96 variables, 6 equalities, 180 orthant rows, exact hex
// floats), solved from a cold start with the step's settings (eps 1e-11, 50 iterations) and
// checked independently (qcp_check on the original data). Its cold run from ρ = 1e4 takes steps
// 0.47, 0.01, 0.02 and then full ones; switched to the ρ = 1 point after the short second step,
// it converged to a point where the primal residual stayed at 1.3e-11 relative to the limit.
// cmocka.h needs the standard headers first
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
// clang-format on

#include "qcp/qcp.h"

typedef struct step_mat {
  int nrows, ncols, nnz;
  int *p, *i;
  double *x;
} step_mat;

// reads "NAME nrows ncols nnz" then colptr, rowind, values; 0 or -1
static int read_mat(FILE *f, const char *name, step_mat *m) {
  char nm[8];
  if (fscanf(f, "%7s %d %d %d", nm, &m->nrows, &m->ncols, &m->nnz) != 4 || strcmp(nm, name))
    return -1;
  m->p = malloc(sizeof(int) * (size_t)(m->ncols + 1));
  m->i = malloc(sizeof(int) * (size_t)(m->nnz + 1));
  m->x = malloc(sizeof(double) * (size_t)(m->nnz + 1));
  if (!m->p || !m->i || !m->x) return -1;
  for (int j = 0; j <= m->ncols; j++)
    if (fscanf(f, "%d", &m->p[j]) != 1) return -1;
  for (int k = 0; k < m->nnz; k++)
    if (fscanf(f, "%d", &m->i[k]) != 1) return -1;
  for (int k = 0; k < m->nnz; k++)
    if (fscanf(f, "%la", &m->x[k]) != 1) return -1;
  return 0;
}

// reads "NAME n" then n values into a fresh array; NULL on failure
static double *read_vec(FILE *f, const char *name, int n) {
  char nm[8];
  int len;
  double *v = malloc(sizeof(double) * (size_t)(n + 1));
  if (!v || fscanf(f, "%7s %d", nm, &len) != 2 || strcmp(nm, name) || len != n)
    return free(v), NULL;
  for (int k = 0; k < n; k++)
    if (fscanf(f, "%la", &v[k]) != 1) return free(v), NULL;
  return v;
}

static void mat_free(step_mat *m) { free(m->p), free(m->i), free(m->x); }

static void test_foundation_step(void **state) {
  (void)state;
  const char *path = getenv("QCP_STEP_FILE");
  assert_non_null(path);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  int n, p, l, nsoc;
  assert_int_equal(fscanf(f, "qcp_problem n %d p %d l %d nsoc %d", &n, &p, &l, &nsoc), 4);
  assert_int_equal(nsoc, 0);
  step_mat P = {0}, A = {0}, G = {0};
  assert_int_equal(read_mat(f, "P", &P), 0);
  assert_int_equal(read_mat(f, "A", &A), 0);
  assert_int_equal(read_mat(f, "G", &G), 0);
  double *c = read_vec(f, "c", n), *b = read_vec(f, "b", p), *h = read_vec(f, "h", l);
  fclose(f);
  assert_true(c && b && h);
  qcp_problem prob = {.n = n,
                      .p = p,
                      .l = l,
                      .nsoc = 0,
                      .q = NULL,
                      .P = {n, n, P.p, P.i, P.x},
                      .A = {p, n, A.p, A.i, A.x},
                      .G = {l, n, G.p, G.i, G.x},
                      .c = c,
                      .b = b,
                      .h = h};
  qcp_settings set = qcp_settings_default();
  set.eps_abs = set.eps_rel = 1e-11;  // paper A's step (mbs settings qcp_eps)
  set.cold_rho = 1e4;                 // and its all-active cold start
  qcp_workspace *ws = NULL;
  qcp_error err;
  assert_int_equal(qcp_setup(&ws, &prob, &set, &err), 0);
  assert_int_equal(qcp_solve(ws, QCP_START_COLD, NULL, NULL, NULL, NULL, &err), 0);
  const qcp_info *info = qcp_info_get(ws);
  qcp_check_result cr;
  qcp_check(&prob, qcp_solution_x(ws), qcp_solution_s(ws), qcp_solution_y(ws), qcp_solution_z(ws),
            &cr);
  printf("foundation step: %s after %d iterations, check pres %.1e dres %.1e gap %.1e\n",
         qcp_status_string(info->status), info->iterations, cr.pres_rel, cr.dres_rel, cr.gap_rel);
  assert_int_equal(info->status, QCP_SOLVED);
  assert_true(qcp_check_passes(&cr, 1e-11));
  qcp_workspace_free(ws);
  mat_free(&P), mat_free(&A), mat_free(&G);
  free(c), free(b), free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_foundation_step)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
