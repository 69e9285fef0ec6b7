// SPDX-License-Identifier: MIT
// Pile of spheres (pile.h): N Hertz spheres dropped between four walls onto the ground.
//
// Contacts: each sphere with the ground (normal e_z, overlap r − z) and the walls x, y = ±half
// (normal pointing into the box, overlap r − distance to the wall), effective radius r; each pair
// a, b with the normal n̂ = (x_b − x_a)/‖x_b − x_a‖, overlap 2r − ‖x_b − x_a‖, effective radius r/2
// (rows as in the stack, stack_contact_rows). A contact is reported while its overlap exceeds
// −reach, so the speculative rule (SPEC §1.5) sees every gap that could close in a step.
// Pairs by a sorted sweep along x: the sphere order sorted by x is kept between calls and
// re-sorted by insertion (O(N) when nearly sorted, as between steps); for each sphere only the
// following ones with x_b − x_a < 2r + reach are tested — O(N) on a column, O(N k) with k
// neighbours in a slab.
#include "scenarios/pile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mdl/mdl_rigid.h"
#include "sim/sim_scenario.h"

pile_params pile_params_default(void) {
  pile_params p = {.s = stack_params_default(), PILE_PARAM_LIST(XP_PARAM_VALUE)};
  p.s.n = 200;
  return p;
}

// insertion sort of the sphere order by x (nearly sorted between calls)
static void sort_by_x(pile *s, const double *q) {
  int *o = s->order;
  for (int i = 1; i < s->p.s.n; i++) {
    const int k = o[i];
    int j = i - 1;
    for (; j >= 0 && q[7 * o[j]] > q[7 * k]; j--) o[j + 1] = o[j];
    o[j + 1] = k;
  }
}

// ground and walls of sphere i within reach: rows, contact count *c; 0 or −1 (capacity)
static int plane_contacts(pile *s, const double *q, int i, mdl_rows *rows, int *c) {
  const double r = s->p.s.r, L = s->p.half, *x = q + 7 * i;
  const double nrm[5][3] = {{0, 0, 1}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
  const double dist[5] = {x[2], x[0] + L, L - x[0], x[1] + L, L - x[1]};
  for (int k = 0; k < 5; k++) {
    if (dist[k] - r >= s->p.reach) continue;
    if (*c >= s->max_contacts) return -1;
    s->reff[*c] = r;
    if (stack_contact_rows(rows, *c, -1, i, q, nrm[k], r - dist[k], r, &s->p.s)) return -1;
    (*c)++;
  }
  return 0;
}

// the pair a, b if within reach: rows, contact count *c; 0, −1 (capacity) or 1 (coincident)
static int pair_contact(pile *s, const double *q, int a, int b, mdl_rows *rows, int *c) {
  double nrm[3], d;
  if (stack_contact_geometry(&s->column, q, a, b, nrm, &d)) return 1;
  if (-d >= s->p.reach) return 0;
  if (*c >= s->max_contacts) return -1;
  const double reff = 0.5 * s->p.s.r;
  s->reff[*c] = reff;
  if (stack_contact_rows(rows, *c, a, b, q, nrm, d, reff, &s->p.s)) return -1;
  (*c)++;
  return 0;
}

static int pl_rows(double t, const double *q, const double *v, mdl_rows *rows, void *ctx) {
  (void)t, (void)v;
  pile *s = ctx;
  const int n = s->p.s.n;
  const double span = 2 * s->p.s.r + s->p.reach;
  mdl_rows_clear(rows);
  int c = 0, rc;
  for (int i = 0; i < n; i++)
    if (plane_contacts(s, q, i, rows, &c)) return -1;
  sort_by_x(s, q);
  for (int ia = 0; ia < n; ia++)
    for (int ib = ia + 1; ib < n && q[7 * s->order[ib]] - q[7 * s->order[ia]] < span; ib++) {
      const int a = s->order[ia] < s->order[ib] ? s->order[ia] : s->order[ib];
      const int b = s->order[ia] ^ s->order[ib] ^ a;
      if ((rc = pair_contact(s, q, a, b, rows, &c))) return rc;
    }
  return 0;
}

static int pl_row_stiffness(const mdl_rows *rows, int i, double phi, double *K, void *ctx) {
  const pile *s = ctx;
  const int c = rows->contact[i];
  if (c < 0 || c >= s->max_contacts) return -1;
  *K = hertz_stiffness(s->p.s.hertz, s->p.s.E, s->reff[c], phi);
  return 0;
}

static int pl_mass(double t, const double *q, double *M, void *ctx) {
  const pile *s = ctx;
  return s->column.model.mass(t, q, M, (void *)&s->column);
}
static int pl_velocity(double t, const double *q, const double *v, double *qdot, void *ctx) {
  const pile *s = ctx;
  return s->column.model.velocity_map(t, q, v, qdot, (void *)&s->column);
}
static int pl_forces(double t, const double *q, const double *v, double *f, void *ctx) {
  const pile *s = ctx;
  return s->column.model.forces(t, q, v, f, (void *)&s->column);
}
static int pl_position_update(double *q, void *ctx) {
  pile *s = ctx;
  return s->column.model.position_update(q, &s->column);
}

int pile_init(pile *s, const pile_params *p) {
  memset(s, 0, sizeof *s);
  if (p->s.n < 1 || p->s.n > 1000000 || !(p->half > p->s.r) || !(p->reach >= 0)) return -1;
  s->p = *p;
  if (stack_init(&s->column, &p->s)) return -1;
  s->column.scene.wall_half = p->half;  // the column's scene with the four walls (model.scene)
  const int n = p->s.n;
  // ground + two walls in a corner, and at most 12 touching neighbours (kissing number) plus
  // the ones within reach: 16 per sphere bounds a pile of equal spheres
  s->max_contacts = 3 * n + 8 * n;
  s->order = malloc((size_t)n * sizeof *s->order);
  s->reff = malloc((size_t)s->max_contacts * sizeof *s->reff);
  if (!s->order || !s->reff) return pile_free(s), -1;
  for (int i = 0; i < n; i++) s->order[i] = i;
  s->model = s->column.model;
  s->model.max_rows = 3 * s->max_contacts;
  s->model.max_nnz = 36 * s->max_contacts;
  s->model.mass = pl_mass, s->model.velocity_map = pl_velocity, s->model.forces = pl_forces;
  s->model.rows = pl_rows, s->model.position_update = pl_position_update;
  s->model.row_stiffness = pl_row_stiffness;
  s->model.ctx = s;
  return 0;
}

void pile_free(pile *s) {
  stack_free(&s->column);
  free(s->order), free(s->reff);
  s->order = NULL, s->reff = NULL;
}

// uniform in [0, 1) from a 64-bit LCG (Knuth's MMIX constants): portable and seeded
static double uniform(unsigned long long *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*state >> 11) * 0x1.0p-53;
}

