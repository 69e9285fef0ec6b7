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
#include "mdl/mdl_stick.h"
#include "sim/sim_scenario.h"

pile_params pile_params_default(void) {
  pile_params p = {.s = stack_params_default(), PILE_PARAM_LIST(XP_PARAM_VALUE)};
  p.s.n = 200;
  return p;
}

int pile_tangent_parse(const char *name, pile_tangent *out) {
  if (strcmp(name, "stick") == 0) return *out = PILE_TANGENT_STICK, 0;
  if (strcmp(name, "viscous") == 0) return *out = PILE_TANGENT_VISCOUS, 0;
  return -1;
}

double pile_stick_stiffness(const pile_params *p) {
  if (p->kt > 0) return p->kt;
  const double w = p->s.m * p->s.g, nu = PILE_POISSON;
  if (!(w > 0)) return 0;
  // Hertz F = E√r d^{3/2} under the weight: d = (F/(E√r))^{2/3}, secant stiffness F/d
  const double d = pow(w / (p->s.E * sqrt(p->s.r)), 2.0 / 3.0);
  return 2 * (1 - nu) / (2 - nu) * w / d;
}

double pile_rolling_stiffness(const pile_params *p, double reff) {
  return p->kr > 0 ? p->kr : pile_stick_stiffness(p) * reff * reff;
}

// a rolling/twisting tangent row of contact `id` along world direction e: ω_b·e − ω_a·e (ω in
// the body frames of v), a spring kr with its anchor theta
static int add_roll_row(mdl_rows *rows, int id, int a, int b, const double *q, const double e[3],
                        double theta, double kr) {
  int col[6], n = 0;
  double val[6];
  const int body[2] = {b, a};
  for (int k = 0; k < 2 && body[k] >= 0; k++) {
    double R[9];
    mdl_rigid_rotation(q + 7 * body[k] + 3, R);
    for (int j = 0; j < 3; j++, n++)
      col[n] = 6 * body[k] + 3 + j,
      val[n] = (k ? -1 : 1) * (R[j] * e[0] + R[3 + j] * e[1] + R[6 + j] * e[2]);
  }
  const int i = mdl_rows_add(rows, MDL_ROW_TANGENT, theta, 0, kr, 0, n, col, val);
  return i < 0 ? -1 : mdl_rows_set_contact(rows, i, id, 1);
}

// the load row of the cone `id`: no Jacobian, K = K_L, φ = −torque/K_L, so its λ is the torque
// cap. Its compliance 1/(h²K_L) is what keeps it there in the relaxed formulation, whose cone
// lifts a sliding cone's normal λ by ‖ρ_t‖/C (SPEC §1.3): measured on one rolling sphere, the
// cap's error is ∝ K_L (1.0 at K_L = 1, 4.9e-3 at 1e-2, 4.9e-5 at 1e-4); exact Coulomb has none
static int add_load_row(mdl_rows *rows, int id, double torque) {
  const double kl = 1e-4;  // K_L
  const int i = mdl_rows_add(rows, MDL_ROW_NORMAL, -torque / kl, 0, kl, 0, 0, NULL, NULL);
  return i < 0 ? -1 : mdl_rows_set_contact(rows, i, id, 1);
}

// the rolling and twisting cones of contact c (mdl_stick.h), ids max_contacts + 2c, + 2c + 1: both
// capped by μ_r r_eff F_n, F_n the Hertz force at the step's start (one coefficient for rolling
// and twisting)
static int rolling_rows(pile *s, mdl_rows *rows, int c, int a, int b, const double *q,
                        const double *nrm, double d, double reff) {
  double t1[3], t2[3], th[3], phi, K, gs;
  stack_contact_tangents(nrm, t1, t2);
  hertz_row(s->p.s.hertz, s->p.s.E, reff, d, &phi, &K, &gs);
  const double kr = pile_rolling_stiffness(&s->p, reff);
  const double torque = mdl_stick_rolling(s->stick) * reff * (-K * phi);
  const int roll = s->max_contacts + 2 * c, twist = roll + 1;
  if (!(torque > 0)) return 0;  // no load, no resistance
  if (mdl_stick_contact_rolling(s->stick, c, rows->n, kr, th)) return -1;
  if (add_load_row(rows, roll, torque) || add_roll_row(rows, roll, a, b, q, t1, th[0], kr) ||
      add_roll_row(rows, roll, a, b, q, t2, th[1], kr) || add_load_row(rows, twist, torque) ||
      add_roll_row(rows, twist, a, b, q, nrm, th[2], kr))
    return -1;
  return 0;
}

