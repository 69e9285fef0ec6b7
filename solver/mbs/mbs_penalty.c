// SPDX-License-Identifier: MIT
// Penalty-ODE right-hand side of an mbs model (SPEC §4; paper A eqs. 16–18 with the bias of
// eq. 23): M v̇ = f + Gᵀλ(q, v), q̇ = N v, every row a spring-damper evaluated explicitly.
#include "mbs/mbs_penalty.h"

#include "mbs_internal.h"

#include <math.h>
#include <string.h>

mbs_status mbs_penalty_rhs(mbs_workspace *ws, double t, const double *q, const double *v,
                           double *qdot, double *vdot) {
  const mbs_model *m = ws->model;
  mbs_info *info = &ws->info;
  memset(info, 0, sizeof *info);
  info->energy = NAN;
  info->lambda_min = INFINITY;
  mbs_status st = mbs_eval_prepare(ws, t, q, v, 1);
  const mbs_rows *r = ws->rows;
  const int nv = ws->nv, na = ws->na;
  if (st != MBS_OK) return info->status = st;
  // spring-damper force of every active row; unilateral/normal clipped at 0
  for (int a = 0; a < na; a++) {
    int i = ws->act[a];
    // SPEC §4: the bias −M̂Ġv belongs to bilateral, unilateral and normal rows; a tangent row
    // is the memoryless damper λ_t = −B_t φ̇_t alone
    double lam = -r->K[i] * r->phi[i] - r->B[i] * mbs_eval_row_dot(r, i, v) -
                 (r->kind[i] == MBS_ROW_TANGENT ? 0.0 : ws->p[a]);
    if (r->kind[i] == MBS_ROW_UNILATERAL || r->kind[i] == MBS_ROW_NORMAL) lam = fmax(0.0, lam);
    ws->lambda[i] = lam;
  }
  // friction disc per contact: scale its tangent rows to ‖λ_t‖ ≤ μ λ_n
  for (int a = 0; a < na; a++) {
    int n = ws->act[a];
    if (r->kind[n] != MBS_ROW_NORMAL || r->contact[n] < 0) continue;
    double norm2 = 0;
    for (int b = 0; b < na; b++) {
      int i = ws->act[b];
      if (r->kind[i] == MBS_ROW_TANGENT && r->contact[i] == r->contact[n])
        norm2 += ws->lambda[i] * ws->lambda[i];
    }
    double cap = r->mu[n] * ws->lambda[n], norm = sqrt(norm2);
    if (norm > cap) {
      double s = norm > 0 ? cap / norm : 0;
      for (int b = 0; b < na; b++) {
        int i = ws->act[b];
        if (r->kind[i] == MBS_ROW_TANGENT && r->contact[i] == r->contact[n]) ws->lambda[i] *= s;
      }
    }
  }
  // v̇ = M⁻¹ (f + Gᵀ λ), sparse in G
  memcpy(vdot, ws->f, (size_t)nv * sizeof(double));
  for (int a = 0; a < na; a++) {
    int i = ws->act[a];
    double l = ws->lambda[i];
    if (r->kind[i] == MBS_ROW_UNILATERAL || r->kind[i] == MBS_ROW_NORMAL) {  // λ ≥ 0 rows
      info->lambda_min = fmin(info->lambda_min, l);
      info->rows_positive += l > 0;
    }
    for (int k = r->start[i]; k < r->start[i + 1]; k++) vdot[r->col[k]] += r->val[k] * l;
  }
  mbs_eval_mass_solve(ws, vdot);
  int code;
  if (m->velocity_map) {
    if ((code = m->velocity_map(t, q, v, qdot, m->ctx)))
      return info->status = mbs_eval_callback_status(ws, "velocity_map", code);
  } else {
    memcpy(qdot, v, (size_t)nv * sizeof(double));
  }
  if (!mbs_eval_finite(vdot, nv) || !mbs_eval_finite(qdot, ws->nq)) st = MBS_NONFINITE;
  return info->status = st;
}
