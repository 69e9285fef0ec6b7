// SPDX-License-Identifier: MIT
// Range-of-motion pendulum (paper A §5.4, Fig 6): λ ≥ 0 at every step, first-order convergence of
// θ after the impact against a much finer step, relaxed ≡ paper with one unilateral row.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "mbs/mbs.h"
#include "mbs_test_util.h"
#include "ref/ref_pendulum.h"
#include "scenarios/rom_pendulum.h"

#include <math.h>

// exact state just before the impact: the free pendulum is the elliptic solution until θ = 0
static void pre_impact_state(const rom_pendulum_params *p, double t, double *th, double *thd) {
  double w0 = sqrt(p->g / p->l);
  assert_int_equal(ref_pendulum_exact(w0, M_PI / 2, t, th, thd), 0);
}

static double impact_time(const rom_pendulum_params *p) {
  return ref_pendulum_quarter_period(sqrt(p->g / p->l), M_PI / 2);
}

typedef struct window_run {
  double theta, theta_dot;
  double lambda_min;  // smallest λ over the steps
  double lambda_max;  // largest λ over the steps
  double resid_max;   // largest scaled residual violation max(0, −r̂) + max(0, −λ)/D [m/s²]
  double compl_max;   // largest |λ r| [N²]
  long active_steps;  // steps with the row active
  mbs_status status;
} window_run;

// integrates from (t0, θ0, θ̇0) over n steps of h with the given formulation
static window_run run_window(const rom_pendulum_params *p, mbs_formulation form, double t0,
                             double th0, double thd0, double h, long n) {
  rom_pendulum rp;
  rom_pendulum_init(&rp, p);
  mbs_settings s = mbs_settings_default();
  s.formulation = form;
  mbs_workspace *ws = mbs_workspace_create(&rp.model, &s, NULL);
  assert_non_null(ws);
  window_run r = {.theta = th0, .theta_dot = thd0, .lambda_min = INFINITY};
  for (long i = 0; i < n; i++) {
    r.status = mbs_step(ws, t0 + (double)i * h, h, &r.theta, &r.theta_dot, &r.theta, &r.theta_dot);
    if (r.status != MBS_OK) break;
    const mbs_info *info = mbs_step_info(ws);
    if (info->rows_unilateral) {
      r.active_steps++;
      r.lambda_min = fmin(r.lambda_min, mbs_step_lambda(ws)[0]);
      r.lambda_max = fmax(r.lambda_max, mbs_step_lambda(ws)[0]);
      r.resid_max = fmax(r.resid_max, info->residual);
      r.compl_max = fmax(r.compl_max, info->complementarity);
    }
  }
  mbs_workspace_free(ws);
  return r;
}

// λ ≥ 0 at every step over the paper's whole run (T = 1, h = 1e-5 and 1e-4), both formulations
static void test_lambda_nonnegative(void **state) {
  (void)state;
  rom_pendulum_params p = rom_pendulum_params_default();
  const double hs[] = {1e-4, 1e-5};
  for (int f = 0; f < 2; f++)
    for (int ih = 0; ih < 2; ih++) {
      double th, thd;
      rom_pendulum_initial_state(&th, &thd);
      window_run r =
          run_window(&p, f ? MBS_PAPER : MBS_RELAXED, 0, th, thd, hs[ih], lround(1.0 / hs[ih]));
      printf(
          "%s h = %.0e: status %s, %ld active steps, min lambda = %.6e N m, theta(1) = %.6f, "
          "residual %.2e m/s^2, |lambda r| %.2e (lambda max %.3e)\n",
          f ? "paper  " : "relaxed", hs[ih], mbs_status_name(r.status), r.active_steps,
          r.lambda_min, r.theta, r.resid_max, r.compl_max, r.lambda_max);
      assert_int_equal(r.status, MBS_OK);
      assert_true(r.active_steps > 0);
      // the solvers clamp λ ≥ 0, so λ_min alone cannot fail: the step must also satisfy the
      // row (r̂ ≥ 0) and complementarity λ r = 0, relative to the force scale
      assert_true(r.lambda_min >= 0);
      assert_true(r.compl_max <= 1e-9 * r.lambda_max * r.lambda_max);
    }
}

