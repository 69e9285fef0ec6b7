// SPDX-License-Identifier: MIT
// Cone projection in the R-norm (paper B §IV): each region by hand, random points checked against
// the projection's optimality conditions, and the Hessian block G against finite differences.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "theta/theta_contact.h"

// fixed-seed uniform numbers in [lo, hi)
static double urand(unsigned *state, double lo, double hi) {
  *state = *state * 1664525u + 1013904223u;
  return lo + (hi - lo) * ((double)(*state >> 8) / 16777216.0);
}

static void assert_close(const char *what, double got, double want, double tol) {
  if (!(fabs(got - want) <= tol)) {
    fail_msg("%s: got %.17g, want %.17g (|diff| %.3g > tol %.3g)", what, got, want,
             fabs(got - want), tol);
  }
}

// planar hand cases: stiction, sliding (closed form by hand), separation, the normal-only cone
static void test_regions_by_hand(void **state) {
  (void)state;
  const double R[2] = {0.01, 0.5};
  double g[2], G[4];
  const double ys[2] = {0.3, 1.0};  // |y_t| ≤ μ y_n with μ = 0.5
  assert_int_equal(theta_cone_project(2, 0.5, R, ys, g, G), THETA_CONE_STICTION);
  assert_close("stiction γ_t", g[0], 0.3, 0), assert_close("stiction γ_n", g[1], 1.0, 0);
  assert_close("stiction G_tt", G[0], 100, 1e-12), assert_close("stiction G_tn", G[1], 0, 0);
  // sliding: μ̃² = μ²R_t/R_n = 0.005, μ̂ = μR_t/R_n = 0.01
  const double yl[2] = {-2.0, 1.0};
  assert_int_equal(theta_cone_project(2, 0.5, R, yl, g, G), THETA_CONE_SLIDING);
  const double gn = (1.0 + 0.01 * 2.0) / 1.005;
  assert_close("sliding γ_n", g[1], gn, 1e-15);
  assert_close("sliding γ_t", g[0], -0.5 * gn, 1e-15);
  assert_close("sliding G symmetric", G[1], G[2], 1e-15);
  const double ysep[2] = {0.1, -1.0};
  assert_int_equal(theta_cone_project(2, 0.5, R, ysep, g, G), THETA_CONE_SEPARATED);
  assert_close("separated γ_t", g[0], 0, 0), assert_close("separated γ_n", g[1], 0, 0);
  assert_close("separated G", fabs(G[0]) + fabs(G[1]) + fabs(G[3]), 0, 0);
  // normal-only cone R₊
  double y1 = 2.0, g1, G1;
  assert_int_equal(theta_cone_project(1, 0, R + 1, &y1, &g1, &G1), THETA_CONE_STICTION);
  assert_close("R+ γ", g1, 2.0, 0), assert_close("R+ G", G1, 2.0, 1e-15);
  y1 = -1;
  assert_int_equal(theta_cone_project(1, 0, R + 1, &y1, &g1, &G1), THETA_CONE_SEPARATED);
  assert_close("R+ γ", g1, 0, 0);
  // μ = 0 gives the frictionless limit γ_t = 0, γ_n = max(y_n, 0)
  const double yz[2] = {3.0, 0.7};
  theta_cone_project(2, 0.0, R, yz, g, NULL);
  assert_close("mu=0 γ_t", g[0], 0, 0), assert_close("mu=0 γ_n", g[1], 0.7, 1e-15);
}

// γ = P(y) iff γ ∈ F, R(γ − y) ∈ F* and (γ − y)ᵀRγ = 0 (F* = {‖x_t‖ ≤ x_n/μ})
static void check_projection_conditions(int dim, double mu, const double *R, const double *y,
                                        const double *g) {
  const int nt = dim - 1;
  double gt = 0, rt = 0, r[3], comp = 0, scale = 0;
  for (int k = 0; k < dim; k++) {
    r[k] = R[k] * (g[k] - y[k]);
    comp += r[k] * g[k];
    scale += fabs(R[k] * y[k] * y[k]);
  }
  for (int k = 0; k < nt; k++) gt += g[k] * g[k], rt += r[k] * r[k];
  gt = sqrt(gt), rt = sqrt(rt);
  const double tol = 1e-12 * (1 + scale);
  if (gt > mu * g[nt] + 1e-12 * (1 + fabs(g[nt])))
    fail_msg("γ outside the cone: ‖γ_t‖ = %g > μγ_n = %g", gt, mu * g[nt]);
  if (nt == 0 ? r[0] < -tol : mu * rt > r[nt] + 1e-10 * (1 + fabs(r[nt])))
    fail_msg("R(γ − y) outside the dual cone: μ‖r_t‖ = %g > r_n = %g", mu * rt, r[nt]);
  if (fabs(comp) > tol) fail_msg("complementarity (γ − y)ᵀRγ = %g > %g", comp, tol);
}

