// SPDX-License-Identifier: MIT
// Box on an inclined plane (paper A §6.4): model callbacks (incline.h).
//
// Ramp frame: the ramp surface is z = 0 with normal n̂ = e_z, so foot k at body point c_k (the
// bottom corner) has centre p_k = x + R c_k and overlap d_k = r − p_k,z. Its normal row is Hertz
// (hertz.h) with G = s · e_zᵀ J_k, J_k the point Jacobian (mdl_rigid_point_jacobian), and its two
// tangent rows G = e_xᵀ J_k, e_yᵀ J_k (the contact point's sliding velocity; the offset −r e_z
// from the foot centre adds ω × (−r e_z), whose x, y parts we include through the body point
// c_k − r Rᵀe_z). φ_t = 0, K_t = 0, B_t (memoryless Coulomb, paper A §6.4). Ġv is reported as 0
// (p = 0): the rows' curvature terms are O(ω²) and vanish for a box that does not rotate.
#include "scenarios/incline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_scenario.h"

incline_params incline_params_default(void) {
  incline_params p = {INCLINE_PARAM_LIST(XP_PARAM_VALUE) INCLINE_CASE_PARAM_LIST(XP_PARAM_VALUE)};
  p.bt = 1e8;  // 1e6/h at the paper's h = 0.01 s (the reader derives it from the h used)
  return p;
}

int incline_params_read(const xp_params *prm, double h, incline_params *out, xp_error *err) {
  INCLINE_PARAM_LIST(XP_PARAM_READ)
  out->bt = sim_tangent_damping(out->bt, h);  // Bt = 0: 1e6/h for the step actually used
  return XP_OK;
}

static void foot_corner(const incline_params *p, int k, double c[3]) {
  c[0] = (k & 1 ? 0.5 : -0.5) * p->lx;
  c[1] = (k & 2 ? 0.5 : -0.5) * p->ly;
  c[2] = -0.5 * p->lz;
}

void incline_foot_depth(const incline *s, const double q[7], double d[4]) {
  double R[9];
  mdl_rigid_rotation(q + 3, R);
  for (int k = 0; k < 4; k++) {
    double c[3];
    foot_corner(&s->p, k, c);
    double pz = q[2] + R[6] * c[0] + R[7] * c[1] + R[8] * c[2];
    d[k] = s->p.r - pz;
  }
}

static int in_mass(double t, const double *q, double *M, void *ctx) {
  (void)t, (void)q;
  const incline *s = ctx;
  mdl_rigid_mass_block(s->p.m, s->inertia, M);
  return 0;
}

static int in_velocity(double t, const double *q, const double *v, double *qdot, void *ctx) {
  (void)t, (void)ctx;
  mdl_rigid_velocity_map(1, q, v, qdot);
  return 0;
}

static int in_position_update(double *q, void *ctx) {
  (void)ctx;
  mdl_rigid_normalize(1, q);
  return 0;
}

static int in_forces(double t, const double *q, const double *v, double *f, void *ctx) {
  (void)t, (void)q;
  const incline *s = ctx;
  f[0] = s->p.m * s->p.g * sin(s->p.theta);
  f[1] = 0;
  f[2] = -s->p.m * s->p.g * cos(s->p.theta);
  mdl_rigid_gyroscopic(s->inertia, v + 3, f + 3);
  return 0;
}

