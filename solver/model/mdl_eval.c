// SPDX-License-Identifier: MIT
// Model evaluation (model layer) shared by paper A's step and the penalty right-hand side: rows,
// M, f, active set,
// W = G M⁻¹ Gᵀ over the active rows (dense, only for small row counts) and the group-wise bias
// p = M̂_X Ġ_X v (paper A eqs. 23–24).
//
// The bias of group X (the active rows of one kind) solves (W_XX + ε I) p_X = (Ġv)_X with
// ε = bias_reg · max diag W_XX: for independent rows this is M̂_X Ġ_X v up to a relative 1e-8,
// for redundant rows the Tikhonov limit picks the minimum-norm p, split evenly between copies.
// With W formed (dense mode) the solve is a Cholesky factorisation; otherwise preconditioned CG
// applies W matrix-free as G (M⁻¹ (Gᵀ x)) in O(nnz(G) + nnz(M)) per iteration.
#include "mdl/mdl_eval.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mdl/mdl_dense.h"

// x ← M⁻¹ x with the block Cholesky factors in ws->mass
void mdl_eval_mass_solve(const mdl_eval *ws, double *x) {
  const mdl_model *m = ws->model;
  if (m->nblocks == 0) {
    mdl_chol_solve(ws->mass, ws->nv, ws->nv, x);
    return;
  }
  size_t off = 0;
  int v = 0;
  for (int b = 0; b < m->nblocks; b++) {
    int s = m->block_size[b];
    mdl_chol_solve(ws->mass + off, s, s, x + v);
    off += (size_t)s * (size_t)s;
    v += s;
  }
}

static int mass_factor(mdl_eval *ws) {
  const mdl_model *m = ws->model;
  if (m->nblocks == 0) return mdl_chol_factor(ws->mass, ws->nv, ws->nv);
  size_t off = 0;
  for (int b = 0; b < m->nblocks; b++) {
    int s = m->block_size[b];
    if (mdl_chol_factor(ws->mass + off, s, s)) return -1;
    off += (size_t)s * (size_t)s;
  }
  return 0;
}

double mdl_eval_row_dot(const mdl_rows *r, int i, const double *x) {
  double s = 0;
  for (int k = r->start[i]; k < r->start[i + 1]; k++) s += r->val[k] * x[r->col[k]];
  return s;
}

int mdl_row_stiffness_over_step(const mdl_model *m, const mdl_rows *r, int i, double phi1,
                                double K_used, double gap_stiffness, double *K_new) {
  double K1;
  if ((r->phi[i] > 0 && phi1 >= 0) || !m->row_stiffness ||
      m->row_stiffness(r, i, phi1, &K1, m->ctx) || !(K1 >= 0) || !isfinite(K1))
    return 0;
  const int leaves_gap = r->phi[i] > 0 && K_used == gap_stiffness;
  if (!(K1 > 2 * K_used || (leaves_gap && K1 < 0.5 * K_used))) return 0;
  *K_new = K1;
  return 1;
}

// checks the model's rows: finite data, K, B, μ ≥ 0, columns in range
static mdl_eval_status rows_check(const mdl_eval *ws) {
  const mdl_rows *r = ws->rows;
  if (r->overflow) return MDL_EVAL_CAPACITY;
  for (int i = 0; i < r->n; i++) {
    if (!isfinite(r->phi[i]) || !isfinite(r->gdot_v[i]) || !isfinite(r->K[i]) ||
        !isfinite(r->B[i]) || !isfinite(r->mu[i]))
      return MDL_EVAL_NONFINITE;
    if (r->K[i] < 0 || r->B[i] < 0 || r->mu[i] < 0 || (int)r->kind[i] < 0 ||
        r->kind[i] >= MDL_ROW_KIND_COUNT)
      return MDL_EVAL_BAD_ROW;
    for (int k = r->start[i]; k < r->start[i + 1]; k++) {
      if (r->col[k] < 0 || r->col[k] >= ws->nv) return MDL_EVAL_BAD_ROW;
      if (!isfinite(r->val[k])) return MDL_EVAL_NONFINITE;
    }
  }
  return MDL_EVAL_OK;
}

// W_aa = G_a M⁻¹ G_aᵀ of one row, block by block (M is block diagonal); uses ws->cg_g scratch
static double w_diag(const mdl_eval *ws, int i) {
  const mdl_rows *r = ws->rows;
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
    mdl_chol_solve(ws->mass + ws->blk_off[b], bs, bs, y);
    for (int j = 0; j < bs; j++) sum += g[j] * y[j];
  }
  return sum;
}

