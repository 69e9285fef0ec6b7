// SPDX-License-Identifier: MIT
// The peer methods (MuJoCo, ODE, Simbody; each only when built) against closed forms on a
// one-sphere scene (the stack with N = 1), through the stepper interface of the method matrix:
//  * free fall from 10 m for 0.5 s at h = 0.01: MuJoCo and ODE step semi-implicit Euler
//    (v₁ = v₀ − gh, z₁ = z₀ + hv₁), whose exact discrete solution is v_n = −g h n,
//    z_n = z₀ − g h² n(n+1)/2; Simbody's Runge–Kutta–Merson the continuous z₀ − g t²/2 —
//    matched to round-off (1e-12 m, 1e-12 m/s), the sphere neither turning nor drifting sideways;
//  * a sphere released touching the ground (overlap 0), E* = 1e11 Pa, B = 1 N·s/m, after 2 s
//    rests at the overlap its contact law predicts:
//      ode-step, ode-quickstep: the ERP/CFM spring is linear with k = E*√(r δ) at the step's
//        overlap (SPEC §9), so rest is m g = k δ = E*√r δ^{3/2}: Hertz's static overlap
//        δ = (m g/(E*√r))^{2/3};
//      mujoco, mujoco-stiff: the soft constraint's rest, where the regularised force R f = a_ref
//        with f = m g, R = (1 − d)/d · (1/m), a_ref = −K d(δ)·(−δ), K = 1/(d_max² τ² ζ²):
//        δ = (1 − d) g d_max² τ² ζ² / d², d = d(δ) MuJoCo's impedance sigmoid of δ/width
//        (solved by bisection here);
//    to 1e-9 relative (measured: the rest is reached to round-off long before 2 s).
// Exit 77 (skipped) when the build has no peer.
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

#include "sim/sim.h"
#include "sim/sim_mujoco.h"
#include "sim/sim_opende.h"
#include "sim/sim_simbody.h"

static const double g = 9.81, r = 0.1, m = 1, E = 1e11, h = 0.01;

// runs the peer on the one-sphere stack with the given gap for T; final (q, v)
// (ode-quickstep at `sweeps` per step, 0: its default; simbody at accuracy 1e-8, with
// Hunt–Crossley damping α = 100 s/m, which does not move the rest)
static void run_one_sphere(const char *name, const char *gap, double T, long sweeps, double q[7],
                           double v[6]) {
  const sim_method *meth = sim_method_find(name);
  if (!meth) skip();  // not built
  const char *set[] = {"n=1", gap, "dissipation=hunt-crossley", "alpha=100"};
  const sim_scenario *sc;
  sim_instance inst;
  xp_error err = {.code = 0};
  const size_t nset = strcmp(name, "simbody") == 0 ? 4 : 2;
  assert_int_equal(sim_instance_make("stack", set, nset, h, &sc, &inst, &err), XP_OK);
  sim_method_options opt = sim_method_options_default();
  opt.h = h, opt.quick_iterations = sweeps, opt.rtol = 1e-8;
  memcpy(q, inst.q0, 7 * sizeof *q);
  memcpy(v, inst.v0, 6 * sizeof *v);
  void *st = meth->create(meth, inst.model, &opt, 0, q, v, T, &err);
  if (!st) fail_msg("%s: %s", name, err.message);
  const long n = lround(T / h);
  for (long k = 0; k < n; k++) {
    sim_step_report rep = {0};
    assert_int_equal(meth->step(st, (double)k * h, (double)(k + 1) * h, q, v, &rep), 0);
  }
  meth->free(st);
  sc->free(&inst);
}

// exact: the discrete solution of semi-implicit Euler (discrete = 1), or the continuous one
static void free_fall(const char *name, int discrete) {
  double q[7], v[6];
  run_one_sphere(name, "gap=10", 0.5, 0, q, v);
  const double n = 50, z0 = r + 10;
  const double z = discrete ? z0 - g * h * h * n * (n + 1) / 2 : z0 - 0.5 * g * 0.25;
  const double vz = -g * h * n;
  printf("%s free fall: z %.15g m (exact %s %.15g, diff %.2e), v %.15g m/s (%.15g, diff %.2e)\n",
         name, q[2], discrete ? "discrete" : "continuous", z, q[2] - z, v[2], vz, v[2] - vz);
  if (!(fabs(q[2] - z) <= 1e-12 && fabs(v[2] - vz) <= 1e-12))
    fail_msg("%s: free fall off its discrete closed form", name);
  for (int k = 0; k < 6; k++)
    if (k != 2 && !(fabs(v[k]) <= 1e-15)) fail_msg("%s: velocity %d is %g", name, k, v[k]);
  assert_true(fabs(q[0]) <= 1e-15 && fabs(q[1]) <= 1e-15 && fabs(q[3] - 1) <= 1e-15);
}

// MuJoCo 2.2's impedance d at penetration x (getimpedance: sigmoid of x/width, midpoint 0.5,
// power 2, saturated at d_max beyond the width)
static double mujoco_impedance(const double solimp[3], double x) {
  const double dmin = solimp[0], dmax = solimp[1], u = x / solimp[2];
  if (dmin == dmax) return dmin;
  if (u >= 1) return dmax;
  const double y = u <= 0.5 ? 2 * u * u : 1 - 2 * (1 - u) * (1 - u);
  return dmin + y * (dmax - dmin);
}

