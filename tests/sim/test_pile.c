// SPDX-License-Identifier: MIT
// The pile (scenarios/pile.h): 200 Hertz spheres dropped with random horizontal offsets between
// four walls, paper A's step with the speculative rule (SPEC §1.5) and the relaxed formulation.
// Physical checks: the total energy (kinetic + gravity + Hertz) never increases over a step beyond
// round-off (B ≥ 0: the implicit step only dissipates), asserted per step; no sphere is below
// the ground or inside a wall, and no pair overlaps more than 10× the static Hertz overlap under
// the weight of every sphere above it (an upper bound on its load); the time of rest is printed.
// "At rest" is what this model allows (measured, h = 0.01, 2026-11-25):
//  * a sphere alone on the ground rolling without slip keeps rolling: nothing in the model resists
//    rolling, so it counts as settled when its contact point is still (slip < 1e-6 m/s);
//  * paper A's tangent rows are viscous (force B_t × slip speed, no stiffness), so a contact that
//    carries a tangential load |λ_t| slips at |λ_t|/B_t: with B_t = 1e6/h = 1e8 N·s/m the loaded
//    pile creeps at 1e-6…2e-5 m/s for as long as it was run (N = 200: 1.2e-5 m/s after 20 s,
//    112 spheres above 1e-6 m/s after 10 s, mostly downwards); with 1e10, 5.8e-6 m/s after 10 s;
//    with 1e12 it settled at 5.44 s, and at 4.93 s before an earlier change of the prediction's
//    factor; after a later one (round-off only) it is not at rest at 10 s (1.6e-4 m/s, a sphere
//    pivoting without slip, 2026-11-27): a pile is chaotic, rounding moves it, and with nothing
//    resisting rolling or pivoting whether it stops is luck. So this test asserts the energy,
//    penetration and overlap checks (they hold for every B_t tried) and prints the time of rest;
//    rest itself is asserted at the scenario's defaults in tests/sim/test_pile_rest.c.
//  * the stick spring (tangent=stick, anchors carried per
//    step here as the simulate loop carries them), removes that creep, but spheres still roll or
//    pivot without slip (nothing resists rolling or pivoting): N = 200, relaxed, 10 s (measured
//    2026-11-27): one sphere wedged between two loaded contacts spinning about the axis through
//    them, 4.2e-5 m/s at 10 s (a pair rolling together on the ground at 8.2e-4 m/s until 9 s),
//    66 inaccurate steps (`test_sim_pile 200 10 relaxed stick 0`); with PILE_TRACE it prints the
//    fastest such sphere and its contacts every 0.5 s. Rolling and twisting resistance (the
//    scenario's default μ_r = 0.02) removes those modes: tests/sim/test_pile_rest.c.
//  * the Coulomb formulation (De Saxcé fixed point) does not converge on the landing pile (N = 50:
//    110 of 300 steps at its iteration limit, energy rising by 4.1 J in a step, 153 ms/step): the
//    pile uses the relaxed formulation, whose steps dissipate (measured: no rise at N = 50, 200).
// Steps that end `inaccurate` (17, then 54, of 600 at N = 200) are the conic solve at its round-off
// floor: dumped and re-solved, they reach 1e-11…2.5e-11 against the step's 1e-11; any other non-ok
// status fails the test.
//   test_sim_pile [N [T [relaxed|coulomb [stick|B_t [mu_r]]]]]  runs one case and prints its
//   numbers (default: the stick spring; a number: paper A's viscous rows with that B_t, 0 = 1e6/h;
//   mu_r: the stick law's rolling resistance, default the scenario's; t_coulomb: exact Coulomb
//   from that time on)
// Slow suite (about 75–100 s in a release build).
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
#include "mdl/mdl_eval.h"
#include "mdl/mdl_rigid.h"
#include "scenarios/pile.h"
#include "xp/xp.h"

typedef struct pile_result {
  double t_settle, vmax, roll_max, energy_rise, energy_scale, worst_ratio, zmin, wall_in;
  int bad_steps, failed_steps, rolling;
  double us_per_step;
  double end_max, end_median;  // translational speed of all spheres at the end [m/s]
} pile_result;

