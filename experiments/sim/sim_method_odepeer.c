// SPDX-License-Identifier: MIT
// ODE as a peer method (sim_opende.h). The world holds one body per scene body; contacts are
// found here from the scene's geometry (spheres against the ground, the walls and each other, a
// box's feet against the ramp), one contact joint each, attached body-first so that ODE's normal
// pushes the first body out (ODE's convention), and set per step: ERP and CFM from the contact's
// Hertz secant stiffness and damping at its overlap (SPEC §9), friction μ·λ_n on ODE's
// two-direction pyramid. With activation=speculative (SPEC §1.5) a contact that closes during the
// step is in it: a gap that could close within the step is a joint too (its normal motion lets
// the gap close, the spring acts past it), and the step is taken again from its start while a
// contact left out ends overlapping or a contact's stiffness at its end-of-step overlap, k(d1),
// exceeds twice the one used (a gap that closed takes k(d1) either way) — k over the step, not
// at its start, where a closing contact has none. The state maps one to one: ODE's body quaternion
// is (w x y z) as stabcon's, its angular velocity is in the world frame where stabcon's is in the
// body frame.
#include "sim/sim_opende.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdl/mdl_rigid.h"
#include "mdl/mdl_scene.h"
#include "sim/sim.h"

#ifdef STABCON_HAVE_ODE
#include <ode/ode.h>

// speculative contacts (SPEC §1.5's defaults of paper A's step): margin [m], the stiffness of a
// gap until it closes [N/m], re-steps per step
#define OD_MARGIN 1e-4
#define OD_GAP_STIFFNESS 1e8
#define OD_MAX_RESOLVES 8

// one contact of a step: bodies a (pushed along n) and b (−1: a plane; the box's feet: a = 0),
// plane k or foot f in `what`, geometry at the step's start, the stiffness used
typedef struct od_contact {
  int a, b, what;
  double p[3], n[3];
  double depth;  // overlap at the step's start [m] (< 0: a gap)
  double reff, k;
} od_contact;

struct sim_opende {
  dWorldID world;
  dJointGroupID joints;
  dBodyID *body;  // nbodies
  int *order;     // spheres sorted by x (kept between steps: nearly sorted)
  mdl_scene sc;
  double h;
  int quick, contacts;
  // contacts over the step (SPEC §1.5 on ODE's contact joint): candidate gaps and re-steps
  int speculative;
  od_contact *list;  // this step's contacts
  int n, cap;
  double *q0, *v0;  // the step's start state (7, 6 per body)
  long resolves;    // re-steps over the run
  long messages0;   // od_message_count when the run started
  char text[600];
};

int sim_opende_available(void) { return 1; }

// ODE's messages (its LCP solver's "internal error, s <= 0" warnings, printed to stderr by its
// default handler) counted instead, per process: a run reports how many arrived while it ran
static long od_message_count;
static void od_message(int errnum, const char *msg, va_list ap) {
  (void)errnum, (void)msg, (void)ap;
  od_message_count++;
}

// ω_body = Rᵀ ω_world (reverse = 1) or ω_world = R ω_body (reverse = 0), R of quaternion w x y z
static void rotate(const double *quat, const double *in, double *out, int reverse) {
  double R[9];
  mdl_rigid_rotation(quat, R);
  for (int i = 0; i < 3; i++)
    out[i] = reverse ? R[i] * in[0] + R[3 + i] * in[1] + R[6 + i] * in[2]
                     : R[3 * i] * in[0] + R[3 * i + 1] * in[1] + R[3 * i + 2] * in[2];
}

static void body_set(dBodyID b, const double *q, const double *v) {
  dBodySetPosition(b, q[0], q[1], q[2]);
  const dQuaternion quat = {q[3], q[4], q[5], q[6]};
  dBodySetQuaternion(b, quat);
  dBodySetLinearVel(b, v[0], v[1], v[2]);
  double w[3];
  rotate(q + 3, v + 3, w, 0);
  dBodySetAngularVel(b, w[0], w[1], w[2]);
}

