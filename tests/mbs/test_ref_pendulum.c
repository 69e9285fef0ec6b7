// SPDX-License-Identifier: MIT
// The references themselves: the IDA rigid-joint solution of the pendulum model against the
// Jacobi-elliptic closed form, and the elliptic solution's own energy and period checks.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "ref/ref.h"
#include "scenarios/pendulum.h"

#include <math.h>
#include <stdio.h>

static void test_elliptic_self_consistency(void **state) {
  (void)state;
  // energy α̇² = 2ω0²(cos α − cos α0) along the solution, and α(T/4) = 0, α(T/2) = −α0
  const double w0 = 3.1, a0 = 2.0;
  double emax = 0;
  for (int i = 0; i <= 100; i++) {
    double a, ad;
    assert_int_equal(ref_pendulum_exact(w0, a0, 0.037 * i, &a, &ad), 0);
    emax = fmax(emax, fabs(ad * ad - 2 * w0 * w0 * (cos(a) - cos(a0))));
  }
  double T4 = ref_pendulum_quarter_period(w0, a0), a, ad, b, bd;
  assert_int_equal(ref_pendulum_exact(w0, a0, T4, &a, &ad), 0);
  assert_int_equal(ref_pendulum_exact(w0, a0, 2 * T4, &b, &bd), 0);
  printf(
      "elliptic: max energy defect %.3e rad^2/s^2; alpha(T/4) = %.3e, alpha(T/2) + alpha0 = "
      "%.3e\n",
      emax, a, b + a0);
  assert_true(emax <= 1e-12);
  assert_true(fabs(a) <= 1e-12);
  assert_true(fabs(b + a0) <= 1e-12);
  // small amplitude → harmonic period 2π/ω0
  double Ts = 4 * ref_pendulum_quarter_period(w0, 1e-6);
  assert_true(fabs(Ts - 2 * M_PI / w0) <= 1e-10);
  // bad input is a returned code, with NAN outputs
  assert_int_not_equal(ref_pendulum_exact(-1, a0, 0, &a, &ad), 0);
  assert_true(isnan(a));
}

static void test_ida_matches_elliptic(void **state) {
  (void)state;
  pendulum pd;
  pendulum_params p = pendulum_params_default();
  pendulum_init(&pd, &p);
  double q0[3], v0[3];
  pendulum_initial_state(&pd, q0, v0);
  enum { NOUT = 8 };
  double tout[NOUT], qo[NOUT * 3], vo[NOUT * 3];
  for (int k = 0; k < NOUT; k++) tout[k] = 0.125 * (k + 1);
  ref_stats st;
  ref_ida_settings s = ref_ida_settings_default();
  ref_status rc = ref_ida_rigid(&pd.model, &s, 0, q0, v0, tout, NOUT, qo, vo, &st);
  printf(
      "IDA: status %s (%s), %ld steps, %ld residuals, %ld Jacobians, %ld Newton iterations, "
      "%ld Newton failures, %ld error-test failures, %.3f s\n",
      ref_status_name(rc), st.error.message, st.steps, st.rhs_evals, st.jac_evals, st.newton_iters,
      st.newton_fails, st.err_fails, st.wall_time);
  assert_int_equal(rc, REF_OK);
  const double w0 = sqrt(p.m * p.g * p.l / pendulum_pivot_inertia(&p));
  double dmax = 0, dvmax = 0, phimax = 0;
  for (int k = 0; k < NOUT; k++) {
    double a, ad, qe[3], ve[3];
    assert_int_equal(ref_pendulum_exact(w0, M_PI / 2, tout[k], &a, &ad), 0);
    pendulum_state_from_angle(&pd, a, ad, qe, ve);
    for (int j = 0; j < 3; j++) {
      dmax = fmax(dmax, fabs(qo[3 * k + j] - qe[j]));
      dvmax = fmax(dvmax, fabs(vo[3 * k + j] - ve[j]));
    }
    phimax = fmax(phimax, pendulum_deviation(&pd, qo + 3 * k));
    printf("t = %.3f: IDA (%.12f, %.12f, %.12f), elliptic (%.12f, %.12f, %.12f)\n", tout[k],
           qo[3 * k], qo[3 * k + 1], qo[3 * k + 2], qe[0], qe[1], qe[2]);
  }
  printf("IDA vs elliptic over [0, 1]: max |dq| = %.3e, max |dv| = %.3e, IDA max |phi| = %.3e\n",
         dmax, dvmax, phimax);
  // measured 1.1e-9 and 4.9e-9 with rtol 1e-10, atol 1e-12
  assert_true(dmax <= 1e-8);
  assert_true(dvmax <= 5e-8);
  assert_true(phimax <= 1e-12);
}

static void test_ida_bad_input(void **state) {
  (void)state;
  pendulum pd;
  pendulum_params p = pendulum_params_default();
  pendulum_init(&pd, &p);
  double q0[3], v0[3], t = 1, qo[3], vo[3];
  pendulum_initial_state(&pd, q0, v0);
  ref_ida_settings s = ref_ida_settings_default();
  s.rtol = -1;
  ref_stats st;
  assert_int_equal(ref_ida_rigid(&pd.model, &s, 0, q0, v0, &t, 1, qo, vo, &st), REF_BAD_INPUT);
  printf("bad rtol: %s\n", st.error.message);
  assert_true(isnan(qo[0]));
  // redundant rows make G M^-1 G^T singular: reported, not aborted
  pendulum dup;
  p.copies = 2;
  pendulum_init(&dup, &p);
  assert_int_equal(ref_ida_rigid(&dup.model, NULL, 0, q0, v0, &t, 1, qo, vo, &st), REF_BAD_INPUT);
  printf("redundant rows: %s\n", st.error.message);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_elliptic_self_consistency),
      cmocka_unit_test(test_ida_matches_elliptic),
      cmocka_unit_test(test_ida_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
