// SPDX-License-Identifier: MIT
// Reference integrators on the spring–mass–damper against its exact solution: CVODE BDF,
// CVODE BDF order 1 and GSL RK45 each reach the closed form to within a small multiple of
// their tolerance, and agree with each other; budgets and callback failures become statuses.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ref/ref_ode.h"
#include "scenarios/smd.h"

static int smd_rhs(double t, const double *y, double *ydot, void *ctx) {
  (void)t;
  const smd_params *p = ctx;
  ydot[0] = y[1];
  ydot[1] = (p->f - p->b * y[1] - p->k * y[0]) / p->m;
  return 0;
}

static int smd_jac(double t, const double *y, double *J, void *ctx) {
  (void)t, (void)y;
  const smd_params *p = ctx;
  J[0] = 0, J[1] = -p->k / p->m;  // column 0: ∂/∂x
  J[2] = 1, J[3] = -p->b / p->m;  // column 1: ∂/∂v
  return 0;
}

typedef struct accuracy_case {
  const char *label;
  smd_params p;
  double T;
  ref_method method;
  double tol;
  int analytic_jac;
} accuracy_case;

// max over 10 output times of the energy-scaled error against the exact solution
static double max_error(const accuracy_case *c, ref_stats *stats, double *y_end) {
  enum { NOUT = 10 };
  double t_out[NOUT], y_out[2 * NOUT];
  for (int i = 0; i < NOUT; i++) t_out[i] = c->T * (i + 1) / NOUT;
  ref_ode ode = {2, smd_rhs, c->analytic_jac ? smd_jac : NULL, (void *)&c->p};
  ref_ode_settings set = ref_ode_settings_default();
  set.rtol = set.atol = c->tol;
  ref_ode_integrate(&ode, c->method, &set, 0, (double[]){1, 0}, t_out, NOUT, y_out, stats);
  double w = sqrt(c->p.k / c->p.m), worst = 0;
  for (int i = 0; i < NOUT; i++) {
    double x, v;
    smd_exact(&c->p, 1, 0, t_out[i], &x, &v);
    worst = fmax(worst, hypot(y_out[2 * i] - x, (y_out[2 * i + 1] - v) / w));
  }
  y_end[0] = y_out[2 * NOUT - 2], y_end[1] = y_out[2 * NOUT - 1];
  return worst;
}

static void test_accuracy_against_exact(void **state) {
  (void)state;
  const smd_params soft = {.m = 1, .k = 4, .b = 0.4, .f = 0};
  const smd_params stiff = {.m = 1, .k = 1e6, .b = 1, .f = 0};
  const accuracy_case cases[] = {
      {"soft", soft, 5, REF_CVODE_BDF, 1e-10, 0}, {"soft", soft, 5, REF_RK45, 1e-10, 0},
      {"soft", soft, 5, REF_CVODE_BDF1, 1e-6, 1}, {"stiff", stiff, 0.05, REF_CVODE_BDF, 1e-10, 1},
      {"stiff", stiff, 0.05, REF_RK45, 1e-10, 0}, {"stiff", stiff, 0.05, REF_CVODE_BDF1, 1e-6, 0},
  };
  // The damped oscillator does not amplify errors (ρ ≤ 1 along the flow), so the global error
  // is at most the sum of the local errors each step accepted: steps × tol × |y| (|y| ≤ 1).
  printf("%-6s %-11s %-8s %-12s %-10s %-8s %-8s %-8s %-5s\n", "case", "method", "tol", "max error",
         "error/tol", "steps", "rhs", "jac", "order");  // bound: error/tol < steps
  double ends[6][2];
  long steps[6];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ref_stats st;
    double err = max_error(&cases[i], &st, ends[i]);
    printf("%-6s %-11s %-8.0e %-12.3e %-10.1f %-8ld %-8ld %-8ld %-5d\n", cases[i].label,
           ref_method_name(cases[i].method), cases[i].tol, err, err / cases[i].tol, st.steps,
           st.rhs_evals, st.jac_evals, st.order_max);
    assert_int_equal(st.status, REF_OK);
    // BDF1 really is first order (paper A's "ode15s at order 1"); variable-order BDF goes higher
    if (cases[i].method == REF_CVODE_BDF1) assert_int_equal(st.order_max, 1);
    if (cases[i].method == REF_CVODE_BDF) assert_true(st.order_max >= 2);
    assert_true(err < (double)st.steps * cases[i].tol);
    steps[i] = st.steps;
  }
  // CVODE and RK45 agree with each other to their tolerances (soft and stiff)
  for (int g = 0; g < 2; g++) {
    double d = hypot(ends[3 * g][0] - ends[3 * g + 1][0],
                     (ends[3 * g][1] - ends[3 * g + 1][1]) / sqrt(cases[3 * g].p.k));
    printf("%s: |CVODE BDF − RK45| at T = %.3e\n", cases[3 * g].label, d);
    assert_true(d < (double)(steps[3 * g] + steps[3 * g + 1]) * 1e-10);
  }
}