void pile_initial_state(const pile *s, double *q, double *v) {
  const stack_params *p = &s->p.s;
  const double cell = 2 * p->r + p->gap, L = s->p.half;
  int k = (int)floor(2 * L / cell);
  if (k < 1) k = 1;
  const double slack = fmax(0, 2 * L / k - 2 * p->r - p->gap);  // room in a cell beside the sphere
  unsigned long long st = s->p.seed;
  for (int i = 0; i < p->n; i++) {
    const int layer = i / (k * k), ix = i % k, iy = (i / k) % k;
    double *qi = q + 7 * i;
    qi[0] = -L + (ix + 0.5) * 2 * L / k + (uniform(&st) - 0.5) * slack;
    qi[1] = -L + (iy + 0.5) * 2 * L / k + (uniform(&st) - 0.5) * slack;
    qi[2] = p->r + p->gap + layer * cell;
    qi[3] = 1, qi[4] = qi[5] = qi[6] = 0;
    for (int j = 0; j < 6; j++) v[6 * i + j] = 0;
  }
}

// Hertz potential of overlap d with effective radius reff
static double hertz_energy(const stack_params *p, double reff, double d) {
  if (d <= 0) return 0;
  const double k = p->E * sqrt(reff);
  return p->hertz == HERTZ_PAPER ? 0.5 * k * d * d * d : 0.4 * k * d * d * sqrt(d);
}