// the largest speed of the spheres not at rest nor rolling freely (pile_unsettled_speed); with
// verbose, the unsettled spheres printed
static double unsettled_speed(const pile *s, const double *q, const double *v, int *rolling,
                              double *roll_speed, int verbose) {
  const double vmax = pile_unsettled_speed(s, q, v, PILE_STILL, rolling, roll_speed, NULL);
  for (int i = 0; verbose && i < s->p.s.n; i++) {
    const double *vi = v + 6 * i, speed = sqrt(vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2]);
    if (speed > PILE_STILL)
      printf("  moving %d: x %.4f %.4f %.4f v %.2e %.2e %.2e\n", i, q[7 * i], q[7 * i + 1],
             q[7 * i + 2], vi[0], vi[1], vi[2]);
  }
  return vmax;
}

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

// PILE_TRACE: the fastest sphere neither still nor rolling freely, with its contacts of the last
// step (normal force, tangential force over its cap, gap)
static void trace_fastest(const pile *s, const mbs_workspace *ws, double t, const double *q,
                          const double *v) {
  int rolling, moving, worst = -1;
  double roll, best = 0;
  const double vmax = pile_unsettled_speed(s, q, v, PILE_STILL, &rolling, &roll, &moving);
  for (int i = 0; i < s->p.s.n; i++) {
    const double *vi = v + 6 * i, speed = sqrt(vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2]);
    if (speed == vmax && vmax > 0) worst = i, best = speed;
  }
  printf("t %.2f: unsettled max %.3e m/s, moving %d, rolling %d", t, vmax, moving, rolling);
  if (worst < 0) {
    printf("\n");
    return;
  }
  const double *x = q + 7 * worst, *vi = v + 6 * worst;
  printf("; sphere %d (%.2e) at %.4f %.4f %.4f v %.2e %.2e %.2e w %.2e %.2e %.2e\n", worst, best,
         x[0], x[1], x[2], vi[0], vi[1], vi[2], vi[3], vi[4], vi[5]);
  const mdl_rows *r = mbs_step_rows(ws);
  const double *lam = mbs_step_lambda(ws);
  for (int i = 0; i + 2 < r->n; i++) {
    if (r->kind[i] != MDL_ROW_NORMAL) continue;
    int mine = 0;
    for (int k = r->start[i]; k < r->start[i + 1]; k++) mine |= r->col[k] / 6 == worst;
    if (!mine || !(lam[i] > 0)) continue;
    const double lt = hypot(lam[i + 1], lam[i + 2]);
    // the contact's slip speed at the step's end, beside the creep |λ_t|/B_t viscous rows allow
    const double slip = hypot(mdl_eval_row_dot(r, i + 1, v), mdl_eval_row_dot(r, i + 2, v));
    printf(
        "    contact %d: lambda_n %.3e, |lambda_t|/(mu lambda_n) %.6f, phi %.3e, phi_t %.2e %.2e, "
        "slip %.3e m/s, |lambda_t|/B_t %.3e m/s\n",
        r->contact[i], lam[i], lt / (r->mu[i] * lam[i]), r->phi[i], r->phi[i + 1], r->phi[i + 2],
        slip, lt / r->B[i + 1]);
  }
}