// the static overlap of MuJoCo's soft contact under weight m g (header), by bisection
static double mujoco_static_overlap(const double solref[2], const double solimp[3]) {
  double lo = 0, hi = 1;
  for (int it = 0; it < 200; it++) {
    const double x = 0.5 * (lo + hi), d = mujoco_impedance(solimp, x);
    const double f = x - (1 - d) * g * solimp[1] * solimp[1] * solref[0] * solref[0] * solref[1] *
                             solref[1] / (d * d);
    if (f > 0)
      hi = x;
    else
      lo = x;
  }
  return 0.5 * (lo + hi);
}

static double at_rest(const char *name, long sweeps, double expected, const char *law, double tol) {
  double q[7], v[6];
  run_one_sphere(name, "gap=0", 2, sweeps, q, v);
  const double delta = r - q[2], rel = (delta - expected) / expected;
  printf("%s at rest: overlap %.12g m, %s %.12g m (relative %.2e), speed %.2e m/s\n", name, delta,
         law, expected, rel, v[2]);
  if (!(fabs(rel) <= tol)) fail_msg("%s: rest overlap off its closed form by %.2e", name, rel);
  return rel;
}

static void test_ode_step(void **state) {
  (void)state;
  free_fall("ode-step", 1);
  at_rest("ode-step", 0, cbrt(m * g * m * g / (E * E * r)), "Hertz (m g/(E* sqrt r))^(2/3)", 1e-9);
}

static void test_ode_quickstep(void **state) {
  (void)state;
  free_fall("ode-quickstep", 1);
  // its iterative solver converged (100 sweeps) rests where ode-step does; at its default 20
  // sweeps per step the solve stops short of it (measured: 5e-8 relative), printed, not asserted
  const double hertz = cbrt(m * g * m * g / (E * E * r));
  at_rest("ode-quickstep", 100, hertz, "Hertz (m g/(E* sqrt r))^(2/3), 100 sweeps", 1e-9);
  at_rest("ode-quickstep", 20, hertz, "Hertz, its default 20 sweeps", INFINITY);
}

// ode-quickstep on a resting column of 5 (several contacts, so its random constraint order
// matters): final (q, v) in qv (35 + 30 values)
static void run_quick_column(double *qv) {
  const sim_method *meth = sim_method_find("ode-quickstep");
  if (!meth) skip();  // not built
  const char *set[] = {"n=5", "initial=resting", "mu=0.5"};
  const sim_scenario *sc;
  sim_instance inst;
  xp_error err = {.code = 0};
  assert_int_equal(sim_instance_make("stack", set, 3, h, &sc, &inst, &err), XP_OK);
  sim_method_options opt = sim_method_options_default();
  opt.h = h;
  double *q = qv, *v = qv + 35;
  memcpy(q, inst.q0, 35 * sizeof *q);
  memcpy(v, inst.v0, 30 * sizeof *v);
  v[0] = 0.3;  // a sideways push: friction rows carry load
  void *st = meth->create(meth, inst.model, &opt, 0, q, v, 0.3, &err);
  if (!st) fail_msg("ode-quickstep: %s", err.message);
  for (long k = 0; k < 30; k++) {
    sim_step_report rep = {0};
    assert_int_equal(meth->step(st, (double)k * h, (double)(k + 1) * h, q, v, &rep), 0);
  }
  meth->free(st);
  sc->free(&inst);
}

// a run's result does not depend on the runs before it in the process (quickstep's random
// constraint order comes from one process-wide seed)
static void test_ode_quickstep_repeatable(void **state) {
  (void)state;
  double first[65], again[65], q[7], v[6];
  run_quick_column(first);
  run_one_sphere("ode-quickstep", "gap=0", 0.37, 0, q, v);  // draws from the generator
  run_quick_column(again);
  for (int i = 0; i < 65; i++)
    if (first[i] != again[i])
      fail_msg("ode-quickstep: value %d differs between two equal runs: %.17g vs %.17g", i,
               first[i], again[i]);
}

static void test_mujoco(void **state) {
  (void)state;
  free_fall("mujoco", 1);
  const double solref[2] = {0.02, 1}, solimp[3] = {0.9, 0.95, 0.001};  // MuJoCo's defaults
  at_rest("mujoco", 0, mujoco_static_overlap(solref, solimp), "soft-constraint rest", 1e-9);
}

static void test_mujoco_stiff(void **state) {
  (void)state;
  free_fall("mujoco-stiff", 1);
  const double solref[2] = {2 * h, 1}, solimp[3] = {SIM_MUJOCO_STIFF_SOLIMP};
  at_rest("mujoco-stiff", 0, mujoco_static_overlap(solref, solimp), "soft-constraint rest", 1e-9);
}

// Simbody's Runge–Kutta–Merson is exact on the quadratic free fall; its Hertz contact rests at
// Hertz's static overlap (E* set so that its force is E*√r d^{3/2}, sim_simbody.cpp)
static void test_simbody(void **state) {
  (void)state;
  free_fall("simbody", 0);
  at_rest("simbody", 0, cbrt(m * g * m * g / (E * E * r)), "Hertz (m g/(E* sqrt r))^(2/3)", 1e-9);
}

int main(void) {
  if (!sim_mujoco_available() && !sim_opende_available() && !sim_simbody_available()) {
    printf("no peer built: skipped\n");
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ode_step),
      cmocka_unit_test(test_ode_quickstep),
      cmocka_unit_test(test_ode_quickstep_repeatable),
      cmocka_unit_test(test_mujoco),
      cmocka_unit_test(test_mujoco_stiff),
      cmocka_unit_test(test_simbody),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
