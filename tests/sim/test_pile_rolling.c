// SPDX-License-Identifier: MIT
// Rolling and twisting resistance of the pile's stick law (mdl/mdl_stick.h, pile `mur`) against
// closed forms: one sphere (m, r, I = 2/5 m r²) on the ground at its static Hertz overlap, paper
// A's step with exact Coulomb friction (and the relaxed formulation, whose cone lifts the cap's
// load row while a contact rolls: SPEC §1.3's artefact, kept below 1e-4 relative by the load
// row's compliance, scenarios/pile.c), the stick spring K_t on the contact, resistance μ_r:
//  * rolling without slip at v0 (ω_y = v0 / r): the rolling torque at its cap μ_r r m g and the
//    stuck contact give m a = F, I ω̇ = −r F − μ_r r m g, so a = −μ_r g / (1 + I/(m r²))
//    = −(5/7) μ_r g; every step's deceleration while the torque is at the cap matches it to
//    1e-6 relative (the torque cap uses the Hertz force at the step's start, m g to ~1e-7), the
//    sphere stops (|v| < 1e-9 m/s from 5 steps after its stop time on) within one step's travel
//    h v0 of the distance v0² / (2|a|) (the step's rectangle rule, and a first step without the
//    rows: a contact gets them once it ended a step loaded) and then stays still;
//  * spinning about the vertical at ω0: I ω̇_z = −μ_r r m g, α = −(5/2) μ_r g / r, matched the
//    same way, and it stops;
//  * without resistance (μ_r = 0) the rolling sphere keeps its speed (the contrast);
//  * the total energy, the springs' potential included, never rises over a step (1e-12 J).
// cmocka.h needs these three first
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "mbs/mbs.h"
#include "mdl/mdl_rigid.h"
#include "scenarios/pile.h"

enum { STEPS = 150 };
static const double H = 0.01, MUR = 0.02;

typedef struct roll_run {
  double v[STEPS + 1], w[STEPS + 1];  // v_x and ω_z (world) after each step
  double x_end, rise, vmax_end;       // final x, largest energy rise, |v|+r|ω| at the end
} roll_run;

// one sphere on the ground at its static overlap, moving (v0, ω_y = v0/r) or spinning w0
static void roll_simulate(double mur, double v0, double w0, mbs_formulation form, roll_run *out) {
  pile *s = malloc(sizeof *s);
  assert_non_null(s);
  pile_params pp = pile_params_default();
  pp.s.n = 1, pp.half = 10, pp.tangent = PILE_TANGENT_STICK, pp.mur = mur;
  assert_int_equal(pile_init(s, &pp), 0);
  const double r = pp.s.r, d = hertz_static_overlap(pp.s.hertz, pp.s.E, r, pp.s.m * pp.s.g);
  double q[7] = {0, 0, r - d, 1, 0, 0, 0}, v[6] = {v0, 0, 0, 0, v0 / r, w0};
  mbs_settings set = mbs_settings_default();
  set.formulation = form;
  set.activation = MBS_ACTIVATION_SPECULATIVE;
  mbs_workspace *ws = mbs_workspace_create(&s->model, &set, NULL);
  assert_non_null(ws);
  const mdl_model *m = &s->model;
  assert_int_equal(m->memory(0, q, v, NULL, NULL, m->ctx), 0);
  double e0 = pile_energy(s, q, v);
  out->rise = 0;
  for (int k = 0; k <= STEPS; k++) {
    if (k > 0) {
      const mbs_status st = mbs_step(ws, (k - 1) * H, H, q, v, q, v);
      if (st != MBS_OK) fail_msg("step %d: %s", k, mbs_status_name(st));
      assert_int_equal(m->memory(H, q, v, mbs_step_rows(ws), mbs_step_lambda(ws), m->ctx), 0);
      const double e1 = pile_energy(s, q, v);
      out->rise = fmax(out->rise, e1 - e0);
      e0 = e1;
    }
    double R[9];
    mdl_rigid_rotation(q + 3, R);
    out->v[k] = v[0];
    out->w[k] = R[6] * v[3] + R[7] * v[4] + R[8] * v[5];  // ω_z in the world frame
  }
  out->x_end = q[0];
  out->vmax_end = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
                  r * sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
  mbs_workspace_free(ws);
  pile_free(s), free(s);
}

