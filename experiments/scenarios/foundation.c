// SPDX-License-Identifier: MIT
// Rigid cube on a frictionless Winkler foundation (paper A §5.5).
//
// Element e sits under the bottom face at p_e = (−s/2 + (i+½)s/n, −s/2 + (j+½)s/n, −s/2) in the
// body frame; r = R(q) p_e in the world. Its row is φ_e = z + r_z (the foundation surface is
// z = 0; φ < 0 is compression), with Jacobian G_e = ∂φ̇/∂v = [0, 0, 1, r_y, −r_x, 0] for
// v = (ẋ, ω_world) (the z-component of ẋ + ω × r), bias (Ġv)_e = (ω × (ω × r))_z, stiffness
// K = E·A_e/depth, damping B. The load F acts downward at R·(s/2)[cos ωt, sin ωt, 1] and adds the
// torque r_F × (0, 0, −F); gravity acts at the centre. The quaternion follows
// q̇ = ½ (0, ω) ⊗ q and is re-normalised after every position update.
#include "scenarios/foundation.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_scenario.h"

foundation_params foundation_params_default(void) {
  return (foundation_params){.side = 1,
                             .density = 8,
                             .depth = 1,
                             .omega = 10,
                             FOUNDATION_CASE_PARAM_LIST(XP_PARAM_VALUE)
                                 FOUNDATION_PARAM_LIST(XP_PARAM_VALUE)};
}

void foundation_params_read(const xp_params *prm, foundation_params *out) {
  FOUNDATION_PARAM_LIST(XP_PARAM_READ)
}

