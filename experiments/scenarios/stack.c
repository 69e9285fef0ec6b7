// SPDX-License-Identifier: MIT
// Stack of spheres (paper A §6.5): model callbacks (stack.h).
//
// Contact 0 joins sphere 0 and the ground z = 0: overlap d = r − z_0, normal e_z, effective
// radius r. Contact c ≥ 1 joins spheres a = c−1 and b = c: with the unit normal n̂ = (x_b − x_a)
// / ‖x_b − x_a‖ (a towards b) the overlap is d = 2r − ‖x_b − x_a‖ and the effective radius r/2
// (Hertz, r_eff = r_a r_b/(r_a + r_b)); the rows measure the relative velocity of the contact
// points x_b − r n̂ and x_a + r n̂: G = dirᵀ(J_b − J_a) with the point Jacobians of
// mdl_rigid_point_jacobian, dir = n̂ (scaled as hertz.h) for the normal and the tangents t̂_1, t̂_2
// ⟂ n̂ (t̂_1 = normalised e_x − (e_x·n̂)n̂, t̂_2 = n̂ × t̂_1). Ġv is reported as 0 (p = 0).
// Contacts c ≥ N: any other pair, or sphere i ≥ 1 and the ground, closer than
// STACK_EXTRA_REACH·r — none while the column holds; found if it breaks (a column that launches
// spheres through each other under paper A's rule must not pass through the ground unseen).
#include "scenarios/stack.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_scenario.h"

stack_params stack_params_default(void) {
  stack_params p = {.n = 10, STACK_PARAM_LIST(XP_PARAM_VALUE)};
  p.bt = 1e8;  // 1e6/h at the paper's h = 0.01 s (the reader derives it from the h used)
  return p;
}

// Calls visit(s, q, a, b, ctx) for every pair of spheres a < b that are not column neighbours and
// whose centres are closer than 2r + reach, and visit(s, q, −1, b, ctx) for every sphere b ≥ 1
// closer to the ground than r + reach: the contacts a column in order never has, found anyway.
// While the centres' heights increase with the index (a column), a forward scan stops at the
// first sphere 2r + reach higher: O(N) plus the pairs found; otherwise all pairs are tested.
// Stops at the first non-zero return of visit and returns it.
typedef int extra_visit(const stack *s, const double *q, int a, int b, void *ctx);
static int for_each_extra(const stack *s, const double *q, double reach, extra_visit *visit,
                          void *ctx) {
  const int n = s->p.n;
  const double r = s->p.r, span = 2 * r + reach;
  int in_order = 1, rc;
  for (int i = 1; i < n && in_order; i++) in_order = q[7 * i + 2] > q[7 * (i - 1) + 2];
  for (int b = 1; b < n; b++)
    if (q[7 * b + 2] - r < reach && (rc = visit(s, q, -1, b, ctx))) return rc;
  for (int a = 0; a < n; a++)
    for (int b = a + 2; b < n; b++) {
      const double *xa = q + 7 * a, *xb = q + 7 * b;
      if (in_order && xb[2] - xa[2] >= span) break;
      const double dx = xb[0] - xa[0], dy = xb[1] - xa[1], dz = xb[2] - xa[2];
      if (dx * dx + dy * dy + dz * dz < span * span && (rc = visit(s, q, a, b, ctx))) return rc;
    }
  return 0;
}

int stack_contact_geometry(const stack *s, const double *q, int a, int b, double nrm[3],
                           double *d) {
  const double r = s->p.r, *xb = q + 7 * b;
  if (a < 0) {
    nrm[0] = nrm[1] = 0, nrm[2] = 1, *d = r - xb[2];
    return 0;
  }
  const double *xa = q + 7 * a;
  double dx[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
  const double len = sqrt(dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]);
  if (!(len > 0)) return 1;  // coincident centres: recoverable (smaller step)
  for (int k = 0; k < 3; k++) nrm[k] = dx[k] / len;
  *d = 2 * r - len;
  return 0;
}

double stack_contact_depth(const stack *s, const double *q, int c) {
  const double r = s->p.r;
  if (c == 0) return r - q[2];
  const double *a = q + 7 * (c - 1), *b = q + 7 * c;
  return 2 * r - sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) +
                      (b[2] - a[2]) * (b[2] - a[2]));
}

// Hertz potential of overlap d with effective radius reff (0 if apart)
static double hertz_potential(const stack_params *p, double reff, double d) {
  if (d <= 0) return 0;
  const double k = p->E * sqrt(reff);
  return p->hertz == HERTZ_PAPER ? 0.5 * k * d * d * d : 0.4 * k * d * d * sqrt(d);
}