// PILE_TRACE: contacts of the last step at the friction cap (|λ_t| ≥ (1 − 1e-9) μλ_n) and how
// many of them end the step without slip (< 1e-9 m/s): both sides of the cone's complementarity
// zero at once, a degenerate point for an interior-point solve
static void trace_cap(const mbs_workspace *ws, const double *v) {
  const mdl_rows *r = mbs_step_rows(ws);
  const double *lam = mbs_step_lambda(ws);
  int loaded = 0, cap = 0, cap_still = 0, near = 0, cones = 0, cones_cap = 0;
  for (int i = 0; i + 1 < r->n; i++) {
    if (r->kind[i] != MDL_ROW_NORMAL || !(lam[i] > 0) || !(r->mu[i] > 0)) continue;
    if (r->start[i + 1] == r->start[i]) {  // the load row of a rolling (2) or twisting (1) cone
      const int nt = i + 2 < r->n && r->kind[i + 2] == MDL_ROW_TANGENT ? 2 : 1;
      const double t = nt == 2 ? hypot(lam[i + 1], lam[i + 2]) : fabs(lam[i + 1]);
      cones++, cones_cap += t >= (1 - 1e-6) * r->mu[i] * lam[i];
      continue;
    }
    if (i + 2 >= r->n) continue;
    const double ratio = hypot(lam[i + 1], lam[i + 2]) / (r->mu[i] * lam[i]);
    const double slip = hypot(mdl_eval_row_dot(r, i + 1, v), mdl_eval_row_dot(r, i + 2, v));
    loaded++;
    near += ratio >= 0.99 && ratio < 1 - 1e-9;
    if (ratio >= 1 - 1e-9) cap++, cap_still += slip < 1e-9;
  }
  const mbs_info *in = mbs_step_info(ws);
  printf(
      "    loaded contacts %d: at the cap %d (without slip %d), within 1%% of it %d; rolling and "
      "twisting cones %d, at their cap %d; step: %d iterations, %d predicted solves\n",
      loaded, cap, cap_still, near, cones, cones_cap, in->iterations, in->predicted);
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

// largest and median translational speed of all spheres (free rollers included)
static void end_speeds(int n, const double *v, double *vmax, double *vmed) {
  double *sp = malloc((size_t)n * sizeof *sp);
  assert_non_null(sp);
  for (int i = 0; i < n; i++) {
    const double *vi = v + 6 * i;
    sp[i] = sqrt(vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2]);
  }
  qsort(sp, (size_t)n, sizeof *sp, cmp_double);
  *vmax = sp[n - 1], *vmed = n % 2 ? sp[n / 2] : 0.5 * (sp[n / 2 - 1] + sp[n / 2]);
  free(sp);
}

