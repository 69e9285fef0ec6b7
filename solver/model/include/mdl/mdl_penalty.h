// SPDX-License-Identifier: MIT
// The penalty ODE of a model (SPEC §4), for reference integrators (CVODE, RK45): a function
// of the model evaluator only (model layer), independent of every stepper.
#ifndef MDL_MDL_PENALTY_H
#define MDL_MDL_PENALTY_H

#include "mdl/mdl_eval.h"

// Right-hand side of the penalty ODE at (t, q, v): q̇ = N(q) v (nq entries) and
// v̇ = M⁻¹(f + Gᵀλ) (nv entries), with per-row forces (SPEC §4)
//   bilateral: λ = −Kφ − B Gv − p;  unilateral/normal (while φ ≤ 0): λ = max(0, −Kφ − B Gv − p);
//   tangent (while its contact's normal is active): λ_t = −K_t φ_t − B_t G_t v, the contact's
//   tangent vector then scaled into the disc ‖λ_t‖ ≤ μ λ_n (memoryless Coulomb),
// p = M̂_X Ġ_X v the group-wise bias (ev->settings.use_bias, bias_reg). Overwrites the
// evaluator's outputs (ev->rows, ev->lambda then describe this evaluation); allocates nothing.
// Returns the status (MDL_EVAL_OK = 0; a failed callback is named in ev->callback).
mdl_eval_status mdl_penalty_rhs(mdl_eval *ev, double t, const double *q, const double *v,
                                double *qdot, double *vdot);

#endif  // MDL_MDL_PENALTY_H
