// SPDX-License-Identifier: MIT
// Rigid-constraint DAE reference by SUNDIALS IDA on an mbs model (bilateral rows made rigid).
#ifndef REF_REF_IDA_H
#define REF_REF_IDA_H

#include "mdl/mdl_model.h"
#include "ref/ref_stats.h"

// Settings of the IDA reference; defaults from ref_ida_settings_default().
typedef struct ref_ida_settings {
  double rtol;      // relative tolerance (1e-10)
  double atol;      // absolute tolerance on q and v (1e-12)
  long max_steps;   // step budget per output interval (1000000)
  double max_wall;  // wall-time budget [s], ≤ 0 for none (0)
} ref_ida_settings;

// rtol 1e-10, atol 1e-12, 1e6 steps per output, no wall-time budget.
ref_ida_settings ref_ida_settings_default(void);

// Integrates M v̇ = f + Gᵀλ with the model's bilateral rows held rigid (φ = 0; K, B ignored,
// unilateral rows ignored) in the stabilised index-2 (Gear–Gupta–Leimkuhler) form, from
// (t0, q0, v0) consistent with φ = 0, G v = 0, to the nout increasing times tout; writes
// qout (nout×nq) and vout (nout×nv), caller-owned. Requires N = I and independent rows.
// Returns the status (also in stats, which may be NULL); outputs not reached are NAN.
ref_status ref_ida_rigid(const mdl_model *model, const ref_ida_settings *settings, double t0,
                         const double *q0, const double *v0, const double *tout, int nout,
                         double *qout, double *vout, ref_stats *stats);

#endif  // REF_REF_IDA_H
