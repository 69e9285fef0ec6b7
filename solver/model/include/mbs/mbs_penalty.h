// SPDX-License-Identifier: MIT
// The penalty ODE of an mbs model (SPEC §4), for reference integrators (CVODE, RK45): a function
// of the model evaluator only (model layer), independent of every stepper.
#ifndef MBS_MBS_PENALTY_H
#define MBS_MBS_PENALTY_H

#include "mbs/mbs_eval.h"

// Right-hand side of the penalty ODE at (t, q, v): q̇ = N(q) v (nq entries) and
// v̇ = M⁻¹(f + Gᵀλ) (nv entries), with per-row forces (SPEC §4)
//   bilateral: λ = −Kφ − B Gv − p;  unilateral/normal (while φ ≤ 0): λ = max(0, −Kφ − B Gv − p);
//   tangent (while its contact's normal is active): λ_t = −K_t φ_t − B_t G_t v, the contact's
//   tangent vector then scaled into the disc ‖λ_t‖ ≤ μ λ_n (memoryless Coulomb),
// p = M̂_X Ġ_X v the group-wise bias (ev->settings.use_bias, bias_reg). Overwrites the
// evaluator's outputs (ev->rows, ev->lambda then describe this evaluation); allocates nothing.
// Returns the status (MBS_EVAL_OK = 0; a failed callback is named in ev->callback).
mbs_eval_status mbs_penalty_rhs(mbs_eval *ev, double t, const double *q, const double *v,
                                double *qdot, double *vdot);

#endif  // MBS_MBS_PENALTY_H
