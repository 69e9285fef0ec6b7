// SPDX-License-Identifier: MIT
// The dropped stack of paper A §6.5 (E = 1e11, B = 1, h = 0.01, spheres released 1 cm apart in
// mid-air) with paper A's step and the speculative activation rule (SPEC §1.5). References from
// physics only: at rest every contact carries the weight above it, so its overlap is the Hertz
// static value d = (F² / (E*² r_eff))^{1/3} with F = (N − c) m g; and with B ≥ 0 the total energy
// (kinetic + gravity + Hertz potential (2/5) E*√r_eff d^{5/2}) cannot increase over a step (the
// implicit step only dissipates). Checked per step; the settling time is the first time after
// which the largest linear speed stays below 1e-6 m/s.
//   test_sim_stack_drop           N = 20, 50, 100 settle within 1 s (default suite)
//   test_sim_stack_drop --slow    N = 1000 settles within 10 s (slow suite)
//   test_sim_stack_drop N [T [activation]]  runs one case and prints its numbers (measurement)
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
#include <string.h>

#include "mbs/mbs.h"
#include "scenarios/stack.h"

typedef struct drop_result {
  double t_settle;      // first time after which max speed < 1e-6 m/s (NAN: never)
  double vmax;          // largest linear speed at the end [m/s]
  double overlap_err;   // largest |d − d_static| / d_static over the contacts at the end
  double energy_rise;   // largest energy increase over one step [J]
  double energy_scale;  // round-off scale of the energy: Σ |terms| at the start [J]
  int bad_steps;        // steps whose status was not ok
  int resolves;         // re-solves over the run
} drop_result;

// kinetic + gravity + Hertz potential of the stack at (q, v); *scale = Σ of the terms' magnitudes
static double energy_and_scale(const stack *s, const double *q, const double *v, double *scale) {
  const stack_params *p = &s->p;
  double e = 0, sc = 0;
  for (int i = 0; i < p->n; i++) {
    const double *vi = v + 6 * i;
    double kin = 0.5 * p->m * (vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2]);
    for (int k = 0; k < 3; k++) kin += 0.5 * s->inertia[k] * vi[3 + k] * vi[3 + k];
    const double pot = p->m * p->g * q[7 * i + 2];
    e += kin + pot, sc += kin + fabs(pot);
  }
  for (int c = 0; c < p->n; c++) {
    const double d = stack_contact_depth(s, q, c), reff = c == 0 ? p->r : 0.5 * p->r;
    if (d <= 0) continue;
    const double k = p->E * sqrt(reff);
    const double u = p->hertz == HERTZ_PAPER ? 0.5 * k * d * d * d : 0.4 * k * d * d * sqrt(d);
    e += u, sc += u;
  }
  *scale = sc;
  return e;
}

static double max_speed(const double *v, int n) {
  double vm = 0;
  for (int j = 0; j < 6 * n; j++)
    if (j % 6 < 3) vm = fmax(vm, fabs(v[j]));
  return vm;
}

static drop_result drop(int n, double T, mbs_activation act) {
  stack s;
  stack_params p = stack_params_default();
  p.n = n;
  assert_int_equal(stack_init(&s, &p), 0);
  double *q = malloc(13 * (size_t)n * sizeof *q), *v = q + 7 * (size_t)n;
  assert_non_null(q);
  stack_initial_state(&s, q, v);
  mbs_settings set = mbs_settings_default();
  set.formulation = MBS_COULOMB;
  set.activation = act;
  mbs_workspace *ws = mbs_workspace_create(&s.model, &set, NULL);
  assert_non_null(ws);
  const double h = 0.01;
  const long steps = lround(T / h);
  drop_result res = {.t_settle = NAN};
  double scale, e0 = energy_and_scale(&s, q, v, &scale);
  res.energy_scale = scale;
  for (long k = 1; k <= steps; k++) {
    mbs_status st = mbs_step(ws, (double)(k - 1) * h, h, q, v, q, v);
    if (mbs_status_severity(st) < 0)
      fail_msg("N=%d step %ld: status %s", n, k, mbs_status_name(st));
    res.bad_steps += st != MBS_OK;
    res.resolves += mbs_step_info(ws)->resolves;
    double sc, e1 = energy_and_scale(&s, q, v, &sc);
    res.energy_rise = fmax(res.energy_rise, e1 - e0);
    e0 = e1;
    res.vmax = max_speed(v, n);
    if (res.vmax >= 1e-6)
      res.t_settle = NAN;
    else if (isnan(res.t_settle))
      res.t_settle = (double)k * h;
  }
  for (int c = 0; c < n; c++) {
    const double reff = c == 0 ? p.r : 0.5 * p.r;
    const double ds = hertz_static_overlap(p.hertz, p.E, reff, (n - c) * p.m * p.g);
    res.overlap_err = fmax(res.overlap_err, fabs(stack_contact_depth(&s, q, c) - ds) / ds);
  }
  mbs_workspace_free(ws);
  free(q);
  stack_free(&s);
  return res;
}

static void print_result(int n, const char *rule, const drop_result *r) {
  printf(
      "N=%4d %-11s settle %.2f s  vmax %.2e m/s  overlap/Hertz-1 %.2e  energy rise %.2e J"
      " (scale %.2e)  non-ok steps %d  re-solves %d\n",
      n, rule, r->t_settle, r->vmax, r->overlap_err, r->energy_rise, r->energy_scale, r->bad_steps,
      r->resolves);
}

// settled within 1 s, overlaps at Hertz statics, energy never rising beyond round-off
static void check_settles(int n, double T) {
  drop_result r = drop(n, T, MBS_ACTIVATION_SPECULATIVE);
  print_result(n, "speculative", &r);
  if (!(r.t_settle <= T)) fail_msg("N=%d: not settled in %g s (vmax %.3e m/s)", n, T, r.vmax);
  if (!(r.overlap_err <= 1e-6))
    fail_msg("N=%d: overlap vs Hertz statics %.3e relative (limit 1e-6)", n, r.overlap_err);
  // round-off: a few ulps of the energy's terms per step
  const double roundoff = 1e-13 * r.energy_scale;
  if (!(r.energy_rise <= roundoff))
    fail_msg("N=%d: energy rose by %.3e J over a step (round-off %.3e J)", n, r.energy_rise,
             roundoff);
  assert_int_equal(r.bad_steps, 0);
}

static void test_drop_20(void **state) { (void)state, check_settles(20, 1); }
static void test_drop_50(void **state) { (void)state, check_settles(50, 1); }
static void test_drop_100(void **state) { (void)state, check_settles(100, 1); }
static void test_drop_1000(void **state) { (void)state, check_settles(1000, 10); }

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--slow") == 0) {
    const struct CMUnitTest slow[] = {cmocka_unit_test(test_drop_1000)};
    return cmocka_run_group_tests(slow, NULL, NULL);
  }
  if (argc > 1) {
    const int n = atoi(argv[1]);
    const double T = argc > 2 ? atof(argv[2]) : 1.0;
    mbs_activation act = MBS_ACTIVATION_SPECULATIVE;
    if (argc > 3 && mbs_activation_parse(argv[3], &act)) return 2;
    drop_result r = drop(n, T, act);
    print_result(n, mbs_activation_name(act), &r);
    return 0;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_drop_20),
      cmocka_unit_test(test_drop_50),
      cmocka_unit_test(test_drop_100),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