static void test_random_points_optimality(void **state) {
  (void)state;
  unsigned seed = 12345;
  int counts[3] = {0, 0, 0};
  for (int trial = 0; trial < 3000; trial++) {
    const int dim = 1 + trial % 3;
    const double mu = trial % 7 == 0 ? 0 : urand(&seed, 0.05, 2.0);
    const double rt = pow(10, urand(&seed, -4, 1)), rn = pow(10, urand(&seed, -3, 1));
    double R[3] = {rt, rt, rt}, y[3], g[3];
    R[dim - 1] = rn;
    for (int k = 0; k < dim; k++) y[k] = urand(&seed, -2, 2);
    counts[theta_cone_project(dim, mu, R, y, g, NULL)]++;
    check_projection_conditions(dim, mu, R, y, g);
  }
  printf("regions over 3000 random points: stiction %d, sliding %d, separated %d\n", counts[0],
         counts[1], counts[2]);
  assert_true(counts[0] > 100 && counts[1] > 100 && counts[2] > 100);
}

// G = (∂γ/∂y)R⁻¹ against central differences, and symmetric
static void test_hessian_block_finite_differences(void **state) {
  (void)state;
  unsigned seed = 777;
  int checked = 0;
  for (int trial = 0; trial < 600; trial++) {
    const int dim = 2 + trial % 2;
    const double mu = urand(&seed, 0.1, 1.5);
    const double rt = pow(10, urand(&seed, -3, 0)), rn = pow(10, urand(&seed, -2, 0));
    double R[3] = {rt, rt, rt}, y[3], g[3], G[9];
    R[dim - 1] = rn;
    for (int k = 0; k < dim; k++) y[k] = urand(&seed, -2, 2);
    const theta_cone_region reg = theta_cone_project(dim, mu, R, y, g, G);
    const double eps = 1e-6;
    // skip points within 10 eps of a region boundary (the map is only piecewise smooth)
    int near = 0;
    for (int j = 0; j < dim && !near; j++)
      for (int sgn = -1; sgn <= 1; sgn += 2) {
        double yp[3] = {y[0], y[1], y[2]}, gp[3];
        yp[j] += sgn * 10 * eps;
        near |= theta_cone_project(dim, mu, R, yp, gp, NULL) != reg;
      }
    if (near) continue;
    for (int j = 0; j < dim; j++) {
      double yp[3] = {y[0], y[1], y[2]}, ym[3] = {y[0], y[1], y[2]}, gp[3], gm[3];
      yp[j] += eps, ym[j] -= eps;
      theta_cone_project(dim, mu, R, yp, gp, NULL);
      theta_cone_project(dim, mu, R, ym, gm, NULL);
      for (int i = 0; i < dim; i++) {
        const double fd = (gp[i] - gm[i]) / (2 * eps) / R[j];  // (∂γ_i/∂y_j)/R_j
        const double tol = 1e-6 * (1 + fabs(fd));
        if (fabs(G[i * dim + j] - fd) > tol)
          fail_msg("dim %d region %d: G[%d][%d] = %.10g, finite difference %.10g", dim, (int)reg, i,
                   j, G[i * dim + j], fd);
        if (fabs(G[i * dim + j] - G[j * dim + i]) > 1e-12 * (1 + fabs(G[i * dim + j])))
          fail_msg("G not symmetric at (%d, %d): %g vs %g", i, j, G[i * dim + j], G[j * dim + i]);
      }
    }
    checked++;
  }
  printf("G checked at %d points\n", checked);
  assert_true(checked > 400);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_regions_by_hand),
      cmocka_unit_test(test_random_points_optimality),
      cmocka_unit_test(test_hessian_block_finite_differences),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
