// SPDX-License-Identifier: MIT
// Active-set prediction of paper A's conic step (mbs_settings.predict). A predicted
// step solves one linear KKT system with the last step's active set and is accepted only when
// every condition of the conic problem holds; the problem being strictly convex, the accepted
// point is its unique optimum. So the check is against the interior-point solve itself, run
// independently (predict = 0) on the same trajectory:
//   * resting stack, N = 20 (coulomb and relaxed), 60 steps: at every step the positions agree
//     to 1e-6 of the smallest static overlap (2.1e-6 m) and the speeds to 1e-9 m/s, and
//     prediction carried most steps (so it is what was checked);
//   * dropped stack (landing: contacts join, the set changes), N = 10, speculative: the same;
//   * the foundation (paper A §6.3; 400 elements, E = 1e7 and 1e11, 50 N, bias off as its study
//     runs it): the cube rocks, rim elements join and leave every step, so the prediction's
//     active-set corrections are what is checked; against the interior point within its own
//     floor (its change from tolerance 1e-11 to 1e-12, measured in the same run);
//   * the resting stack, N = 10, whose mass blocks (diagonal: the prediction's system leaves their
//     zeros out) take an off-diagonal entry halfway: the same agreement over the whole run (a
//     system still without that entry would be solved exactly, checked against itself, and
//     accepted — off by the coupling).
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
#include "scenarios/foundation.h"
#include "scenarios/stack.h"

typedef struct run_result {
  long predicted, steps, predicted_late;  // late: from the mass's change on
  double dq_max, dv_max;                  // largest state difference from the interior-point run
} run_result;

// the stack's mass with, from time fill_t on, M[0][2] = M[2][0] = 0.01 m in every body's 6×6
// block (still positive definite)
static int (*fill_base)(double t, const double *q, double *M, void *ctx);
static double fill_t = INFINITY;
static int fill_bodies;
static int fill_mass(double t, const double *q, double *M, void *ctx) {
  const int rc = fill_base(t, q, M, ctx);
  for (int b = 0; !rc && t >= fill_t && b < fill_bodies; b++)
    M[36 * b + 2] = M[36 * b + 12] = 0.01 * M[36 * b];
  return rc;
}

// runs the stack from `dropped`/resting for `steps` steps twice in lockstep — predict = 1 and
// predict = 0 — each from its own state, and records the largest difference of the states; from
// step fill_step on (< 0: never) the mass blocks carry fill_mass's off-diagonal entry
static run_result run_pair(int n, mbs_formulation form, mbs_activation act, int dropped, int steps,
                           int fill_step) {
  stack_params p = stack_params_default();
  p.n = n;
  stack s;
  assert_int_equal(stack_init(&s, &p), 0);
  if (fill_step >= 0) {
    fill_base = s.model.mass, s.model.mass = fill_mass;
    fill_t = (fill_step - 0.5) * 0.01, fill_bodies = n;
  }
  mbs_settings set[2] = {mbs_settings_default(), mbs_settings_default()};
  mbs_workspace *ws[2];
  double *q[2], *v[2];
  for (int k = 0; k < 2; k++) {
    set[k].formulation = form, set[k].activation = act, set[k].predict = k == 0;
    sc_error err = {0};
    ws[k] = mbs_workspace_create(&s.model, &set[k], &err);
    assert_non_null(ws[k]);
    q[k] = malloc(7 * (size_t)n * sizeof(double)), v[k] = malloc(6 * (size_t)n * sizeof(double));
    assert_true(q[k] && v[k]);
    if (dropped)
      stack_initial_state(&s, q[k], v[k]);
    else
      stack_resting_state(&s, q[k], v[k]);
  }
  run_result r = {0};
  for (int i = 0; i < steps; i++) {
    for (int k = 0; k < 2; k++) {
      mbs_status st = mbs_step(ws[k], i * 0.01, 0.01, q[k], v[k], q[k], v[k]);
      assert_true(st == MBS_OK);
    }
    r.predicted += mbs_step_info(ws[0])->predicted > 0, r.steps++;
    r.predicted_late += fill_step >= 0 && i >= fill_step && mbs_step_info(ws[0])->predicted > 0;
    assert_int_equal(mbs_step_info(ws[1])->predicted, 0);
    for (int j = 0; j < 7 * n; j++) r.dq_max = fmax(r.dq_max, fabs(q[0][j] - q[1][j]));
    for (int j = 0; j < 6 * n; j++) r.dv_max = fmax(r.dv_max, fabs(v[0][j] - v[1][j]));
  }
  for (int k = 0; k < 2; k++) free(q[k]), free(v[k]), mbs_workspace_free(ws[k]);
  stack_free(&s);
  return r;
}

