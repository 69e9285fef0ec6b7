// SPDX-License-Identifier: MIT
// Model evaluation shared by the step and the penalty right-hand side: rows, M, f, active set,
// W = G M⁻¹ Gᵀ over the active rows (dense, only for small row counts) and the group-wise bias
// p = M̂_X Ġ_X v (paper A eqs. 23–24).
//
// The bias of group X (the active rows of one kind) solves (W_XX + ε I) p_X = (Ġv)_X with
// ε = bias_reg · max diag W_XX: for independent rows this is M̂_X Ġ_X v up to a relative 1e-8,
// for redundant rows the Tikhonov limit picks the minimum-norm p, split evenly between copies.
// With W formed (dense mode) the solve is a Cholesky factorisation; otherwise preconditioned CG
// applies W matrix-free as G (M⁻¹ (Gᵀ x)) in O(nnz(G) + nnz(M)) per iteration.
#include "mbs_internal.h"

#include "mbs_dense.h"

#include <math.h>
#include <string.h>

mbs_status mbs_eval_callback_status(mbs_workspace *ws, const char *name, int code) {
  ws->info.callback = name;
  ws->info.callback_code = code;
  return code > 0 ? MBS_CALLBACK_RECOVERABLE : MBS_CALLBACK_FATAL;
}

// x ← M⁻¹ x with the block Cholesky factors in ws->mass
void mbs_eval_mass_solve(const mbs_workspace *ws, double *x) {
  const mbs_model *m = ws->model;
  if (m->nblocks == 0) {
    mbs_chol_solve(ws->mass, ws->nv, ws->nv, x);
    return;
  }
  size_t off = 0;
  int v = 0;
  for (int b = 0; b < m->nblocks; b++) {
    int s = m->block_size[b];
    mbs_chol_solve(ws->mass + off, s, s, x + v);
    off += (size_t)s * (size_t)s;
    v += s;
  }
}

static int mass_factor(mbs_workspace *ws) {
  const mbs_model *m = ws->model;
  if (m->nblocks == 0) return mbs_chol_factor(ws->mass, ws->nv, ws->nv);
  size_t off = 0;
  for (int b = 0; b < m->nblocks; b++) {
    int s = m->block_size[b];
    if (mbs_chol_factor(ws->mass + off, s, s)) return -1;
    off += (size_t)s * (size_t)s;
  }
  return 0;
}

double mbs_eval_row_dot(const mbs_rows *r, int i, const double *x) {
  double s = 0;
  for (int k = r->start[i]; k < r->start[i + 1]; k++) s += r->val[k] * x[r->col[k]];
  return s;
}

int mbs_eval_finite(const double *x, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i])) return 0;
  return 1;
}

// checks the model's rows: finite data, K, B, μ ≥ 0, columns in range
static mbs_status rows_check(const mbs_workspace *ws) {
  const mbs_rows *r = ws->rows;
  if (r->overflow) return MBS_CAPACITY;
  for (int i = 0; i < r->n; i++) {
    if (!isfinite(r->phi[i]) || !isfinite(r->gdot_v[i]) || !isfinite(r->K[i]) ||
        !isfinite(r->B[i]) || !isfinite(r->mu[i]))
      return MBS_NONFINITE;
    if (r->K[i] < 0 || r->B[i] < 0 || r->mu[i] < 0 || (int)r->kind[i] < 0 ||
        r->kind[i] >= MBS_ROW_KIND_COUNT)
      return MBS_BAD_ROW;
    for (int k = r->start[i]; k < r->start[i + 1]; k++) {
      if (r->col[k] < 0 || r->col[k] >= ws->nv) return MBS_BAD_ROW;
      if (!isfinite(r->val[k])) return MBS_NONFINITE;
    }
  }
  return MBS_OK;
}

// W_aa = G_a M⁻¹ G_aᵀ of one row, block by block (M is block diagonal); uses ws->cg_g scratch
static double w_diag(const mbs_workspace *ws, int i) {
  const mbs_rows *r = ws->rows;
  double sum = 0;
  for (int k = r->start[i]; k < r->start[i + 1]; k++) {
    int b = ws->col_block[r->col[k]], seen = 0;
    for (int e = r->start[i]; e < k; e++) seen |= ws->col_block[r->col[e]] == b;
    if (seen) continue;
    const int v0 = ws->blk_v0[b], bs = ws->blk_size[b];
    double *g = ws->cg_g;
    for (int j = 0; j < bs; j++) g[j] = 0;
    for (int e = k; e < r->start[i + 1]; e++)
      if (ws->col_block[r->col[e]] == b) g[r->col[e] - v0] += r->val[e];
    double *y = g + bs;
    for (int j = 0; j < bs; j++) y[j] = g[j];
    mbs_chol_solve(ws->mass + ws->blk_off[b], bs, bs, y);
    for (int j = 0; j < bs; j++) sum += g[j] * y[j];
  }
  return sum;
}

