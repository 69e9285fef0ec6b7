// SPDX-License-Identifier: MIT
// The convex approximation of compliant contact (paper B §III, SPEC §2.3): v̂, R, w_i per contact.
//
// The compliant normal law γ_n/δt = (−kφ − τ_d k v_n)₊ with φ = φ0 + δt v_n (paper B eq. (2) on
// the next-step gap) reads γ_n = δt k (δt + τ_d)(v̂_n − v_n)₊ with v̂_n = −φ0/(δt + τ_d). Writing
// the rows as K = k, B = τ_d k (the mbs row convention) gives v̂_n = −φ0 K/(Kδt + B) and the
// physical compliance 1/(δt(Kδt + B)), defined also for K = 0 (a pure damper). The convex
// approximation (paper B §III) replaces the complementarity by the regulariser R:
//   R_n = max(β²/(4π²) w_i, 1/(δt(Kδt + B)))   (near-rigid bound: the contact's natural period
//                                                 is resolved by at least β⁻¹ steps)
//   R_t = σ w_i,   v̂_t = 0                      (stiction enforced up to a slip ~ σ w γ_t)
//   w_i = ‖W_ii‖_F / 3,  W_ii = J_i A⁻¹ J_iᵀ     (the contact's Delassus block; we form it exactly
//                                                 from ≤ 3 solves with the Cholesky factor of A)
// For a planar contact W_ii is 2×2 and the paper's constant 3 is kept, so that w_i matches the
// 3-D block of the same body to a few percent (the extra tangent adds ≈ 1/m). Unilateral rows
// become frictionless cones and bilateral rows free rows with the same R and v̂ (a compliant joint).
#include "theta/theta_contact.h"

#include <math.h>
#include <stdlib.h>

#include "theta_internal.h"

#define THETA_PI 3.14159265358979323846

theta_contact_settings theta_contact_settings_default(void) {
  return (theta_contact_settings){.solver = THETA_SOLVER_NEWTON,
                                  .dual_tol = 1e-9,
                                  .beta = 1,
                                  .sigma = 1e-3,
                                  .max_iter = 100,
                                  .atol = 1e-14,
                                  .rtol = 1e-10,
                                  .ls_max_iter = 100,
                                  .ls_rtol = 1e-10};
}

void theta_contact_problem_free(theta_contact_problem *p) {
  if (!p) return;
  free(p->kind);
  free(p->mu);
  free(p->first);
  free(p->start);
  free(p->col);
  free(p->val);
  free(p->vhat);
  free(p->R);
  free(p->source);
  free(p->A);
  free(p->M);
  free(p->vstar);
  free(p);
}

theta_contact_problem *theta_contact_problem_create(int nv, int max_rows, int max_nnz) {
  if (nv < 1 || max_rows < 0 || max_nnz < 0) return NULL;
  theta_contact_problem *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  size_t r = (size_t)max_rows + 1, z = (size_t)max_nnz + 1, n2 = (size_t)nv * (size_t)nv;
  p->nv = nv;
  p->cap_rows = max_rows;
  p->cap_nnz = max_nnz;
  p->kind = calloc(r, sizeof *p->kind);
  p->mu = calloc(r, sizeof *p->mu);
  p->first = calloc(r, sizeof *p->first);
  p->start = calloc(r, sizeof *p->start);
  p->col = calloc(z, sizeof *p->col);
  p->val = calloc(z, sizeof *p->val);
  p->vhat = calloc(r, sizeof *p->vhat);
  p->R = calloc(r, sizeof *p->R);
  p->source = calloc(r, sizeof *p->source);
  p->A = calloc(n2, sizeof *p->A);
  p->M = calloc(n2, sizeof *p->M);
  p->vstar = calloc((size_t)nv, sizeof *p->vstar);
  if (!p->kind || !p->mu || !p->first || !p->start || !p->col || !p->val || !p->vhat || !p->R ||
      !p->source || !p->A || !p->M || !p->vstar) {
    theta_contact_problem_free(p);
    return NULL;
  }
  return p;
}

void theta_contact_problem_clear(theta_contact_problem *p) {
  p->nc = 0;
  p->nrows = 0;
  p->first[0] = 0;
  p->start[0] = 0;
}