static int failing_rhs(double t, const double *y, double *ydot, void *ctx) {
  (void)ctx;
  ydot[0] = y[1], ydot[1] = -y[0];
  return t > 0.5 ? -1 : 0;
}

static int nan_rhs(double t, const double *y, double *ydot, void *ctx) {
  (void)ctx;
  ydot[0] = y[1], ydot[1] = t > 0.3 ? NAN : -y[0];
  return 0;  // claims success: the integrators must still stop
}

static void test_budget_and_failure_are_statuses(void **state) {
  (void)state;
  const smd_params stiff = {.m = 1, .k = 1e10, .b = 0, .f = 0};
  ref_ode ode = {2, smd_rhs, NULL, (void *)&stiff};
  double t_out[2] = {0.5, 10}, y_out[4];
  ref_ode_settings set = ref_ode_settings_default();
  set.max_steps = 100;  // RK45 on k = 1e10 needs ~1e6 steps per second: stops early
  ref_stats st;
  assert_int_equal(
      ref_ode_integrate(&ode, REF_RK45, &set, 0, (double[]){1, 0}, t_out, 2, y_out, &st),
      REF_DID_NOT_FINISH);
  printf("did-not-finish: %s (t_reached %g)\n", st.error.message, st.t_reached);
  assert_true(st.t_reached < 0.5 && isnan(y_out[0]) && isnan(y_out[3]));
  set.max_steps = 0;
  set.wall_budget = 1e-3;
  assert_int_equal(
      ref_ode_integrate(&ode, REF_RK45, &set, 0, (double[]){1, 0}, t_out, 2, y_out, &st),
      REF_DID_NOT_FINISH);
  assert_true(isnan(y_out[3]));
  // CVODE's step budget too
  set.wall_budget = 0, set.max_steps = 10;
  for (int m = REF_CVODE_BDF; m <= REF_CVODE_BDF1; m++)
    assert_int_equal(
        ref_ode_integrate(&ode, (ref_method)m, &set, 0, (double[]){1, 0}, t_out, 2, y_out, &st),
        REF_DID_NOT_FINISH);
  // a right-hand side that returns NaN with code 0 stops every integrator with a message
  ref_ode nan_ode = {2, nan_rhs, NULL, NULL};
  for (int m = 0; m < REF_METHOD_COUNT; m++) {
    ref_status s =
        ref_ode_integrate(&nan_ode, (ref_method)m, NULL, 0, (double[]){1, 0}, t_out, 2, y_out, &st);
    printf("%s with a NaN right-hand side: %s (%s)\n", ref_method_name((ref_method)m),
           ref_status_name(s), st.error.message);
    assert_int_equal(s, REF_SOLVER_FAILED);
    assert_non_null(strstr(st.error.message, "not finite"));
    assert_true(isnan(y_out[3]));
  }
  ref_ode bad = {2, failing_rhs, NULL, NULL};
  for (int m = 0; m < REF_METHOD_COUNT; m++) {
    ref_status s =
        ref_ode_integrate(&bad, (ref_method)m, NULL, 0, (double[]){1, 0}, t_out, 2, y_out, &st);
    printf("%s with a failing callback: %s (%s)\n", ref_method_name((ref_method)m),
           ref_status_name(s), st.error.message);
    assert_int_equal(s, REF_CALLBACK_FAILED);
    assert_true(isnan(y_out[3]));
  }
  // bad input
  double back[2] = {1, 0.5};
  assert_int_equal(
      ref_ode_integrate(&ode, REF_RK45, NULL, 0, (double[]){1, 0}, back, 2, y_out, &st),
      REF_BAD_INPUT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_accuracy_against_exact),
      cmocka_unit_test(test_budget_and_failure_are_statuses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
