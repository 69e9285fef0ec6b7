// SPDX-License-Identifier: MIT
// MuJoCo as a peer method (sim_mujoco.h). The model is MJCF text written from the numbers of the
// scene only (no caller string reaches it) and loaded through MuJoCo's virtual file system, so
// nothing touches the disk. Solver: Newton with elliptic cones (MuJoCo's friction cone that
// matches a Coulomb cone), condim 3 (sliding friction only, as paper A's rows), MuJoCo's default
// soft contact (solref 0.02 1, solimp 0.9 0.95 0.001): its contact is MuJoCo's, not Hertz's —
// the comparison is the cost at MuJoCo's defaults with the physics measured beside it. MuJoCo's
// free-joint state has stabcon's rigid-body layout (centre, quaternion w x y z; world linear and
// body angular velocity), so q and v map one to one.
#include "sim/sim_mujoco.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdl/mdl_scene.h"
#include "sim/sim.h"

#ifdef STABCON_HAVE_MUJOCO
#include <mujoco/mujoco.h>

struct sim_mujoco {
  mjModel *m;
  mjData *d;
  int nbodies;
  char text[320];
};

int sim_mujoco_available(void) { return 1; }

// MuJoCo's warnings (a full contact buffer, an unstable simulation) go to stderr instead of its
// default MUJOCO_LOG.TXT in the working directory: a run writes no file it was not asked for
static void warning_to_stderr(const char *text) { fprintf(stderr, "MuJoCo warning: %s\n", text); }

// appends printf output to buf at *at; −1 if it does not fit
static int put(char *buf, size_t cap, size_t *at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(buf + *at, cap - *at, fmt, ap);
  va_end(ap);
  if (k < 0 || (size_t)k >= cap - *at) return -1;
  *at += (size_t)k;
  return 0;
}

// the bodies of a scene of identical spheres, at q
static int spheres_mjcf(const mdl_scene *sc, const double *q, char *buf, size_t cap, size_t *at) {
  int bad = 0;
  for (int i = 0; !bad && i < sc->nbodies; i++) {
    const double *qi = q + 7 * i;
    bad |= put(buf, cap, at,
               "    <body pos=\"%.17g %.17g %.17g\" quat=\"%.17g %.17g %.17g %.17g\"><freejoint/>"
               "<geom type=\"sphere\" size=\"%.17g\" mass=\"%.17g\"/></body>\n",
               qi[0], qi[1], qi[2], qi[3], qi[4], qi[5], qi[6], sc->radius, sc->mass);
  }
  return bad;
}

// the box on its four feet at q: the box's mass and inertia as an explicit inertial, the feet
// (spheres at the bottom corners) as its only contact geometry — as stabcon's rows, which only
// the feet have
static int box_mjcf(const mdl_scene *sc, const double *q, char *buf, size_t cap, size_t *at) {
  int bad =
      put(buf, cap, at,
          "    <body pos=\"%.17g %.17g %.17g\" quat=\"%.17g %.17g %.17g %.17g\"><freejoint/>\n"
          "      <inertial pos=\"0 0 0\" mass=\"%.17g\" diaginertia=\"%.17g %.17g %.17g\"/>\n",
          q[0], q[1], q[2], q[3], q[4], q[5], q[6], sc->mass, sc->inertia[0], sc->inertia[1],
          sc->inertia[2]);
  for (int k = 0; k < 4; k++)
    bad |= put(
        buf, cap, at, "      <geom type=\"sphere\" size=\"%.17g\" pos=\"%.17g %.17g %.17g\"/>\n",
        sc->radius, (k & 1 ? 1 : -1) * sc->half[0], (k & 2 ? 1 : -1) * sc->half[1], -sc->half[2]);
  return bad | put(buf, cap, at, "    </body>\n");
}