double pile_energy(const pile *s, const double *q, const double *v) {
  const stack_params *p = &s->p.s;
  const double r = p->r, L = s->p.half;
  double e = 0;
  for (int i = 0; i < p->n; i++) {
    const double *vi = v + 6 * i, *x = q + 7 * i;
    e += 0.5 * p->m * (vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2]) + p->m * p->g * x[2];
    for (int k = 0; k < 3; k++) e += 0.5 * s->column.inertia[k] * vi[3 + k] * vi[3 + k];
    const double dist[5] = {x[2], x[0] + L, L - x[0], x[1] + L, L - x[1]};
    for (int k = 0; k < 5; k++) e += hertz_energy(p, r, r - dist[k]);
    for (int j = i + 1; j < p->n; j++) {
      const double *y = q + 7 * j;
      const double dx = y[0] - x[0], dy = y[1] - x[1], dz = y[2] - x[2];
      if (fabs(dx) < 2 * r && fabs(dy) < 2 * r && fabs(dz) < 2 * r)
        e += hertz_energy(p, 0.5 * r, 2 * r - sqrt(dx * dx + dy * dy + dz * dz));
    }
  }
  return e;
}

// ---- settled state --------------------------------------------------------------------------

// 1 if sphere i touches nothing but the ground (no wall, no other sphere)
static int only_on_ground(const pile *s, const double *q, int i) {
  const double r = s->p.s.r, L = s->p.half, *x = q + 7 * i;
  if (x[2] - r >= 1e-3 * r || L - fabs(x[0]) <= r || L - fabs(x[1]) <= r) return 0;
  for (int j = 0; j < s->p.s.n; j++) {
    const double *y = q + 7 * j;
    const double dx = y[0] - x[0], dy = y[1] - x[1], dz = y[2] - x[2];
    if (j != i && dx * dx + dy * dy + dz * dz <= 4 * r * r) return 0;
  }
  return 1;
}

double pile_unsettled_speed(const pile *s, const double *q, const double *v, double still,
                            int *rolling, double *roll_speed, int *moving) {
  const double r = s->p.s.r;
  double vmax = 0;
  *rolling = 0, *roll_speed = 0;
  if (moving) *moving = 0;
  for (int i = 0; i < s->p.s.n; i++) {
    const double *vi = v + 6 * i;
    const double speed = sqrt(vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2]);
    if (speed < still) continue;
    double R[9], w[3];  // ω in the world frame
    mdl_rigid_rotation(q + 7 * i + 3, R);
    for (int a = 0; a < 3; a++)
      w[a] = R[3 * a] * vi[3] + R[3 * a + 1] * vi[4] + R[3 * a + 2] * vi[5];
    // contact point velocity v + ω × (−r e_z) = (v_x − r ω_y, v_y + r ω_x, v_z)
    const double slip = hypot(vi[0] - r * w[1], vi[1] + r * w[0]);
    if (slip < still && fabs(vi[2]) < still && only_on_ground(s, q, i)) {
      (*rolling)++, *roll_speed = fmax(*roll_speed, speed);
      continue;
    }
    if (moving) (*moving)++;
    vmax = fmax(vmax, speed);
  }
  return vmax;
}

double pile_mean_speed(const pile *s, const double *v) {
  const int n = s->p.s.n;
  double sum = 0;
  for (int i = 0; i < n; i++) {
    const double *vi = v + 6 * i;
    sum += sqrt(vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2]);
  }
  return n > 0 ? sum / n : 0;
}

// The matrix run's reference statistics of the pile (the settled state it reaches): the largest
// speed of the spheres not rolling freely at T, the mean speed, the free rollers, the time from
// which every such sphere stayed slower than PILE_STILL (NaN: still moving at T), how many move at
// T, and the centre heights.
typedef struct settle_probe {
  const pile *s;
  double *q, *v;
  double t, t_settle;
  int ok;
} settle_probe;

static void settle_sample(void *ctx, size_t k, double t, const double *q, const double *v,
                          const sim_step_report *rep) {
  (void)k, (void)rep;
  settle_probe *sp = ctx;
  int rolling;
  double roll;
  const double vmax = pile_unsettled_speed(sp->s, q, v, PILE_STILL, &rolling, &roll, NULL);
  if (!(vmax < PILE_STILL))
    sp->t_settle = NAN;
  else if (isnan(sp->t_settle))
    sp->t_settle = t;
  const int n = sp->s->p.s.n;
  memcpy(sp->q, q, (size_t)(7 * n) * sizeof *q);
  memcpy(sp->v, v, (size_t)(6 * n) * sizeof *v);
  sp->t = t, sp->ok = 1;
}

