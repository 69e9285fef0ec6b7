// SPDX-License-Identifier: MIT
// The pile (scenarios/pile.h): 200 Hertz spheres dropped with random horizontal offsets between
// four walls, paper A's step with the speculative rule (SPEC §1.5). Physical checks: the total
// energy (kinetic + gravity + Hertz) never increases over a step beyond round-off (B ≥ 0: the
// implicit step only dissipates), asserted per step; at the end the pile is at rest, no sphere
// is below the ground or inside a wall, and no pair overlaps more than 10× the static Hertz
// overlap under the weight of every sphere above it (an upper bound on its load).
//   test_sim_pile [N [T]]  runs one case and prints its numbers (measurement)
// Status (measured, h = 0.01): NOT passing yet. N = 50 over 1 s, coulomb: energy rises by up to
// 4.1 J in one step (scale 165 J; 605 J when the stiffness over the step could also be lowered,
// 0 with raise-only — which breaks the single impact's order), 61 steps end with the coulomb fixed
// point at max-iterations, spheres still roll at 0.22 m/s; no sphere below the ground or in a
// wall, worst pair 0.81× its static bound. N = 200 over 3 s takes > 400 s. Registered as a
// benchmark (pile_acceptance), not in a test suite, until the landing steps converge.
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
#include "scenarios/pile.h"

typedef struct pile_result {
  double t_settle, vmax, energy_rise, energy_scale, worst_ratio, zmin, wall_in;
  int bad_steps;
} pile_result;

// largest ratio over touching pairs of overlap to the static Hertz overlap under the weight of
// the spheres higher than the pair's lower sphere
static double pair_ratio(const pile *s, const double *q) {
  const stack_params *p = &s->p.s;
  const int n = p->n;
  double worst = 0;
  for (int a = 0; a < n; a++)
    for (int b = a + 1; b < n; b++) {
      const double *x = q + 7 * a, *y = q + 7 * b;
      const double dx = y[0] - x[0], dy = y[1] - x[1], dz = y[2] - x[2];
      const double d = 2 * p->r - sqrt(dx * dx + dy * dy + dz * dz);
      if (d <= 0) continue;
      const double zlow = fmin(x[2], y[2]);
      int above = 0;
      for (int k = 0; k < n; k++) above += q[7 * k + 2] > zlow;
      const double ds = hertz_static_overlap(p->hertz, p->E, 0.5 * p->r, above * p->m * p->g);
      worst = fmax(worst, d / ds);
    }
  return worst;
}

static pile_result run_pile(int n, double T) {
  pile *s = malloc(sizeof *s);
  pile_params pp = pile_params_default();
  pp.s.n = n;
  assert_int_equal(pile_init(s, &pp), 0);
  double *q = malloc(13 * (size_t)n * sizeof *q), *v = q + 7 * (size_t)n;
  pile_initial_state(s, q, v);
  mbs_settings set = mbs_settings_default();
  set.formulation = MBS_COULOMB;
  set.activation = MBS_ACTIVATION_SPECULATIVE;
  mbs_workspace *ws = mbs_workspace_create(&s->model, &set, NULL);
  assert_non_null(ws);
  const double h = 0.01;
  pile_result res = {.t_settle = NAN};
  double e0 = pile_energy(s, q, v);
  res.energy_scale = 0;
  for (int i = 0; i < n; i++) res.energy_scale += pp.s.m * pp.s.g * q[7 * i + 2];
  for (long k = 1; k <= lround(T / h); k++) {
    mbs_status st = mbs_step(ws, (double)(k - 1) * h, h, q, v, q, v);
    if (mbs_status_severity(st) < 0) fail_msg("pile step %ld: %s", k, mbs_status_name(st));
    res.bad_steps += st != MBS_OK;
    const double e1 = pile_energy(s, q, v);
    if (getenv("PILE_TRACE") && (e1 - e0 > 1e-9 || st != MBS_OK)) {
      const mbs_info *in = mbs_step_info(ws);
      printf(
          "step %ld: %s dE %.3e rows %d active %d open %d resolves %d joined %d pen %d it %d "
          "lmin %.3e res %.3e\n",
          k, mbs_status_name(st), e1 - e0, in->rows, in->rows_active, in->rows_open, in->resolves,
          in->rows_joined, in->penetrating, in->iterations, in->lambda_min, in->residual);
    }
    res.energy_rise = fmax(res.energy_rise, e1 - e0);
    e0 = e1;
    res.vmax = 0;
    for (int j = 0; j < 6 * n; j++)
      if (j % 6 < 3) res.vmax = fmax(res.vmax, fabs(v[j]));
    if (res.vmax >= 1e-6)
      res.t_settle = NAN;
    else if (isnan(res.t_settle))
      res.t_settle = (double)k * h;
  }
  res.zmin = INFINITY, res.wall_in = -INFINITY;
  for (int i = 0; i < n; i++) {
    const double *x = q + 7 * i;
    res.zmin = fmin(res.zmin, x[2]);
    res.wall_in = fmax(res.wall_in, fmax(fabs(x[0]), fabs(x[1])) - pp.half);
  }
  res.worst_ratio = pair_ratio(s, q);
  mbs_workspace_free(ws);
  free(q), pile_free(s), free(s);
  return res;
}

static void print_result(int n, const pile_result *r) {
  printf(
      "pile N=%d: settle %.2f s, vmax %.2e m/s, energy rise %.2e J (scale %.2e), lowest "
      "centre %.4f m, deepest centre beyond a wall %.4f m, worst pair overlap / static Hertz "
      "%.3f, non-ok steps %d\n",
      n, r->t_settle, r->vmax, r->energy_rise, r->energy_scale, r->zmin, r->wall_in, r->worst_ratio,
      r->bad_steps);
}

static void test_pile_200(void **state) {
  (void)state;
  pile_result r = run_pile(200, 3);
  print_result(200, &r);
  if (!(r.energy_rise <= 1e-13 * r.energy_scale))
    fail_msg("energy rose by %.3e J over a step (round-off %.3e J)", r.energy_rise,
             1e-13 * r.energy_scale);
  if (!(r.t_settle <= 3)) fail_msg("pile not settled in 3 s: vmax %.3e m/s", r.vmax);
  if (!(r.zmin > 0)) fail_msg("a sphere centre is below the ground: z = %.4f m", r.zmin);
  if (!(r.wall_in < 0)) fail_msg("a sphere centre is inside a wall by %.4f m", r.wall_in);
  if (!(r.worst_ratio <= 10))
    fail_msg("a pair overlaps %.3f× its static Hertz value", r.worst_ratio);
  assert_int_equal(r.bad_steps, 0);
}

int main(int argc, char **argv) {
  if (argc > 1) {
    pile_result r = run_pile(atoi(argv[1]), argc > 2 ? atof(argv[2]) : 3);
    print_result(atoi(argv[1]), &r);
    return 0;
  }
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_pile_200)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
