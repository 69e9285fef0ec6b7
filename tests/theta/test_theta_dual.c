// SPDX-License-Identifier: MIT
// The two contact solvers agree: paper B's primal Newton and the lifted dual conic QP solved by
// qcp give the same impulses on random coupled problems (every cone kind, μ = 0 included) and the
// same spring–cylinder trajectories.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "theta_test_util.h"

static double urand(unsigned *state, double lo, double hi) {
  *state = *state * 1664525u + 1013904223u;
  return lo + (hi - lo) * ((double)(*state >> 8) / 16777216.0);
}

// worst relative difference of Newton and qcp impulses over 200 random problems at dual_tol
static double random_problems_worst(double dual_tol, int *unsolved) {
  const int nv = 5;
  theta_contact_problem *p = theta_contact_problem_create(nv, 9, 45);
  theta_newton *nw = theta_newton_create(nv, 9);
  theta_dual *dual = theta_dual_create(nv, 9, 45);
  assert_non_null(dual);
  theta_contact_settings s = theta_contact_settings_default();
  s.dual_tol = dual_tol;
  unsigned seed = 99;
  double worst = 0;
  int iters_max = 0;
  *unsolved = 0;
  for (int trial = 0; trial < 200; trial++) {
    theta_contact_problem_clear(p);
    double B[25];
    for (int i = 0; i < 25; i++) B[i] = urand(&seed, -1, 1);
    for (int i = 0; i < nv; i++)
      for (int j = 0; j < nv; j++) {
        double a = i == j ? 0.5 : 0;
        for (int k = 0; k < nv; k++) a += B[k * nv + i] * B[k * nv + j];
        p->A[i * nv + j] = a, p->M[i * nv + j] = i == j ? a : 0;
      }
    for (int j = 0; j < nv; j++) p->vstar[j] = urand(&seed, -1, 1);
    // 2-D cone, 3-D cone, normal-only, a free row, and a 2-D cone with μ = 0
    const int dims[5] = {2, 3, 1, 1, 2};
    for (int c = 0; c < 5; c++) {
      double jac[15], vhat[3] = {0, 0, 0}, R[3];
      for (int i = 0; i < dims[c] * nv; i++) jac[i] = urand(&seed, -1, 1);
      const double rt = pow(10, urand(&seed, -3, -1)), rn = pow(10, urand(&seed, -2, 0));
      for (int i = 0; i < dims[c]; i++) R[i] = i == dims[c] - 1 ? rn : rt;
      vhat[dims[c] - 1] = urand(&seed, -0.3, 0.3);
      const double mu = c == 4 ? 0 : urand(&seed, 0.1, 1.2);
      theta_contact_problem_add(p, c == 3 ? THETA_CONTACT_FREE : THETA_CONTACT_CONE, mu, dims[c],
                                jac, vhat, R);
    }
    double vn[5], vd[5], gn[9], gd[9];
    memcpy(vn, p->vstar, sizeof vn);
    theta_contact_info in, id;
    assert_int_equal(theta_newton_solve(nw, p, &s, vn, gn, &in), 0);
    const int rc = theta_dual_solve(dual, p, &s, vd, gd, &id);
    if (rc < 0) fail_msg("trial %d: qcp setup or solve failed", trial);
    if (rc > 0) {
      (*unsolved)++;
      continue;
    }
    double scale = 0, diff = 0;
    for (int r = 0; r < p->nrows; r++)
      scale = fmax(scale, fabs(gn[r])), diff = fmax(diff, fabs(gn[r] - gd[r]));
    worst = fmax(worst, diff / fmax(scale, 1e-3));
    iters_max = id.iterations > iters_max ? id.iterations : iters_max;
  }
  printf(
      "dual_tol %.0e: worst relative impulse difference %.3g over 200 random problems, qcp "
      "iterations <= %d, %d not solved to tolerance\n",
      dual_tol, worst, iters_max, *unsolved);
  theta_dual_free(dual);
  theta_newton_free(nw);
  theta_contact_problem_free(p);
  return worst;
}

// the difference is qcp's complementarity tolerance: it shrinks with dual_tol
static void test_random_problems_agree(void **state) {
  (void)state;
  int unsolved_default, unsolved_tight;
  const double at_default = random_problems_worst(1e-9, &unsolved_default);
  const double at_tight = random_problems_worst(1e-11, &unsolved_tight);
  if (unsolved_default > 0)
    fail_msg("%d problems not solved by qcp at dual_tol 1e-9", unsolved_default);
  if (!(at_default <= 1e-4))
    fail_msg("Newton and qcp impulses differ by %.3g > 1e-4 (relative)", at_default);
  if (!(at_tight <= 0.2 * at_default))
    fail_msg("difference did not shrink with dual_tol: %.3g at 1e-9, %.3g at 1e-11", at_default,
             at_tight);
}

