// SPDX-License-Identifier: MIT
// The box on the 15° ramp (paper A §6.4) slides the same distances in 1 s under either activation
// rule (SPEC §1.5): its feet start at their static Hertz overlaps and never leave the ramp, so the
// speculative rule has no open row to add. Reference distances (exact Coulomb friction, h = 0.01):
// μ = 0: 1.2822 m (the discrete exact h² a n(n+1)/2 with a = g sin 15°), μ = 0.125: 0.68405 m,
// μ = 0.25: 0.085891 m, μ = 0.375: stiction.
// cmocka.h needs these three first
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdio.h>

#include "mbs/mbs.h"
#include "scenarios/incline.h"

// distance down the slope [m] after 1 s at h = 0.01 with friction μ and the given rule
static double slide(double mu, mbs_activation act) {
  incline s;
  incline_params p = incline_params_default();
  p.mu = mu;
  incline_init(&s, &p);
  double q[7], v[6];
  incline_initial_state(&s, q, v);
  mbs_settings set = mbs_settings_default();
  set.formulation = MBS_COULOMB;
  set.activation = act;
  mbs_workspace *ws = mbs_workspace_create(&s.model, &set, NULL);
  assert_non_null(ws);
  const double x0 = q[0], h = 0.01;
  for (int k = 0; k < 100; k++) {
    mbs_status st = mbs_step(ws, k * h, h, q, v, q, v);
    if (st != MBS_OK)
      fail_msg("mu=%g %s step %d: %s", mu, mbs_activation_name(act), k, mbs_status_name(st));
  }
  mbs_workspace_free(ws);
  return q[0] - x0;
}

static void test_distances(void **state) {
  (void)state;
  const double mu[4] = {0, 0.125, 0.25, 0.375}, ref[4] = {1.2822, 0.68405, 0.085891, 0};
  for (int i = 0; i < 4; i++) {
    const double xo = slide(mu[i], MBS_ACTIVATION_OVERLAP);
    const double xs = slide(mu[i], MBS_ACTIVATION_SPECULATIVE);
    printf("mu=%.3f  overlap %.8g m  speculative %.8g m  reference %.5g m\n", mu[i], xo, xs,
           ref[i]);
    // the quoted digits of the reference (5 significant), stiction to 1e-6 m
    const double tol = ref[i] > 0 ? 5e-5 * ref[i] : 1e-6;
    if (fabs(xo - ref[i]) > tol || fabs(xs - ref[i]) > tol)
      fail_msg("mu=%g: distance overlap %.8g, speculative %.8g, reference %.5g (tol %.1e)", mu[i],
               xo, xs, ref[i], tol);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_distances)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
