// SPDX-License-Identifier: MIT
// The penalty ODE of an mbs model (SPEC §4) as a ref_ode, so CVODE and RK45 integrate exactly the
// model the constraint solver steps (no second copy of any scenario).
#ifndef REF_REF_PENALTY_H
#define REF_REF_PENALTY_H

#include <stddef.h>

#include "mbs/mbs.h"
#include "mbs/mbs_penalty.h"
#include "ref/ref_ode.h"

// State y = (q, v) with n = nq + nv entries; `ode` is ready after ref_penalty_init.
typedef struct ref_penalty {
  mbs_workspace *ws;  // evaluation buffers (owned)
  int nq, nv;
  ref_ode ode;
} ref_penalty;

// Creates the evaluation workspace for model (borrowed; must outlive pen) with the given step
// settings (NULL: defaults; use_bias and bias_reg decide the bias term, as in the step).
// 0 ok, −1 with a message in msg.
int ref_penalty_init(ref_penalty *pen, const mbs_model *model, const mbs_settings *settings,
                     char *msg, size_t len);
// Frees the workspace; safe on a zeroed struct.
void ref_penalty_free(ref_penalty *pen);

#endif  // REF_REF_PENALTY_H
