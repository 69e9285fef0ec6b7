// SPDX-License-Identifier: MIT
// Per-body history of a run (the case's `bodies` group, layout in xp_results.c): every body's
// position, orientation, velocity and the largest contact normal force it carries, at most
// `frames` times per run (the first and last step always), for models that describe their scene
// (mdl_scene.h: free rigid bodies, q 7 and v 6 per body) or whose scenario maps its coordinates
// to bodies (sim_bodies). Allocated before the first step.
#include "sim_frames.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mdl/mdl_scene.h"

struct sim_frames {
  const mdl_scene *scene;  // rigid layout, or NULL
  const sim_bodies *map;   // the scenario's map, or NULL
  const void *data;        // its instance
  int nb;
  size_t stride, last, cap, n;  // record every stride steps and step `last`; n of cap taken
  double *t, *pos, *rot, *vel, *force, *radius;
};

// the bodies of the instance: the scenario's map, else the rigid scene; 0 if none
static int frames_bodies(const sim_instance *inst, const mdl_scene **sc) {
  const mdl_model *m = inst->model;
  *sc = NULL;
  if (inst->bodies) return inst->bodies->n;
  *sc = m->scene;
  if (!*sc || m->nq < 7 * (*sc)->nbodies || m->nv < 6 * (*sc)->nbodies) return 0;
  return (*sc)->nbodies;
}

sim_frames *sim_frames_create(const sim_instance *inst, size_t steps, size_t frames, int *oom) {
  *oom = 0;
  const mdl_scene *sc;
  const int n = frames_bodies(inst, &sc);
  if (n < 1 || frames == 0) return NULL;
  if (frames < 2) frames = 2;
  sim_frames *fr = calloc(1, sizeof *fr);
  const size_t stride = steps + 1 <= frames ? 1 : (steps + frames - 2) / (frames - 1);
  const size_t cap = 2 + steps / stride, nb = (size_t)n, size = cap * (1 + 11 * nb) + nb;
  double *block = fr ? malloc(size * sizeof *block) : NULL;
  if (!block) {
    free(fr);
    *oom = 1;
    return NULL;
  }
  for (size_t k = 0; k < size; k++) block[k] = NAN;
  *fr = (sim_frames){.scene = sc,
                     .map = inst->bodies,
                     .data = inst->data,
                     .nb = n,
                     .stride = stride,
                     .last = steps,
                     .cap = cap};
  fr->t = block, fr->pos = block + cap, fr->rot = fr->pos + 3 * nb * cap;
  fr->vel = fr->rot + 4 * nb * cap, fr->force = fr->vel + 3 * nb * cap;
  fr->radius = fr->force + nb * cap;
  return fr;
}

void sim_frames_free(sim_frames *fr) {
  if (fr) free(fr->t);
  free(fr);
}

// the body a velocity column translates (rigid layout: 6 per body, linear first), or −1
static int column_body(const sim_frames *fr, int col) {
  if (fr->map) return fr->map->column_body(fr->data, col);
  return col % 6 < 3 && col / 6 < fr->nb ? col / 6 : -1;
}

// the largest normal force on each body: a row's force λ times the norm of its translational
// Jacobian entries on that body (1 with the default Hertz row), over the contact rows
static void frame_forces(const sim_frames *fr, const sim_step_report *rep, double *force) {
  if (!rep || !rep->rows || !rep->force) return;  // stays NaN: the method reports no forces
  for (int b = 0; b < fr->nb; b++) force[b] = 0;
  const mdl_rows *rows = rep->rows;
  for (int r = 0; r < rows->n; r++) {
    if (rows->kind[r] != MDL_ROW_NORMAL && rows->kind[r] != MDL_ROW_UNILATERAL) continue;
    int body[2] = {-1, -1};
    double g2[2] = {0, 0};
    for (int k = rows->start[r]; k < rows->start[r + 1]; k++) {
      const int b = column_body(fr, rows->col[k]);
      if (b < 0) continue;
      const int slot = body[0] < 0 || body[0] == b ? 0 : 1;
      if (body[slot] >= 0 && body[slot] != b) continue;  // a row joins at most two bodies
      body[slot] = b, g2[slot] += rows->val[k] * rows->val[k];
    }
    for (int s = 0; s < 2; s++)
      if (body[s] >= 0) force[body[s]] = fmax(force[body[s]], fabs(rep->force[r]) * sqrt(g2[s]));
  }
}