// appends one Jacobian row from a sparse source; −1 when full
static int problem_row_push(theta_contact_problem *p, int nnz, const int *col, const double *val,
                            double vhat, double R, int source) {
  int r = p->nrows, s = p->start[r];
  if (r >= p->cap_rows || s + nnz > p->cap_nnz) return -1;
  for (int k = 0; k < nnz; k++) p->col[s + k] = col[k], p->val[s + k] = val[k];
  p->start[r + 1] = s + nnz;
  p->vhat[r] = vhat;
  p->R[r] = R;
  p->source[r] = source;
  p->nrows = r + 1;
  return r;
}

int theta_contact_problem_add(theta_contact_problem *p, theta_contact_kind kind, double mu, int dim,
                              const double *jac, const double *vhat, const double *R) {
  if (dim < 1 || dim > 3 || (kind == THETA_CONTACT_FREE && dim != 1) || p->nc >= p->cap_rows)
    return -1;
  const int nv = p->nv, r0 = p->nrows;
  for (int d = 0; d < dim; d++) {
    int nnz = 0, s = p->start[p->nrows];
    if (p->nrows >= p->cap_rows) goto full;
    for (int j = 0; j < nv; j++) {
      if (jac[d * nv + j] == 0) continue;
      if (s + nnz >= p->cap_nnz) goto full;
      p->col[s + nnz] = j, p->val[s + nnz] = jac[d * nv + j], nnz++;
    }
    problem_row_push(p, nnz, p->col + s, p->val + s, vhat[d], R[d], -1);
  }
  p->kind[p->nc] = kind;
  p->mu[p->nc] = mu;
  p->first[p->nc + 1] = p->nrows;
  return p->nc++;
full:
  p->nrows = r0;
  return -1;
}

// ‖J_c A⁻¹ J_cᵀ‖_F over problem rows r0 .. r0+dim) using dim solves with L
static double delassus_frobenius(const theta_contact_problem *p, int r0, int dim, const double *L,
                                 double *x) {
  const int nv = p->nv;
  for (int a = 0; a < dim; a++) {
    double *xa = x + (size_t)a * (size_t)nv;
    for (int j = 0; j < nv; j++) xa[j] = 0;
    for (int k = p->start[r0 + a]; k < p->start[r0 + a + 1]; k++) xa[p->col[k]] += p->val[k];
    mdl_chol_solve(L, nv, nv, xa);
  }
  double f2 = 0;
  for (int a = 0; a < dim; a++)
    for (int b = 0; b < dim; b++) {
      const double *xb = x + (size_t)b * (size_t)nv;
      double w = 0;
      for (int k = p->start[r0 + a]; k < p->start[r0 + a + 1]; k++) w += p->val[k] * xb[p->col[k]];
      f2 += w * w;
    }
  return sqrt(f2);
}

// checks one model row's data; 0 or −1 with a message
static int row_check(const mdl_rows *rows, int i, int nv, sc_error *err) {
  if (!(rows->K[i] >= 0) || !isfinite(rows->K[i]) || !(rows->B[i] >= 0) || !isfinite(rows->B[i]))
    return sc_error_set(err, SC_ERR_INPUT, "row %d: K = %g, B = %g, both must be finite and >= 0",
                        i, rows->K[i], rows->B[i]);
  if (!isfinite(rows->phi[i]))
    return sc_error_set(err, SC_ERR_INPUT, "row %d: phi = %g is not finite", i, rows->phi[i]);
  if (!(rows->mu[i] >= 0) || !isfinite(rows->mu[i]))
    return sc_error_set(err, SC_ERR_INPUT, "row %d: mu = %g must be finite and >= 0", i,
                        rows->mu[i]);
  for (int k = rows->start[i]; k < rows->start[i + 1]; k++)
    if (rows->col[k] < 0 || rows->col[k] >= nv || !isfinite(rows->val[k]))
      return sc_error_set(err, SC_ERR_INPUT,
                          "row %d: Jacobian entry (col %d, %g) out of range [0, %d)", i,
                          rows->col[k], rows->val[k], nv);
  return 0;
}