static int in_rows(double t, const double *q, const double *v, mdl_rows *rows, void *ctx) {
  (void)t, (void)v;
  const incline *s = ctx;
  const incline_params *p = &s->p;
  static const int cols[6] = {0, 1, 2, 3, 4, 5};
  static const double ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0}, ez[3] = {0, 0, 1};
  double R[9], d[4];
  mdl_rigid_rotation(q + 3, R);
  incline_foot_depth(s, q, d);
  mdl_rows_clear(rows);
  for (int k = 0; k < 4; k++) {
    double c[3], J[6], phi, K, gs;
    foot_corner(p, k, c);
    hertz_row(p->hertz, p->Estar, p->r, d[k], &phi, &K, &gs);
    mdl_rigid_point_jacobian(R, c, ez, J);
    for (int j = 0; j < 6; j++) J[j] *= gs;
    int n = mdl_rows_add(rows, MDL_ROW_NORMAL, phi, 0, K, p->bn, 6, cols, J);
    // contact point: the foot's lowest point c − r Rᵀ e_z (body frame)
    const double cp[3] = {c[0] - p->r * R[6], c[1] - p->r * R[7], c[2] - p->r * R[8]};
    mdl_rigid_point_jacobian(R, cp, ex, J);
    int a = mdl_rows_add(rows, MDL_ROW_TANGENT, 0, 0, 0, p->bt, 6, cols, J);
    mdl_rigid_point_jacobian(R, cp, ey, J);
    int b = mdl_rows_add(rows, MDL_ROW_TANGENT, 0, 0, 0, p->bt, 6, cols, J);
    if (n < 0 || a < 0 || b < 0) return -1;
    mdl_rows_set_contact(rows, n, k, p->mu);
    mdl_rows_set_contact(rows, a, k, p->mu);
    mdl_rows_set_contact(rows, b, k, p->mu);
  }
  return 0;
}

// K(φ) of a foot's normal row (SPEC §1.5 item 3): Hertz with the foot's radius
static int in_row_stiffness(const mdl_rows *rows, int i, double phi, double *K, void *ctx) {
  (void)rows, (void)i;
  const incline *s = ctx;
  *K = hertz_stiffness(s->p.hertz, s->p.Estar, s->p.r, phi);
  return 0;
}

void incline_init(incline *s, const incline_params *p) {
  memset(s, 0, sizeof *s);
  s->p = *p;
  const double m = p->m, a = p->lx, b = p->ly, c = p->lz;
  s->inertia[0] = m * (b * b + c * c) / 12;
  s->inertia[1] = m * (a * a + c * c) / 12;
  s->inertia[2] = m * (a * a + b * b) / 12;
  s->block_size[0] = 6;
  s->model = (mdl_model){.nq = 7,
                         .nv = 6,
                         .max_rows = 12,
                         .max_nnz = 72,
                         .nblocks = 1,
                         .block_size = s->block_size,
                         .mass = in_mass,
                         .velocity_map = in_velocity,
                         .forces = in_forces,
                         .rows = in_rows,
                         .position_update = in_position_update,
                         .row_stiffness = in_row_stiffness,
                         .scene = &s->scene,
                         .ctx = s};
  s->scene = (mdl_scene){.kind = MDL_SCENE_BOX_ON_FEET,
                         .nbodies = 1,
                         .radius = p->r,
                         .mass = m,
                         .mu = p->mu,
                         .gravity = p->g,
                         .half = {0.5 * a, 0.5 * b, 0.5 * c},
                         .inertia = {s->inertia[0], s->inertia[1], s->inertia[2]},
                         .ramp_angle = p->theta,
                         .estar = p->Estar,
                         .damping = p->bn};
}

void incline_initial_state(const incline *s, double q[7], double v[6]) {
  // each foot at the overlap that carries a quarter of the normal load (of the run's Hertz row)
  const double F = 0.25 * s->p.m * s->p.g * cos(s->p.theta);
  const double d = hertz_static_overlap(s->p.hertz, s->p.Estar, s->p.r, F);
  q[0] = q[1] = 0;
  q[2] = s->p.r + 0.5 * s->p.lz - d;
  q[3] = 1, q[4] = q[5] = q[6] = 0;
  for (int j = 0; j < 6; j++) v[j] = 0;
}

// ---- the scenario of the method matrix ------------------------------------------------------

static const xp_param_def incline_param_defs[] = {INCLINE_CASE_PARAM_DEFS INCLINE_PARAM_DEFS};

// the case (μ) and the physical parameters
static int incline_case_read(const xp_params *prm, double h, incline_params *out, xp_error *err) {
  INCLINE_CASE_PARAM_LIST(XP_PARAM_READ)
  return incline_params_read(prm, h, out, err);
}

