// SPDX-License-Identifier: MIT
// ODE as a peer method (sim_opende.h). The world holds one body per scene body; contacts are
// found here from the scene's geometry (spheres against the ground, the walls and each other, a
// box's feet against the ramp), one contact joint each, attached body-first so that ODE's normal
// pushes the first body out (ODE's convention), and set per step: ERP and CFM from the contact's
// Hertz secant stiffness and damping at its overlap (SPEC §9), friction μ·λ_n on ODE's
// two-direction pyramid. The state maps one to one: ODE's body quaternion is (w x y z) as
// stabcon's, its angular velocity is in the world frame where stabcon's is in the body frame.
#include "sim/sim_opende.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdl/mdl_rigid.h"
#include "mdl/mdl_scene.h"
#include "sim/sim.h"

#ifdef STABCON_HAVE_ODE
#include <ode/ode.h>

struct sim_opende {
  dWorldID world;
  dJointGroupID joints;
  dBodyID *body;  // nbodies
  int *order;     // spheres sorted by x (kept between steps: nearly sorted)
  mdl_scene sc;
  double h;
  int quick, contacts;
  char text[400];
};

int sim_opende_available(void) { return 1; }

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

// one contact joint between b1 (pushed along n) and b2 (0: the world) at point p, overlap d and
// effective radius reff: the implicit spring–damper k = E*√(reff d), c = B (SPEC §9)
static void add_contact(sim_opende *od, dBodyID b1, dBodyID b2, const double p[3],
                        const double n[3], double d, double reff) {
  const double k = od->sc.estar * sqrt(reff * d), c = od->sc.damping, hk = od->h * k;
  dContact ct;
  memset(&ct, 0, sizeof ct);
  ct.surface.mode = dContactSoftERP | dContactSoftCFM | dContactApprox1;
  ct.surface.mu = od->sc.mu;
  ct.surface.soft_erp = hk / (hk + c);
  ct.surface.soft_cfm = 1 / (hk + c);
  for (int i = 0; i < 3; i++) ct.geom.pos[i] = p[i], ct.geom.normal[i] = n[i];
  ct.geom.depth = d;
  dJointID j = dJointCreateContact(od->world, od->joints, &ct);
  dJointAttach(j, b1, b2);
  od->contacts++;
}