// y = (W_XX + ε I) x for the group g[0..ng) of active indices, matrix-free: G M⁻¹ Gᵀ x
static void w_apply(mdl_eval *ws, const int *g, int ng, double eps, const double *x, double *y) {
  const mdl_rows *r = ws->rows;
  double *t = ws->cg_t;
  for (int j = 0; j < ws->nv; j++) t[j] = 0;
  for (int a = 0; a < ng; a++) {
    int i = ws->act[g[a]];
    for (int k = r->start[i]; k < r->start[i + 1]; k++) t[r->col[k]] += r->val[k] * x[a];
  }
  mdl_eval_mass_solve(ws, t);
  for (int a = 0; a < ng; a++) y[a] = mdl_eval_row_dot(r, ws->act[g[a]], t) + eps * x[a];
}

// preconditioned CG on (W_XX + ε I) p = rhs (Jacobi), for groups too large for dense storage
static void bias_cg(mdl_eval *ws, const int *g, int ng, double eps, const double *dg,
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
    for (int a = 0; a < ng; a++)
      x[a] += alpha * d[a], res[a] -= alpha * q[a], rr += res[a] * res[a];
    if (rr <= 1e-28 * nb) break;
    for (int a = 0; a < ng; a++) z[a] = res[a] / (dg[a] + eps), rz1 += res[a] * z[a];
    for (int a = 0; a < ng; a++) d[a] = z[a] + rz1 / rz * d[a];
    rz = rz1;
  }
}

// group-wise bias p = M̂_X Ġ_X v0 for the active rows of each kind (regularised, min-norm):
// dense Cholesky on W_XX + εI when W is formed, matrix-free CG otherwise
static mdl_eval_status bias_compute(mdl_eval *ws, int na) {
  const mdl_rows *r = ws->rows;
  const int ld = ws->dcap;
  for (int a = 0; a < na; a++) ws->p[a] = 0;
  if (!ws->settings.use_bias) return MDL_EVAL_OK;
  for (int kind = 0; kind < MDL_ROW_KIND_COUNT; kind++) {
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
      if (mdl_chol_factor(ws->A, ng, ld)) return MDL_EVAL_SINGULAR;
      mdl_chol_solve(ws->A, ng, ld, ws->cg_x);
    } else {
      bias_cg(ws, g, ng, eps, ws->cg_dg, ws->cg_b, ws->cg_x);
    }
    for (int x = 0; x < ng; x++) ws->p[g[x]] = ws->cg_x[x];
  }
  return MDL_EVAL_OK;
}

// rows, M (factored) and f at (t, q, v), each checked
static mdl_eval_status eval_data(mdl_eval *ws, double t, const double *q0, const double *v0) {
  const mdl_model *m = ws->model;
  mdl_rows *r = ws->rows;
  int code;
  mdl_eval_status st = mdl_rows_evaluate(m, t, q0, v0, r, &ws->callback, &ws->callback_code);
  if (st != MDL_EVAL_OK) return st;
  st = rows_check(ws);
  if (st != MDL_EVAL_OK) return st;
  if ((code = m->mass(t, q0, ws->mass, m->ctx)))
    return mdl_callback_status("mass", code, &ws->callback, &ws->callback_code);
  if (!mdl_finite(ws->mass, (int)ws->mass_entries)) return MDL_EVAL_NONFINITE;
  memcpy(ws->mass_raw, ws->mass, ws->mass_entries * sizeof(double));
  if (mass_factor(ws)) return MDL_EVAL_SINGULAR;
  if ((code = m->forces(t, q0, v0, ws->f, m->ctx)))
    return mdl_callback_status("forces", code, &ws->callback, &ws->callback_code);
  if (!mdl_finite(ws->f, ws->nv)) return MDL_EVAL_NONFINITE;
  return MDL_EVAL_OK;
}

