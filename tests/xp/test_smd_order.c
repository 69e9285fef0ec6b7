// SPDX-License-Identifier: MIT
// Observed order of the three Euler schemes on a non-stiff spring–mass–damper, against the
// exact solution: a halving sequence of h, the table, and a least-squares fit of the order.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "scenarios/smd.h"
#include "xp/xp_common.h"

// slope of log(err) against log(h), least squares over every point (each error finite and > 0)
static double fit_order(const double *h, const double *err, int n) {
  size_t used = 0;
  const double order = xp_loglog_slope(h, err, (size_t)n, &used);
  assert_int_equal(used, n);
  return order;
}

static void test_order_one(void **state) {
  (void)state;
  // ω = 2 rad/s, ζ = 0.1: non-stiff, ωh ≤ 0.02 over the sequence
  const smd_params p = {.m = 1, .k = 4, .b = 0.4, .f = 0};
  const double T = 2, x0 = 1, v0 = 0;
  double xe, ve;
  smd_exact(&p, x0, v0, T, &xe, &ve);
  for (int s = 0; s < SMD_SCHEME_COUNT; s++) {
    enum { N = 6 };
    double hs[N], errs[N];
    printf("%s\n%-12s %-12s %s\n", smd_scheme_description((smd_scheme)s), "h", "error", "order");
    for (int i = 0; i < N; i++) {
      hs[i] = 0.01 / pow(2, i);
      size_t n = (size_t)llround(T / hs[i]);
      smd_run run = smd_simulate((smd_scheme)s, &p, hs[i], x0, v0, n, NULL, NULL);
      errs[i] = hypot(run.x_final - xe, (run.v_final - ve) / 2);  // |v| scaled by ω
      if (i == 0)
        printf("%-12.4g %-12.4e\n", hs[i], errs[i]);
      else
        printf("%-12.4g %-12.4e %.4f\n", hs[i], errs[i], log(errs[i - 1] / errs[i]) / log(2));
    }
    double order = fit_order(hs, errs, N);
    printf("fitted order %.4f (expected 1.0 ± 0.1)\n\n", order);
    assert_true(fabs(order - 1.0) <= 0.1);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_order_one)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