static void body_get(dBodyID b, double *q, double *v) {
  const dReal *x = dBodyGetPosition(b), *quat = dBodyGetQuaternion(b);
  const dReal *lv = dBodyGetLinearVel(b), *av = dBodyGetAngularVel(b);
  double qq[7] = {x[0], x[1], x[2], quat[0], quat[1], quat[2], quat[3]},
         w[3] = {av[0], av[1], av[2]};
  if (q) memcpy(q, qq, sizeof qq);
  if (v) {
    v[0] = lv[0], v[1] = lv[1], v[2] = lv[2];
    rotate(qq + 3, w, v + 3, 1);
  }
}

static double norm3(const double *x) { return sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]); }

// Hertz secant stiffness E*√(r_eff d) at overlap d (0 for a gap)
static double od_stiffness(const sim_opende *od, double reff, double d) {
  return od->sc.estar * sqrt(reff * (d > 0 ? d : 0));
}

// geometry of contact (a, b, what) at state q: point, normal, overlap; the box's foot f = what
static void od_geometry(const sim_opende *od, const double *q, od_contact *c) {
  const double r = od->sc.radius, L = od->sc.wall_half;
  if (od->sc.kind == MDL_SCENE_BOX_ON_FEET) {
    double R[9];
    mdl_rigid_rotation(q + 3, R);
    const int k = c->what;
    const double f[3] = {(k & 1 ? 1 : -1) * od->sc.half[0], (k & 2 ? 1 : -1) * od->sc.half[1],
                         -od->sc.half[2]};
    for (int i = 0; i < 3; i++)
      c->p[i] = q[i] + R[3 * i] * f[0] + R[3 * i + 1] * f[1] + R[3 * i + 2] * f[2];
    c->depth = r - c->p[2];
    c->p[2] -= r;
    c->n[0] = c->n[1] = 0, c->n[2] = 1;
    c->reff = r;
    return;
  }
  const double *x = q + 7 * c->a;
  if (c->b < 0) {
    const double nrm[5][3] = {{0, 0, 1}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
    const double dist[5] = {x[2], x[0] + L, L - x[0], x[1] + L, L - x[1]};
    const int k = c->what;
    for (int i = 0; i < 3; i++) c->n[i] = nrm[k][i], c->p[i] = x[i] - r * nrm[k][i];
    c->depth = r - dist[k];
    c->reff = r;
    return;
  }
  // pair: a is pushed along n from b towards a
  const double *y = q + 7 * c->b;
  const double dx[3] = {x[0] - y[0], x[1] - y[1], x[2] - y[2]};
  const double len = norm3(dx);
  for (int i = 0; i < 3; i++)
    c->n[i] = len > 0 ? dx[i] / len : (i == 2), c->p[i] = 0.5 * (x[i] + y[i]);
  c->depth = 2 * r - len;
  c->reff = 0.5 * r;
}

// how far body i's surface can move along a normal within the step: h (|v| + |ω| ρ) + h² g
static double od_reach(const sim_opende *od, const double *v, int i, double rho) {
  const double *vi = v + 6 * i;
  return od->h * (norm3(vi) + norm3(vi + 3) * rho) + od->h * od->h * od->sc.gravity;
}

// appends c to the step's list (grown by doubling: a step allocates only while the contact count
// exceeds every earlier one); 0 or −1 (out of memory)
static int od_append(sim_opende *od, const od_contact *c) {
  if (od->n == od->cap) {
    const int cap = od->cap ? 2 * od->cap : 64;
    od_contact *l = realloc(od->list, (size_t)cap * sizeof *l);
    if (!l) return -1;
    od->list = l, od->cap = cap;
  }
  od->list[od->n++] = *c;
  return 0;
}

// appends contact (a, b, what) if it is in the step: overlapping at q, or (speculative) its gap
// could close within the step, gap − reach ≤ margin; 0 or −1 (out of memory)
static int od_consider(sim_opende *od, const double *q, const double *v, int a, int b, int what) {
  od_contact c = {.a = a, .b = b, .what = what};
  od_geometry(od, q, &c);
  const double rho = od->sc.kind == MDL_SCENE_BOX_ON_FEET ? norm3(od->sc.half) : od->sc.radius;
  if (!(c.depth > 0)) {
    if (!od->speculative) return 0;
    const double reach = od_reach(od, v, a, rho) + (b >= 0 ? od_reach(od, v, b, rho) : 0);
    if (-c.depth - reach > OD_MARGIN) return 0;
  }
  c.k = c.depth > 0 ? od_stiffness(od, c.reff, c.depth) : OD_GAP_STIFFNESS;
  return od_append(od, &c);
}

// index of contact (a, b, what) in the step's list, or −1
static int od_find(const sim_opende *od, int a, int b, int what) {
  for (int i = 0; i < od->n; i++)
    if (od->list[i].a == a && od->list[i].b == b && od->list[i].what == what) return i;
  return -1;
}

// every contact of the scene at state q that visit accepts (planes, pairs by a sweep along x over
// the kept order, or the box's feet), with span the largest reach of a pair; 0 or −1
typedef int (*od_visit)(sim_opende *od, const double *q, const double *v, int a, int b, int what);
static int od_enumerate(sim_opende *od, const double *q, const double *v, double span,
                        od_visit visit) {
  if (od->sc.kind == MDL_SCENE_BOX_ON_FEET) {
    for (int k = 0; k < 4; k++)
      if (visit(od, q, v, 0, -1, k)) return -1;
    return 0;
  }
  const int n = od->sc.nbodies, planes = od->sc.wall_half > 0 ? 5 : 1;
  const double r = od->sc.radius;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < planes; k++)
      if (visit(od, q, v, i, -1, k)) return -1;
  int *o = od->order;
  for (int i = 1; i < n; i++) {
    const int k = o[i];
    int j = i - 1;
    for (; j >= 0 && q[7 * o[j]] > q[7 * k]; j--) o[j + 1] = o[j];
    o[j + 1] = k;
  }
  for (int ia = 0; ia < n; ia++)
    for (int ib = ia + 1; ib < n && q[7 * o[ib]] - q[7 * o[ia]] < 2 * r + span; ib++) {
      const int a = o[ia] > o[ib] ? o[ia] : o[ib], b = o[ia] ^ o[ib] ^ a;
      if (visit(od, q, v, a, b, 0)) return -1;
    }
  return 0;
}