int theta_contact_problem_build(theta_contact_problem *p, const mdl_rows *rows, double h,
                                const theta_contact_settings *s, const double *L, double *scratch,
                                sc_error *err) {
  return theta_contact_problem_build_with(p, rows, NULL, NULL, h, s, L, scratch, err);
}

int theta_contact_problem_build_with(theta_contact_problem *p, const mdl_rows *rows,
                                     const double *K, const unsigned char *take, double h,
                                     const theta_contact_settings *s, const double *L,
                                     double *scratch, sc_error *err) {
  theta_contact_problem_clear(p);
  const int n = rows->n;
  for (int i = 0; i < n; i++)
    if (row_check(rows, i, p->nv, err)) return -1;
  // every tangent row must belong to a normal row of the same contact index
  for (int i = 0; i < n; i++) {
    if (rows->kind[i] != MDL_ROW_TANGENT) continue;
    int owner = -1;
    for (int j = 0; j < n && owner < 0; j++)
      if (rows->kind[j] == MDL_ROW_NORMAL && rows->contact[j] >= 0 &&
          rows->contact[j] == rows->contact[i])
        owner = j;
    if (owner < 0)
      return sc_error_set(err, SC_ERR_INPUT, "row %d: tangent row of contact %d has no normal row",
                          i, rows->contact[i]);
  }
  const double near_rigid = s->beta * s->beta / (4 * THETA_PI * THETA_PI);
  for (int i = 0; i < n; i++) {
    const mdl_row_kind kind = rows->kind[i];
    if (kind == MDL_ROW_TANGENT || (take && !take[i])) continue;
    const double Ki = K ? K[i] : rows->K[i];
    if (!(Ki >= 0) || !isfinite(Ki))
      return sc_error_set(err, SC_ERR_INPUT, "row %d: stiffness over the step K = %g", i, Ki);
    const double kb = Ki * h + rows->B[i];
    if (!(kb > 0)) continue;  // K = B = 0: the row exerts no force
    const int c = p->nc, r0 = p->nrows;
    if (c >= p->cap_rows)
      return sc_error_set(err, SC_ERR_INPUT, "contact capacity %d exceeded", p->cap_rows);
    // tangents first (planar: one; 3-D: two), then the normal row
    int nt = 0;
    if (kind == MDL_ROW_NORMAL && rows->contact[i] >= 0)
      for (int j = 0; j < n; j++) {
        if (rows->kind[j] != MDL_ROW_TANGENT || rows->contact[j] != rows->contact[i]) continue;
        if (++nt > 2)
          return sc_error_set(err, SC_ERR_INPUT, "contact %d has more than 2 tangent rows",
                              rows->contact[i]);
        int st = rows->start[j];
        if (problem_row_push(p, rows->start[j + 1] - st, rows->col + st, rows->val + st, 0, 0, j) <
            0)
          return sc_error_set(err, SC_ERR_INPUT, "row capacity %d exceeded", p->cap_rows);
      }
    int st = rows->start[i];
    if (problem_row_push(p, rows->start[i + 1] - st, rows->col + st, rows->val + st, 0, 0, i) < 0)
      return sc_error_set(err, SC_ERR_INPUT, "row capacity %d exceeded", p->cap_rows);
    const int dim = nt + 1;
    p->kind[c] = kind == MDL_ROW_BILATERAL ? THETA_CONTACT_FREE : THETA_CONTACT_CONE;
    p->mu[c] = kind == MDL_ROW_NORMAL ? rows->mu[i] : 0;
    p->first[c + 1] = p->nrows;
    p->nc = c + 1;
    // regularisation from the Delassus block's scale w_i
    const double w = delassus_frobenius(p, r0, dim, L, scratch) / 3;
    for (int t = 0; t < nt; t++) p->R[r0 + t] = s->sigma * w, p->vhat[r0 + t] = 0;
    p->R[r0 + nt] = fmax(near_rigid * w, 1.0 / (h * kb));
    p->vhat[r0 + nt] = -rows->phi[i] * Ki / kb;
    for (int t = 0; t < dim; t++)
      if (!(p->R[r0 + t] > 0) || !isfinite(p->R[r0 + t]))
        return sc_error_set(err, SC_ERR_INPUT,
                            "row %d: regularisation R = %g is not positive (w = %g)", i,
                            p->R[r0 + t], w);
  }
  return 0;
}
