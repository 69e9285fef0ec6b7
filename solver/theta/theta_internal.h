// SPDX-License-Identifier: MIT
// Internals of the theta library. The dense kernels are the model layer's (mdl/mdl_dense.h).
#ifndef THETA_INTERNAL_H
#define THETA_INTERNAL_H

#include "mdl/mdl_dense.h"

// A Cholesky pivot ≤ THETA_PIVOT_REL · max diag of the θ-method's nv×nv matrices (M, A =
// M + δt²θθvq K + δt θ D, the Newton Hessian A + JᵀGJ) is reported as singular.
#define THETA_PIVOT_REL 1e-14

#endif  // THETA_INTERNAL_H
