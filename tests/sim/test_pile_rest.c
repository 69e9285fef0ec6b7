// SPDX-License-Identifier: MIT
// The pile of 200 comes to rest (SPEC §1.6): `stabcon run pile --set n=200 --set T=10` at the
// scenario's other defaults, run as the simulate loop runs it (its step policy: a degraded step
// is solved again from the feasible start), with paper A's relaxed formulation (exact Coulomb
// costs seconds per step at N = 200). Checks, all against fixed definitions:
//  * rest: from some time ≤ T on, every sphere is slower than PILE_STILL (1e-6 m/s), except a
//    sphere rolling freely on the bare ground (pile_unsettled_speed: its contact point still,
//    no vertical speed, touching nothing else), which no contact law without rolling resistance
//    can stop;
//  * the total energy (kinetic + gravity + Hertz + the stick springs' potential) never rises
//    over a step beyond round-off: 1e-13 of m g Σ z0;
//  * no sphere below the ground or inside a wall: its overlap with a plane never exceeds the
//    static Hertz overlap under the weight of the whole pile (an upper bound on its load).
// Slow suite (10 s simulated, about 1000 steps of 0.1–0.3 s).
// cmocka.h needs these three first
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scenarios/pile.h"
#include "sim/sim.h"

typedef struct rest_watch {
  const sim_instance *inst;
  double prev, rise, scale;  // energy of the last sample, largest rise over a step, m g Σ z0
  double overlap;            // largest overlap of a sphere with the ground or a wall [m]
  double t_rest;             // time from which every sphere stayed at rest (NaN: moving)
  double vmax;               // largest unsettled speed at the last sample [m/s]
  int moving, rolling;       // at the last sample
} rest_watch;

static void watch_sample(void *ctx, size_t k, double t, const double *q, const double *v,
                         const sim_step_report *rep) {
  (void)rep;
  rest_watch *w = ctx;
  const pile *s = w->inst->data;
  const double e = w->inst->energy(w->inst->data, q, v), r = s->p.s.r, L = s->p.half;
  if (k > 0) w->rise = fmax(w->rise, e - w->prev);
  w->prev = e;
  for (int i = 0; i < s->p.s.n; i++) {
    const double *x = q + 7 * i;
    w->overlap = fmax(w->overlap, r - fmin(x[2], fmin(L - fabs(x[0]), L - fabs(x[1]))));
  }
  double roll;
  w->vmax = pile_unsettled_speed(s, q, v, PILE_STILL, &w->rolling, &roll, &w->moving);
  if (!(w->vmax < PILE_STILL))
    w->t_rest = NAN;
  else if (isnan(w->t_rest))
    w->t_rest = t;
}

static void test_pile_200_rests(void **state) {
  (void)state;
  const char *set[] = {"n=200"};
  const double h = 0.01, T = 10;
  const sim_scenario *sc;
  sim_instance inst;
  xp_error err = {.code = 0};
  assert_int_equal(sim_instance_make("pile", set, 1, h, &sc, &inst, &err), XP_OK);
  const pile *s = inst.data;
  rest_watch w = {.inst = &inst, .t_rest = NAN};
  for (int i = 0; i < s->p.s.n; i++) w.scale += s->p.s.m * s->p.s.g * inst.q0[7 * i + 2];
  sim_probe probe = {.ctx = &w, .sample = watch_sample};
  sim_method_options opt = sim_method_options_default();
  opt.h = h, opt.activation = sc->activation;
  sim_outcome oc;
  assert_int_equal(
      sim_simulate(sim_method_find("paperA-relaxed"), &opt, &inst, T, 2, &probe, NULL, &oc, &err),
      XP_OK);
  const double bound =
      hertz_static_overlap(s->p.s.hertz, s->p.s.E, s->p.s.r, s->p.s.n * s->p.s.m * s->p.s.g);
  printf(
      "pile of 200, relaxed, %.0f s: %s, %zu steps (%zu degraded, %zu retried), %.1f ms CPU per "
      "step; at rest from %.2f s (at T: %d moving, up to %.2e m/s; %d rolling freely); energy "
      "rise %.3e J (round-off %.3e J); largest plane overlap %.3e m (bound %.3e m)\n",
      T, oc.status, oc.steps_taken, oc.steps_degraded, oc.steps_retried,
      1e3 * oc.cpu_time / (double)oc.steps_taken, w.t_rest, w.moving, w.vmax, w.rolling, w.rise,
      1e-13 * w.scale, w.overlap, bound);
  assert_false(oc.failed);
  if (!(w.t_rest <= T))
    fail_msg("not at rest at %.0f s: %d spheres moving, up to %.3e m/s", T, w.moving, w.vmax);
  if (!(w.rise <= 1e-13 * w.scale))
    fail_msg("energy rose by %.3e J over a step (round-off %.3e J)", w.rise, 1e-13 * w.scale);
  if (!(w.overlap <= bound))
    fail_msg("a sphere overlaps a plane by %.3e m (bound %.3e m)", w.overlap, bound);
  sc->free(&inst);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_pile_200_rests)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