// largest relative deviation of the per-step rate (x[k+1] − x[k])/h from rate over the steps
// well inside the decelerating phase (from step 3 to 3 steps before the stop time)
static double rate_error(const double *x, double rate, double t_stop) {
  double err = 0;
  for (int k = 3; (k + 4) * H < t_stop && k < STEPS; k++)
    err = fmax(err, fabs((x[k + 1] - x[k]) / H - rate) / fabs(rate));
  return err;
}

// rolling at v0 = 0.1 m/s until it stops; tol: the per-step deceleration's relative error
static void check_rolling(mbs_formulation form, const char *name, double tol) {
  static roll_run run;
  const double v0 = 0.1, g = 9.81, a = -5.0 / 7.0 * MUR * g, t_stop = -v0 / a;
  roll_simulate(MUR, v0, 0, form, &run);
  const double err = rate_error(run.v, a, t_stop), dist = v0 * v0 / (2 * fabs(a));
  const int k_still = (int)ceil(t_stop / H) + 5;
  double late = 0;
  for (int k = k_still; k <= STEPS; k++) late = fmax(late, fabs(run.v[k]));
  printf(
      "rolling, %s, mu_r = %.2f: deceleration error %.3e (a = %.6f m/s^2), distance %.6f m "
      "(closed form %.6f m), |v_x| after %.2f s %.3e m/s, energy rise %.3e J\n",
      name, MUR, err, a, run.x_end, dist, k_still * H, late, run.rise);
  assert_true(err <= tol);
  assert_true(fabs(run.x_end - dist) <= H * v0);
  assert_true(late <= 1e-9);
  assert_true(run.vmax_end <= 1e-9);
  assert_true(run.rise <= 1e-12);
}

// spinning at w0 = 2 rad/s about the vertical until it stops
static void check_twisting(mbs_formulation form, const char *name, double tol) {
  static roll_run run;
  const double w0 = 2, g = 9.81, r = 0.1, alpha = -2.5 * MUR * g / r, t_stop = -w0 / alpha;
  roll_simulate(MUR, 0, w0, form, &run);
  const double err = rate_error(run.w, alpha, t_stop);
  printf(
      "twisting, %s, mu_r = %.2f: deceleration error %.3e (alpha = %.6f rad/s^2), end %.3e, "
      "energy rise %.3e J\n",
      name, MUR, err, alpha, run.vmax_end, run.rise);
  assert_true(err <= tol);
  assert_true(run.vmax_end <= 1e-9);
  assert_true(run.rise <= 1e-12);
}

static void test_rolling_stops(void **state) {
  (void)state;
  check_rolling(MBS_COULOMB, "coulomb", 1e-6);
  check_rolling(MBS_RELAXED, "relaxed", 1e-4);
}

static void test_twisting_stops(void **state) {
  (void)state;
  check_twisting(MBS_COULOMB, "coulomb", 1e-6);
  check_twisting(MBS_RELAXED, "relaxed", 1e-4);
}

static void test_free_rolling_keeps_going(void **state) {
  (void)state;
  static roll_run run;
  roll_simulate(0, 0.1, 0, MBS_COULOMB, &run);
  printf("no resistance: v_x after %.2f s %.9f m/s (v0 0.1)\n", STEPS * H, run.v[STEPS]);
  assert_true(fabs(run.v[STEPS] - 0.1) <= 1e-9);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rolling_stops),
      cmocka_unit_test(test_twisting_stops),
      cmocka_unit_test(test_free_rolling_keeps_going),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