static int add_extra_energy(const stack *s, const double *q, int a, int b, void *ctx) {
  double nrm[3], d;
  if (!stack_contact_geometry(s, q, a, b, nrm, &d))
    *(double *)ctx += hertz_potential(&s->p, a < 0 ? s->p.r : 0.5 * s->p.r, d);
  return 0;
}

double stack_energy(const stack *s, const double *q, const double *v) {
  const stack_params *p = &s->p;
  double e = 0;
  for (int i = 0; i < p->n; i++) {
    const double *vi = v + 6 * i;
    e += 0.5 * p->m * (vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2]) + p->m * p->g * q[7 * i + 2];
    for (int k = 0; k < 3; k++) e += 0.5 * s->inertia[k] * vi[3 + k] * vi[3 + k];
  }
  for (int c = 0; c < p->n; c++)
    e += hertz_potential(p, c == 0 ? p->r : 0.5 * p->r, stack_contact_depth(s, q, c));
  for_each_extra(s, q, 0, add_extra_energy, &e);  // overlapping contacts outside the column
  return e;
}

static int st_mass(double t, const double *q, double *M, void *ctx) {
  (void)t, (void)q;
  const stack *s = ctx;
  for (int i = 0; i < s->p.n; i++) mdl_rigid_mass_block(s->p.m, s->inertia, M + 36 * i);
  return 0;
}

static int st_velocity(double t, const double *q, const double *v, double *qdot, void *ctx) {
  (void)t;
  const stack *s = ctx;
  mdl_rigid_velocity_map(s->p.n, q, v, qdot);
  return 0;
}

static int st_position_update(double *q, void *ctx) {
  const stack *s = ctx;
  mdl_rigid_normalize(s->p.n, q);
  return 0;
}

static int st_forces(double t, const double *q, const double *v, double *f, void *ctx) {
  (void)t, (void)q;
  const stack *s = ctx;
  for (int i = 0; i < s->p.n; i++) {
    f[6 * i] = f[6 * i + 1] = 0;
    f[6 * i + 2] = -s->p.m * s->p.g;
    mdl_rigid_gyroscopic(s->inertia, v + 6 * i + 3, f + 6 * i + 3);
  }
  return 0;
}

// one row dirᵀ(J_b(p_b) − J_a(p_a)) · scale over sphere a (−1: ground) and b
static int add_row(mdl_rows *rows, mdl_row_kind kind, double phi, double K, double B, int a, int b,
                   const double *q, const double *nrm, double r, const double *dir, double scale) {
  int col[12];
  double val[12], R[9], rb[3];
  int nz = 0;
  for (int side = 0; side < 2; side++) {
    int body = side ? b : a;
    if (body < 0) continue;
    mdl_rigid_rotation(q + 7 * body + 3, R);
    // contact point relative to the centre, world: −r n̂ on b, +r n̂ on a; body frame Rᵀ(·)
    double sgn = side ? -r : r, w[3] = {sgn * nrm[0], sgn * nrm[1], sgn * nrm[2]};
    for (int k = 0; k < 3; k++) rb[k] = R[k] * w[0] + R[3 + k] * w[1] + R[6 + k] * w[2];
    double J[6];
    mdl_rigid_point_jacobian(R, rb, dir, J);
    for (int j = 0; j < 6; j++) col[nz] = 6 * body + j, val[nz++] = (side ? 1 : -1) * scale * J[j];
  }
  return mdl_rows_add(rows, kind, phi, 0, K, B, nz, col, val);
}

void stack_contact_tangents(const double *nrm, double t1[3], double t2[3]) {
  // tangents: e_x projected off n̂, then n̂ × t̂_1
  t1[0] = 1 - nrm[0] * nrm[0], t1[1] = -nrm[0] * nrm[1], t1[2] = -nrm[0] * nrm[2];
  double l1 = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
  if (l1 < 1e-6) t1[0] = 0, t1[1] = 1, t1[2] = 0, l1 = 1;  // n̂ along e_x
  for (int k = 0; k < 3; k++) t1[k] /= l1;
  t2[0] = nrm[1] * t1[2] - nrm[2] * t1[1];
  t2[1] = nrm[2] * t1[0] - nrm[0] * t1[2];
  t2[2] = nrm[0] * t1[1] - nrm[1] * t1[0];
}

