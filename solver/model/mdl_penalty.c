// SPDX-License-Identifier: MIT
// Penalty-ODE right-hand side of a model (SPEC §4; paper A eqs. 16–18 with the bias of
// eq. 23): M v̇ = f + Gᵀλ(q, v), q̇ = N v, every row a spring-damper evaluated explicitly.
#include "mdl/mdl_penalty.h"

#include <math.h>
#include <string.h>

#include "mdl/mdl_dense.h"

// spring-damper force of every active row, unilateral/normal clipped at 0, then the friction
// disc per contact: its tangent rows scaled to ‖λ_t‖ ≤ μ λ_n
static void penalty_forces(mdl_eval *ev, const double *v) {
  const mdl_rows *r = ev->rows;
  const int na = ev->na;
  for (int i = 0; i < r->n; i++) ev->lambda[i] = 0;
  for (int a = 0; a < na; a++) {
    int i = ev->act[a];
    // SPEC §4: the bias −M̂Ġv belongs to bilateral, unilateral and normal rows; a tangent row
    // is the memoryless damper λ_t = −B_t φ̇_t alone
    double lam = -r->K[i] * r->phi[i] - r->B[i] * mdl_eval_row_dot(r, i, v) -
                 (r->kind[i] == MDL_ROW_TANGENT ? 0.0 : ev->p[a]);
    if (r->kind[i] == MDL_ROW_UNILATERAL || r->kind[i] == MDL_ROW_NORMAL) lam = fmax(0.0, lam);
    ev->lambda[i] = lam;
  }
  for (int a = 0; a < na; a++) {
    int n = ev->act[a];
    if (r->kind[n] != MDL_ROW_NORMAL || r->contact[n] < 0) continue;
    double norm2 = 0;
    for (int b = 0; b < na; b++) {
      int i = ev->act[b];
      if (r->kind[i] == MDL_ROW_TANGENT && r->contact[i] == r->contact[n])
        norm2 += ev->lambda[i] * ev->lambda[i];
    }
    double cap = r->mu[n] * ev->lambda[n], norm = sqrt(norm2);
    if (norm > cap) {
      double s = norm > 0 ? cap / norm : 0;
      for (int b = 0; b < na; b++) {
        int i = ev->act[b];
        if (r->kind[i] == MDL_ROW_TANGENT && r->contact[i] == r->contact[n]) ev->lambda[i] *= s;
      }
    }
  }
}

mdl_eval_status mdl_penalty_rhs(mdl_eval *ev, double t, const double *q, const double *v,
                                double *qdot, double *vdot) {
  const mdl_model *m = ev->model;
  mdl_eval_status st = mdl_eval_prepare(ev, t, q, v);
  if (st != MDL_EVAL_OK) return st;
  const mdl_rows *r = ev->rows;
  const int nv = ev->nv, na = ev->na;
  penalty_forces(ev, v);
  // v̇ = M⁻¹ (f + Gᵀ λ), sparse in G
  memcpy(vdot, ev->f, (size_t)nv * sizeof(double));
  for (int a = 0; a < na; a++) {
    int i = ev->act[a];
    double l = ev->lambda[i];
    for (int k = r->start[i]; k < r->start[i + 1]; k++) vdot[r->col[k]] += r->val[k] * l;
  }
  mdl_eval_mass_solve(ev, vdot);
  int code;
  if (m->velocity_map) {
    if ((code = m->velocity_map(t, q, v, qdot, m->ctx)))
      return mdl_callback_status("velocity_map", code, &ev->callback, &ev->callback_code);
  } else {
    memcpy(qdot, v, (size_t)nv * sizeof(double));
  }
  if (!mdl_finite(vdot, nv) || !mdl_finite(qdot, ev->nq)) return MDL_EVAL_NONFINITE;
  return MDL_EVAL_OK;
}