void sim_frames_record(sim_frames *fr, size_t step, double t, const double *q, const double *v,
                       const sim_step_report *rep, int final) {
  if (!fr || fr->n == fr->cap || !(step % fr->stride == 0 || step == fr->last || final)) return;
  const size_t j = fr->n++, nb = (size_t)fr->nb;
  fr->t[j] = t;
  for (size_t b = 0; b < nb; b++) {
    double *x = fr->pos + 3 * (j * nb + b), *rot = fr->rot + 4 * (j * nb + b);
    double *xd = fr->vel + 3 * (j * nb + b);
    if (fr->map) {
      fr->map->state(fr->data, q, v, (int)b, x, rot, xd, &fr->radius[b]);
      continue;
    }
    memcpy(x, q + 7 * b, 3 * sizeof *q);
    memcpy(rot, q + 7 * b + 3, 4 * sizeof *q);
    memcpy(xd, v + 6 * b, 3 * sizeof *v);
  }
  frame_forces(fr, rep, fr->force + j * nb);
}

// each body's radius: the map's, a scene sphere's, a box's circumradius
static void frames_radius(const sim_frames *fr) {
  const mdl_scene *sc = fr->scene;
  if (!sc) return;
  const double box =
      sqrt(sc->half[0] * sc->half[0] + sc->half[1] * sc->half[1] + sc->half[2] * sc->half[2]);
  for (int b = 0; b < fr->nb; b++) fr->radius[b] = sc->kind == MDL_SCENE_SPHERES ? sc->radius : box;
}

void sim_frames_write(const sim_frames *fr, xp_case *c) {
  if (!fr || !c || fr->n == 0) return;
  const mdl_scene *sc = fr->scene;
  const size_t nf = fr->n, nb = (size_t)fr->nb;
  // the arrays are frame-major with capacity cap: the first nf frames are contiguous
  frames_radius(fr);
  xp_case_bodies_array(c, "t", "s", fr->t, 1, (size_t[]){nf});
  xp_case_bodies_array(c, "position", "m", fr->pos, 3, (size_t[]){nf, nb, 3});
  xp_case_bodies_array(c, "orientation", "", fr->rot, 3, (size_t[]){nf, nb, 4});
  xp_case_bodies_array(c, "velocity", "m/s", fr->vel, 3, (size_t[]){nf, nb, 3});
  xp_case_bodies_array(c, "force", "N", fr->force, 2, (size_t[]){nf, nb});
  xp_case_bodies_array(c, "radius", "m", fr->radius, 1, (size_t[]){nb});
  const char *kind = fr->map                         ? fr->map->kind
                     : sc->kind == MDL_SCENE_SPHERES ? "spheres"
                                                     : "box_on_feet";
  xp_case_bodies_attr(c, "kind", kind, 0);
  xp_case_bodies_attr(c, "wall_half", NULL, sc ? sc->wall_half : 0);
  if (sc && sc->kind == MDL_SCENE_BOX_ON_FEET) {
    xp_case_bodies_attr(c, "foot_radius", NULL, sc->radius);
    xp_case_bodies_attr(c, "half_x", NULL, sc->half[0]);
    xp_case_bodies_attr(c, "half_y", NULL, sc->half[1]);
    xp_case_bodies_attr(c, "half_z", NULL, sc->half[2]);
    xp_case_bodies_attr(c, "ramp_angle", NULL, sc->ramp_angle);
  }
}
