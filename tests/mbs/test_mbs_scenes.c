// SPDX-License-Identifier: MIT
// The 3-D contact scenarios against independent references: the box on the 15° ramp
// (paper A §6.4) — frictionless motion in closed form, stiction, the discrete exact distance of
// a rigid box sliding flat, the friction law per foot — the sphere stack's statics (paper A
// §6.5), and a step with bilateral, unilateral and contact rows together against statics.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbs/mbs.h"
#include "scenarios/incline.h"
#include "scenarios/stack.h"

#define H 0.01
#define STEPS 100

typedef struct box_run {
  double x, zmax, ln_peak, lt_max, cone_max;
  int bad, against, fp_max;
} box_run;

// runs the box for 1 s; checks per foot and step that the friction force does not push along the
// contact point's sliding velocity G_t v1 and records the cone excess ‖λ_t‖ − μλ_n
static box_run box(double mu, mbs_formulation f) {
  incline s;
  incline_params p = incline_params_default();
  p.mu = mu;
  incline_init(&s, &p);
  mbs_settings set = mbs_settings_default();
  set.formulation = f;
  mbs_workspace *ws = mbs_workspace_create(&s.model, &set, NULL);
  assert_non_null(ws);
  double q[7], v[6];
  incline_initial_state(&s, q, v);
  const double x0 = q[0], z0 = q[2];
  box_run o = {0};
  for (int i = 0; i < STEPS; i++) {
    mbs_status st = mbs_step(ws, i * H, H, q, v, q, v);
    o.bad += st != MBS_OK;
    const mdl_rows *r = mbs_step_rows(ws);
    const double *lam = mbs_step_lambda(ws);
    const mbs_info *in = mbs_step_info(ws);
    o.fp_max = in->fp_iterations > o.fp_max ? in->fp_iterations : o.fp_max;
    for (int c = 0; c < 4; c++) {
      const int n = 3 * c;  // rows per foot: normal, tangent x, tangent y (incline.c)
      double lt[2] = {lam[n + 1], lam[n + 2]}, vt[2], a = 0;
      for (int k = 0; k < 2; k++) {
        vt[k] = 0;
        for (int e = r->start[n + 1 + k]; e < r->start[n + 2 + k]; e++)
          vt[k] += r->val[e] * v[r->col[e]];
        a += lt[k] * vt[k];
      }
      const double nt = hypot(lt[0], lt[1]), nv = hypot(vt[0], vt[1]);
      o.lt_max = fmax(o.lt_max, nt);
      o.ln_peak = fmax(o.ln_peak, lam[n]);
      o.cone_max = fmax(o.cone_max, (nt - mu * lam[n]) / (1 + lam[n]));
      if (nv > 1e-6 && a > 1e-9 * nt * nv) o.against++;
    }
    o.zmax = fmax(o.zmax, q[2] - z0);
  }
  o.x = q[0] - x0;
  mbs_workspace_free(ws);
  return o;
}

static double rigid_distance(double mu) {
  incline_params p = incline_params_default();
  const double a = p.g * fmax(0, sin(p.theta) - mu * cos(p.theta));
  return H * H * a * STEPS * (STEPS + 1) / 2.0;
}

// μ = 0: every tangential force exactly 0; the slide is the frictionless closed form
static void test_box_frictionless(void **state) {
  (void)state;
  for (int f = 0; f < MBS_FORMULATION_COUNT; f++) {
    box_run o = box(0, (mbs_formulation)f);
    const double ref = rigid_distance(0);
    printf("box mu = 0, %s: max |lambda_t| = %g, x(1 s) = %.12f m (closed form %.12f)\n",
           mbs_formulation_name((mbs_formulation)f), o.lt_max, o.x, ref);
    assert_true(o.lt_max == 0.0);
    assert_true(fabs(o.x - ref) <= 1e-9 * ref);
    assert_int_equal(o.bad, 0);
  }
}

// μ = 0.375 > tan 15°: the box sticks in every formulation (creep below 1e-6 m in 1 s)
static void test_box_sticks(void **state) {
  (void)state;
  for (int f = 0; f < MBS_FORMULATION_COUNT; f++) {
    box_run o = box(0.375, (mbs_formulation)f);
    printf("box mu = 0.375, %s: displacement over 1 s %.3e m, fixed-point solves max %d\n",
           mbs_formulation_name((mbs_formulation)f), o.x, o.fp_max);
    assert_true(fabs(o.x) < 1e-6);
    assert_int_equal(o.bad, 0);
    assert_true(o.cone_max <= 1e-9);
  }
}