// the cylinder run with each solver: same x(t) and impulses
static void test_cylinder_agrees(void **state) {
  (void)state;
  for (int mu = 0; mu <= 1; mu++) {
    spring_cylinder sc;
    spring_cylinder_params prm = spring_cylinder_params_default();
    prm.mu = mu;
    spring_cylinder_init(&sc, &prm);
    theta_settings s = theta_settings_default();
    theta_workspace *a = theta_workspace_create(&sc.model, &s, NULL);
    s.contact.solver = THETA_SOLVER_QCP;
    theta_workspace *b = theta_workspace_create(&sc.model, &s, NULL);
    assert_non_null(a), assert_non_null(b);
    double qa[3], va[3], qb[3], vb[3], dx = 0, dg = 0;
    spring_cylinder_initial_state(&sc, qa, va);
    spring_cylinder_initial_state(&sc, qb, vb);
    for (int i = 0; i < 250; i++) {
      assert_int_equal(theta_step(a, i * 0.02, 0.02, qa, va, qa, va), THETA_OK);
      theta_status st = theta_step(b, i * 0.02, 0.02, qb, vb, qb, vb);
      if (st != THETA_OK)
        fail_msg("mu = %d step %d: qcp path status %s", mu, i, theta_status_name(st));
      dx = fmax(dx, fabs(qa[0] - qb[0]));
      for (int r = 0; r < 2; r++)
        dg = fmax(dg, fabs(theta_step_gamma(a)[r] - theta_step_gamma(b)[r]));
    }
    const double mgdt = prm.m * prm.g * 0.02;
    printf(
        "mu = %d, 250 midpoint steps: max |x_newton − x_qcp| = %.3g m, max |Δγ| = %.3g N s "
        "(m g δt = %.4g), qcp iterations in the last step %d\n",
        mu, dx, dg, mgdt, theta_step_info(b)->contact.iterations);
    if (!(dx <= 1e-7 * prm.x0 && dg <= 1e-6 * mgdt))
      fail_msg("mu = %d: solvers disagree (dx %g, dγ %g)", mu, dx, dg);
    theta_workspace_free(a);
    theta_workspace_free(b);
  }
}

// the dual tolerance takes effect on a reused workspace (qcp settings follow the theta settings
// without a new pattern), and a loose tolerance above qcp's inaccurate level still solves
static void test_dual_tolerance_follows_settings(void **state) {
  (void)state;
  spring_cylinder sc;
  spring_cylinder_params prm = spring_cylinder_params_default();
  prm.mu = 1;
  spring_cylinder_init(&sc, &prm);
  theta_settings s = theta_settings_default();
  s.contact.solver = THETA_SOLVER_QCP;
  s.contact.dual_tol = 1e-12;
  theta_workspace *ws = theta_workspace_create(&sc.model, &s, NULL);
  assert_non_null(ws);
  double q[3], v[3];
  spring_cylinder_initial_state(&sc, q, v);
  const double tols[] = {1e-12, 1e-2, 1e-12};
  int iters[3];
  for (int k = 0; k < 3; k++) {
    s.contact.dual_tol = tols[k];
    assert_int_equal(theta_workspace_set_settings(ws, &s, NULL), 0);
    double qk[3], vk[3];
    memcpy(qk, q, sizeof q), memcpy(vk, v, sizeof v);
    theta_status st = theta_step(ws, 0, 0.02, qk, vk, qk, vk);
    iters[k] = theta_step_info(ws)->contact.iterations;
    printf("dual_tol %.0e on a reused workspace: %s, %d qcp iterations\n", tols[k],
           theta_status_name(st), iters[k]);
    assert_int_equal(st, THETA_OK);
  }
  assert_true(iters[1] < iters[0]);  // the loose tolerance stops earlier
  assert_int_equal(iters[2], iters[0]);
  theta_workspace_free(ws);
}

// a friction coefficient that is NaN or negative is refused as a bad row (both contact solvers)
static void test_bad_mu(void **state) {
  (void)state;
  const double mus[] = {NAN, -0.5};
  for (int solver = 0; solver < 2; solver++)
    for (int k = 0; k < 2; k++) {
      spring_cylinder sc;
      spring_cylinder_params prm = spring_cylinder_params_default();
      prm.mu = mus[k];
      spring_cylinder_init(&sc, &prm);
      theta_settings s = theta_settings_default();
      s.contact.solver = solver ? THETA_SOLVER_QCP : THETA_SOLVER_NEWTON;
      theta_workspace *ws = theta_workspace_create(&sc.model, &s, NULL);
      assert_non_null(ws);
      double q[3], v[3];
      spring_cylinder_initial_state(&sc, q, v);
      theta_status st = theta_step(ws, 0, 0.02, q, v, q, v);
      printf("mu = %g, %s: %s\n", mus[k], solver ? "qcp" : "newton", theta_status_name(st));
      assert_int_equal(st, THETA_BAD_ROW);
      assert_int_equal(theta_step(ws, 0, -0.02, q, v, q, v), THETA_NONFINITE);  // h < 0
      theta_workspace_free(ws);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_problems_agree),
      cmocka_unit_test(test_cylinder_agrees),
      cmocka_unit_test(test_dual_tolerance_follows_settings),
      cmocka_unit_test(test_bad_mu),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