// y = (W_XX + ε I) x for the group g[0..ng) of active indices, matrix-free: G M⁻¹ Gᵀ x
static void w_apply(mbs_workspace *ws, const int *g, int ng, double eps, const double *x,
                    double *y) {
  const mbs_rows *r = ws->rows;
  double *t = ws->cg_t;
  for (int j = 0; j < ws->nv; j++) t[j] = 0;
  for (int a = 0; a < ng; a++) {
    int i = ws->act[g[a]];
    for (int k = r->start[i]; k < r->start[i + 1]; k++) t[r->col[k]] += r->val[k] * x[a];
  }
  mbs_eval_mass_solve(ws, t);
  for (int a = 0; a < ng; a++) y[a] = mbs_eval_row_dot(r, ws->act[g[a]], t) + eps * x[a];
}

// preconditioned CG on (W_XX + ε I) p = rhs (Jacobi), for groups too large for dense storage
static void bias_cg(mbs_workspace *ws, const int *g, int ng, double eps, const double *dg,
                    const double *rhs, double *x) {
  double *res = ws->cg_r, *z = ws->cg_z, *d = ws->cg_d, *q = ws->cg_q, rz = 0, nb = 0;
  for (int a = 0; a < ng; a++) {
    x[a] = 0, res[a] = rhs[a], z[a] = res[a] / (dg[a] + eps), d[a] = z[a];
    rz += res[a] * z[a], nb += rhs[a] * rhs[a];
  }
  for (int it = 0; it < 2 * ng + 20 && rz > 0; it++) {
    w_apply(ws, g, ng, eps, d, q);
    double dq = 0, rr = 0, rz1 = 0;
    for (int a = 0; a < ng; a++) dq += d[a] * q[a];
    if (!(dq > 0)) break;
    double alpha = rz / dq;
    for (int a = 0; a < ng; a++) x[a] += alpha * d[a], res[a] -= alpha * q[a], rr += res[a] * res[a];
    if (rr <= 1e-28 * nb) break;
    for (int a = 0; a < ng; a++) z[a] = res[a] / (dg[a] + eps), rz1 += res[a] * z[a];
    for (int a = 0; a < ng; a++) d[a] = z[a] + rz1 / rz * d[a];
    rz = rz1;
  }
}

// group-wise bias p = M̂_X Ġ_X v0 for the active rows of each kind (regularised, min-norm):
// dense Cholesky on W_XX + εI when W is formed, matrix-free CG otherwise
static mbs_status bias_compute(mbs_workspace *ws, int na) {
  const mbs_rows *r = ws->rows;
  const int ld = ws->dcap;
  for (int a = 0; a < na; a++) ws->p[a] = 0;
  if (!ws->settings.use_bias) return MBS_OK;
  for (int kind = 0; kind < MBS_ROW_KIND_COUNT; kind++) {
    int *g = ws->grp, ng = 0, any = 0;
    for (int a = 0; a < na; a++)
      if ((int)r->kind[ws->act[a]] == kind) {
        g[ng++] = a;
        any |= r->gdot_v[ws->act[a]] != 0;
      }
    if (!any) continue;
    double dmax = 0;
    for (int x = 0; x < ng; x++) {
      ws->cg_dg[x] = ws->dense ? ws->W[g[x] * ld + g[x]] : w_diag(ws, ws->act[g[x]]);
      dmax = fmax(dmax, ws->cg_dg[x]);
      ws->cg_b[x] = r->gdot_v[ws->act[g[x]]];
    }
    if (!(dmax > 0)) continue;
    double eps = ws->settings.bias_reg * dmax;
    if (ws->dense) {
      for (int x = 0; x < ng; x++) {
        for (int y = 0; y <= x; y++) ws->A[x * ld + y] = ws->W[g[x] * ld + g[y]];
        ws->A[x * ld + x] += eps;
        ws->cg_x[x] = ws->cg_b[x];
      }
      if (mbs_chol_factor(ws->A, ng, ld)) return MBS_SINGULAR;
      mbs_chol_solve(ws->A, ng, ld, ws->cg_x);
    } else {
      bias_cg(ws, g, ng, eps, ws->cg_dg, ws->cg_b, ws->cg_x);
    }
    for (int x = 0; x < ng; x++) ws->p[g[x]] = ws->cg_x[x];
  }
  return MBS_OK;
}

