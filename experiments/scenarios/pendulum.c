// SPDX-License-Identifier: MIT
// Planar pendulum in absolute coordinates (paper A §4.4, eq. 64).
//
// q = (x, y, θ): bob centre and orientation; the joint point sits at u = (−l, 0) in the bob frame,
// φ = [x; y] + R(θ)u = (x − l cos θ, y − l sin θ), so θ = 0 is the horizontal release position
// (bob at (l, 0)) and θ = −π/2 hangs. G = ∂φ/∂q = [1 0 l sin θ; 0 1 −l cos θ] (N = I) and
// Ġv = −R(θ)u θ̇² = (l cos θ, l sin θ) θ̇². M = diag(m, m, I), f = (0, −m g, 0).
#include "scenarios/pendulum.h"

#include <math.h>
#include <string.h>

#include "sim/sim_scenario.h"

#define PENDULUM_PI 3.14159265358979323846

pendulum_params pendulum_params_default(void) {
  return (pendulum_params){PENDULUM_PARAM_LIST(XP_PARAM_VALUE).k = 1e15, .copies = 1, .split = 0};
}

pendulum_params pendulum_params_read(const xp_params *prm) {
  pendulum_params pp = pendulum_params_default(), *out = &pp;
  PENDULUM_PARAM_LIST(XP_PARAM_READ)
  return pp;
}

static int pendulum_mass(double t, const double *q, double *M, void *ctx) {
  (void)t, (void)q;
  const pendulum *pd = ctx;
  for (int i = 0; i < 9; i++) M[i] = 0;
  M[0] = M[4] = pd->p.m;
  M[8] = pd->p.inertia;
  return 0;
}

static int pendulum_forces(double t, const double *q, const double *v, double *f, void *ctx) {
  (void)t, (void)q, (void)v;
  const pendulum *pd = ctx;
  f[0] = 0, f[1] = -pd->p.m * pd->p.g, f[2] = 0;
  return 0;
}

static int pendulum_rows(double t, const double *q, const double *v, mdl_rows *rows, void *ctx) {
  (void)t;
  const pendulum *pd = ctx;
  const double l = pd->p.l, c = cos(q[2]), s = sin(q[2]), w2 = v[2] * v[2];
  double K = pd->p.k, B = pd->p.b;
  if (pd->p.split) K /= pd->p.copies, B /= pd->p.copies;
  const int cx[2] = {0, 2}, cy[2] = {1, 2};
  const double gx[2] = {1, l * s}, gy[2] = {1, -l * c};
  mdl_rows_clear(rows);
  for (int k = 0; k < pd->p.copies; k++) {
    if (mdl_rows_add(rows, MDL_ROW_BILATERAL, q[0] - l * c, l * c * w2, K, B, 2, cx, gx) < 0 ||
        mdl_rows_add(rows, MDL_ROW_BILATERAL, q[1] - l * s, l * s * w2, K, B, 2, cy, gy) < 0)
      return -1;
  }
  return 0;
}

static int pendulum_energy_cb(double t, const double *q, const double *v, double *e, void *ctx) {
  (void)t;
  *e = pendulum_energy(ctx, q, v);
  return 0;
}

void pendulum_init(pendulum *pd, const pendulum_params *p) {
  pd->p = *p;
  if (pd->p.copies < 1) pd->p.copies = 1;
  pd->block_size[0] = 3;
  pd->model = (mdl_model){.nq = 3,
                          .nv = 3,
                          .max_rows = 2 * pd->p.copies,
                          .max_nnz = 4 * pd->p.copies,
                          .nblocks = 1,
                          .block_size = pd->block_size,
                          .mass = pendulum_mass,
                          .forces = pendulum_forces,
                          .rows = pendulum_rows,
                          .energy = pendulum_energy_cb,
                          .ctx = pd};
}

void pendulum_state_from_angle(const pendulum *pd, double alpha, double alpha_dot, double q[3],
                               double v[3]) {
  const double l = pd->p.l;
  q[0] = l * sin(alpha), q[1] = -l * cos(alpha), q[2] = alpha - PENDULUM_PI / 2;
  v[0] = l * cos(alpha) * alpha_dot, v[1] = l * sin(alpha) * alpha_dot, v[2] = alpha_dot;
}

void pendulum_initial_state(const pendulum *pd, double q[3], double v[3]) {
  pendulum_state_from_angle(pd, PENDULUM_PI / 2, 0, q, v);
}

double pendulum_deviation(const pendulum *pd, const double q[3]) {
  const double l = pd->p.l;
  return hypot(q[0] - l * cos(q[2]), q[1] - l * sin(q[2]));
}

double pendulum_energy(const pendulum *pd, const double q[3], const double v[3]) {
  const pendulum_params *p = &pd->p;
  return 0.5 * p->m * (v[0] * v[0] + v[1] * v[1]) + 0.5 * p->inertia * v[2] * v[2] +
         p->m * p->g * q[1];
}

double pendulum_pivot_inertia(const pendulum_params *p) { return p->inertia + p->m * p->l * p->l; }

double pendulum_angle(const double q[3]) { return q[2] + PENDULUM_PI / 2; }

// ---- the scenario of the method matrix ------------------------------------------------------

static const xp_param_def pendulum_param_defs[] = {
    {"k", XP_REAL, "1e15", XP_NONNEGATIVE, "N/m", NULL, "joint stiffness per row (paper A)"},
    PENDULUM_PARAM_DEFS};

static int pendulum_create(const xp_params *p, double h, sim_instance *inst, xp_error *err) {
  (void)h;
  if (sim_instance_alloc(inst, sizeof(pendulum), 3, 3))
    return xp_fail(err, XP_ERR_RUN, "out of memory");
  pendulum_params pp = pendulum_params_read(p);
  pp.k = xp_params_real(p, "k");
  pendulum *pd = inst->data;
  pendulum_init(pd, &pp);
  pendulum_initial_state(pd, inst->q0, inst->v0);
  inst->model = &pd->model;
  return XP_OK;
}

const sim_scenario sim_scenario_pendulum = {
    .name = "pendulum",
    .summary = "planar pendulum with a stiff bilateral joint (paper A §4.4)",
    .params = pendulum_param_defs,
    .n_params = sizeof pendulum_param_defs / sizeof pendulum_param_defs[0],
    .methods = SIM_FAMILY_ALL,
    .default_h = 1e-3,
    .default_T = 1,
    .create = pendulum_create,
    .free = sim_instance_release,
};
