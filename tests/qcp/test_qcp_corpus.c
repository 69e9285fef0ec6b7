// SPDX-License-Identifier: MIT
// Regression corpus of hard contact problems, each solved from a cold start with the
// default settings and checked independently (qcp_check on the original data):
//  * relaxed: small ill-conditioned relaxed contact QPs of SPEC §1.3 in the lifted form
//      min ½λᵀCλ + ½wᵀMw − ĉᵀλ  s.t.  M w − Jᵀλ = 0,  λ ≥ 0,
//    1–6 rows on 4 dofs, stiffness K log-uniform in [1e3, 1e15] (C = 1/(h²K + hB) down to 1e-11
//    next to masses of order 1), some rows open far from closing, seeded (the steps of this kind
//    that ended max-iterations or inaccurate in simulations);
//  * open stack: a vertical chain whose rows are all open and far from closing (cold start used
//    to cycle to max-iterations with λ = −241 N); the solution is λ = 0;
//  * foundation: the generated elastic-foundation family (experiments/qcp_gen.c) at 100 and 900
//    rows over several seeds (stiffness up to 1e11 N/m).
// The harness cannot dump a time step's subproblem from the command line (mbs settings have
// dump_path/dump_step but no `stabcon run` option), so these generated problems stand in for the
// dumped foundation step 0 and stack step.
// cmocka.h needs the standard headers first
// clang-format off
#include <math.h>
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
#include "qcp_gen.h"

#define H 0.01
#define NDOF 4
#define MAXROW 6

