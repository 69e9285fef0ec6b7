// SPDX-License-Identifier: MIT
// mbs — multibody models, constraint rows and paper A's first-order constraint step.
#ifndef MBS_MBS_H
#define MBS_MBS_H

#include "mbs/mbs_model.h"
#include "mbs/mbs_step.h"
#include "mbs/mbs_penalty.h"
#include "mbs/mbs_rigid.h"

#endif  // MBS_MBS_H
