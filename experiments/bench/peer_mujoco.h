// SPDX-License-Identifier: MIT
// MuJoCo (Debian libmujoco-dev, 2.2) as a peer of paper A's step on the sphere column of
// `bench stack` (issue 16): the same radius, mass, inertia, μ, h, gravity and initial state, its
// own solver and soft contact. Built when meson finds MuJoCo (STABCON_HAVE_MUJOCO); without it
// create reports that it is not built.
#ifndef BENCH_PEER_MUJOCO_H
#define BENCH_PEER_MUJOCO_H

#include <stddef.h>

#include "scenarios/stack.h"

typedef struct peer_mujoco peer_mujoco;

// The column of p->n spheres as an MJCF model loaded from memory (no file), time step h [s], state
// q (7 per sphere: centre, unit quaternion w x y z) and v = 0. NULL with a message in msg if MuJoCo
// is not built or rejects the model.
peer_mujoco *peer_mujoco_stack_create(const stack_params *p, const double *q, double h, char *msg,
                                      size_t len);
// One mj_step.
void peer_mujoco_step(peer_mujoco *pm);
// Sphere 0's overlap with the ground r − z₀ [m] and the largest body speed [m/s].
double peer_mujoco_bottom_overlap(const peer_mujoco *pm);
double peer_mujoco_max_speed(const peer_mujoco *pm);
// One line naming MuJoCo's version, solver, cone, iteration limit, tolerance and contact
// parameters (solref, solimp), for the record.
const char *peer_mujoco_describe(const peer_mujoco *pm);
void peer_mujoco_free(peer_mujoco *pm);

#endif
