// SPDX-License-Identifier: MIT
// MuJoCo peer (peer_mujoco.h). The model is MJCF text written from the numbers of stack_params
// only (no caller string reaches it) and loaded through MuJoCo's virtual file system, so nothing
// touches the disk. Solver: Newton with elliptic cones (MuJoCo's most accurate friction cone, the
// one matching a Coulomb cone), condim 3 (sliding friction only, as paper A's rows), MuJoCo's
// default soft contact (solref 0.02 1, solimp 0.9 0.95 0.001): its stiffness is MuJoCo's, not
// Hertz's — the point of the comparison is the cost at MuJoCo's defaults beside the physics.
#include "peer_mujoco.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef STABCON_HAVE_MUJOCO
#include <math.h>
#include <mujoco/mujoco.h>

struct peer_mujoco {
  mjModel *m;
  mjData *d;
  double r;
  char text[320];
};

// MuJoCo's warnings (a full contact buffer, an unstable simulation) go to stderr instead of its
// default MUJOCO_LOG.TXT in the working directory: a benchmark writes no file it was not asked for
static void warning_to_stderr(const char *text) { fprintf(stderr, "MuJoCo warning: %s\n", text); }

// the MJCF of the column (contact buffers sized for every neighbour pair and the ground, with
// room: MuJoCo 2.2 preallocates them); returns its length, or −1 if buf is too small
static int stack_mjcf(const stack_params *p, const double *q, double h, char *buf, size_t cap) {
  size_t at = 0;
  int k = snprintf(buf, cap,
                   "<mujoco model=\"stabcon-stack\">\n"
                   "  <option timestep=\"%.17g\" gravity=\"0 0 %.17g\" solver=\"Newton\" "
                   "cone=\"elliptic\"/>\n"
                   "  <size nconmax=\"%d\" njmax=\"%d\"/>\n"
                   "  <default><geom condim=\"3\" friction=\"%.17g 0 0\"/></default>\n"
                   "  <worldbody>\n    <geom type=\"plane\" size=\"0 0 1\"/>\n",
                   h, -p->g, 2 * (p->n + 1), 6 * (p->n + 1), p->mu);
  if (k < 0 || (size_t)k >= cap) return -1;
  at = (size_t)k;
  for (int i = 0; i < p->n; i++) {
    const double *qi = q + 7 * i;
    k = snprintf(buf + at, cap - at,
                 "    <body pos=\"%.17g %.17g %.17g\" quat=\"%.17g %.17g %.17g %.17g\"><freejoint/>"
                 "<geom type=\"sphere\" size=\"%.17g\" mass=\"%.17g\"/></body>\n",
                 qi[0], qi[1], qi[2], qi[3], qi[4], qi[5], qi[6], p->r, p->m);
    if (k < 0 || (size_t)k >= cap - at) return -1;
    at += (size_t)k;
  }
  k = snprintf(buf + at, cap - at, "  </worldbody>\n</mujoco>\n");
  if (k < 0 || (size_t)k >= cap - at) return -1;
  return (int)(at + (size_t)k);
}

peer_mujoco *peer_mujoco_stack_create(const stack_params *p, const double *q, double h, char *msg,
                                      size_t len) {
  const size_t cap = 512 + 256 * (size_t)p->n;
  char *xml = malloc(cap);
  mjVFS *vfs = malloc(sizeof *vfs);  // ~2 MB of name slots: not on the stack
  peer_mujoco *pm = calloc(1, sizeof *pm);
  int n = xml ? stack_mjcf(p, q, h, xml, cap) : -1;
  if (!xml || !vfs || !pm || n < 0) {
    snprintf(msg, len, "MuJoCo peer: out of memory for N = %d", p->n);
    free(xml), free(vfs), free(pm);
    return NULL;
  }
  mju_user_warning = warning_to_stderr;
  mj_defaultVFS(vfs);
  char err[1000] = "";
  if (mj_makeEmptyFileVFS(vfs, "stack.xml", n) == 0) {
    memcpy(vfs->filedata[mj_findFileVFS(vfs, "stack.xml")], xml, (size_t)n);
    pm->m = mj_loadXML("stack.xml", vfs, err, sizeof err);
  } else {
    snprintf(err, sizeof err, "its virtual file system is full");
  }
  mj_deleteVFS(vfs);
  free(vfs), free(xml);
  if (pm->m) pm->d = mj_makeData(pm->m);
  if (!pm->m || !pm->d) {
    snprintf(msg, len, "MuJoCo rejected the column of N = %d: %s", p->n, err);
    peer_mujoco_free(pm);
    return NULL;
  }
  pm->r = p->r;
  mj_forward(pm->m, pm->d);
  const mjOption *o = &pm->m->opt;
  snprintf(pm->text, sizeof pm->text,
           "MuJoCo %s, solver Newton, cone elliptic, iterations %d, tolerance %g, timestep %g, "
           "condim 3, solref %g %g, solimp %g %g %g (defaults)",
           mj_versionString(), o->iterations, o->tolerance, o->timestep, pm->m->geom_solref[0],
           pm->m->geom_solref[1], pm->m->geom_solimp[0], pm->m->geom_solimp[1],
           pm->m->geom_solimp[2]);
  return pm;
}

void peer_mujoco_step(peer_mujoco *pm) { mj_step(pm->m, pm->d); }

double peer_mujoco_bottom_overlap(const peer_mujoco *pm) { return pm->r - pm->d->qpos[2]; }

double peer_mujoco_max_speed(const peer_mujoco *pm) {
  double vmax = 0;
  for (int b = 0; b < pm->m->nbody - 1; b++) {
    const mjtNum *v = pm->d->qvel + 6 * b;
    vmax = fmax(vmax, sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
  }
  return vmax;
}

const char *peer_mujoco_describe(const peer_mujoco *pm) { return pm->text; }

void peer_mujoco_free(peer_mujoco *pm) {
  if (!pm) return;
  if (pm->d) mj_deleteData(pm->d);
  if (pm->m) mj_deleteModel(pm->m);
  free(pm);
}

#else  // built without MuJoCo

peer_mujoco *peer_mujoco_stack_create(const stack_params *p, const double *q, double h, char *msg,
                                      size_t len) {
  (void)p, (void)q, (void)h;
  snprintf(msg, len, "MuJoCo peer not built (install libmujoco-dev and reconfigure)");
  return NULL;
}
void peer_mujoco_step(peer_mujoco *pm) { (void)pm; }
double peer_mujoco_bottom_overlap(const peer_mujoco *pm) { return (void)pm, 0; }
double peer_mujoco_max_speed(const peer_mujoco *pm) { return (void)pm, 0; }
const char *peer_mujoco_describe(const peer_mujoco *pm) { return (void)pm, ""; }
void peer_mujoco_free(peer_mujoco *pm) { (void)pm; }

#endif