// the MJCF of the scene; its length, or −1 if buf is too small. MuJoCo 2.2 preallocates its
// contact buffers, with dense constraint matrices of njmax² entries, so they are sized per scene:
// a column (no walls) has at most N + 1 contacts (room for 2(N + 1): 6(N + 1) rows; 8(N + 1)
// could not be allocated from N = 500), a walled pile a dozen per sphere, the box its four feet
// solref/solimp: the contact's soft-constraint parameters (NULL: MuJoCo's defaults)
static int scene_mjcf(const mdl_scene *sc, const double *q, double h, const double *solref,
                      const double *solimp, char *buf, size_t cap) {
  const int ncon = sc->kind == MDL_SCENE_BOX_ON_FEET ? 8
                   : sc->wall_half > 0               ? 8 * (sc->nbodies + 1)
                                                     : 2 * (sc->nbodies + 1);
  const int box = sc->kind == MDL_SCENE_BOX_ON_FEET;
  const double a = box ? sc->ramp_angle : 0;  // the box's scene is in the ramp frame
  size_t at = 0;
  int bad = put(buf, cap, &at,
                "<mujoco model=\"stabcon-scene\">\n"
                "  <option timestep=\"%.17g\" gravity=\"%.17g 0 %.17g\" solver=\"Newton\" "
                "cone=\"elliptic\"/>\n  <size nconmax=\"%d\" njmax=\"%d\"/>\n"
                "  <default><geom condim=\"3\" friction=\"%.17g 0 0\"",
                h, sc->gravity * sin(a), -sc->gravity * cos(a), ncon, 3 * ncon, sc->mu);
  if (solref && solimp)
    bad |= put(buf, cap, &at, " solref=\"%.17g %.17g\" solimp=\"%.17g %.17g %.17g\"", solref[0],
               solref[1], solimp[0], solimp[1], solimp[2]);
  bad |= put(buf, cap, &at,
             "/></default>\n  <worldbody>\n    <geom type=\"plane\" size=\"0 0 1\"/>\n");
  if (sc->wall_half > 0) {  // planes through (±a, 0) and (0, ±a), normals pointing inwards
    const double w = sc->wall_half;
    bad |= put(buf, cap, &at,
               "    <geom type=\"plane\" size=\"0 0 1\" pos=\"%.17g 0 0\" zaxis=\"1 0 0\"/>\n"
               "    <geom type=\"plane\" size=\"0 0 1\" pos=\"%.17g 0 0\" zaxis=\"-1 0 0\"/>\n"
               "    <geom type=\"plane\" size=\"0 0 1\" pos=\"0 %.17g 0\" zaxis=\"0 1 0\"/>\n"
               "    <geom type=\"plane\" size=\"0 0 1\" pos=\"0 %.17g 0\" zaxis=\"0 -1 0\"/>\n",
               -w, w, -w, w);
  }
  if (!bad) bad |= box ? box_mjcf(sc, q, buf, cap, &at) : spheres_mjcf(sc, q, buf, cap, &at);
  bad |= put(buf, cap, &at, "  </worldbody>\n</mujoco>\n");
  return bad ? -1 : (int)at;
}

// loads the MJCF text through a one-file virtual file system; NULL with MuJoCo's message in err
static mjModel *load_from_memory(const char *xml, int n, char *err, int errlen) {
  mjVFS *vfs = malloc(sizeof *vfs);  // ~2 MB of name slots: not on the stack
  if (!vfs) return snprintf(err, (size_t)errlen, "out of memory"), NULL;
  mj_defaultVFS(vfs);
  mjModel *m = NULL;
  if (mj_makeEmptyFileVFS(vfs, "scene.xml", n) == 0) {
    memcpy(vfs->filedata[mj_findFileVFS(vfs, "scene.xml")], xml, (size_t)n);
    m = mj_loadXML("scene.xml", vfs, err, errlen);
  } else {
    snprintf(err, (size_t)errlen, "its virtual file system is full");
  }
  mj_deleteVFS(vfs);
  free(vfs);
  return m;
}

sim_mujoco *sim_mujoco_create(const mdl_model *model, const double *q, const double *v, double h,
                              sc_error *err) {
  return sim_mujoco_create_soft(model, q, v, h, NULL, NULL, err);
}

