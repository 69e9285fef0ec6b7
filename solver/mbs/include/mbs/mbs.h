// SPDX-License-Identifier: MIT
// mbs — multibody models, constraint rows and evaluation (the model layer, solver/model) and
// paper A's first-order constraint step (solver/mbs).
#ifndef MBS_MBS_H
#define MBS_MBS_H

#include "mbs/mbs_eval.h"
#include "mbs/mbs_model.h"
#include "mbs/mbs_penalty.h"
#include "mbs/mbs_rigid.h"
#include "mbs/mbs_status.h"
#include "mbs/mbs_step.h"

#endif  // MBS_MBS_H
