// SPDX-License-Identifier: MIT
// One Hertz sphere dropped on the ground (sphere.h): model, impact theory, and the scenario
// descriptor of the method matrix with a probe that measures the impact against the theory.
//
// Theory: with F = c d^p and no gravity, energy gives ½ m v² = c δ^{p+1}/(p+1) at the largest
// overlap δ_max, and the contact time is 2∫₀^δmax dd / ḋ(d) with ḋ = v √(1 − (d/δ_max)^{p+1}),
// i.e. 2 (δ_max/v) I with I = ∫₀¹ (1 − x^{p+1})^{−1/2} dx = B(1/(p+1), ½)/(p+1) (for Hertz,
// p = 3/2: I = √π Γ(7/5)/Γ(9/10) ≈ 1.4717, t_c ≈ 2.943 δ_max/v).
#include "scenarios/sphere.h"

#include <math.h>
#include <stdlib.h>

#include "sim/sim_scenario.h"

sphere_params sphere_params_default(void) {
  return (sphere_params){SPHERE_PARAM_LIST(XP_PARAM_VALUE)};
}

static int sp_mass(double t, const double *q, double *M, void *ctx) {
  (void)t, (void)q;
  const sphere *s = ctx;
  M[0] = s->p.m;
  return 0;
}

static int sp_forces(double t, const double *q, const double *v, double *f, void *ctx) {
  (void)t, (void)q, (void)v;
  const sphere *s = ctx;
  f[0] = -s->p.m * s->p.g;
  return 0;
}

static int sp_rows(double t, const double *q, const double *v, mdl_rows *rows, void *ctx) {
  (void)t, (void)v;
  const sphere *s = ctx;
  double phi, K, gscale;
  hertz_row(s->p.hertz, s->p.Estar, s->p.r, s->p.r - q[0], &phi, &K, &gscale);
  const int col = 0;
  mdl_rows_clear(rows);
  const double B = hertz_damping(s->p.dissipation, s->p.b, s->p.alpha, s->p.tau_d, s->p.Estar,
                                 s->p.r, s->p.r - q[0]);
  int i = mdl_rows_add(rows, MDL_ROW_NORMAL, phi, 0, K, B, 1, &col, &gscale);
  return i < 0 || mdl_rows_set_contact(rows, i, 0, 0.0) ? -1 : 0;
}

// kinetic + gravity + the Hertz potential c d^{p+1}/(p+1)
static int sp_energy(double t, const double *q, const double *v, double *e, void *ctx) {
  (void)t;
  const sphere *s = ctx;
  const double d = fmax(0, s->p.r - q[0]), k = s->p.Estar * sqrt(s->p.r);
  const double spring = s->p.hertz == HERTZ_PAPER ? 0.5 * k * d * d * d : 0.4 * k * d * d * sqrt(d);
  *e = 0.5 * s->p.m * v[0] * v[0] + s->p.m * s->p.g * q[0] + spring;
  return 0;
}

// K(φ) of the contact row (SPEC §1.5 item 3)
static int sp_row_stiffness(const mdl_rows *rows, int i, double phi, double *K, void *ctx) {
  (void)rows, (void)i;
  const sphere *s = ctx;
  *K = hertz_stiffness(s->p.hertz, s->p.Estar, s->p.r, phi);
  return 0;
}

void sphere_init(sphere *s, const sphere_params *p) {
  s->p = *p;
  s->block_size[0] = 1;
  s->model = (mdl_model){.nq = 1,
                         .nv = 1,
                         .max_rows = 1,
                         .max_nnz = 1,
                         .nblocks = 1,
                         .block_size = s->block_size,
                         .mass = sp_mass,
                         .forces = sp_forces,
                         .rows = sp_rows,
                         .energy = sp_energy,
                         .row_stiffness = sp_row_stiffness,
                         .ctx = s};
}

void sphere_initial_state(const sphere *s, double q[1], double v[1]) {
  q[0] = s->p.r + s->p.gap;
  v[0] = -s->p.v0;
}

void sphere_impact_theory(const sphere_params *p, double v, double *overlap_max,
                          double *contact_time) {
  const double k = p->Estar * sqrt(p->r);
  const double c = p->hertz == HERTZ_PAPER ? 1.5 * k : k, pw = p->hertz == HERTZ_PAPER ? 2 : 1.5;
  const double a = 1 / (pw + 1);
  *overlap_max = pow((pw + 1) * p->m * v * v / (2 * c), a);
  const double I = a * exp(lgamma(a) + lgamma(0.5) - lgamma(a + 0.5));
  *contact_time = 2 * I * *overlap_max / v;
}

// ---- the scenario of the method matrix ------------------------------------------------------

static const xp_param_def sphere_param_defs[] = {SPHERE_PARAM_LIST(XP_PARAM_DEF)};

// the listed parameters; a damping law the Hertz row cannot carry is a usage error
static int sphere_params_read(const xp_params *prm, sphere_params *out, xp_error *err) {
  SPHERE_PARAM_LIST(XP_PARAM_READ)
  const char *why = hertz_dissipation_unsupported(out->hertz, out->dissipation);
  if (why)
    return xp_fail(err, XP_ERR_USAGE, "dissipation = %s %s",
                   hertz_dissipation_name(out->dissipation), why);
  return XP_OK;
}