// r = R(quat) p, quat = (w, x, y, z) unit
static void rotate(const double *quat, const double p[3], double r[3]) {
  double w = quat[0], x = quat[1], y = quat[2], z = quat[3];
  double R[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                    {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                    {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
  for (int i = 0; i < 3; i++) r[i] = R[i][0] * p[0] + R[i][1] * p[1] + R[i][2] * p[2];
}

static void element_body_point(const foundation *fd, int e, double p[3]) {
  const double s = fd->p.side, d = s / fd->p.n;
  p[0] = -s / 2 + (e / fd->p.n + 0.5) * d;
  p[1] = -s / 2 + (e % fd->p.n + 0.5) * d;
  p[2] = -s / 2;
}

void foundation_element_point(const foundation *fd, const double q[7], int e, double out[3]) {
  double p[3], r[3];
  element_body_point(fd, e, p);
  rotate(q + 3, p, r);
  for (int i = 0; i < 3; i++) out[i] = q[i] + r[i];
}

static int fd_mass(double t, const double *q, double *blocks, void *ctx) {
  (void)t, (void)q;
  const foundation *fd = ctx;
  for (int i = 0; i < 3; i++) blocks[i] = fd->mass, blocks[3 + i] = fd->inertia;
  return 0;
}

static int fd_velocity_map(double t, const double *q, const double *v, double *qdot, void *ctx) {
  (void)t, (void)ctx;
  const double *w = v + 3, *quat = q + 3;
  for (int i = 0; i < 3; i++) qdot[i] = v[i];
  // ½ (0, ω) ⊗ (qw, qv) = ½ (−ω·qv, qw ω + ω × qv)
  qdot[3] = -0.5 * (w[0] * quat[1] + w[1] * quat[2] + w[2] * quat[3]);
  qdot[4] = 0.5 * (quat[0] * w[0] + w[1] * quat[3] - w[2] * quat[2]);
  qdot[5] = 0.5 * (quat[0] * w[1] + w[2] * quat[1] - w[0] * quat[3]);
  qdot[6] = 0.5 * (quat[0] * w[2] + w[0] * quat[2] - w[1] * quat[1]);
  return 0;
}

static int fd_forces(double t, const double *q, const double *v, double *f, void *ctx) {
  (void)v;
  const foundation *fd = ctx;
  const double s = fd->p.side, F = fd->p.load;
  double pb[3] = {s / 2 * cos(fd->p.omega * t), s / 2 * sin(fd->p.omega * t), s / 2}, r[3];
  rotate(q + 3, pb, r);
  f[0] = 0, f[1] = 0, f[2] = -fd->mass * fd->p.g - F;
  // torque r × (0, 0, −F); ω is not a body-frame velocity, so no gyroscopic term for I ∝ E
  f[3] = -r[1] * F;
  f[4] = r[0] * F;
  f[5] = 0;
  return 0;
}

static int fd_rows(double t, const double *q, const double *v, mdl_rows *rows, void *ctx) {
  (void)t;
  const foundation *fd = ctx;
  const double *w = v + 3;
  static const int col[4] = {2, 3, 4, 5};
  mdl_rows_clear(rows);
  for (int e = 0; e < fd->p.n * fd->p.n; e++) {
    double p[3], r[3];
    element_body_point(fd, e, p);
    rotate(q + 3, p, r);
    // (ω × (ω × r))_z = ω_z (ω·r) − r_z |ω|²
    double wr = w[0] * r[0] + w[1] * r[1] + w[2] * r[2];
    double ww = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
    double val[4] = {1, r[1], -r[0], 0};
    if (mdl_rows_add(rows, MDL_ROW_UNILATERAL, q[2] + r[2], w[2] * wr - r[2] * ww, fd->k_element,
                     fd->p.B, 4, col, val) < 0)
      return -1;
  }
  return 0;
}

static int fd_energy(double t, const double *q, const double *v, double *energy, void *ctx) {
  (void)t;
  const foundation *fd = ctx;
  double kin = 0;
  for (int i = 0; i < 3; i++) kin += fd->mass * v[i] * v[i] + fd->inertia * v[3 + i] * v[3 + i];
  *energy = 0.5 * kin + fd->mass * fd->p.g * q[2];
  return 0;
}

static int fd_normalise(double *q, void *ctx) {
  (void)ctx;
  double n = sqrt(q[3] * q[3] + q[4] * q[4] + q[5] * q[5] + q[6] * q[6]);
  if (!(n > 0)) return -1;
  for (int i = 3; i < 7; i++) q[i] /= n;
  return 0;
}

int foundation_params_check(const foundation_params *p, sc_error *err) {
  if (p->n >= 1 && p->n <= FOUNDATION_MAX_N) return SC_OK;
  return sc_error_set(err, SC_ERR_INPUT,
                      "n = %d elements per side is outside 1..%d (the model indexes 4 n^2 entries)",
                      p->n, FOUNDATION_MAX_N);
}

void foundation_init(foundation *fd, const foundation_params *p) {
  assert(p->n >= 1 && p->n <= FOUNDATION_MAX_N && "foundation_params_check first");
  memset(fd, 0, sizeof *fd);
  fd->p = *p;
  const double s = p->side;
  fd->mass = p->density * s * s * s;
  fd->inertia = fd->mass * s * s / 6;
  fd->area_element = (s / p->n) * (s / p->n);
  fd->k_element = p->E * fd->area_element / p->depth;
  for (int i = 0; i < 6; i++) fd->block_size[i] = 1;
  fd->model = (mdl_model){
      .nq = 7,
      .nv = 6,
      .max_rows = p->n * p->n,
      .max_nnz = 4 * p->n * p->n,
      .nblocks = 6,
      .block_size = fd->block_size,
      .mass = fd_mass,
      .velocity_map = fd_velocity_map,
      .forces = fd_forces,
      .rows = fd_rows,
      .energy = fd_energy,
      .position_update = fd_normalise,
      .ctx = fd,
  };
}

void foundation_initial_state(const foundation *fd, double q[7], double v[6]) {
  memset(q, 0, 7 * sizeof *q);
  memset(v, 0, 6 * sizeof *v);
  q[2] = fd->p.side / 2;
  q[3] = 1;
}

void foundation_pressure(const foundation *fd, const double q[7], const double v[6], double *out) {
  for (int e = 0; e < fd->p.n * fd->p.n; e++) {
    double p[3], r[3];
    element_body_point(fd, e, p);
    rotate(q + 3, p, r);
    double phi = q[2] + r[2];
    double phidot = v[2] + v[3] * r[1] - v[4] * r[0];
    double lam = phi <= 0 ? fmax(0, -fd->k_element * phi - fd->p.B * phidot) : 0;
    out[e] = lam / fd->area_element;
  }
}

// ---- the scenario of the method matrix ------------------------------------------------------

static const xp_param_def foundation_param_defs[] = {
    FOUNDATION_CASE_PARAM_DEFS FOUNDATION_PARAM_DEFS};

// the case (n, E, F) and the shared parameters (B, g)
static void foundation_case_read(const xp_params *prm, foundation_params *out) {
  FOUNDATION_CASE_PARAM_LIST(XP_PARAM_READ)
  foundation_params_read(prm, out);
}

static int foundation_create(const xp_params *p, double h, sim_instance *inst, xp_error *err) {
  (void)h;
  const long n = xp_params_int(p, "n");
  if (n > 1000)
    return xp_fail(err, XP_ERR_USAGE, "parameter n=%ld: at most 1000 (1e6 elements)", n);
  if (sim_instance_alloc(inst, sizeof(foundation), 7, 6))
    return xp_fail(err, XP_ERR_RUN, "out of memory");
  foundation_params fp = foundation_params_default();
  foundation_case_read(p, &fp);
  foundation *fd = inst->data;
  foundation_init(fd, &fp);
  foundation_initial_state(fd, inst->q0, inst->v0);
  inst->model = &fd->model;
  return XP_OK;
}

const sim_scenario sim_scenario_foundation = {
    .name = "foundation",
    .summary = "cube on a Winkler foundation under a rotating load (paper A §5.5)",
    .params = foundation_param_defs,
    .n_params = sizeof foundation_param_defs / sizeof foundation_param_defs[0],
    .methods = SIM_FAMILY_COMPLIANT,
    .not_applicable = SIM_IDA_NOT_APPLICABLE,
    .default_h = 0.01,
    .default_T = 1,
    .create = foundation_create,
    .free = sim_instance_release,
};
