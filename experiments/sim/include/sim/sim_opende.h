// SPDX-License-Identifier: MIT
// ODE, the Open Dynamics Engine (Debian libode-dev, 0.16) as a peer method: `method=ode-step`
// (dWorldStep, its direct LCP solver) and `method=ode-quickstep` (dWorldQuickStep, its iterative
// solver) of the method matrix. It simulates a model's scene (mdl_model.scene, mdl_scene.h:
// identical spheres on the ground with optional walls, or a box on four spherical feet) with the
// same geometry, masses, inertias, μ, h, gravity and initial state. Its contact is a rigid
// contact joint made compliant by ERP and CFM, set per contact and step from the scene's Hertz
// law (SPEC §9): k = E*√(r_eff d) at the contact's overlap d (the secant stiffness of the force
// E*√r_eff d^{3/2}, paper A's row stiffness), c = B, ERP = hk/(hk + c), CFM = 1/(hk + c) — the
// implicit linear spring–damper of that k and c, whose rest is k d = load (Hertz's static overlap);
// friction is ODE's pyramid of μ times the normal force (dContactApprox1). Built when meson finds
// ODE (STABCON_HAVE_ODE); otherwise create reports that it is not built.
#ifndef SIM_SIM_OPENDE_H
#define SIM_SIM_OPENDE_H

#include <stddef.h>

#include "common/sc_error.h"
#include "mdl/mdl_model.h"

typedef struct sim_opende sim_opende;

// 1 if this build has ODE.
int sim_opende_available(void);
// ODE's world for the scene of `model` at state (q, v) (mdl_rigid.h layout), time step h [s];
// quick = 0 steps with dWorldStep, quick > 0 with dWorldQuickStep at that many sweeps per step;
// speculative = 1 takes a contact that closes during the step (SPEC §1.5): a gap that could close
// within the step is a joint whose normal motion lets it close (ODE clamps negative depth), and
// the step is taken again, at most 8 times, while a contact left out ends overlapping or a
// contact's stiffness at its end-of-step overlap exceeds 2× the one used (0: contacts from the
// start's overlaps, k at the start: one that closes in the step falls through it).
// NULL with err set if the model has no scene or no Hertz modulus, ODE is not built
// (SC_ERR_INPUT), or out of memory (SC_ERR_MEMORY).
sim_opende *sim_opende_create(const mdl_model *model, const double *q, const double *v, double h,
                              int quick, int speculative, sc_error *err);
// One step: contacts found from the geometry at the step's start (every overlap d > 0), one
// contact joint each with its ERP and CFM, the world stepped; then the state into (q, v).
void sim_opende_step(sim_opende *od, double *q, double *v);
// Contacts of the last step.
int sim_opende_contacts(const sim_opende *od);
// One line naming ODE's version, step function and contact mapping, for the record.
const char *sim_opende_describe(const sim_opende *od);
void sim_opende_free(sim_opende *od);

#endif