// the one body for the per-body history: the sphere above the origin, not rotating
static void sp_body_state(const void *data, const double *q, const double *v, int b, double x[3],
                          double rot[4], double xd[3], double *radius) {
  (void)b;
  x[0] = x[1] = 0, x[2] = q[0];
  rot[0] = 1, rot[1] = rot[2] = rot[3] = 0;
  xd[0] = xd[1] = 0, xd[2] = v[0];
  *radius = ((const sphere *)data)->p.r;
}
static int sp_column_body(const void *data, int col) {
  (void)data;
  return col == 0 ? 0 : -1;
}
static const sim_bodies sphere_bodies = {
    .kind = "spheres", .n = 1, .state = sp_body_state, .column_body = sp_column_body};

static int sphere_create(const xp_params *p, double h, sim_instance *inst, xp_error *err) {
  (void)h;
  sphere_params sp;
  if (sphere_params_read(p, &sp, err)) return XP_ERR_USAGE;
  if (sim_instance_alloc(inst, sizeof(sphere), 1, 1))
    return xp_fail(err, XP_ERR_RUN, "out of memory");
  sphere *s = inst->data;
  sphere_init(s, &sp);
  sphere_initial_state(s, inst->q0, inst->v0);
  inst->model = &s->model;
  inst->bodies = &sphere_bodies;
  return XP_OK;
}

// the impact as the run sees it: first touch and release by linear interpolation of the gap
// between steps, largest overlap, speed out over speed in
typedef struct impact_probe {
  const sphere *s;
  double t_prev, d_prev, v_prev;
  double t_in, v_in, t_out, v_out, d_max;
  int phase;  // 0 before contact, 1 in contact, 2 released
} impact_probe;

static void impact_sample(void *ctx, size_t k, double t, const double *q, const double *v,
                          const sim_step_report *rep) {
  (void)k, (void)rep;
  impact_probe *ip = ctx;
  const double d = ip->s->p.r - q[0];
  if (ip->phase == 0 && d > 0 && !isnan(ip->d_prev)) {
    const double a = -ip->d_prev / (d - ip->d_prev);
    ip->t_in = ip->t_prev + a * (t - ip->t_prev);
    ip->v_in = -(ip->v_prev + a * (v[0] - ip->v_prev));
    ip->phase = 1;
  } else if (ip->phase == 1 && d <= 0) {
    const double a = ip->d_prev / (ip->d_prev - d);
    ip->t_out = ip->t_prev + a * (t - ip->t_prev);
    ip->v_out = ip->v_prev + a * (v[0] - ip->v_prev);
    ip->phase = 2;
  }
  if (ip->phase == 1) ip->d_max = fmax(ip->d_max, d);
  ip->t_prev = t, ip->d_prev = d, ip->v_prev = v[0];
}

static void impact_finish(void *ctx, sim_emit_fn emit, void *ectx) {
  impact_probe *ip = ctx;
  const sphere_params *p = &ip->s->p;
  const double v_in = sqrt(p->v0 * p->v0 + 2 * p->g * p->gap);  // analytic impact speed
  double dmax_th, tc_th;
  sphere_impact_theory(p, v_in, &dmax_th, &tc_th);
  const double tc = ip->phase == 2 ? ip->t_out - ip->t_in : NAN;
  const double dmax = ip->phase ? ip->d_max : NAN;
  emit(ectx, "overlap_max", dmax, "m");
  emit(ectx, "overlap_max_hertz", dmax_th, "m");
  emit(ectx, "overlap_max_error", fabs(dmax - dmax_th) / dmax_th, "");
  emit(ectx, "contact_time", tc, "s");
  emit(ectx, "contact_time_hertz", tc_th, "s");
  emit(ectx, "contact_time_error", fabs(tc - tc_th) / tc_th, "");
  emit(ectx, "restitution", ip->phase == 2 ? ip->v_out / ip->v_in : NAN, "");
  // first order in the damping (hertz.h): the elastic path's energy loss
  emit(ectx, "restitution_small_damping",
       hertz_restitution_small_damping(p->dissipation, p->b, p->alpha, p->tau_d, p->m, v_in,
                                       dmax_th),
       "");
}

static int sphere_probe(const sim_instance *inst, sim_probe *probe) {
  impact_probe *ip = calloc(1, sizeof *ip);
  if (!ip) return -1;
  ip->s = inst->data;
  ip->d_prev = NAN;
  *probe = (sim_probe){.ctx = ip, .sample = impact_sample, .finish = impact_finish, .free = free};
  return 0;
}

const sim_scenario sim_scenario_sphere = {
    .name = "sphere",
    .summary = "one Hertz sphere dropped on the ground: contact time and overlap vs impact theory",
    .params = sphere_param_defs,
    .n_params = sizeof sphere_param_defs / sizeof sphere_param_defs[0],
    .methods = SIM_FAMILY_COMPLIANT,
    .not_applicable = SIM_IDA_NOT_APPLICABLE,
    .default_h = 1e-5,
    .default_T = 0.02,
    .create = sphere_create,
    .free = sim_instance_release,
    .probe = sphere_probe,
};