// the loop's energy series: kinetic + gravity g(sin θ, 0, −cos θ) in the ramp frame + the Hertz
// potential of the four feet (the force E*√r d^{3/2}: (2/5) E*√r d^{5/2}; hertz=paper's (3/2)
// E*√r d²: ½ E*√r d³)
static double incline_total_energy(const void *data, const double *q, const double *v) {
  const incline *s = data;
  const incline_params *p = &s->p;
  double e = 0.5 * p->m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
             p->m * p->g * (cos(p->theta) * q[2] - sin(p->theta) * q[0]);
  for (int k = 0; k < 3; k++) e += 0.5 * s->inertia[k] * v[3 + k] * v[3 + k];
  double d[4];
  incline_foot_depth(s, q, d);
  const double k = p->Estar * sqrt(p->r);
  for (int f = 0; f < 4; f++)
    if (d[f] > 0)
      e += p->hertz == HERTZ_PAPER ? 0.5 * k * d[f] * d[f] * d[f]
                                   : 0.4 * k * d[f] * d[f] * sqrt(d[f]);
  return e;
}

static int incline_create(const xp_params *p, double h, sim_instance *inst, xp_error *err) {
  if (sim_instance_alloc(inst, sizeof(incline), 7, 6))
    return xp_fail(err, XP_ERR_RUN, "out of memory");
  incline_params ip = incline_params_default();
  if (incline_case_read(p, h, &ip, err)) return sim_instance_release(inst), XP_ERR_USAGE;
  incline *s = inst->data;
  incline_init(s, &ip);
  incline_initial_state(s, inst->q0, inst->v0);
  inst->model = &s->model;
  inst->energy = incline_total_energy;
  return XP_OK;
}

// what a reader checks on the ramp, for any method: the distance travelled down the slope (paper
// A §6.4: frictionless 1.2822 m in 1 s; creep while sticking at μ = 0.375) and the largest foot
// overlap against the Hertz static overlap of a quarter of the normal load
typedef struct slide_probe {
  const incline *s;
  double x0, x, overlap_max;
} slide_probe;

static void slide_sample(void *ctx, size_t k, double t, const double *q, const double *v,
                         const sim_step_report *rep) {
  (void)t, (void)v, (void)rep;
  slide_probe *sp = ctx;
  if (k == 0) sp->x0 = q[0];
  sp->x = q[0];
  double d[4];
  incline_foot_depth(sp->s, q, d);
  for (int f = 0; f < 4; f++) sp->overlap_max = fmax(sp->overlap_max, d[f]);
}

static void slide_finish(void *ctx, sim_emit_fn emit, void *ectx) {
  const slide_probe *sp = ctx;
  const incline_params *p = &sp->s->p;
  emit(ectx, "distance", sp->x - sp->x0, "m");
  emit(ectx, "foot_overlap_max", sp->overlap_max, "m");
  emit(ectx, "foot_overlap_hertz",
       hertz_static_overlap(p->hertz, p->Estar, p->r, 0.25 * p->m * p->g * cos(p->theta)), "m");
}

static int incline_probe(const sim_instance *inst, sim_probe *probe) {
  slide_probe *sp = calloc(1, sizeof *sp);
  if (!sp) return -1;
  sp->s = inst->data;
  *probe = (sim_probe){.ctx = sp, .sample = slide_sample, .finish = slide_finish, .free = free};
  return 0;
}

const sim_scenario sim_scenario_incline = {
    .name = "incline",
    .summary = "box on four Hertz feet on a 15° ramp (paper A §6.4)",
    .params = incline_param_defs,
    .n_params = sizeof incline_param_defs / sizeof incline_param_defs[0],
    .methods = SIM_FAMILY_COMPLIANT | SIM_FAMILY_PEER,
    .not_applicable = SIM_IDA_NOT_APPLICABLE,
    .default_h = 0.01,
    .default_T = 1,
    .create = incline_create,
    .free = sim_instance_release,
    .probe = incline_probe,
};