// sphere i against the ground and the walls
static void plane_contacts(sim_opende *od, int i) {
  const dReal *x = dBodyGetPosition(od->body[i]);
  const double r = od->sc.radius, L = od->sc.wall_half;
  const double nrm[5][3] = {{0, 0, 1}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
  const double dist[5] = {x[2], x[0] + L, L - x[0], x[1] + L, L - x[1]};
  for (int k = 0; k < (L > 0 ? 5 : 1); k++) {
    if (dist[k] >= r) continue;
    const double p[3] = {x[0] - r * nrm[k][0], x[1] - r * nrm[k][1], x[2] - r * nrm[k][2]};
    add_contact(od, od->body[i], 0, p, nrm[k], r - dist[k], r);
  }
}

// every overlapping pair of spheres, by a sweep along x over the kept order (insertion sort)
static void pair_contacts(sim_opende *od) {
  const int n = od->sc.nbodies;
  const double r = od->sc.radius;
  int *o = od->order;
  for (int i = 1; i < n; i++) {
    const int k = o[i];
    const double xk = dBodyGetPosition(od->body[k])[0];
    int j = i - 1;
    for (; j >= 0 && dBodyGetPosition(od->body[o[j]])[0] > xk; j--) o[j + 1] = o[j];
    o[j + 1] = k;
  }
  for (int ia = 0; ia < n; ia++) {
    const dReal *xa = dBodyGetPosition(od->body[o[ia]]);
    for (int ib = ia + 1; ib < n; ib++) {
      const dReal *xb = dBodyGetPosition(od->body[o[ib]]);
      if (xb[0] - xa[0] >= 2 * r) break;
      const double dx[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
      const double len = sqrt(dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]);
      if (len >= 2 * r || !(len > 0)) continue;
      const double nrm[3] = {dx[0] / len, dx[1] / len, dx[2] / len};
      const double p[3] = {0.5 * (xa[0] + xb[0]), 0.5 * (xa[1] + xb[1]), 0.5 * (xa[2] + xb[2])};
      add_contact(od, od->body[o[ib]], od->body[o[ia]], p, nrm, 2 * r - len, 0.5 * r);
    }
  }
}

// the box's four feet against the ramp plane z = 0
static void feet_contacts(sim_opende *od) {
  double q[7];
  body_get(od->body[0], q, NULL);
  double R[9];
  mdl_rigid_rotation(q + 3, R);
  const double r = od->sc.radius, up[3] = {0, 0, 1};
  for (int k = 0; k < 4; k++) {
    const double f[3] = {(k & 1 ? 1 : -1) * od->sc.half[0], (k & 2 ? 1 : -1) * od->sc.half[1],
                         -od->sc.half[2]};
    double p[3];
    for (int i = 0; i < 3; i++)
      p[i] = q[i] + R[3 * i] * f[0] + R[3 * i + 1] * f[1] + R[3 * i + 2] * f[2];
    if (p[2] >= r) continue;
    const double d = r - p[2];
    p[2] -= r;
    add_contact(od, od->body[0], 0, p, up, d, r);
  }
}

sim_opende *sim_opende_create(const mdl_model *model, const double *q, const double *v, double h,
                              int quick, sc_error *err) {
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
  od->sc = *sc, od->h = h, od->quick = quick;
  od->world = dWorldCreate();
  od->joints = dJointGroupCreate(0);
  od->body = calloc((size_t)sc->nbodies, sizeof *od->body);
  od->order = malloc((size_t)sc->nbodies * sizeof *od->order);
  if (!od->world || !od->joints || !od->body || !od->order) {
    sc_error_set(err, SC_ERR_MEMORY, "ode: out of memory (N = %d)", sc->nbodies);
    return sim_opende_free(od), NULL;
  }
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
  if (quick) {
    const size_t at = strlen(od->text);
    snprintf(od->text + at, sizeof od->text - at, ", %d sweeps per step",
             dWorldGetQuickStepNumIterations(od->world));
  }
  return od;
}

void sim_opende_step(sim_opende *od, double *q, double *v) {
  od->contacts = 0;
  if (od->sc.kind == MDL_SCENE_BOX_ON_FEET) {
    feet_contacts(od);
  } else {
    for (int i = 0; i < od->sc.nbodies; i++) plane_contacts(od, i);
    pair_contacts(od);
  }
  if (od->quick)
    dWorldQuickStep(od->world, od->h);
  else
    dWorldStep(od->world, od->h);
  dJointGroupEmpty(od->joints);
  for (int i = 0; i < od->sc.nbodies; i++)
    body_get(od->body[i], q ? q + 7 * i : NULL, v ? v + 6 * i : NULL);
}

int sim_opende_contacts(const sim_opende *od) { return od->contacts; }

const char *sim_opende_describe(const sim_opende *od) { return od->text; }

void sim_opende_free(sim_opende *od) {
  if (!od) return;
  if (od->joints) dJointGroupDestroy(od->joints);
  if (od->world) dWorldDestroy(od->world);  // and its bodies
  free(od->body), free(od->order);
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
  sim_opende *od = sim_opende_create(model, q0, v0, opt->h, quick, &why);
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
                              int quick, sc_error *err) {
  (void)model, (void)q, (void)v, (void)h, (void)quick;
  sc_error_set(err, SC_ERR_INPUT, "ODE peer not built (install libode-dev and reconfigure)");
  return NULL;
}
void sim_opende_step(sim_opende *od, double *q, double *v) { (void)od, (void)q, (void)v; }
int sim_opende_contacts(const sim_opende *od) { return (void)od, 0; }
const char *sim_opende_describe(const sim_opende *od) { return (void)od, ""; }
void sim_opende_free(sim_opende *od) { (void)od; }

#endif