static uint64_t rng_next(uint64_t *st) {  // splitmix64
  uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static double uni(uint64_t *st, double a, double b) {
  return a + (b - a) * (double)(rng_next(st) >> 11) * 0x1.0p-53;
}

// solves g cold with default settings; returns 1 if solved and the checker passes at tol
static int solve_ok(const qcp_gen *g, double tol, const char *name, int *iters) {
  qcp_workspace *ws = NULL;
  qcp_error err;
  qcp_settings set = qcp_settings_contact();     // contact problems: as the steps solve them
  const char *v = getenv("QCP_CORPUS_VERBOSE");  // e.g. "seed 406 " to trace one problem
  set.verbose = v && strstr(name, v) ? 1 : 0;
  if (getenv("QCP_CORPUS_EQUIL")) set.equilibrate = atoi(getenv("QCP_CORPUS_EQUIL"));
  if (qcp_setup(&ws, &g->prob, &set, &err)) return print_error("%s: %s\n", name, err.message), 0;
  qcp_solve(ws, QCP_START_COLD, NULL, NULL, NULL, NULL, &err);
  const qcp_info *info = qcp_info_get(ws);
  qcp_check_result cr;
  qcp_check(&g->prob, qcp_solution_x(ws), qcp_solution_s(ws), qcp_solution_y(ws),
            qcp_solution_z(ws), &cr);
  int ok = info->status == QCP_SOLVED && qcp_check_passes(&cr, tol);
  if (!ok)
    print_error("%s: %s after %d iterations, check pres %.1e dres %.1e gap %.1e\n", name,
                qcp_status_string(info->status), info->iterations, cr.pres_rel, cr.dres_rel,
                cr.gap_rel);
  *iters = info->iterations;
  qcp_workspace_free(ws);
  return ok;
}

// one seeded relaxed problem with r rows (dense, lifted)
static int make_relaxed(qcp_gen *g, unsigned seed) {
  uint64_t st = 0xc0ffeeULL + 7919ULL * seed;
  int r = 1 + (int)(rng_next(&st) % MAXROW), n = r + NDOF;
  double P[(MAXROW + NDOF) * (MAXROW + NDOF)] = {0}, A[NDOF * (MAXROW + NDOF)] = {0};
  double G[MAXROW * (MAXROW + NDOF)] = {0}, c[MAXROW + NDOF] = {0}, b[NDOF] = {0}, h[MAXROW] = {0};
  double M[NDOF], vf[NDOF], J[MAXROW][NDOF];
  for (int d = 0; d < NDOF; d++) M[d] = pow(10.0, uni(&st, -1, 1)), vf[d] = uni(&st, -1, 1);
  for (int i = 0; i < r; i++) {
    double K = pow(10.0, uni(&st, 3, 15)), B = uni(&st, 0, 1) < 0.5 ? 0.0 : pow(10, uni(&st, 0, 4));
    double phi = uni(&st, 0, 1) < 0.3 ? uni(&st, 1e-2, 1e-1) : uni(&st, -1e-3, 1e-3);
    double D = H * H * K + H * B, jv = 0.0;
    for (int d = 0; d < NDOF; d++) J[i][d] = uni(&st, -1, 1), jv += J[i][d] * vf[d];
    P[i * n + i] = 1.0 / D;
    c[i] = (K * phi + (H * K + B) * jv) / D;  // −ĉ with c_i = −Kφ − (hK + B) J v_free
    G[i * n + i] = -1.0;                      // λ_i = s_i ≥ 0
    for (int d = 0; d < NDOF; d++) A[d * n + i] = -J[i][d];
  }
  for (int d = 0; d < NDOF; d++) P[(r + d) * n + r + d] = M[d], A[d * n + r + d] = M[d];
  int rc = qcp_gen_dense(g, n, NDOF, r, 0, NULL, P, A, G, c, b, h);
  snprintf(g->name, sizeof g->name, "relaxed seed %u (%d rows)", seed, r);
  return rc;
}

static void test_relaxed(void **state) {
  (void)state;
  int solved = 0, total = 600, worst = 0;
  for (unsigned seed = 1; seed <= (unsigned)total; seed++) {
    qcp_gen g;
    assert_int_equal(make_relaxed(&g, seed), 0);
    int it = 0;
    solved += solve_ok(&g, 1e-7, g.name, &it);
    worst = it > worst ? it : worst;
    qcp_gen_free(&g);
  }
  printf("relaxed: %d of %d solved and checked (most iterations %d)\n", solved, total, worst);
  assert_int_equal(solved, total);
}

// a vertical chain of nb bodies (1 dof each) with a row between neighbours and one to the
// ground, every row open by 5–50 cm: the solution is λ = 0, w = 0
static int make_open_stack(qcp_gen *g, int nb, unsigned seed) {
  uint64_t st = 0x5ca1eULL + seed;
  int r = nb, n = r + nb;
  double *P = calloc((size_t)n * n, sizeof *P), *A = calloc((size_t)nb * n, sizeof *A);
  double *G = calloc((size_t)r * n, sizeof *G), *c = calloc((size_t)n, sizeof *c);
  double *b = calloc((size_t)nb, sizeof *b), *h = calloc((size_t)r, sizeof *h);
  int rc = -1;
  if (P && A && G && c && b && h) {
    for (int i = 0; i < r; i++) {
      double K = pow(10.0, uni(&st, 6, 11)), D = H * H * K, phi = uni(&st, 0.05, 0.5);
      double vrel = i == 0 ? -9.81 * H : 0.0;  // free fall: only the ground row closes, at g h
      P[i * n + i] = 1.0 / D;
      c[i] = (K * phi + H * K * vrel) / D;
      G[i * n + i] = -1.0;
      // row i acts on body i (up) and body i − 1 (down)
      A[i * n + i] = -1.0;
      if (i > 0) A[(i - 1) * n + i] = 1.0;
    }
    for (int d = 0; d < nb; d++) P[(r + d) * n + r + d] = 1.0, A[d * n + r + d] = 1.0;
    rc = qcp_gen_dense(g, n, nb, r, 0, NULL, P, A, G, c, b, h);
  }
  snprintf(g->name, sizeof g->name, "open stack %d seed %u", nb, seed);
  free(P), free(A), free(G), free(c), free(b), free(h);
  return rc;
}

static void test_open_stack(void **state) {
  (void)state;
  for (unsigned seed = 1; seed <= 20; seed++) {
    qcp_gen g;
    assert_int_equal(make_open_stack(&g, 2 + (int)seed % 9, seed), 0);
    int it = 0;
    assert_true(solve_ok(&g, 1e-7, g.name, &it));
    qcp_gen_free(&g);
  }
}

static void test_foundation(void **state) {
  (void)state;
  int sizes[] = {100, 900};
  for (int k = 0; k < 2; k++)
    for (unsigned seed = 1; seed <= 10; seed++) {
      qcp_gen g;
      assert_int_equal(qcp_gen_foundation(&g, sizes[k], seed, 0), 0);
      int it = 0;
      assert_true(solve_ok(&g, 1e-7, g.name, &it));
      qcp_gen_free(&g);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_relaxed),
      cmocka_unit_test(test_open_stack),
      cmocka_unit_test(test_foundation),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