sim_mujoco *sim_mujoco_create_soft(const mdl_model *model, const double *q, const double *v,
                                   double h, const double solref[2], const double solimp[3],
                                   sc_error *err) {
  const mdl_scene *sc = model->scene;
  if (!sc || sc->nbodies < 1 || model->nq != 7 * sc->nbodies || model->nv != 6 * sc->nbodies ||
      (sc->kind != MDL_SCENE_SPHERES && sc->kind != MDL_SCENE_BOX_ON_FEET) ||
      (sc->kind == MDL_SCENE_BOX_ON_FEET && sc->nbodies != 1))
    return sc_error_set(err, SC_ERR_INPUT,
                        "mujoco: the model has no scene (mdl_scene.h) to rebuild"),
           NULL;
  mju_user_warning = warning_to_stderr;
  const size_t cap = 1024 + 256 * (size_t)sc->nbodies;
  char *xml = malloc(cap), why[1000] = "";
  sim_mujoco *mj = calloc(1, sizeof *mj);
  const int n = xml ? scene_mjcf(sc, q, h, solref, solimp, xml, cap) : -1;
  if (mj && n > 0) mj->m = load_from_memory(xml, n, why, (int)sizeof why);
  free(xml);
  if (mj && mj->m) mj->d = mj_makeData(mj->m);
  if (!mj || !mj->d) {
    const int loaded = mj && n > 0;
    sc_error_set(err, loaded ? SC_ERR_SOLVER : SC_ERR_MEMORY, "mujoco: %s (N = %d)",
                 loaded ? why : "out of memory", sc->nbodies);
    sim_mujoco_free(mj);
    return NULL;
  }
  mj->nbodies = sc->nbodies;
  memcpy(mj->d->qvel, v, sizeof(double) * 6 * (size_t)sc->nbodies);
  mj_forward(mj->m, mj->d);
  const mjOption *o = &mj->m->opt;
  snprintf(mj->text, sizeof mj->text,
           "MuJoCo %s, solver Newton, cone elliptic, iterations %d, tolerance %g, timestep %g, "
           "condim 3, solref %g %g, solimp %g %g %g (%s)",
           mj_versionString(), o->iterations, o->tolerance, o->timestep, mj->m->geom_solref[0],
           mj->m->geom_solref[1], mj->m->geom_solimp[0], mj->m->geom_solimp[1],
           mj->m->geom_solimp[2],
           !solref                            ? "defaults"
           : solref[0] <= 2 * h * (1 + 1e-12) ? "stiffest: time constant at its 2h floor"
                                              : "time constant set");
  return mj;
}

void sim_mujoco_step(sim_mujoco *mj, double *q, double *v) {
  mj_step(mj->m, mj->d);
  if (q) memcpy(q, mj->d->qpos, sizeof(double) * 7 * (size_t)mj->nbodies);
  if (v) memcpy(v, mj->d->qvel, sizeof(double) * 6 * (size_t)mj->nbodies);
}

const char *sim_mujoco_describe(const sim_mujoco *mj) { return mj->text; }

void sim_mujoco_free(sim_mujoco *mj) {
  if (!mj) return;
  if (mj->d) mj_deleteData(mj->d);
  if (mj->m) mj_deleteModel(mj->m);
  free(mj);
}

// ---- the method of the matrix -------------------------------------------------------------