static void settle_finish(void *ctx, sim_emit_fn emit, void *emit_ctx) {
  settle_probe *sp = ctx;
  if (!sp->ok) return;
  const pile *s = sp->s;
  int rolling, moving;
  double roll, zmin = INFINITY, zmax = -INFINITY;
  const double vmax = pile_unsettled_speed(s, sp->q, sp->v, PILE_STILL, &rolling, &roll, &moving);
  for (int i = 0; i < s->p.s.n; i++)
    zmin = fmin(zmin, sp->q[7 * i + 2]), zmax = fmax(zmax, sp->q[7 * i + 2]);
  emit(emit_ctx, "speed_unsettled_T", vmax, "m/s");
  emit(emit_ctx, "speed_mean_T", pile_mean_speed(s, sp->v), "m/s");
  emit(emit_ctx, "rolling_free_T", rolling, "");
  emit(emit_ctx, "moving_T", moving, "");
  emit(emit_ctx, "settle_time", sp->t_settle, "s");
  emit(emit_ctx, "height_min_T", zmin, "m");
  emit(emit_ctx, "height_max_T", zmax, "m");
}

static void settle_free(void *ctx) {
  settle_probe *sp = ctx;
  free(sp->q);
  free(sp);
}

static int pile_probe(const sim_instance *inst, sim_probe *probe) {
  settle_probe *sp = calloc(1, sizeof *sp);
  const pile *s = inst->data;
  const int n = s->p.s.n;
  double *buf = sp ? malloc((size_t)(13 * n) * sizeof *buf) : NULL;
  if (!buf) return free(sp), -1;
  *sp = (settle_probe){.s = s, .q = buf, .v = buf + 7 * n, .t_settle = NAN};
  *probe =
      (sim_probe){.ctx = sp, .sample = settle_sample, .finish = settle_finish, .free = settle_free};
  return 0;
}

// ---- the scenario of the method matrix ------------------------------------------------------

static const xp_param_def pile_param_defs[] = {
    {"n", XP_INT, "20", XP_POSITIVE, "", NULL, "number of spheres N"},
    PILE_PARAM_DEFS       // half, reach, seed
        STACK_PARAM_DEFS  // r, m, gap, E, B, Bt, mu, g, hertz, dissipation, alpha, tau_d
};

// the loop's energy series: kinetic + gravity + Hertz potential (pile_energy)
static double pile_total_energy(const void *data, const double *q, const double *v) {
  return pile_energy(data, q, v);
}

static void pile_release(sim_instance *inst) {
  if (inst->data) pile_free(inst->data);
  sim_instance_release(inst);
}

// the listed parameters of the pile and its spheres (n: the caller's)
static int pile_params_read(const xp_params *prm, double h, pile_params *out, xp_error *err) {
  PILE_PARAM_LIST(XP_PARAM_READ)
  return stack_params_read(prm, h, &out->s, err);
}

static int pile_create(const xp_params *p, double h, sim_instance *inst, xp_error *err) {
  const long n = xp_params_int(p, "n");
  if (n > 100000) return xp_fail(err, XP_ERR_USAGE, "parameter n=%ld: at most 100000 spheres", n);
  if (sim_instance_alloc(inst, sizeof(pile), 7 * (int)n, 6 * (int)n))
    return xp_fail(err, XP_ERR_RUN, "out of memory");
  pile_params pp = pile_params_default();
  pp.s.n = (int)n;
  if (pile_params_read(p, h, &pp, err)) return sim_instance_release(inst), XP_ERR_USAGE;
  pile *s = inst->data;
  if (pile_init(s, &pp)) {
    sim_instance_release(inst);
    return xp_fail(err, XP_ERR_USAGE, "pile of %ld spheres: half must exceed r (or out of memory)",
                   n);
  }
  pile_initial_state(s, inst->q0, inst->v0);
  inst->model = &s->model;
  inst->energy = pile_total_energy;
  return XP_OK;
}

const sim_scenario sim_scenario_pile = {
    .name = "pile",
    .summary = "N Hertz spheres dropped with random offsets between four walls",
    .params = pile_param_defs,
    .n_params = sizeof pile_param_defs / sizeof pile_param_defs[0],
    .methods = SIM_FAMILY_COMPLIANT | SIM_FAMILY_PEER,
    .not_applicable = SIM_IDA_NOT_APPLICABLE,
    .default_h = 0.01,
    .default_T = 3,
    // the dropped column explodes under paper A's rule (SPEC §1.5); a pile lands the same way
    .activation = "speculative",
    .create = pile_create,
    .free = pile_release,
    .probe = pile_probe,
};
