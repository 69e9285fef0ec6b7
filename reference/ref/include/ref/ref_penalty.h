// SPDX-License-Identifier: MIT
// The penalty ODE of an mbs model (SPEC §4) as a ref_ode, so CVODE and RK45 integrate exactly the
// model the constraint solver steps (no second copy of any scenario).
#ifndef REF_REF_PENALTY_H
#define REF_REF_PENALTY_H

#include <stddef.h>

#include "common/sc_error.h"
#include "mdl/mdl_eval.h"
#include "mdl/mdl_penalty.h"
#include "ref/ref_ode.h"

// State y = (q, v) with n = nq + nv entries; `ode` is ready after ref_penalty_init.
typedef struct ref_penalty {
  mdl_eval *ev;  // the model layer's evaluator (owned): rows, M, f, bias
  int nq, nv;
  ref_ode ode;
} ref_penalty;

// Creates the model evaluator for model (borrowed; must outlive pen) with the given evaluation
// settings (NULL: mdl_eval_settings_default(); use_bias and bias_reg decide the bias term as in
// paper A's step). 0 ok, or a negative SC_ERR_* code with err (may be NULL) set.
int ref_penalty_init(ref_penalty *pen, const mdl_model *model, const mdl_eval_settings *settings,
                     sc_error *err);
// Frees the evaluator; safe on a zeroed struct.
void ref_penalty_free(ref_penalty *pen);

#endif  // REF_REF_PENALTY_H