// active rows: bilateral always, unilateral/normal while φ ≤ 0 or flagged in extra (may be
// NULL), tangents with their normal (found through the contact → normal-row map, reset after:
// O(rows) per evaluation)
static void eval_active(mdl_eval *ws, const int *extra) {
  const mdl_rows *r = ws->rows;
  for (int i = 0; i < r->n; i++)
    if (r->kind[i] == MDL_ROW_NORMAL && r->contact[i] >= 0 && r->contact[i] < ws->cap)
      ws->cnormal[r->contact[i]] = i;
  int na = 0;
  ws->n_rows = r->n, ws->n_bilateral = 0, ws->n_unilateral = 0;
  for (int i = 0; i < r->n; i++) {
    int on = 0;
    switch (r->kind[i]) {
      case MDL_ROW_BILATERAL:
        on = 1, ws->n_bilateral++;
        break;
      case MDL_ROW_UNILATERAL:
      case MDL_ROW_NORMAL:
        on = r->phi[i] <= 0 || (extra && extra[i]), ws->n_unilateral += on;
        break;
      case MDL_ROW_TANGENT: {
        const int c = r->contact[i], j = c >= 0 && c < ws->cap ? ws->cnormal[c] : -1;
        on = j >= 0 && (r->phi[j] <= 0 || (extra && extra[j]));
        break;
      }
      default:
        break;
    }
    ws->active[i] = on;
    if (on) ws->act[na++] = i;
  }
  for (int i = 0; i < r->n; i++)  // reset the contact map for the next evaluation
    if (r->kind[i] == MDL_ROW_NORMAL && r->contact[i] >= 0 && r->contact[i] < ws->cap)
      ws->cnormal[r->contact[i]] = -1;
  ws->na = na;
}

// dense row space: Y_a = M⁻¹ G_aᵀ and W = G Y over the active rows (symmetrised)
static void eval_dense(mdl_eval *ws) {
  const mdl_rows *r = ws->rows;
  const int nv = ws->nv, ld = ws->dcap, na = ws->na;
  for (int a = 0; a < na; a++) {
    double *y = ws->Y + (size_t)a * (size_t)nv;
    for (int j = 0; j < nv; j++) y[j] = 0;
    int i = ws->act[a];
    for (int k = r->start[i]; k < r->start[i + 1]; k++) y[r->col[k]] += r->val[k];
    mdl_eval_mass_solve(ws, y);
  }
  for (int a = 0; a < na; a++)
    for (int b = 0; b < na; b++)
      ws->W[a * ld + b] = mdl_eval_row_dot(r, ws->act[a], ws->Y + (size_t)b * nv);
  for (int a = 0; a < na; a++)  // symmetrise against rounding
    for (int b = 0; b < a; b++)
      ws->W[a * ld + b] = ws->W[b * ld + a] = 0.5 * (ws->W[a * ld + b] + ws->W[b * ld + a]);
}

mdl_eval_status mdl_eval_prepare(mdl_eval *ws, double t, const double *q, const double *v) {
  ws->n_rows = 0, ws->na = 0, ws->n_bilateral = 0, ws->n_unilateral = 0, ws->dense = 0;
  ws->callback = NULL, ws->callback_code = 0;
  mdl_eval_status st = eval_data(ws, t, q, v);
  if (st != MDL_EVAL_OK) return st;
  return mdl_eval_activate(ws, NULL);
}

mdl_eval_status mdl_eval_activate(mdl_eval *ws, const int *extra) {
  eval_active(ws, extra);
  ws->dense = ws->settings.dense_max_rows >= 0 && ws->na <= ws->dcap;
  for (int a = 0; ws->dense && !ws->settings.dense_contact && a < ws->na; a++)
    ws->dense = ws->rows->kind[ws->act[a]] != MDL_ROW_NORMAL &&
                ws->rows->kind[ws->act[a]] != MDL_ROW_TANGENT;
  if (ws->dense) eval_dense(ws);
  return bias_compute(ws, ws->na);
}

// ---- settings and allocation -----------------------------------------------------------------

mdl_eval_settings mdl_eval_settings_default(void) {
  return (mdl_eval_settings){
      .use_bias = 1, .bias_reg = 1e-8, .dense_max_rows = 64, .dense_contact = 1};
}

int mdl_eval_settings_validate(const mdl_eval_settings *s, sc_error *err) {
  if (!(s->bias_reg > 0) || !isfinite(s->bias_reg))
    return sc_error_set(err, SC_ERR_INPUT, "mdl_eval settings: bias_reg = %g, must be > 0",
                        s->bias_reg);
  return SC_OK;
}

void mdl_eval_free(mdl_eval *ev) {
  if (!ev) return;
  mdl_rows_free(ev->rows);
  free(ev->mass_raw), free(ev->mass), free(ev->f), free(ev->act), free(ev->active), free(ev->p);
  free(ev->Y), free(ev->W), free(ev->lambda), free(ev->col_block), free(ev->blk_v0);
  free(ev->blk_size), free(ev->blk_off), free(ev->cnormal), free(ev->grp), free(ev->A);
  free(ev->cg_r), free(ev->cg_z), free(ev->cg_d), free(ev->cg_q), free(ev->cg_x), free(ev->cg_b);
  free(ev->cg_dg), free(ev->cg_t), free(ev->cg_g);
  free(ev);
}