// θ at a time after the impact: order ≈ 1 against a step 1/128 of the finest
static void test_theta_order_after_impact(void **state) {
  (void)state;
  rom_pendulum_params p = rom_pendulum_params_default();
  const double t_imp = impact_time(&p), t0 = t_imp - 1e-6, window = 1e-5;
  double th0, thd0;
  pre_impact_state(&p, t0, &th0, &thd0);
  printf("impact at t = %.9f s; window [%.9f, %.9f] s from theta = %.3e, theta_dot = %.6f\n", t_imp,
         t0, t0 + window, th0, thd0);
  const double h_ref = 1e-8 / 1024;
  window_run ref = run_window(&p, MBS_RELAXED, t0, th0, thd0, h_ref, lround(window / h_ref));
  assert_int_equal(ref.status, MBS_OK);
  printf("reference run: %ld active steps, min lambda = %.3e N m\n", ref.active_steps,
         ref.lambda_min);
  assert_true(ref.active_steps > 1000);
  assert_true(ref.lambda_min >= 0);
  enum { NH = 5 };
  double hs[NH], err[NH];
  for (int i = 0; i < NH; i++) {
    hs[i] = 1e-8 / pow(2, i);
    window_run r = run_window(&p, MBS_RELAXED, t0, th0, thd0, hs[i], lround(window / hs[i]));
    assert_int_equal(r.status, MBS_OK);
    assert_true(r.lambda_min >= 0);
    err[i] = fabs(r.theta - ref.theta);
  }
  printf(
      "reference (h = %.3e): theta = %.12e rad, theta_dot = %.9f rad/s (elastic rebound: "
      "pre-impact %.6f)\n",
      h_ref, ref.theta, ref.theta_dot, thd0);
  print_order_table("rom_pendulum: |theta - theta_ref| at 9 us after impact (k = 1e12, b = 0)", hs,
                    err, NH);
  double order = fit_order(hs, err, NH);
  // the reference's own error, extrapolated at first order from the coarsest step
  double floor_est = err[0] * h_ref / hs[0];
  printf(
      "fitted order: %.3f (expected 1 +- 0.2); reference error floor ~ %.3e (finest error "
      "%.3e)\n",
      order, floor_est, err[NH - 1]);
  assert_true(fabs(order - 1) <= 0.2);
  assert_true(err[NH - 1] >= 10 * floor_est);
}

// one unilateral row: the relaxed and paper formulations give the same step
static void test_relaxed_equals_paper(void **state) {
  (void)state;
  rom_pendulum_params p = rom_pendulum_params_default();
  const double t0 = impact_time(&p) - 1e-6, h = 1e-8;
  double th, thd;
  pre_impact_state(&p, t0, &th, &thd);
  rom_pendulum a, b;
  rom_pendulum_init(&a, &p);
  rom_pendulum_init(&b, &p);
  mbs_settings sa = mbs_settings_default(), sb = sa;
  sb.formulation = MBS_PAPER;
  mbs_workspace *wa = mbs_workspace_create(&a.model, &sa, NULL);
  mbs_workspace *wb = mbs_workspace_create(&b.model, &sb, NULL);
  double qa = th, va = thd, dmax = 0, dlam = 0;
  long active = 0;
  for (int i = 0; i < 1000; i++) {
    // both take the same state each step: compare single steps
    double qb = qa, vb = va, q0 = qa, v0 = va;
    assert_int_equal(mbs_step(wa, t0 + i * h, h, &q0, &v0, &qa, &va), MBS_OK);
    assert_int_equal(mbs_step(wb, t0 + i * h, h, &q0, &v0, &qb, &vb), MBS_OK);
    dmax = fmax(dmax, fmax(fabs(qa - qb), fabs(va - vb) / (1 + fabs(va))));
    double la = mbs_step_lambda(wa)[0], lb = mbs_step_lambda(wb)[0];
    dlam = fmax(dlam, fabs(la - lb) / (1 + fabs(la)));
    active += mbs_step_info(wa)->rows_unilateral;
  }
  printf(
      "1000 steps through the impact (%ld active): max |state difference| = %.3e, max relative "
      "|lambda difference| = %.3e\n",
      active, dmax, dlam);
  assert_true(active > 100);
  assert_true(dmax <= 1e-14);
  assert_true(dlam <= 1e-12);
  mbs_workspace_free(wa);
  mbs_workspace_free(wb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lambda_nonnegative),
      cmocka_unit_test(test_theta_order_after_impact),
      cmocka_unit_test(test_relaxed_equals_paper),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