// one contact joint per listed contact: the implicit spring–damper of its k and c = B (SPEC §9),
// ERP = hk/(hk + c), CFM = 1/(hk + c); a gap (depth < 0) enters through ODE's normal motion
// (ODE clamps a negative depth to 0), so the joint holds v_n ≥ ERP·depth/h − CFM λ: the gap may
// close within the step and the spring pushes only past it
static void od_joints(sim_opende *od) {
  for (int i = 0; i < od->n; i++) {
    const od_contact *c = &od->list[i];
    const double cd = od->sc.damping, hk = od->h * c->k;
    dContact ct;
    memset(&ct, 0, sizeof ct);
    ct.surface.mode = dContactSoftERP | dContactSoftCFM | dContactApprox1;
    ct.surface.mu = od->sc.mu;
    ct.surface.soft_erp = hk / (hk + cd);
    ct.surface.soft_cfm = 1 / (hk + cd);
    for (int j = 0; j < 3; j++) ct.geom.pos[j] = c->p[j], ct.geom.normal[j] = c->n[j];
    ct.geom.depth = c->depth > 0 ? c->depth : 0;
    if (c->depth < 0) {
      ct.surface.mode |= dContactMotionN;
      ct.surface.motionN = ct.surface.soft_erp * c->depth / od->h;
    }
    dJointID j = dJointCreateContact(od->world, od->joints, &ct);
    dJointAttach(j, od->body[c->a], c->b >= 0 ? od->body[c->b] : 0);
  }
  od->contacts = od->n;
}

