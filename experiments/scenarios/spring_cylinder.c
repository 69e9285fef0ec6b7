// SPDX-License-Identifier: MIT
// Spring–cylinder (paper B §VI.B): planar solid cylinder on compliant ground with a wall spring.
//
// q = (x, z, θ): centre position (x from the spring's rest point, z up) and rolling angle; N = I.
// M = diag(m, m, I), I = ½mR². Forces f = (−k_s x, −m g, 0), so the spring's stiffness and damping
// matrices (paper B eqs. (18)–(19)) are K = diag(k_s, 0, 0), D = 0. Ground contact: gap
// φ = z − R with G_n = (0, 1, 0); the contact point's slip ẋ − Rθ̇ is the tangent row
// G_t = (1, 0, −R), so rolling without slip is ẋ = Rθ̇. Row data K = k, B = τ_d k (the compliant
// law γ_n/δt = (−kφ − τ_d k v_n)₊ of paper B eq. (2)).
//
// Exact rolling motion: friction F on the contact point gives m ẍ = −k_s x + F, I θ̈ = −R F and
// ẍ = R θ̈, hence (m + I/R²) ẍ = −k_s x: x = x0 cos(√(k_s/m_eff) t), m_eff = 1.5 m, with
// F = −(I/R²) ẍ bounded by k_s x0 (I/R²)/m_eff. Without friction the cylinder slides, m_eff = m.
#include "scenarios/spring_cylinder.h"

#include <math.h>
#include <string.h>

#include "sim/sim_scenario.h"

spring_cylinder_params spring_cylinder_params_default(void) {
  spring_cylinder_params p = {SPRING_CYLINDER_PARAM_LIST(XP_PARAM_VALUE)
                                  SPRING_CYLINDER_CASE_PARAM_LIST(XP_PARAM_VALUE)
                                      .contact = SPRING_CYLINDER_CONTACT_FRICTION};
  p.bt = 5e7;  // 1e6/δt at paper B's δt = 0.02 s (the scenario derives it from the h used)
  return p;
}

void spring_cylinder_params_read(const xp_params *prm, spring_cylinder_params *out) {
  SPRING_CYLINDER_PARAM_LIST(XP_PARAM_READ)
}

double spring_cylinder_inertia(const spring_cylinder_params *p) {
  return 0.5 * p->m * p->radius * p->radius;
}

int spring_cylinder_rolls(const spring_cylinder_params *p) {
  if (!(p->mu > 0) || p->contact != SPRING_CYLINDER_CONTACT_FRICTION) return 0;
  const double ir2 = spring_cylinder_inertia(p) / (p->radius * p->radius);
  return p->ks * fabs(p->x0) * ir2 / (p->m + ir2) <= p->mu * p->m * p->g;
}

double spring_cylinder_effective_mass(const spring_cylinder_params *p) {
  return spring_cylinder_rolls(p) ? p->m + spring_cylinder_inertia(p) / (p->radius * p->radius)
                                  : p->m;
}

double spring_cylinder_exact_x(const spring_cylinder_params *p, double t) {
  return p->x0 * cos(sqrt(p->ks / spring_cylinder_effective_mass(p)) * t);
}

double spring_cylinder_exact_v(const spring_cylinder_params *p, double t) {
  const double w = sqrt(p->ks / spring_cylinder_effective_mass(p));
  return -p->x0 * w * sin(w * t);
}

static int sc_mass(double t, const double *q, double *M, void *ctx) {
  (void)t, (void)q;
  const spring_cylinder *sc = ctx;
  for (int i = 0; i < 9; i++) M[i] = 0;
  M[0] = M[4] = sc->p.m;
  M[8] = spring_cylinder_inertia(&sc->p);
  return 0;
}

static int sc_forces(double t, const double *q, const double *v, double *f, void *ctx) {
  (void)t, (void)v;
  const spring_cylinder *sc = ctx;
  f[0] = -sc->p.ks * q[0], f[1] = -sc->p.m * sc->p.g, f[2] = 0;
  return 0;
}

static int sc_force_jacobians(double t, const double *q, const double *v, double *K, double *D,
                              void *ctx) {
  (void)t, (void)q, (void)v;
  const spring_cylinder *sc = ctx;
  for (int i = 0; i < 9; i++) K[i] = D[i] = 0;
  K[0] = sc->p.ks;
  return 0;
}

static int sc_rows(double t, const double *q, const double *v, mdl_rows *rows, void *ctx) {
  (void)t, (void)v;
  const spring_cylinder *sc = ctx;
  const spring_cylinder_params *p = &sc->p;
  const int cn[1] = {1}, ct[2] = {0, 2};
  const double gn[1] = {1}, gt[2] = {1, -p->radius};
  const double phi = q[1] - p->radius;
  mdl_rows_clear(rows);
  if (p->contact == SPRING_CYLINDER_CONTACT_UNILATERAL)
    return mdl_rows_add(rows, MDL_ROW_UNILATERAL, phi, 0, p->k, p->tau_d * p->k, 1, cn, gn) < 0 ? -1
                                                                                                : 0;
  int n = mdl_rows_add(rows, MDL_ROW_NORMAL, phi, 0, p->k, p->tau_d * p->k, 1, cn, gn);
  if (n < 0 || mdl_rows_set_contact(rows, n, 0, p->mu)) return -1;
  if (p->contact == SPRING_CYLINDER_CONTACT_NORMAL) return 0;
  int r = mdl_rows_add(rows, MDL_ROW_TANGENT, 0, 0, 0, p->bt, 2, ct, gt);
  return r < 0 || mdl_rows_set_contact(rows, r, 0, 0) ? -1 : 0;
}

