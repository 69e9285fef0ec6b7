// SPDX-License-Identifier: MIT
// The error floor of the constraint solver on the elastic foundation at light damping (paper A
// §5.5 case, B = 1): the closed form of implicit Euler on the linearised cube (ref/ref_winkler.h)
// against its own recursion and against the penalty ODE, then the measured error at T over a
// sweep of h (the foundation_ringing study) against the closed-form error model and against the
// exact model with element damping B + hK. `test_ref_foundation_ringing slow` adds h = 1e-6
// (1e6 steps per case) and E = 1e6.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mbs/mbs.h"
#include "ref/ref_ode.h"
#include "ref/ref_penalty.h"
#include "ref/ref_winkler.h"
#include "scenarios/foundation.h"
#include "xp/xp.h"
#include "xp/xp_common.h"
#include "xp/xp_file.h"

// after the headers above: complex.h defines I, a parameter name in mdl_rigid.h
#include <complex.h>

// the default cube (100 elements, E = 1e7, B = 1) with load F
static ref_winkler default_winkler(double F) {
  return (ref_winkler){.mass = 8,
                       .side = 1,
                       .k_total = 1e7,
                       .B = 1,
                       .g = 9.81,
                       .load = F,
                       .omega_load = 10,
                       .n = 10};
}

// x_N of m(x_{j+1} − 2x_j + x_{j−1})/h² + c(x_{j+1} − x_j)/h + k x_{j+1} = F0 e^{σ t_j} from rest,
// stepped as the constraint solver does (velocity first, then position)
static double complex recursion(const ref_winkler_mode *md, double complex F0, double complex sigma,
                                double h, long N) {
  double complex x = 0, v = 0;
  for (long j = 0; j < N; j++) {
    const double complex f = F0 * cexp(sigma * h * (double)j);
    // v+ = v + (h/m)(f − k(x + h v+) − c v+)
    v = (v + h / md->m * (f - md->k * x)) / (1 + h * md->c / md->m + h * h * md->k / md->m);
    x += h * v;
  }
  return x;
}

// The closed form's discrete solution is the recursion's, and its exact motion is the penalty
// ODE's until the first element lifts off (the heave overshoot reaches zero sag near t = 5 ms)
static void test_closed_form(void **state) {
  (void)state;
  const ref_winkler w = default_winkler(5);
  const ref_winkler_mode hv = ref_winkler_heave(&w), rk = ref_winkler_rocking(&w);
  const double h = 1e-4, T = 0.05;
  const long N = lround(T / h);
  const double complex z = recursion(&hv, -(w.mass * w.g + w.load), 0, h, N);
  const double complex u = recursion(&rk, w.load * w.side / 2, -I * w.omega_load, h, N);
  double ex[3], dq[3], st[3];
  ref_winkler_exact(&w, T, ex);
  ref_winkler_step_error(&w, h, T, dq);
  const double rec[3] = {creal(z), cimag(u) / 2, creal(u) / 2};
  for (int i = 0; i < 3; i++) {
    const double closed = ex[i] + dq[i];
    printf("component %d: recursion %.12e, closed form %.12e\n", i, rec[i], closed);
    assert_true(fabs(rec[i] - closed) <= 1e-9 * fabs(rec[i]) + 1e-18);
  }
  // numerical damping ω²h/2 for ωh ≪ 1
  const double a = ref_winkler_numerical_damping(&rk, 1e-7);
  printf("rocking: α(1e-7) = %.6g 1/s, ω²h/2 = %.6g 1/s\n", a, rk.omega * rk.omega * 1e-7 / 2);
  assert_true(fabs(a / (rk.omega * rk.omega * 1e-7 / 2) - 1) < 1e-3);
  // the exact motion against the penalty ODE (RK45 at 1e-11) at t = 4 ms, before any lift-off
  foundation_params fp = foundation_params_default();
  foundation fd;
  foundation_init(&fd, &fp);
  double y0[13], y[13];
  foundation_initial_state(&fd, y0, y0 + 7);
  ref_penalty pen;
  sc_error serr = {0};
  mdl_eval_settings es = mdl_eval_settings_default();
  es.use_bias = 0;
  assert_int_equal(ref_penalty_init(&pen, &fd.model, &es, &serr), 0);
  ref_ode_settings rs = ref_ode_settings_default();
  rs.rtol = rs.atol = 1e-11;
  const double t = 4e-3;
  ref_stats rst;
  assert_int_equal(ref_ode_integrate(&pen.ode, REF_RK45, &rs, 0, y0, &t, 1, y, &rst), REF_OK);
  ref_penalty_free(&pen);
  ref_winkler_exact(&w, t, ex);
  ref_winkler_steady(&w, t, st);
  const double ode[3] = {y[2] - 0.5, y[4], y[5]};
  for (int i = 0; i < 3; i++) {
    printf("t = 4 ms, component %d: penalty ODE %.9e, closed form %.9e (steady %.3e)\n", i, ode[i],
           ex[i], st[i]);
    // within 1e-4 of the motion's size (the closed form linearises the rotation)
    assert_true(fabs(ode[i] - ex[i]) <= 1e-4 * (fabs(ex[i] - st[i]) + fabs(st[i])));
  }
}