mbs_status mbs_eval_prepare(mbs_workspace *ws, double t, const double *q0, const double *v0,
                            int contacts) {
  const mbs_model *m = ws->model;
  mbs_rows *r = ws->rows;
  mbs_info *info = &ws->info;
  const int nv = ws->nv, ld = ws->dcap;
  int code;

  // model data at (t0, q0, v0)
  mbs_rows_clear(r);
  // a row that did not fit is a capacity problem, whatever code the callback returned for it
  if (m->rows && (code = m->rows(t, q0, v0, r, m->ctx)))
    return r->overflow ? MBS_CAPACITY : mbs_eval_callback_status(ws, "rows", code);
  mbs_status st = rows_check(ws);
  if (st != MBS_OK) return st;
  if ((code = m->mass(t, q0, ws->mass, m->ctx))) return mbs_eval_callback_status(ws, "mass", code);
  if (!mbs_eval_finite(ws->mass, (int)ws->mass_entries)) return MBS_NONFINITE;
  memcpy(ws->mass_raw, ws->mass, ws->mass_entries * sizeof(double));
  if (mass_factor(ws)) return MBS_SINGULAR;
  if ((code = m->forces(t, q0, v0, ws->f, m->ctx)))
    return mbs_eval_callback_status(ws, "forces", code);
  if (!mbs_eval_finite(ws->f, nv)) return MBS_NONFINITE;

  // active rows: bilateral always, unilateral/normal while φ ≤ 0, tangents with their normal
  // (found through the contact → normal-row map, reset below: O(rows) per step)
  for (int i = 0; i < r->n; i++)
    if (r->kind[i] == MBS_ROW_NORMAL && r->contact[i] >= 0 && r->contact[i] < ws->cap)
      ws->cnormal[r->contact[i]] = i;
  int na = 0, unsupported = 0;
  info->rows = r->n;
  for (int i = 0; i < r->n; i++) {
    ws->lambda[i] = 0, ws->resid[i] = 0;
    int on = 0;
    switch (r->kind[i]) {
    case MBS_ROW_BILATERAL: on = 1, info->rows_bilateral++; break;
    case MBS_ROW_UNILATERAL:
    case MBS_ROW_NORMAL: on = r->phi[i] <= 0, info->rows_unilateral += on; break;
    case MBS_ROW_TANGENT: {
      const int c = r->contact[i], j = c >= 0 && c < ws->cap ? ws->cnormal[c] : -1;
      on = j >= 0 && r->phi[j] <= 0;
      break;
    }
    default: break;
    }
    unsupported |=
        on && !contacts && (r->kind[i] == MBS_ROW_NORMAL || r->kind[i] == MBS_ROW_TANGENT);
    ws->active[i] = on;
    if (on) ws->act[na++] = i;
  }
  for (int i = 0; i < r->n; i++)  // reset the contact map for the next evaluation
    if (r->kind[i] == MBS_ROW_NORMAL && r->contact[i] >= 0 && r->contact[i] < ws->cap)
      ws->cnormal[r->contact[i]] = -1;
  if (unsupported) return MBS_UNSUPPORTED;
  info->rows_active = na;
  ws->na = na;

  // dense row space (Y_a = M⁻¹ G_aᵀ, W = G Y) only while it fits and the dense path may be used
  ws->dense = na <= ws->dcap && ws->settings.solver != MBS_SOLVER_QCP;
  if (ws->dense) {
    for (int a = 0; a < na; a++) {
      double *y = ws->Y + (size_t)a * (size_t)nv;
      for (int j = 0; j < nv; j++) y[j] = 0;
      int i = ws->act[a];
      for (int k = r->start[i]; k < r->start[i + 1]; k++) y[r->col[k]] += r->val[k];
      mbs_eval_mass_solve(ws, y);
    }
    for (int a = 0; a < na; a++)
      for (int b = 0; b < na; b++)
        ws->W[a * ld + b] = mbs_eval_row_dot(r, ws->act[a], ws->Y + (size_t)b * nv);
    for (int a = 0; a < na; a++)  // symmetrise against rounding
      for (int b = 0; b < a; b++)
        ws->W[a * ld + b] = ws->W[b * ld + a] = 0.5 * (ws->W[a * ld + b] + ws->W[b * ld + a]);
  }
  return bias_compute(ws, na);
}