// model energy: the oscillator plus gravity (not the contact spring)
static int sc_energy(double t, const double *q, const double *v, double *e, void *ctx) {
  (void)t;
  const spring_cylinder *sc = ctx;
  *e = spring_cylinder_energy(sc, q, v) + 0.5 * sc->p.m * v[1] * v[1] + sc->p.m * sc->p.g * q[1];
  return 0;
}

void spring_cylinder_init(spring_cylinder *sc, const spring_cylinder_params *p) {
  sc->p = *p;
  sc->block_size[0] = 3;
  sc->model = (mdl_model){.nq = 3,
                          .nv = 3,
                          .max_rows = 2,
                          .max_nnz = 3,
                          .nblocks = 1,
                          .block_size = sc->block_size,
                          .mass = sc_mass,
                          .forces = sc_forces,
                          .rows = sc_rows,
                          .energy = sc_energy,
                          .force_jacobians = sc_force_jacobians,
                          .ctx = sc};
}

void spring_cylinder_initial_state(const spring_cylinder *sc, double q[3], double v[3]) {
  const spring_cylinder_params *p = &sc->p;
  q[0] = p->x0, q[1] = p->radius - p->m * p->g / p->k, q[2] = 0;
  v[0] = v[1] = v[2] = 0;
}

double spring_cylinder_energy(const spring_cylinder *sc, const double q[3], const double v[3]) {
  const spring_cylinder_params *p = &sc->p;
  return 0.5 * p->m * v[0] * v[0] + 0.5 * spring_cylinder_inertia(p) * v[2] * v[2] +
         0.5 * p->ks * q[0] * q[0];
}

double spring_cylinder_slip(const spring_cylinder *sc, const double v[3]) {
  return v[0] - sc->p.radius * v[2];
}

// ---- the scenario of the method matrix ------------------------------------------------------

static const xp_param_def spring_cylinder_param_defs[] = {
    SPRING_CYLINDER_PARAM_DEFS SPRING_CYLINDER_CASE_PARAM_DEFS};

// the physical parameters and the case (μ, B_t = 1e6/h by default for the step actually used)
static void spring_cylinder_case_read(const xp_params *prm, double h, spring_cylinder_params *out) {
  spring_cylinder_params_read(prm, out);
  SPRING_CYLINDER_CASE_PARAM_LIST(XP_PARAM_READ)
  out->bt = sim_tangent_damping(out->bt, h);
}

// the one body for the per-body history: the cylinder in the x–z plane, its axis along y; the
// rolling angle θ turns it about +y (rolling to +x: ẋ = Rθ̇)
static void sc_body_state(const void *data, const double *q, const double *v, int b, double x[3],
                          double rot[4], double xd[3], double *radius) {
  (void)b;
  x[0] = q[0], x[1] = 0, x[2] = q[1];
  rot[0] = cos(0.5 * q[2]), rot[1] = 0, rot[2] = sin(0.5 * q[2]), rot[3] = 0;
  xd[0] = v[0], xd[1] = 0, xd[2] = v[1];
  *radius = ((const spring_cylinder *)data)->p.radius;
}
static int sc_column_body(const void *data, int col) {
  (void)data;
  return col == 0 || col == 1 ? 0 : -1;
}
static const sim_bodies spring_cylinder_bodies = {
    .kind = "cylinders", .n = 1, .state = sc_body_state, .column_body = sc_column_body};

static int spring_cylinder_create(const xp_params *p, double h, sim_instance *inst, xp_error *err) {
  if (sim_instance_alloc(inst, sizeof(spring_cylinder), 3, 3))
    return xp_fail(err, XP_ERR_RUN, "out of memory");
  spring_cylinder_params sp = spring_cylinder_params_default();
  spring_cylinder_case_read(p, h, &sp);
  spring_cylinder *sc = inst->data;
  spring_cylinder_init(sc, &sp);
  spring_cylinder_initial_state(sc, inst->q0, inst->v0);
  inst->model = &sc->model;
  inst->bodies = &spring_cylinder_bodies;
  return XP_OK;
}

const sim_scenario sim_scenario_spring_cylinder = {
    .name = "spring_cylinder",
    .summary = "cylinder on a compliant ground pulled by a spring (paper B §VI.B)",
    .params = spring_cylinder_param_defs,
    .n_params = sizeof spring_cylinder_param_defs / sizeof spring_cylinder_param_defs[0],
    .methods = SIM_FAMILY_COMPLIANT,
    .not_applicable = SIM_IDA_NOT_APPLICABLE,
    .default_h = 0.02,
    .default_T = 5,
    .create = spring_cylinder_create,
    .free = sim_instance_release,
};