// runs the foundation_ringing study with the given settings into a temporary file, opened
static xp_file *run_study(const char *const *sets, size_t nsets, char *path) {
  const xp_experiment *x = xp_experiment_find("foundation_ringing");
  assert_non_null(x);
  xp_params p;
  xp_error err;
  assert_int_equal(xp_params_init(&p, x->params, x->n_params, &err), XP_OK);
  for (size_t i = 0; i < nsets; i++) assert_int_equal(xp_params_set(&p, sets[i], &err), XP_OK);
  int fdn = mkstemp(path);
  close(fdn);
  xp_results *r = xp_results_create(path, x, &p, 0, NULL, &err);
  assert_non_null(r);
  xp_progress quiet = {0};
  assert_int_equal(x->run(&p, r, &quiet, &err), XP_OK);
  assert_int_equal(xp_results_commit(r, &err), XP_OK);
  xp_file *f = xp_file_open(path, &err);
  assert_non_null(f);
  return f;
}

static double stat_of(const xp_file *f, const char *c, const char *key) {
  double v = NAN;
  xp_file_case_stat(f, c, key, &v);
  return v;
}

// the step case of (E, F) at h, or NULL
static const char *step_case(const xp_file *f, double E, double F, double h) {
  for (size_t i = 0; i < xp_file_case_count(f); i++) {
    const char *c = xp_file_case_name(f, i);
    double e = NAN, fl = NAN, hh = NAN;
    xp_file_case_param(f, c, "E", &e), xp_file_case_param(f, c, "F", &fl);
    if (xp_file_case_param(f, c, "h", &hh) == 0 && e == E && fl == F && hh == h) return c;
  }
  return NULL;
}

// Every step case: the error model within 5 % of the measured error where it applies (all
// elements in contact, error above 10× the reference floor) and the step has damped the rocking
// out (α_rock T ≥ 1); within 15 % where it keeps a share of it (α_rock T < 1): the model's factor
// 1 − e^{−αT} treats the ringing as linear from t = 0, while the lift-offs of the first heave
// periods (which the closed form has not) depend on the damping too. The step within 5 % of its
// error from the exact model with element damping B + hK where that is computed (ωh ≤ 0.1);
// with `equiv`, at least one step has that comparison
static void check_cases(const xp_file *f, int equiv) {
  int n_model = 0, n_equiv = 0;
  printf("%-28s %-10s %-10s %-10s %-10s\n", "case", "error", "model", "B+hK", "gap");
  for (size_t i = 0; i < xp_file_case_count(f); i++) {
    const char *c = xp_file_case_name(f, i);
    if (strstr(c, "_reference")) continue;
    const double e = stat_of(f, c, "error_abs"), m = stat_of(f, c, "error_model"),
                 q = stat_of(f, c, "error_equiv"), gap = stat_of(f, c, "equiv_gap"),
                 fl = stat_of(f, c, "floor_abs");
    printf("%-28s %-10.3e %-10.3e %-10.3e %-10.3e\n", c, e, m, q, gap);
    assert_true(e > 0);
    const double tol = stat_of(f, c, "damping_rock_T") >= 1 ? 0.05 : 0.15;
    if (isfinite(m) && e > 10 * fl) assert_true(fabs(m / e - 1) <= tol), n_model++;
    if (isfinite(gap)) assert_true(gap <= 0.05 * e), n_equiv++;
  }
  printf("model checked at %d steps, B + hK at %d\n", n_model, n_equiv);
  assert_true(n_model > 0 && (n_equiv > 0 || !equiv));
}