sim_opende *sim_opende_create(const mdl_model *model, const double *q, const double *v, double h,
                              int quick, int speculative, sc_error *err) {
  const mdl_scene *sc = model->scene;
  if (!sc || sc->nbodies < 1 || model->nq != 7 * sc->nbodies || model->nv != 6 * sc->nbodies ||
      (sc->kind != MDL_SCENE_SPHERES && sc->kind != MDL_SCENE_BOX_ON_FEET) ||
      (sc->kind == MDL_SCENE_BOX_ON_FEET && sc->nbodies != 1) || !(sc->estar > 0))
    return sc_error_set(err, SC_ERR_INPUT,
                        "ode: the model has no scene (mdl_scene.h) with a Hertz modulus"),
           NULL;
  sim_opende *od = calloc(1, sizeof *od);
  if (!od) return sc_error_set(err, SC_ERR_MEMORY, "ode: out of memory"), NULL;
  dInitODE2(0);
  // quickstep reorders its constraints at random from one process-wide seed: reset it per run
  // so that a run's result does not depend on the ODE runs before it in the same process
  dRandSetSeed(0);
  dSetMessageHandler(od_message);
  od->messages0 = od_message_count;
  od->sc = *sc, od->h = h, od->quick = quick, od->speculative = speculative;
  od->world = dWorldCreate();
  od->joints = dJointGroupCreate(0);
  od->body = calloc((size_t)sc->nbodies, sizeof *od->body);
  od->order = malloc((size_t)sc->nbodies * sizeof *od->order);
  od->q0 = malloc((size_t)sc->nbodies * 13 * sizeof *od->q0);
  if (!od->world || !od->joints || !od->body || !od->order || !od->q0) {
    sc_error_set(err, SC_ERR_MEMORY, "ode: out of memory (N = %d)", sc->nbodies);
    return sim_opende_free(od), NULL;
  }
  od->v0 = od->q0 + 7 * sc->nbodies;
  const int box = sc->kind == MDL_SCENE_BOX_ON_FEET;
  const double a = box ? sc->ramp_angle : 0, I = 0.4 * sc->mass * sc->radius * sc->radius;
  dWorldSetGravity(od->world, sc->gravity * sin(a), 0, -sc->gravity * cos(a));
  if (quick > 0) dWorldSetQuickStepNumIterations(od->world, quick);
  for (int i = 0; i < sc->nbodies; i++) {
    dMass m;
    dMassSetZero(&m);
    if (box)
      dMassSetParameters(&m, sc->mass, 0, 0, 0, sc->inertia[0], sc->inertia[1], sc->inertia[2], 0,
                         0, 0);
    else
      dMassSetParameters(&m, sc->mass, 0, 0, 0, I, I, I, 0, 0, 0);
    od->body[i] = dBodyCreate(od->world);
    dBodySetMass(od->body[i], &m);
    body_set(od->body[i], q + 7 * i, v + 6 * i);
    od->order[i] = i;
  }
  snprintf(od->text, sizeof od->text,
           "ODE %s, %s, contact joints: ERP = hk/(hk + c), CFM = 1/(hk + c) with k = E*sqrt(r d) "
           "(E* %g Pa) and c = B (%g N s/m) per contact and step, friction pyramid mu %g "
           "(dContactApprox1)",
           STABCON_ODE_VERSION, quick ? "dWorldQuickStep" : "dWorldStep", sc->estar, sc->damping,
           sc->mu);
  size_t at = strlen(od->text);
  if (quick)
    snprintf(od->text + at, sizeof od->text - at, ", %d sweeps per step",
             dWorldGetQuickStepNumIterations(od->world));
  at = strlen(od->text);
  if (speculative)
    snprintf(od->text + at, sizeof od->text - at,
             "; speculative: gaps within reach + %g m join as joints of normal motion "
             "ERP·depth/h (k %g N/m until they close), k re-taken at the end-of-step overlap "
             "when it is > 2x the one used, at most %d re-steps",
             OD_MARGIN, OD_GAP_STIFFNESS, OD_MAX_RESOLVES);
  return od;
}

