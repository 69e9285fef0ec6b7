// SPDX-License-Identifier: MIT
// Penalty ODE of an mbs model as an explicit ODE y' = F(t, y), y = (q, v): q̇ = N(q) v and
// v̇ = M⁻¹(f + Gᵀλ(q, v)) from mdl_penalty_rhs (SPEC §4), through the model layer's evaluator.
#include "ref/ref_penalty.h"

#include <string.h>

static int penalty_rhs(double t, const double *y, double *ydot, void *ctx) {
  ref_penalty *pen = ctx;
  mdl_eval_status st = mdl_penalty_rhs(pen->ev, t, y, y + pen->nq, ydot, ydot + pen->nq);
  if (st == MDL_EVAL_OK) return 0;
  // a recoverable callback failure lets the integrator retry with a smaller step
  return st == MDL_EVAL_CALLBACK_RECOVERABLE ? 1 : -1;
}

int ref_penalty_init(ref_penalty *pen, const mdl_model *model, const mdl_eval_settings *settings,
                     sc_error *err) {
  memset(pen, 0, sizeof *pen);
  pen->ev = mdl_eval_create(model, settings, err);
  if (!pen->ev) return err && err->code ? err->code : SC_ERR_INPUT;
  pen->nq = model->nq;
  pen->nv = model->nv;
  pen->ode =
      (ref_ode){.n = (size_t)(model->nq + model->nv), .rhs = penalty_rhs, .jac = NULL, .ctx = pen};
  return SC_OK;
}

void ref_penalty_free(ref_penalty *pen) {
  mdl_eval_free(pen->ev);
  pen->ev = NULL;
}