// coulomb: the rigid box's discrete exact distance, strictly decreasing in μ, friction against
// the sliding at every foot and step, inside the cone
static void test_box_coulomb(void **state) {
  (void)state;
  const double mus[4] = {0, 0.125, 0.25, 0.375};
  double prev = INFINITY;
  for (int k = 0; k < 4; k++) {
    box_run o = box(mus[k], MBS_COULOMB);
    const double ref = rigid_distance(mus[k]);
    printf(
        "box coulomb mu = %.3f: x(1 s) = %.10e m (rigid discrete exact %.10e), height max %.2e m, "
        "fixed point max %d, cone excess %.1e, friction along sliding %d\n",
        mus[k], o.x, ref, o.zmax, o.fp_max, o.cone_max, o.against);
    if (ref > 0) assert_true(fabs(o.x - ref) <= 1e-6 * ref);
    assert_true(o.x < prev);
    prev = o.x;
    assert_int_equal(o.against, 0);
    assert_true(o.cone_max <= 1e-9);
    assert_int_equal(o.bad, 0);
    assert_true(o.zmax < 1e-8);
  }
}

// relaxed glides (the box leaves the ramp while sliding); paper inflates λ_n and launches it
static void test_box_relaxed_paper(void **state) {
  (void)state;
  box_run r = box(0.125, MBS_RELAXED), p = box(0.125, MBS_PAPER);
  const double load = 1 * 9.81 * cos(15 * M_PI / 180) / 4;
  printf(
      "box mu = 0.125: relaxed height max %.3e m, x %.4f m; paper height max %.3e m, peak "
      "lambda_n %.1f N (load per foot %.2f N), x %.4f m; rigid %.4f m\n",
      r.zmax, r.x, p.zmax, p.ln_peak, load, p.x, rigid_distance(0.125));
  assert_true(r.zmax > 1e-4);
  assert_true(p.zmax > 0.1);
  assert_true(p.ln_peak > 10 * load);
  assert_int_equal(r.against + p.against, 0);
}

// a settled stack of 10 spheres: aligned, every contact carries the weight above it (statics)
static void test_stack_statics(void **state) {
  (void)state;
  for (int f = 0; f < MBS_FORMULATION_COUNT; f++) {
    stack s;
    stack_params p = stack_params_default();
    p.n = 10;
    assert_int_equal(stack_init(&s, &p), 0);
    mbs_settings set = mbs_settings_default();
    set.formulation = (mbs_formulation)f;
    mbs_workspace *ws = mbs_workspace_create(&s.model, &set, NULL);
    assert_non_null(ws);
    double q[70], v[60];
    stack_initial_state(&s, q, v);
    int bad = 0;
    for (int i = 0; i < 200; i++) bad += mbs_step(ws, i * H, H, q, v, q, v) != MBS_OK;
    const double *lam = mbs_step_lambda(ws);
    double err = 0, xy = 0, vmax = 0;
    for (int c = 0; c < p.n; c++) {
      const double w = (p.n - c) * p.m * p.g;
      err = fmax(err, fabs(lam[3 * c] - w) / w);
      xy = fmax(xy, hypot(q[7 * c], q[7 * c + 1]));
    }
    for (int j = 0; j < 60; j++) vmax = fmax(vmax, fabs(v[j]));
    printf(
        "stack N = 10, %s, 2 s: max |lambda_n - weight above| / weight %.2e, max |xy| %.1e m, "
        "max speed %.1e m/s, steps not ok %d\n",
        mbs_formulation_name((mbs_formulation)f), err, xy, vmax, bad);
    assert_int_equal(bad, 0);
    assert_true(err <= 1e-6);
    assert_true(xy <= 1e-12);
    assert_true(vmax <= 1e-6);
    mbs_workspace_free(ws);
    stack_free(&s);
  }
}

