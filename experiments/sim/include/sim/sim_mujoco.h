// SPDX-License-Identifier: MIT
// MuJoCo (Debian libmujoco-dev, 2.2) as a peer method: `method=mujoco` of the method
// matrix, and the peer of `stabcon bench stack --peer mujoco`. It simulates a model's scene
// (mdl_model.scene, mdl_scene.h: identical spheres on the ground, optional walls) with MuJoCo's
// own solver and soft contact — same geometry, masses, inertias, μ, h, gravity and initial state,
// not the same contact law. Built when meson finds MuJoCo (STABCON_HAVE_MUJOCO); otherwise
// create reports that it is not built.
#ifndef SIM_SIM_MUJOCO_H
#define SIM_SIM_MUJOCO_H

#include <stddef.h>

#include "common/sc_error.h"
#include "mdl/mdl_model.h"

typedef struct sim_mujoco sim_mujoco;

// 1 if this build has MuJoCo.
int sim_mujoco_available(void);
// MuJoCo's model of the scene of `model` (an MJCF text written from the scene's numbers only,
// loaded from memory: no file), time step h [s], state (q, v) in the mdl_rigid.h layout. NULL
// with err set if the model has no scene (SC_ERR_INPUT), MuJoCo is not built or rejects the model
// (SC_ERR_SOLVER) or out of memory (SC_ERR_MEMORY).
sim_mujoco *sim_mujoco_create(const mdl_model *model, const double *q, const double *v, double h,
                              sc_error *err);
// The same with the contact's soft-constraint parameters set on every geom: solref (time
// constant [s], damping ratio) and solimp (d_min, d_max, width [m]); NULL: MuJoCo's defaults.
sim_mujoco *sim_mujoco_create_soft(const mdl_model *model, const double *q, const double *v,
                                   double h, const double solref[2], const double solimp[3],
                                   sc_error *err);
// solimp of the stiffest setting (method mujoco-stiff; its solref is (2h, 1), MuJoCo's floor)
#define SIM_MUJOCO_STIFF_SOLIMP 0.99, 0.999, 0.001
// One mj_step, then the state into (q, v) (either may be NULL).
void sim_mujoco_step(sim_mujoco *mj, double *q, double *v);
// One line naming MuJoCo's version, solver, cone, iteration limit, tolerance and contact
// parameters (solref, solimp), for the record.
const char *sim_mujoco_describe(const sim_mujoco *mj);
void sim_mujoco_free(sim_mujoco *mj);

#endif