int stack_contact_rows_law(mdl_rows *rows, int c, int a, int b, const double *q, const double *nrm,
                           double d, double reff, const stack_params *p,
                           const stack_tangent_law *law) {
  double t1[3], t2[3];
  stack_contact_tangents(nrm, t1, t2);
  const stack_tangent_law viscous = {.K = 0, .B = p->bt, .phi = {0, 0}};
  if (!law) law = &viscous;
  double phi, K, gs;
  hertz_row(p->hertz, p->E, reff, d, &phi, &K, &gs);
  const double B = hertz_damping(p->dissipation, p->b, p->alpha, p->tau_d, p->E, reff, d);
  int rn = add_row(rows, MDL_ROW_NORMAL, phi, K, B, a, b, q, nrm, p->r, nrm, gs);
  int r1 = add_row(rows, MDL_ROW_TANGENT, law->phi[0], law->K, law->B, a, b, q, nrm, p->r, t1, 1);
  int r2 = add_row(rows, MDL_ROW_TANGENT, law->phi[1], law->K, law->B, a, b, q, nrm, p->r, t2, 1);
  if (rn < 0 || r1 < 0 || r2 < 0) return -1;
  mdl_rows_set_contact(rows, rn, c, p->mu);
  mdl_rows_set_contact(rows, r1, c, p->mu);
  mdl_rows_set_contact(rows, r2, c, p->mu);
  return 0;
}

int stack_contact_rows(mdl_rows *rows, int c, int a, int b, const double *q, const double *nrm,
                       double d, double reff, const stack_params *p) {
  return stack_contact_rows_law(rows, c, a, b, q, nrm, d, reff, p, NULL);
}

typedef struct extra_rows {
  mdl_rows *rows;
  int c;  // next contact id
} extra_rows;

static int add_extra(const stack *s, const double *q, int a, int b, void *ctx) {
  extra_rows *e = ctx;
  double nrm[3], d;
  if (stack_contact_geometry(s, q, a, b, nrm, &d)) return 1;
  if (e->c >= s->max_contacts) return -1;  // more contacts than a column can have: the model fails
  s->reff[e->c] = a < 0 ? s->p.r : 0.5 * s->p.r;
  if (stack_contact_rows(e->rows, e->c, a, b, q, nrm, d, s->reff[e->c], &s->p)) return -1;
  e->c++;
  return 0;
}

static int st_rows(double t, const double *q, const double *v, mdl_rows *rows, void *ctx) {
  (void)t, (void)v;
  const stack *s = ctx;
  const stack_params *p = &s->p;
  mdl_rows_clear(rows);
  for (int c = 0; c < p->n; c++) {
    double nrm[3], d;
    if (stack_contact_geometry(s, q, c - 1, c, nrm, &d)) return 1;
    if (stack_contact_rows(rows, c, c - 1, c, q, nrm, d, s->reff[c], p)) return -1;
  }
  extra_rows e = {rows, p->n};
  return for_each_extra(s, q, STACK_EXTRA_REACH * p->r, add_extra, &e);
}

// K(φ) of a normal row (SPEC §1.5 item 3): Hertz with the contact's effective radius
static int st_row_stiffness(const mdl_rows *rows, int i, double phi, double *K, void *ctx) {
  const stack *s = ctx;
  const int c = rows->contact[i];
  if (c < 0 || c >= s->max_contacts) return -1;
  *K = hertz_stiffness(s->p.hertz, s->p.E, s->reff[c], phi);
  return 0;
}

int stack_init(stack *s, const stack_params *p) {
  memset(s, 0, sizeof *s);
  if (p->n < 1 || p->n > STACK_MAX_SPHERES) return -1;
  s->p = *p;
  s->max_contacts = STACK_CONTACTS_PER_SPHERE * p->n;
  s->block_size = malloc((size_t)p->n * sizeof *s->block_size);
  s->reff = malloc((size_t)s->max_contacts * sizeof *s->reff);
  if (!s->block_size || !s->reff) return stack_free(s), -1;
  for (int c = 0; c < p->n; c++) s->reff[c] = c == 0 ? p->r : 0.5 * p->r;
  for (int i = 0; i < p->n; i++) s->block_size[i] = 6;
  s->inertia[0] = s->inertia[1] = s->inertia[2] = 0.4 * p->m * p->r * p->r;
  s->scene =
      (mdl_scene){.nbodies = p->n,
                  .radius = p->r,
                  .mass = p->m,
                  .mu = p->mu,
                  .gravity = p->g,
                  .wall_half = 0,
                  .estar = p->E,
                  .damping = p->b,
                  .hc_alpha = p->dissipation == HERTZ_DISSIPATION_HUNT_CROSSLEY ? p->alpha : 0};
  s->model = (mdl_model){.nq = 7 * p->n,
                         .nv = 6 * p->n,
                         .max_rows = 3 * s->max_contacts,
                         .max_nnz = 36 * s->max_contacts,
                         .nblocks = p->n,
                         .block_size = s->block_size,
                         .mass = st_mass,
                         .velocity_map = st_velocity,
                         .forces = st_forces,
                         .rows = st_rows,
                         .position_update = st_position_update,
                         .row_stiffness = st_row_stiffness,
                         .scene = &s->scene,
                         .ctx = s};
  return 0;
}

