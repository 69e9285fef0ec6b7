// SPDX-License-Identifier: MIT
// Per-body history of a run (the case's `bodies` group, layout in xp_results.c): every body's
// position, orientation, velocity and the largest contact normal force it carries, at most
// `frames` times per run (the first and last step always), for models that describe their scene
// (mbs_scene.h: free rigid bodies, q 7 and v 6 per body). Allocated before the first step.
#include "sim_frames.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbs/mbs_scene.h"

struct sim_frames {
  const mbs_scene *scene;
  int nb;
  size_t stride, last, cap, n;  // record every stride steps and step `last`; n of cap taken
  double *t, *pos, *rot, *vel, *force;
};

sim_frames *sim_frames_create(const mbs_model *m, size_t steps, size_t frames, int *oom) {
  *oom = 0;
  const mbs_scene *sc = m->scene;
  if (!sc || frames == 0 || sc->nbodies < 1 || m->nq < 7 * sc->nbodies || m->nv < 6 * sc->nbodies)
    return NULL;
  if (frames < 2) frames = 2;
  sim_frames *fr = calloc(1, sizeof *fr);
  const size_t stride = steps + 1 <= frames ? 1 : (steps + frames - 2) / (frames - 1);
  const size_t cap = 2 + steps / stride, nb = (size_t)sc->nbodies;
  double *block = fr ? malloc(cap * (1 + 11 * nb) * sizeof *block) : NULL;
  if (!block) {
    free(fr);
    *oom = 1;
    return NULL;
  }
  for (size_t k = 0; k < cap * (1 + 11 * nb); k++) block[k] = NAN;
  *fr = (sim_frames){.scene = sc, .nb = sc->nbodies, .stride = stride, .last = steps, .cap = cap};
  fr->t = block, fr->pos = block + cap, fr->rot = fr->pos + 3 * nb * cap;
  fr->vel = fr->rot + 4 * nb * cap, fr->force = fr->vel + 3 * nb * cap;
  return fr;
}

void sim_frames_free(sim_frames *fr) {
  if (fr) free(fr->t);
  free(fr);
}

// the largest normal force on each body: a row's force λ times the norm of its translational
// Jacobian entries on that body (1 with the default Hertz row), over the contact rows
static void frame_forces(const sim_frames *fr, const sim_step_report *rep, double *force) {
  if (!rep || !rep->rows || !rep->force) return;  // stays NaN: the method reports no forces
  for (int b = 0; b < fr->nb; b++) force[b] = 0;
  const mbs_rows *rows = rep->rows;
  for (int r = 0; r < rows->n; r++) {
    if (rows->kind[r] != MBS_ROW_NORMAL && rows->kind[r] != MBS_ROW_UNILATERAL) continue;
    int body[2] = {-1, -1};
    double g2[2] = {0, 0};
    for (int k = rows->start[r]; k < rows->start[r + 1]; k++) {
      const int col = rows->col[k], b = col / 6;
      if (col % 6 >= 3 || b >= fr->nb) continue;
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
    memcpy(fr->pos + 3 * (j * nb + b), q + 7 * b, 3 * sizeof *q);
    memcpy(fr->rot + 4 * (j * nb + b), q + 7 * b + 3, 4 * sizeof *q);
    memcpy(fr->vel + 3 * (j * nb + b), v + 6 * b, 3 * sizeof *v);
  }
  frame_forces(fr, rep, fr->force + j * nb);
}

void sim_frames_write(const sim_frames *fr, xp_case *c) {
  if (!fr || !c || fr->n == 0) return;
  const mbs_scene *sc = fr->scene;
  const size_t nf = fr->n, nb = (size_t)fr->nb;
  // the arrays are frame-major with capacity cap: the first nf frames are contiguous
  double *radius = malloc(nb * sizeof *radius);
  if (!radius) return;
  const double box_r =
      sqrt(sc->half[0] * sc->half[0] + sc->half[1] * sc->half[1] + sc->half[2] * sc->half[2]);
  for (size_t b = 0; b < nb; b++) radius[b] = sc->kind == MBS_SCENE_SPHERES ? sc->radius : box_r;
  xp_case_bodies_array(c, "t", "s", fr->t, 1, (size_t[]){nf});
  xp_case_bodies_array(c, "position", "m", fr->pos, 3, (size_t[]){nf, nb, 3});
  xp_case_bodies_array(c, "orientation", "", fr->rot, 3, (size_t[]){nf, nb, 4});
  xp_case_bodies_array(c, "velocity", "m/s", fr->vel, 3, (size_t[]){nf, nb, 3});
  xp_case_bodies_array(c, "force", "N", fr->force, 2, (size_t[]){nf, nb});
  xp_case_bodies_array(c, "radius", "m", radius, 1, (size_t[]){nb});
  free(radius);
  xp_case_bodies_attr(c, "kind", sc->kind == MBS_SCENE_SPHERES ? "spheres" : "box_on_feet", 0);
  xp_case_bodies_attr(c, "wall_half", NULL, sc->wall_half);
  if (sc->kind == MBS_SCENE_BOX_ON_FEET) {
    xp_case_bodies_attr(c, "foot_radius", NULL, sc->radius);
    xp_case_bodies_attr(c, "half_x", NULL, sc->half[0]);
    xp_case_bodies_attr(c, "half_y", NULL, sc->half[1]);
    xp_case_bodies_attr(c, "half_z", NULL, sc->half[2]);
    xp_case_bodies_attr(c, "ramp_angle", NULL, sc->ramp_angle);
  }
}