// speculative: a contact left out that ends overlapping joins, with its start geometry and the
// stiffness of its start overlap (gap_stiffness for a gap); 0 or −1 (out of memory)
static int od_join(sim_opende *od, const double *q, const double *v, int a, int b, int what) {
  (void)v;
  od_contact c = {.a = a, .b = b, .what = what};
  od_geometry(od, q, &c);
  if (!(c.depth > 0) || od_find(od, a, b, what) >= 0) return 0;
  od_geometry(od, od->q0, &c);
  c.k = c.depth > 0 ? od_stiffness(od, c.reff, c.depth) : OD_GAP_STIFFNESS;
  return od_append(od, &c);
}

// speculative: after a step, stiffness at each contact's end-of-step overlap (raised when > 2×
// the one used; a gap that closed takes it either way) and contacts left out that end
// overlapping; 1 if anything changed (the step is taken again from its start)
static int od_update(sim_opende *od, double *q) {
  int changed = 0;
  for (int i = 0; i < od->n; i++) {
    od_contact c = od->list[i], *l = &od->list[i];
    od_geometry(od, q, &c);
    if (l->depth <= 0 && c.depth <= 0) continue;
    const double K1 = od_stiffness(od, l->reff, c.depth);
    const int leaves_gap = l->depth <= 0 && l->k == OD_GAP_STIFFNESS;
    if (K1 > 2 * l->k || (leaves_gap && K1 < 0.5 * l->k)) l->k = K1, changed = 1;
  }
  const int n = od->n;
  if (od_enumerate(od, q, NULL, 0, od_join)) return changed;
  return changed || od->n > n;
}

void sim_opende_step(sim_opende *od, double *q, double *v) {
  const int nb = od->sc.nbodies;
  for (int i = 0; i < nb; i++) body_get(od->body[i], od->q0 + 7 * i, od->v0 + 6 * i);
  double span = 0;
  if (od->speculative)
    for (int i = 0; i < nb; i++) span = fmax(span, 2 * od_reach(od, od->v0, i, od->sc.radius));
  od->n = 0;
  od_enumerate(od, od->q0, od->v0, span + OD_MARGIN, od_consider);
  for (int pass = 0;; pass++) {
    od_joints(od);
    if (od->quick)
      dWorldQuickStep(od->world, od->h);
    else
      dWorldStep(od->world, od->h);
    dJointGroupEmpty(od->joints);
    for (int i = 0; i < nb; i++) body_get(od->body[i], q + 7 * i, v + 6 * i);
    if (!od->speculative || pass == OD_MAX_RESOLVES || !od_update(od, q)) break;
    od->resolves++;
    for (int i = 0; i < nb; i++) body_set(od->body[i], od->q0 + 7 * i, od->v0 + 6 * i);
  }
}

int sim_opende_contacts(const sim_opende *od) { return od->contacts; }

const char *sim_opende_describe(const sim_opende *od) { return od->text; }

void sim_opende_free(sim_opende *od) {
  if (!od) return;
  if (od->joints) dJointGroupDestroy(od->joints);
  if (od->world) dWorldDestroy(od->world);  // and its bodies
  free(od->body), free(od->order), free(od->q0), free(od->list);
  free(od);
  dCloseODE();
}

// ---- the methods of the matrix ------------------------------------------------------------