void stack_free(stack *s) {
  free(s->block_size), free(s->reff);
  s->block_size = NULL, s->reff = NULL;
}

void stack_initial_state(const stack *s, double *q, double *v) {
  const stack_params *p = &s->p;
  for (int i = 0; i < p->n; i++) {
    double *qi = q + 7 * i;
    qi[0] = qi[1] = 0;
    qi[2] = p->r + p->gap + i * (2 * p->r + p->gap);
    qi[3] = 1, qi[4] = qi[5] = qi[6] = 0;
    for (int j = 0; j < 6; j++) v[6 * i + j] = 0;
  }
}

void stack_resting_state(const stack *s, double *q, double *v) {
  const stack_params *p = &s->p;
  double z = 0;
  for (int c = 0; c < p->n; c++) {
    const double F = (p->n - c) * p->m * p->g, reff = c == 0 ? p->r : 0.5 * p->r;
    const double d = hertz_static_overlap(p->hertz, p->E, reff, F);
    z += (c == 0 ? p->r : 2 * p->r) - d;
    double *qi = q + 7 * c;
    qi[0] = qi[1] = 0, qi[2] = z;
    qi[3] = 1, qi[4] = qi[5] = qi[6] = 0;
    for (int j = 0; j < 6; j++) v[6 * c + j] = 0;
  }
}

// ---- the scenario of the method matrix ------------------------------------------------------

static const xp_param_def stack_param_defs[] = {
    {"n", XP_INT, "10", XP_POSITIVE, "", NULL, "number of spheres N"},
    {"initial", XP_STRING, "dropped", XP_ANY, "", "dropped|resting",
     "dropped: at rest in mid-air, evenly spaced (paper A §6.5); resting: static Hertz overlaps"},
    STACK_PARAM_DEFS  // r, m, gap, E, B, Bt, mu, g, hertz, dissipation, alpha, tau_d
};

// the loop's energy series: kinetic + gravity + Hertz potential (stack_energy)
static double stack_total_energy(const void *data, const double *q, const double *v) {
  return stack_energy(data, q, v);
}

static void stack_release(sim_instance *inst) {
  if (inst->data) stack_free(inst->data);
  sim_instance_release(inst);
}

int stack_params_read(const xp_params *prm, double h, stack_params *out, xp_error *err) {
  STACK_PARAM_LIST(XP_PARAM_READ)
  out->bt = sim_tangent_damping(out->bt, h);  // Bt = 0: 1e6/h for the step actually used
  const char *why = hertz_dissipation_unsupported(out->hertz, out->dissipation);
  if (why)
    return xp_fail(err, XP_ERR_USAGE, "dissipation = %s %s",
                   hertz_dissipation_name(out->dissipation), why);
  return XP_OK;
}

static int stack_create(const xp_params *p, double h, sim_instance *inst, xp_error *err) {
  const long n = xp_params_int(p, "n");
  if (n > 100000) return xp_fail(err, XP_ERR_USAGE, "parameter n=%ld: at most 100000 spheres", n);
  if (sim_instance_alloc(inst, sizeof(stack), 7 * (int)n, 6 * (int)n))
    return xp_fail(err, XP_ERR_RUN, "out of memory");
  stack_params sp = stack_params_default();
  sp.n = (int)n;
  if (stack_params_read(p, h, &sp, err)) return sim_instance_release(inst), XP_ERR_USAGE;
  stack *s = inst->data;
  if (stack_init(s, &sp)) {
    sim_instance_release(inst);
    return xp_fail(err, XP_ERR_RUN, "out of memory (stack of %ld spheres)", n);
  }
  if (strcmp(xp_params_string(p, "initial"), "resting") == 0)
    stack_resting_state(s, inst->q0, inst->v0);
  else
    stack_initial_state(s, inst->q0, inst->v0);
  inst->model = &s->model;
  inst->energy = stack_total_energy;
  return XP_OK;
}

const sim_scenario sim_scenario_stack = {
    .name = "stack",
    .summary = "column of N Hertz spheres, dropped or resting (paper A §6.5)",
    .params = stack_param_defs,
    .n_params = sizeof stack_param_defs / sizeof stack_param_defs[0],
    .methods = SIM_FAMILY_COMPLIANT | SIM_FAMILY_PEER,
    .not_applicable = SIM_IDA_NOT_APPLICABLE,
    .default_h = 0.01,
    .default_T = 1,
    // paper A's rule explodes the dropped column from N = 21 (SPEC §1.5); measured settling with
    // the speculative rule: N = 20, 50, 100 at 0.31, 0.45, 0.69 s (tests/sim/test_stack_drop.c)
    .activation = "speculative",
    .create = stack_create,
    .free = stack_release,
};