// A column that no longer holds: sphere 1 knocked onto the ground beside
// sphere 0, sphere 3 fallen onto sphere 1. Besides the N column contacts (always reported) the
// model reports sphere 1–ground and the pair 1–3, each as a normal row and two tangents with its
// Hertz stiffness (r_eff = r for the ground, r/2 for a pair); spheres far apart report nothing.
static void test_stack_extra_contacts(void **state) {
  (void)state;
  stack s;
  stack_params p = stack_params_default();
  p.n = 4;
  assert_int_equal(stack_init(&s, &p), 0);
  double q[28], v[24];
  stack_initial_state(&s, q, v);
  mdl_rows *rows = mdl_rows_create(s.model.max_rows, s.model.max_nnz);
  assert_non_null(rows);
  assert_int_equal(s.model.rows(0, q, v, rows, s.model.ctx), 0);
  assert_int_equal(rows->n, 3 * p.n);  // the column as released: its own contacts only
  const double r = p.r, d = 1e-6;      // sphere 1 on the ground beside sphere 0, 3 on 1
  q[7 * 1 + 0] = 2 * r + 0.01, q[7 * 1 + 1] = 0, q[7 * 1 + 2] = r - d;
  q[7 * 3 + 0] = 2 * r + 0.01, q[7 * 3 + 1] = 0, q[7 * 3 + 2] = 3 * r - 2 * d;
  assert_int_equal(s.model.rows(0, q, v, rows, s.model.ctx), 0);
  assert_int_equal(rows->n, 3 * (p.n + 2));
  // the extra contacts in the order found: sphere 1–ground (r_eff = r), then the pair 1–3 (r/2),
  // both overlapping by d
  const double reff[2] = {r, 0.5 * r};
  for (int e = 0; e < 2; e++) {
    const int i = 3 * (p.n + e);
    double phi, K, gs;
    hertz_row(p.hertz, p.E, reff[e], d, &phi, &K, &gs);
    assert_int_equal(rows->kind[i], MDL_ROW_NORMAL);
    assert_int_equal(rows->kind[i + 1], MDL_ROW_TANGENT);
    assert_int_equal(rows->contact[i], p.n + e);
    assert_true(fabs(rows->phi[i] - phi) <= 1e-9 * fabs(phi));
    assert_true(fabs(rows->K[i] - K) <= 1e-9 * K);
    double Ks;  // the stiffness over the step uses the same effective radius
    assert_int_equal(s.model.row_stiffness(rows, i, phi, &Ks, s.model.ctx), 0);
    assert_true(fabs(Ks - K) <= 1e-9 * K);
  }
  mdl_rows_free(rows);
  stack_free(&s);
}

// bilateral + unilateral + contact rows in one step: a particle (x, z) held at z = 0 by a
// bilateral spring K_b, resting on the ground (Hertz-free linear normal row K_n, friction μ) and
// pushed by F against a wall x ≥ 0 (unilateral row). Statics of the parallel springs: λ_b =
// K_b m g/(K_b + K_n), λ_n = K_n m g/(K_b + K_n), λ_u = F, λ_t = 0 (memoryless friction at rest;
// each row alone would carry m g resp. F).
typedef struct mixed {
  double m, g, F, kb, kn, ku, b, bt, mu;
} mixed;
static int mx_mass(double t, const double *q, double *M, void *ctx) {
  (void)t, (void)q;
  const mixed *p = ctx;
  M[0] = M[3] = p->m, M[1] = M[2] = 0;
  return 0;
}
static int mx_forces(double t, const double *q, const double *v, double *f, void *ctx) {
  (void)t, (void)q, (void)v;
  const mixed *p = ctx;
  f[0] = -p->F, f[1] = -p->m * p->g;
  return 0;
}
static int mx_rows(double t, const double *q, const double *v, mdl_rows *rows, void *ctx) {
  (void)t, (void)v;
  const mixed *p = ctx;
  const int cx = 0, cz = 1;
  const double one = 1;
  mdl_rows_clear(rows);
  int b = mdl_rows_add(rows, MDL_ROW_BILATERAL, q[1], 0, p->kb, p->b, 1, &cz, &one);
  int u = mdl_rows_add(rows, MDL_ROW_UNILATERAL, q[0], 0, p->ku, p->b, 1, &cx, &one);
  int n = mdl_rows_add(rows, MDL_ROW_NORMAL, q[1], 0, p->kn, p->b, 1, &cz, &one);
  int r = mdl_rows_add(rows, MDL_ROW_TANGENT, 0, 0, 0, p->bt, 1, &cx, &one);
  if (b < 0 || u < 0 || n < 0 || r < 0) return -1;
  mdl_rows_set_contact(rows, n, 0, p->mu);
  mdl_rows_set_contact(rows, r, 0, p->mu);
  return 0;
}