// block structure of M: block of each velocity, start, size and factor offset of each block;
// returns the largest block size
static int eval_blocks(mdl_eval *ev) {
  const mdl_model *model = ev->model;
  const size_t nblk = (size_t)(model->nblocks > 0 ? model->nblocks : 1);
  size_t off = 0;
  int v = 0, bmax = 1;
  for (size_t b = 0; b < nblk; b++) {
    int bs = model->nblocks > 0 ? model->block_size[b] : ev->nv;
    ev->blk_v0[b] = v, ev->blk_size[b] = bs, ev->blk_off[b] = off;
    for (int j = 0; j < bs; j++) ev->col_block[v + j] = (int)b;
    v += bs, off += (size_t)bs * (size_t)bs, bmax = bs > bmax ? bs : bmax;
  }
  return bmax;
}

mdl_eval *mdl_eval_create(const mdl_model *model, const mdl_eval_settings *settings,
                          sc_error *err) {
  if (mdl_model_validate(model, err)) return NULL;
  mdl_eval_settings s = settings ? *settings : mdl_eval_settings_default();
  if (mdl_eval_settings_validate(&s, err)) return NULL;
  mdl_eval *ev = calloc(1, sizeof *ev);
  if (!ev)
    return sc_error_set(err, SC_ERR_MEMORY, "model evaluation workspace: out of memory"), NULL;
  ev->model = model, ev->settings = s;
  ev->nv = model->nv, ev->nq = model->nq, ev->cap = model->max_rows;
  ev->mass_entries = mdl_model_mass_entries(model);
  // dense row space only up to dcap rows
  ev->dcap = s.dense_max_rows < 0 ? 0 : ev->cap <= s.dense_max_rows ? ev->cap : s.dense_max_rows;
  const size_t nv = (size_t)ev->nv, cap = (size_t)(ev->cap > 0 ? ev->cap : 1);
  const size_t dcap = (size_t)(ev->dcap > 0 ? ev->dcap : 1);
  const size_t nblk = (size_t)(model->nblocks > 0 ? model->nblocks : 1);
  ev->rows = mdl_rows_create(model->max_rows, model->max_nnz);
  ev->mass_raw = calloc(ev->mass_entries, sizeof(double));
  ev->mass = calloc(ev->mass_entries, sizeof(double));
  ev->f = calloc(nv, sizeof(double));
  ev->act = calloc(cap, sizeof(int)), ev->active = calloc(cap, sizeof(int));
  ev->p = calloc(cap, sizeof(double)), ev->lambda = calloc(cap, sizeof(double));
  ev->Y = calloc(nv * dcap, sizeof(double));
  ev->W = calloc(dcap * dcap, sizeof(double)), ev->A = calloc(dcap * dcap, sizeof(double));
  ev->col_block = calloc(nv, sizeof(int));
  ev->blk_v0 = calloc(nblk, sizeof(int)), ev->blk_size = calloc(nblk, sizeof(int));
  ev->blk_off = calloc(nblk, sizeof(size_t));
  ev->cnormal = malloc(cap * sizeof(int)), ev->grp = calloc(cap, sizeof(int));
  double **cg[] = {&ev->cg_r, &ev->cg_z, &ev->cg_d, &ev->cg_q, &ev->cg_x, &ev->cg_b, &ev->cg_dg};
  int ok = 1;
  for (size_t k = 0; k < sizeof cg / sizeof cg[0]; k++)
    ok &= (*cg[k] = calloc(cap, sizeof(double))) != NULL;
  ev->cg_t = calloc(nv, sizeof(double));
  ok &= ev->rows && ev->mass_raw && ev->mass && ev->f && ev->act && ev->active && ev->p &&
        ev->lambda && ev->Y && ev->W && ev->A && ev->col_block && ev->blk_v0 && ev->blk_size &&
        ev->blk_off && ev->cnormal && ev->grp && ev->cg_t;
  if (ok) {
    for (size_t c = 0; c < cap; c++) ev->cnormal[c] = -1;
    ev->cg_g = calloc(2 * (size_t)eval_blocks(ev), sizeof(double));
  }
  if (!ok || !ev->cg_g) {
    mdl_eval_free(ev);
    return sc_error_set(err, SC_ERR_MEMORY, "model evaluation workspace: out of memory"), NULL;
  }
  return ev;
}