static void check(const char *what, run_result r, double overlap_scale, long min_predicted) {
  printf("%s: %ld of %ld steps predicted, max |Δq| = %.2e m, max |Δv| = %.2e m/s\n", what,
         r.predicted, r.steps, r.dq_max, r.dv_max);
  // the interior point stops at qcp's tolerance (1e-11 relative): states agree far below the
  // smallest overlap and the speed a step gives (g h ≈ 0.1 m/s)
  assert_true(r.dq_max <= 1e-6 * overlap_scale);
  assert_true(r.dv_max <= 1e-9);
  assert_true(r.predicted >= min_predicted);
}

static void test_resting(void **state) {
  (void)state;
  check("resting N = 20 coulomb", run_pair(20, MBS_COULOMB, MBS_ACTIVATION_OVERLAP, 0, 60, -1),
        2.1e-6, 50);
  check("resting N = 20 relaxed", run_pair(20, MBS_RELAXED, MBS_ACTIVATION_OVERLAP, 0, 60, -1),
        2.1e-6, 50);
}

static void test_landing(void **state) {
  (void)state;
  // the column lands within ~0.1 s and settles: contacts join, then the set is kept
  check("dropped N = 10 coulomb speculative",
        run_pair(10, MBS_COULOMB, MBS_ACTIVATION_SPECULATIVE, 1, 100, -1), 2.1e-6, 20);
}

static void test_mass_fill(void **state) {
  (void)state;
  const run_result r = run_pair(10, MBS_COULOMB, MBS_ACTIVATION_OVERLAP, 0, 40, 20);
  fill_t = INFINITY;
  printf("mass blocks fill in at step 20: %ld steps predicted after\n", r.predicted_late);
  check("resting N = 10 coulomb, mass filling in", r, 2.1e-6, 15);
}

// the foundation three times in lockstep: predict 1, and the interior point alone at qcp's
// tolerance 1e-11 (the default) and 1e-12; the difference of the last two is the reference's own
// error floor, measured before it is used
typedef struct fd_result {
  run_result r;
  double floor_q, floor_v, sink;
} fd_result;

static fd_result run_foundation(int n, double E, int steps) {
  foundation_params p = foundation_params_default();
  p.n = n, p.E = E, p.load = 50;
  foundation fd;
  foundation_init(&fd, &p);
  mbs_workspace *ws[3];
  double q[3][7], v[3][6];
  for (int k = 0; k < 3; k++) {
    mbs_settings set = mbs_settings_default();
    set.use_bias = 0, set.predict = k == 0, set.qcp_eps = k == 2 ? 1e-12 : set.qcp_eps;
    sc_error err = {0};
    ws[k] = mbs_workspace_create(&fd.model, &set, &err);
    assert_non_null(ws[k]);
    foundation_initial_state(&fd, q[k], v[k]);
  }
  const double z0 = q[0][2];
  fd_result f = {{0}, 0, 0, 0};
  for (int i = 0; i < steps; i++) {
    for (int k = 0; k < 3; k++) {
      mbs_status st = mbs_step(ws[k], i * 0.01, 0.01, q[k], v[k], q[k], v[k]);
      assert_true(st == MBS_OK || st == MBS_INACCURATE);
    }
    f.r.predicted += mbs_step_info(ws[0])->predicted > 0, f.r.steps++;
    for (int j = 0; j < 7; j++) {
      f.r.dq_max = fmax(f.r.dq_max, fabs(q[0][j] - q[1][j]));
      f.floor_q = fmax(f.floor_q, fabs(q[2][j] - q[1][j]));
    }
    for (int j = 0; j < 6; j++) {
      f.r.dv_max = fmax(f.r.dv_max, fabs(v[0][j] - v[1][j]));
      f.floor_v = fmax(f.floor_v, fabs(v[2][j] - v[1][j]));
    }
  }
  f.sink = fabs(q[1][2] - z0);
  for (int k = 0; k < 3; k++) mbs_workspace_free(ws[k]);
  return f;
}

static void test_foundation(void **state) {
  (void)state;
  const double Es[] = {1e7, 1e11};
  for (int k = 0; k < 2; k++) {
    fd_result f = run_foundation(20, Es[k], 40);
    printf(
        "foundation 400 elements, E = %g: sinkage %.2e m, %ld of %ld steps predicted, "
        "max |Δq| = %.2e m, |Δv| = %.2e m/s; interior point's floor |Δq| = %.2e m, "
        "|Δv| = %.2e m/s\n",
        Es[k], f.sink, f.r.predicted, f.r.steps, f.r.dq_max, f.r.dv_max, f.floor_q, f.floor_v);
    // within the reference's own floor (×10), or 1e-6 of the sinkage if the floor is below it
    assert_true(f.r.dq_max <= 10 * fmax(f.floor_q, 1e-6 * f.sink));
    assert_true(f.r.dv_max <= 10 * fmax(f.floor_v, 1e-9));
    assert_true(f.r.predicted >= 30);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_resting),
      cmocka_unit_test(test_landing),
      cmocka_unit_test(test_mass_fill),
      cmocka_unit_test(test_foundation),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