static void test_mixed_rows(void **state) {
  (void)state;
  // B_t = 1e3: the memoryless friction damper relaxes in B_t/K_u = 1 ms (with B_t = 1e8 the
  // sticking friction holds part of F and creeps off over 100 s)
  mixed p = {
      .m = 2, .g = 9.81, .F = 3, .kb = 3e5, .kn = 1e6, .ku = 1e6, .b = 10, .bt = 1e3, .mu = 0.5};
  const int blocks[1] = {2};
  mdl_model model = {.nq = 2,
                     .nv = 2,
                     .max_rows = 4,
                     .max_nnz = 4,
                     .nblocks = 1,
                     .block_size = blocks,
                     .mass = mx_mass,
                     .forces = mx_forces,
                     .rows = mx_rows,
                     .ctx = &p};
  const double lb = p.kb * p.m * p.g / (p.kb + p.kn), ln = p.kn * p.m * p.g / (p.kb + p.kn);
  for (int f = 0; f < MBS_FORMULATION_COUNT; f++) {
    mbs_settings set = mbs_settings_default();
    set.formulation = (mbs_formulation)f;
    mbs_workspace *ws = mbs_workspace_create(&model, &set, NULL);
    assert_non_null(ws);
    double q[2] = {0, 0}, v[2] = {0, 0};
    int bad = 0;
    for (int i = 0; i < 300; i++) bad += mbs_step(ws, i * H, H, q, v, q, v) != MBS_OK;
    const double *lam = mbs_step_lambda(ws);
    printf(
        "mixed rows, %s: lambda_b %.9f (statics %.9f), lambda_u %.9f (F %.3f), lambda_n %.9f "
        "(statics %.9f), lambda_t %.2e, steps not ok %d\n",
        mbs_formulation_name((mbs_formulation)f), lam[0], lb, lam[1], p.F, lam[2], ln, lam[3], bad);
    assert_int_equal(bad, 0);
    assert_true(fabs(lam[0] - lb) <= 1e-6 * lb);
    assert_true(fabs(lam[2] - ln) <= 1e-6 * ln);
    // horizontal equilibrium always; paper A's objective (ζ/2 λ_u² against ½(λ_t² + β²)) moves
    // the wall's load into the friction row (measured: λ_t ≈ 2.94 N), the others put it on the wall
    assert_true(fabs(lam[1] + lam[3] - p.F) <= 1e-6 * p.F);
    if (f != MBS_PAPER) {
      assert_true(fabs(lam[1] - p.F) <= 1e-6 * p.F);
      assert_true(fabs(lam[3]) <= 1e-6 * ln);
    }
    mbs_workspace_free(ws);
  }
}

// 3-D kinematics (mdl_rigid.h) against central differences: d/dt (dirᵀ p) along q̇ = N(q) v equals
// the point Jacobian times v, for a tilted, spinning body
static void test_rigid_point_jacobian(void **state) {
  (void)state;
  double q[7] = {0.3, -0.2, 0.5, 0.9, 0.2, -0.3, 0.25}, v[6] = {0.4, -1.1, 0.7, 2.0, -0.5, 1.3};
  mdl_rigid_normalize(1, q);
  const double rb[3] = {0.1, -0.05, -0.025}, dir[3] = {0.6, 0.0, 0.8};
  double R[9], J[6], qd[7], err = 0;
  mdl_rigid_rotation(q + 3, R);
  mdl_rigid_point_jacobian(R, rb, dir, J);
  mdl_rigid_velocity_map(1, q, v, qd);
  double jv = 0, f[2];
  for (int j = 0; j < 6; j++) jv += J[j] * v[j];
  for (int side = 0; side < 2; side++) {
    const double eps = side ? -1e-6 : 1e-6;
    double qe[7], Re[9];
    for (int k = 0; k < 7; k++) qe[k] = q[k] + eps * qd[k];
    mdl_rigid_rotation(qe + 3, Re);  // first order: the unit-norm drift is O(eps²)
    f[side] = 0;
    for (int a = 0; a < 3; a++)
      f[side] +=
          dir[a] * (qe[a] + Re[3 * a] * rb[0] + Re[3 * a + 1] * rb[1] + Re[3 * a + 2] * rb[2]);
  }
  const double fd = (f[0] - f[1]) / 2e-6;
  err = fabs(fd - jv);
  printf("point velocity along dir: Jacobian %.12f, central difference %.12f (|diff| %.1e)\n", jv,
         fd, err);
  assert_true(err <= 1e-8 * (1 + fabs(jv)));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_box_frictionless), cmocka_unit_test(test_box_sticks),
      cmocka_unit_test(test_box_coulomb),      cmocka_unit_test(test_box_relaxed_paper),
      cmocka_unit_test(test_stack_statics),    cmocka_unit_test(test_stack_extra_contacts),
      cmocka_unit_test(test_mixed_rows),       cmocka_unit_test(test_rigid_point_jacobian),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