// contact c's rows between a (−1: plane `plane`) and sphere b: the stick law with its anchor
// when the memory is on, else paper A's tangent rows; with rolling resistance, a contact that
// overlaps and ended the last step loaded also gets its rolling and twisting cones
static int contact_rows(pile *s, mdl_rows *rows, int c, int a, int plane, int b, const double *q,
                        const double *nrm, double d, double reff) {
  if (!s->stick || !mdl_stick_on(s->stick))
    return stack_contact_rows(rows, c, a, b, q, nrm, d, reff, &s->p.s);
  const unsigned long long n = (unsigned long long)s->p.s.n;
  const unsigned long long key =
      (a >= 0 ? (unsigned long long)a : n + (unsigned long long)plane) * (n + 5) +
      (unsigned long long)b;
  double t1[3], t2[3];
  stack_contact_tangents(nrm, t1, t2);
  stack_tangent_law law = {.K = mdl_stick_stiffness(s->stick), .B = mdl_stick_damping(s->stick)};
  if (mdl_stick_contact(s->stick, c, key, rows->n, nrm, t1, t2, law.phi)) return -1;
  if (stack_contact_rows_law(rows, c, a, b, q, nrm, d, reff, &s->p.s, &law)) return -1;
  if (!(mdl_stick_rolling(s->stick) > 0) || !(d > 0) || !mdl_stick_loaded(s->stick, key)) return 0;
  return rolling_rows(s, rows, c, a, b, q, nrm, d, reff);
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
    if (contact_rows(s, rows, *c, -1, k, i, q, nrm[k], r - dist[k], r)) return -1;
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
  if (contact_rows(s, rows, *c, a, 0, b, q, nrm, d, reff)) return -1;
  (*c)++;
  return 0;
}

static int pl_rows(double t, const double *q, const double *v, mdl_rows *rows, void *ctx) {
  (void)t, (void)v;
  pile *s = ctx;
  const int n = s->p.s.n;
  const double span = 2 * s->p.s.r + s->p.reach;
  mdl_rows_clear(rows);
  if (s->stick) mdl_stick_begin(s->stick);
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
  if (c >= s->max_contacts && c < 3 * s->max_contacts) return *K = rows->K[i], 0;  // load rows
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

// the stick anchors (SPEC §1.6): cleared and switched on before a stepper's first step, moved
// after each taken step by its rows and forces
static int pl_memory(double h, const double *q, const double *v, const mdl_rows *rows,
                     const double *lambda, void *ctx) {
  (void)q;
  pile *s = ctx;
  if (!rows) return mdl_stick_start(s->stick), 0;
  return lambda && v ? mdl_stick_update(s->stick, h, v, rows, lambda) : -1;
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
  // 3 rows per contact (36 Jacobian entries), 5 more (18 entries) with rolling resistance
  const int roll = p->tangent == PILE_TANGENT_STICK && p->s.mu > 0 && p->mur > 0;
  s->model.max_rows = (roll ? 8 : 3) * s->max_contacts;
  s->model.max_nnz = (roll ? 54 : 36) * s->max_contacts;
  s->model.mass = pl_mass, s->model.velocity_map = pl_velocity, s->model.forces = pl_forces;
  s->model.rows = pl_rows, s->model.position_update = pl_position_update;
  s->model.row_stiffness = pl_row_stiffness;
  s->model.ctx = s;
  if (p->tangent == PILE_TANGENT_STICK && p->s.mu > 0) {
    s->stick = mdl_stick_create(s->max_contacts, pile_stick_stiffness(p), p->bts);
    if (!s->stick || mdl_stick_set_rolling(s->stick, p->mur)) return pile_free(s), -1;
    s->model.memory = pl_memory;
  }
  return 0;
}

void pile_free(pile *s) {
  stack_free(&s->column);
  free(s->order), free(s->reff);
  mdl_stick_free(s->stick);
  s->order = NULL, s->reff = NULL, s->stick = NULL;
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
  double e = s->stick ? mdl_stick_energy(s->stick) : 0;
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
  double plane_gap;  // smallest gap of a sphere to the ground or a wall over the run [m]
  int ok;
} settle_probe;

// the smallest gap of any sphere to the ground or a wall (< 0: overlap) [m]
static double plane_gap_min(const pile *s, const double *q) {
  const double r = s->p.s.r, L = s->p.half;
  double g = INFINITY;
  for (int i = 0; i < s->p.s.n; i++) {
    const double *x = q + 7 * i;
    g = fmin(g, fmin(x[2], fmin(L - fabs(x[0]), L - fabs(x[1]))) - r);
  }
  return g;
}

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
  sp->plane_gap = fmin(sp->plane_gap, plane_gap_min(sp->s, q));
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
  emit(emit_ctx, "plane_gap_min", sp->plane_gap, "m");  // over the run; < 0: Hertz overlap
  // the tangential law the run used: 1 stick springs (carried by the method), 0 paper A's rows
  emit(emit_ctx, "tangent_stick", s->stick && mdl_stick_on(s->stick), "");
  if (s->stick) emit(emit_ctx, "stick_kt", mdl_stick_stiffness(s->stick), "N/m");
  if (s->stick) emit(emit_ctx, "rolling_mur", mdl_stick_rolling(s->stick), "");
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
  *sp = (settle_probe){.s = s, .q = buf, .v = buf + 7 * n, .t_settle = NAN, .plane_gap = INFINITY};
  *probe =
      (sim_probe){.ctx = sp, .sample = settle_sample, .finish = settle_finish, .free = settle_free};
  return 0;
}

// ---- the scenario of the method matrix ------------------------------------------------------

static const xp_param_def pile_param_defs[] = {
    {"n", XP_INT, "20", XP_POSITIVE, "", NULL, "number of spheres N"},
    PILE_PARAM_DEFS       // half, reach, seed, tangent, kt, bts, mur, kr
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
  if (pp.tangent == PILE_TANGENT_STICK && pp.s.mu > 0 && !(pile_stick_stiffness(&pp) > 0)) {
    sim_instance_release(inst);
    return xp_fail(err, XP_ERR_USAGE,
                   "tangent=stick: kt=0 derives K_t from the weight m g, which is 0 here; give kt");
  }
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