static void *odepeer_create(const sim_method *type, const mdl_model *model,
                            const sim_method_options *opt, double t0, const double *q0,
                            const double *v0, double t_end, xp_error *err) {
  if (sim_method_options_check(opt, err)) return NULL;
  (void)t0, (void)t_end;
  sc_error why = {.code = 0};
  // quickstep: its sweeps per step (ODE's default 20 when not set)
  const int quick =
      type->variant ? (opt->quick_iterations > 0 ? (int)opt->quick_iterations : 20) : 0;
  // the activation rule shared with paper A's step (SPEC §1.5): speculative takes a contact that
  // closes during the step, with its stiffness over the step
  if (opt->activation && strcmp(opt->activation, "speculative") != 0 &&
      strcmp(opt->activation, "overlap") != 0)
    return xp_fail(err, XP_ERR_USAGE, "parameter activation=%s: not one of overlap|speculative",
                   opt->activation),
           NULL;
  const int spec = opt->activation && strcmp(opt->activation, "speculative") == 0;
  sim_opende *od = sim_opende_create(model, q0, v0, opt->h, quick, spec, &why);
  if (!od) xp_fail(err, XP_ERR_USAGE, "%s: %s", type->name, why.message);
  return od;
}

static int odepeer_step(void *state, double t, double t_next, double *q, double *v,
                        sim_step_report *rep) {
  (void)t, (void)t_next;
  sim_opende_step(state, q, v);
  return sim_report_plain_ok(rep, sim_opende_contacts(state));
}

static void odepeer_stats(void *state, void (*emit)(void *, const char *, double, const char *),
                          void *ctx) {
  const sim_opende *od = state;
  emit(ctx, "ode_quickstep", od->quick > 0, "");
  emit(ctx, "ode_speculative", od->speculative, "");
  emit(ctx, "ode_resteps", (double)od->resolves, "");
  emit(ctx, "ode_messages", (double)(od_message_count - od->messages0), "");
  if (od->quick)
    emit(ctx, "ode_quickstep_iterations", dWorldGetQuickStepNumIterations(od->world), "");
}

static void odepeer_free(void *state) { sim_opende_free(state); }

#define ODEPEER_TYPE(id, cli_name, quick, text)     \
  const sim_method id = {.name = cli_name,          \
                         .description = text,       \
                         .family = SIM_FAMILY_PEER, \
                         .variant = quick,          \
                         .create = odepeer_create,  \
                         .step = odepeer_step,      \
                         .stats = odepeer_stats,    \
                         .free = odepeer_free};

ODEPEER_TYPE(
    sim_method_ode_step, "ode-step", 0,
    "ODE 0.16 dWorldStep (direct LCP) on the scene; contact joints as the implicit "
    "spring-damper of ERP/CFM from k = E*sqrt(r d), c = B (linear in each step, not Hertz's "
    "d^1.5), friction pyramid")
ODEPEER_TYPE(
    sim_method_ode_quickstep, "ode-quickstep", 1,
    "ODE 0.16 dWorldQuickStep (iterative, quick_iterations sweeps, default 20) on the scene; "
    "contact joints as "
    "ode-step (ERP/CFM spring-damper from k = E*sqrt(r d), c = B), friction pyramid")

#else  // built without ODE

int sim_opende_available(void) { return 0; }
sim_opende *sim_opende_create(const mdl_model *model, const double *q, const double *v, double h,
                              int quick, int speculative, sc_error *err) {
  (void)model, (void)q, (void)v, (void)h, (void)quick, (void)speculative;
  sc_error_set(err, SC_ERR_INPUT, "ODE peer not built (install libode-dev and reconfigure)");
  return NULL;
}
void sim_opende_step(sim_opende *od, double *q, double *v) { (void)od, (void)q, (void)v; }
int sim_opende_contacts(const sim_opende *od) { return (void)od, 0; }
const char *sim_opende_describe(const sim_opende *od) { return (void)od, ""; }
void sim_opende_free(sim_opende *od) { (void)od; }

#endif