static void *mujoco_create(const sim_method *type, const mdl_model *model,
                           const sim_method_options *opt, double t0, const double *q0,
                           const double *v0, double t_end, xp_error *err) {
  if (sim_method_options_check(opt, err)) return NULL;
  (void)t0, (void)t_end;
  sc_error why = {.code = 0};
  // mujoco-stiff: solref's time constant at MuJoCo's floor 2h (critical damping), solimp near 1
  const double solref[2] = {2 * opt->h, 1}, solimp[3] = {SIM_MUJOCO_STIFF_SOLIMP};
  // mujoco with its time constant set (a study's knob): critically damped, default solimp
  const double tuned[2] = {opt->mujoco_timeconst, 1}, solimp_default[3] = {0.9, 0.95, 0.001};
  sim_mujoco *mj = type->variant
                       ? sim_mujoco_create_soft(model, q0, v0, opt->h, solref, solimp, &why)
                   : opt->mujoco_timeconst > 0
                       ? sim_mujoco_create_soft(model, q0, v0, opt->h, tuned, solimp_default, &why)
                       : sim_mujoco_create(model, q0, v0, opt->h, &why);
  if (!mj) xp_fail(err, XP_ERR_USAGE, "%s: %s", type->name, why.message);
  return mj;
}

static int mujoco_step(void *state, double t, double t_next, double *q, double *v,
                       sim_step_report *rep) {
  (void)t, (void)t_next;
  sim_mujoco_step(state, q, v);
  sim_mujoco *mj = state;
  return sim_report_plain_ok(rep, mj->d->solver_iter);
}

static void mujoco_stats(void *state, void (*emit)(void *, const char *, double, const char *),
                         void *ctx) {
  const sim_mujoco *mj = state;
  const mjOption *o = &mj->m->opt;
  emit(ctx, "mujoco_version", mj_version(), "");
  emit(ctx, "mujoco_iterations_limit", o->iterations, "");
  emit(ctx, "mujoco_tolerance", o->tolerance, "");
  emit(ctx, "mujoco_solref_timeconst", mj->m->geom_solref[0], "s");
  emit(ctx, "mujoco_solref_dampratio", mj->m->geom_solref[1], "");
  emit(ctx, "mujoco_solimp_dmin", mj->m->geom_solimp[0], "");
  emit(ctx, "mujoco_solimp_dmax", mj->m->geom_solimp[1], "");
  emit(ctx, "mujoco_solimp_width", mj->m->geom_solimp[2], "m");
}

static void mujoco_free(void *state) { sim_mujoco_free(state); }

const sim_method sim_method_mujoco = {
    .name = "mujoco",
    .description =
        "MuJoCo 2.2 (Newton, elliptic cones) on the scene (spheres, box on feet); its "
        "default soft constraint (solref 0.02 1, solimp 0.9 0.95 0.001): a damped "
        "linear spring on the overlap, not Hertz",
    .family = SIM_FAMILY_PEER,
    .variant = 0,
    .create = mujoco_create,
    .step = mujoco_step,
    .stats = mujoco_stats,
    .free = mujoco_free};
const sim_method sim_method_mujoco_stiff = {
    .name = "mujoco-stiff",
    .description =
        "MuJoCo 2.2 as mujoco, its stiffest soft constraint: solref time constant at "
        "its 2h floor, critically damped, solimp 0.99 0.999 0.001",
    .family = SIM_FAMILY_PEER,
    .variant = 1,
    .create = mujoco_create,
    .step = mujoco_step,
    .stats = mujoco_stats,
    .free = mujoco_free};

#else  // built without MuJoCo

int sim_mujoco_available(void) { return 0; }
sim_mujoco *sim_mujoco_create(const mdl_model *model, const double *q, const double *v, double h,
                              sc_error *err) {
  (void)model, (void)q, (void)v, (void)h;
  sc_error_set(err, SC_ERR_INPUT, "MuJoCo peer not built (install libmujoco-dev and reconfigure)");
  return NULL;
}
sim_mujoco *sim_mujoco_create_soft(const mdl_model *model, const double *q, const double *v,
                                   double h, const double solref[2], const double solimp[3],
                                   sc_error *err) {
  (void)solref, (void)solimp;
  return sim_mujoco_create(model, q, v, h, err);
}
void sim_mujoco_step(sim_mujoco *mj, double *q, double *v) { (void)mj, (void)q, (void)v; }
const char *sim_mujoco_describe(const sim_mujoco *mj) { return (void)mj, ""; }
void sim_mujoco_free(sim_mujoco *mj) { (void)mj; }

#endif