// slope of log error over log h at the given steps of case (E, F)
static double fitted_slope(const xp_file *f, double E, double F, const double *hs, int n) {
  double err[8];
  assert_true(n <= 8);
  for (int i = 0; i < n; i++) {
    const char *c = step_case(f, E, F, hs[i]);
    assert_non_null(c);
    err[i] = stat_of(f, c, "error_abs");
  }
  size_t used = 0;
  const double slope = xp_loglog_slope(hs, err, (size_t)n, &used);
  assert_int_equal(used, n);  // every error finite and > 0
  return slope;
}

// E = 1e7, B = 1, h = 1e-2 … 1e-5: the model and B + hK hold; at 5 N the error is flat where
// the step has damped the ringing out (αT ≥ 3 for both modes: h = 1e-3 … 1e-5)
static void test_floor(void **state) {
  (void)state;
  char path[] = "/tmp/stabcon-test-ringing-XXXXXX";
  const char *sets[] = {"E=1e7", "F=5,50", "h=1e-2,1e-3,1e-4,1e-5"};
  xp_file *f = run_study(sets, 3, path);
  check_cases(f, 1);
  const double flat[3] = {1e-3, 1e-4, 1e-5};
  for (int i = 0; i < 3; i++) {
    const char *c = step_case(f, 1e7, 5, flat[i]);
    assert_true(stat_of(f, c, "damping_heave_T") >= 3 && stat_of(f, c, "damping_rock_T") >= 3);
  }
  const double slope = fitted_slope(f, 1e7, 5, flat, 3);
  printf("5 N: slope of the error over h = 1e-3 … 1e-5: %.3f (flat: |slope| ≤ 0.15)\n", slope);
  assert_true(fabs(slope) <= 0.15);
  xp_file_close(f);
  unlink(path);
}

// B = 100: the ringing is gone by T (e^{−309}), the error is the load's lag, first order
static void test_first_order_at_strong_damping(void **state) {
  (void)state;
  char path[] = "/tmp/stabcon-test-ringing-XXXXXX";
  const char *sets[] = {"E=1e7", "F=5", "B=100", "h=1e-2,1e-3,1e-4"};
  xp_file *f = run_study(sets, 4, path);
  check_cases(f, 0);
  const double hs[3] = {1e-2, 1e-3, 1e-4};
  const double order = fitted_slope(f, 1e7, 5, hs, 3);
  printf("B = 100: fitted order %.3f (expected 1 ± 0.1)\n", order);
  assert_true(fabs(order - 1) <= 0.1);
  xp_file_close(f);
  unlink(path);
}

// h = 1e-6 at E = 1e6 and 1e7: the model holds where all elements stay in contact and predicts
// the drop at 5 N; at 50 N, E = 1e7 the error rises from h = 1e-5 to 1e-6, and the step is then
// the exact model with damping B + hK: the rise is the model's own response to that damping
static void test_floor_fine(void **state) {
  (void)state;
  char path[] = "/tmp/stabcon-test-ringing-XXXXXX";
  const char *sets[] = {"E=1e6,1e7", "F=5,50", "h=1e-5,1e-6"};
  xp_file *f = run_study(sets, 3, path);
  check_cases(f, 1);
  const double e5 = stat_of(f, step_case(f, 1e7, 5, 1e-5), "error_abs"),
               e6 = stat_of(f, step_case(f, 1e7, 5, 1e-6), "error_abs");
  const double r5 = stat_of(f, step_case(f, 1e7, 50, 1e-5), "error_abs"),
               r6 = stat_of(f, step_case(f, 1e7, 50, 1e-6), "error_abs"),
               q6 = stat_of(f, step_case(f, 1e7, 50, 1e-6), "error_equiv");
  printf("E = 1e7, 5 N: %.3e → %.3e; 50 N: %.3e → %.3e (B + hK moves the exact model by %.3e)\n",
         e5, e6, r5, r6, q6);
  assert_true(e6 < 0.5 * e5);
  assert_true(r6 > r5);
  xp_file_close(f);
  unlink(path);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_closed_form),
      cmocka_unit_test(test_floor),
      cmocka_unit_test(test_first_order_at_strong_damping),
  };
  const struct CMUnitTest slow[] = {cmocka_unit_test(test_floor_fine)};
  if (argc > 1 && strcmp(argv[1], "slow") == 0) return cmocka_run_group_tests(slow, NULL, NULL);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
