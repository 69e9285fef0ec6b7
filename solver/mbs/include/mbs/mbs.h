// SPDX-License-Identifier: MIT
// mbs — paper A's first-order constraint step (solver/mbs), with the model-layer headers
// (mdl_, solver/model) it is built on, for code that sets up a model and steps it.
#ifndef MBS_MBS_H
#define MBS_MBS_H

#include "mbs/mbs_step.h"
#include "mdl/mdl_eval.h"
#include "mdl/mdl_model.h"
#include "mdl/mdl_penalty.h"
#include "mdl/mdl_rigid.h"
#include "mdl/mdl_status.h"

#endif  // MBS_MBS_H
