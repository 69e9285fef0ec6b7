// SPDX-License-Identifier: MIT
// ref — reference solutions: closed forms and SUNDIALS/GSL integrators on mbs models (SPEC §4).
#ifndef REF_REF_H
#define REF_REF_H

#include "ref/ref_ida.h"
#include "ref/ref_pendulum.h"
#include "ref/ref_stats.h"

#endif  // REF_REF_H
