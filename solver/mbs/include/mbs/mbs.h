// SPDX-License-Identifier: MIT
// mbs — multibody models, constraint rows and evaluation (the model layer, solver/model) and
// paper A's first-order constraint step (solver/mbs).
#ifndef MBS_MBS_H
#define MBS_MBS_H

#include "mbs/mbs_step.h"
#include "mdl/mdl_eval.h"
#include "mdl/mdl_model.h"
#include "mdl/mdl_penalty.h"
#include "mdl/mdl_rigid.h"
#include "mdl/mdl_status.h"

#endif  // MBS_MBS_H