// bt < 0: the stick spring (tangent=stick, its anchors carried here as paper A's stepper in the
// simulate loop carries them); bt ≥ 0: paper A's viscous rows (the scenario's default) with
// B_t = bt (0: the default 1e6/h)
// t_switch < T: the formulation turns to exact Coulomb from that time on (a late window)
static pile_result run_pile(int n, double T, mbs_formulation form, double bt, double mur,
                            double t_switch) {
  pile *s = malloc(sizeof *s);
  pile_params pp = pile_params_default();
  pp.s.n = n;
  pp.tangent = bt >= 0 ? PILE_TANGENT_VISCOUS : PILE_TANGENT_STICK;
  if (bt > 0) pp.s.bt = bt;
  if (mur >= 0) pp.mur = mur;  // else the scenario's default
  assert_int_equal(pile_init(s, &pp), 0);
  double *q = malloc(13 * (size_t)n * sizeof *q), *v = q + 7 * (size_t)n;
  pile_initial_state(s, q, v);
  mbs_settings set = mbs_settings_default();
  set.formulation = form;
  set.activation = MBS_ACTIVATION_SPECULATIVE;
  mbs_workspace *ws = mbs_workspace_create(&s->model, &set, NULL);
  assert_non_null(ws);
  const double h = 0.01;
  const mdl_model *m = &s->model;
  if (m->memory) assert_int_equal(m->memory(0, q, v, NULL, NULL, m->ctx), 0);
  pile_result res = {.t_settle = NAN};
  double e0 = pile_energy(s, q, v);
  res.energy_scale = 0;
  for (int i = 0; i < n; i++) res.energy_scale += pp.s.m * pp.s.g * q[7 * i + 2];
  for (long k = 1; k <= lround(T / h); k++) {
    if (k == lround(t_switch / h) + 1) {
      set.formulation = MBS_COULOMB;
      assert_int_equal(mbs_workspace_set_settings(ws, &set, NULL), 0);
      printf("t %.2f: exact Coulomb from here on\n", t_switch);
    }
    const double t0 = xp_thread_cpu_now();
    mbs_status st = mbs_step(ws, (double)(k - 1) * h, h, q, v, q, v);
    res.us_per_step += 1e6 * (xp_thread_cpu_now() - t0);
    if (mbs_status_severity(st) < 0) fail_msg("pile step %ld: %s", k, mbs_status_name(st));
    if (m->memory && m->memory(h, q, v, mbs_step_rows(ws), mbs_step_lambda(ws), m->ctx))
      fail_msg("pile step %ld: the stick anchors do not match the step's rows", k);
    res.bad_steps += st != MBS_OK;
    res.failed_steps += st != MBS_OK && st != MBS_INACCURATE;
    const double e1 = pile_energy(s, q, v);
    if (getenv("PILE_TRACE") && (e1 - e0 > 1e-9 || st != MBS_OK)) {
      const mbs_info *in = mbs_step_info(ws);
      printf(
          "step %ld: %s dE %.3e rows %d active %d open %d resolves %d joined %d pen %d it %d "
          "lmin %.3e res %.3e\n",
          k, mbs_status_name(st), e1 - e0, in->rows, in->rows_active, in->rows_open, in->resolves,
          in->rows_joined, in->penetrating, in->iterations, in->lambda_min, in->residual);
      trace_cap(ws, v);
    }
    res.energy_rise = fmax(res.energy_rise, e1 - e0);
    e0 = e1;
    res.vmax = unsettled_speed(s, q, v, &res.rolling, &res.roll_max, 0);
    if (getenv("PILE_TRACE") && k % 50 == 0) {
      trace_fastest(s, ws, (double)k * h, q, v);
      trace_cap(ws, v);
    }
    if (res.vmax >= 1e-6)
      res.t_settle = NAN;
    else if (isnan(res.t_settle))
      res.t_settle = (double)k * h;
  }
  res.us_per_step /= (double)lround(T / h);
  end_speeds(n, v, &res.end_max, &res.end_median);
  if (getenv("PILE_TRACE")) unsettled_speed(s, q, v, &res.rolling, &res.roll_max, 1);
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

static void print_result(int n, const char *form, const pile_result *r) {
  printf(
      "pile N=%d (%s): settled at %.2f s (speed %.2e m/s; %d spheres rolling freely on the "
      "ground, up to %.2e m/s), energy rise %.2e J (scale %.2e), lowest centre %.4f m, deepest "
      "centre beyond a wall %.4f m, worst pair overlap / static Hertz %.3f, non-ok steps %d "
      "(%d not inaccurate), %.0f us/step (thread CPU); at the end, sphere speed max %.2e m/s, "
      "median %.2e "
      "m/s\n",
      n, form, r->t_settle, r->vmax, r->rolling, r->roll_max, r->energy_rise, r->energy_scale,
      r->zmin, r->wall_in, r->worst_ratio, r->bad_steps, r->failed_steps, r->us_per_step,
      r->end_max, r->end_median);
}

static void test_pile_200(void **state) {
  (void)state;
  pile_result r = run_pile(200, 6, MBS_RELAXED, 1e12, 0, INFINITY);
  print_result(200, "relaxed, viscous, B_t = 1e12", &r);
  if (!(r.energy_rise <= 1e-13 * r.energy_scale))
    fail_msg("energy rose by %.3e J over a step (round-off %.3e J)", r.energy_rise,
             1e-13 * r.energy_scale);
  if (!(r.zmin > 0)) fail_msg("a sphere centre is below the ground: z = %.4f m", r.zmin);
  if (!(r.wall_in < 0)) fail_msg("a sphere centre is inside a wall by %.4f m", r.wall_in);
  if (!(r.worst_ratio <= 10))
    fail_msg("a pair overlaps %.3f× its static Hertz value", r.worst_ratio);
  assert_int_equal(r.failed_steps, 0);
}

int main(int argc, char **argv) {
  if (argc > 1) {  // test_sim_pile N [T [relaxed|coulomb [stick|B_t [mur [t_coulomb]]]]]
    setvbuf(stdout, NULL, _IOLBF, 0);  // the trace line by line
    const int coulomb = argc > 3 && !strcmp(argv[3], "coulomb");
    const int stick = argc <= 4 || !strcmp(argv[4], "stick");
    pile_result r = run_pile(atoi(argv[1]), argc > 2 ? atof(argv[2]) : 3,
                             coulomb ? MBS_COULOMB : MBS_RELAXED, stick ? -1 : atof(argv[4]),
                             argc > 5 ? atof(argv[5]) : -1, argc > 6 ? atof(argv[6]) : INFINITY);
    print_result(atoi(argv[1]),
                 coulomb ? (stick ? "coulomb, stick" : "coulomb, viscous")
                         : (stick ? "relaxed, stick" : "relaxed, viscous"),
                 &r);
    return 0;
  }
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_pile_200)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
