// SPDX-License-Identifier: MIT
// Model evaluation (model layer, SPEC §7): at (t, q, v) the rows (checked), M (factored block by
// block), f, the active set and the group-wise bias p = M̂_X Ġ_X v (paper A eqs. 23–24). Used by
// paper A's step and the penalty right-hand side; its workspace belongs to neither.
#ifndef MDL_MDL_EVAL_H
#define MDL_MDL_EVAL_H

#include <stddef.h>

#include "common/sc_error.h"
#include "mdl/mdl_model.h"
#include "mdl/mdl_status.h"

// Evaluation settings; defaults from mdl_eval_settings_default().
typedef struct mdl_eval_settings {
  int use_bias;     // 1: compute p = M̂_X Ġ_X v (eq. 23); 0: p = 0 (default 1)
  double bias_reg;  // relative Tikhonov ε of the bias solve (W + ε·max diag W·I) p = Ġv, > 0
                    // (default 1e-8)
  int dense_max_rows;  // form Y = M⁻¹Gᵀ and W = G M⁻¹ Gᵀ over the active rows while they number
                       // ≤ min(dense_max_rows, max_rows) (bias by Cholesky); beyond, the bias uses
                       // matrix-free CG; < 0: never form them (default 64)
  int dense_contact;  // 0: do not form them while a contact (normal/tangent) row is active — a
                      // caller whose contact solves are sparse anyway (paper A's conic path)
                      // would pay O(rows²) for nothing (default 1)
} mdl_eval_settings;

// use_bias 1, bias_reg 1e-8, dense_max_rows 64, dense_contact 1.
mdl_eval_settings mdl_eval_settings_default(void);

// Evaluation workspace. The fields above the line are the outputs of the last mdl_eval_prepare
// (read them, do not write them); all arrays are allocated by mdl_eval_create and owned by it.
typedef struct mdl_eval {
  const mdl_model *model;  // borrowed
  mdl_eval_settings settings;
  int nv, nq, cap;       // velocities, coordinates, row capacity (= model->max_rows)
  size_t mass_entries;   // Σ block_size²
  mdl_rows *rows;        // rows at (t, q, v)
  double *mass_raw;      // [mass_entries] M blocks as the model gave them
  double *mass;          // [mass_entries] their Cholesky factors (lower, row-major per block)
  double *f;             // [nv] non-constraint forces f(t, q, v)
  int n_rows;            // rows reported (0 until the active set was formed)
  int na;                // active rows
  int *act;              // [cap] row index of active index a = 0..na
  int *active;           // [cap] per row: 1 active, 0 not
  double *p;             // [cap] bias of active index a (0 where use_bias = 0 or Ġv = 0)
  int n_bilateral;       // active bilateral rows
  int n_unilateral;      // active unilateral and contact-normal rows
  int dense;             // 1 if Y and W were formed for the na active rows
  int dcap;              // leading dimension of W (rows Y and W can hold)
  double *Y;             // [nv × dcap] column a = M⁻¹ G_aᵀ (stored by active index)
  double *W;             // [dcap × dcap] W_ab = G_a M⁻¹ G_bᵀ (symmetric)
  const char *callback;  // the callback that failed in the last evaluation (NULL if none)
  int callback_code;     // its return code (0 if none)
  double *lambda;        // [cap] row forces of the last mdl_penalty_rhs [N] (0 if inactive)
  // ---- internal scratch ----------------------------------------------------------------------
  int *col_block, *blk_v0, *blk_size;  // [nv] block of each velocity; per block: start, size
  size_t *blk_off;                     // per block: offset of its factor in mass
  int *cnormal;                        // [cap] per contact index: its normal row (−1 between)
  int *grp;                            // [cap] active indices of one bias group
  double *A;                           // [dcap × dcap] bias Cholesky
  double *cg_r, *cg_z, *cg_d, *cg_q, *cg_x, *cg_b, *cg_dg;  // [cap] bias CG vectors
  double *cg_t, *cg_g;                                      // [nv], [2·largest block]
} mdl_eval;

// Validates the model and settings (NULL = defaults) and allocates an evaluator; returns NULL with
// err set (SC_ERR_INPUT naming the field, or SC_ERR_MEMORY). The model must outlive it.
mdl_eval *mdl_eval_create(const mdl_model *model, const mdl_eval_settings *settings, sc_error *err);
// Frees an evaluator; NULL is a no-op.
void mdl_eval_free(mdl_eval *ev);
// Checks evaluation settings; 0, or SC_ERR_INPUT with a message naming the field.
int mdl_eval_settings_validate(const mdl_eval_settings *settings, sc_error *err);

// Evaluates the model at (t, q, v) (q nq, v nv entries): rows (checked: finite, K, B, μ ≥ 0,
// kinds and columns in range), M (factored), f, the active set (bilateral always; unilateral and
// normal rows while φ ≤ 0; tangent rows while their contact's normal row is active), Y and W when
// dense, and p. Allocates nothing. Returns the status; on a failed callback ev->callback and
// ev->callback_code name it.
mdl_eval_status mdl_eval_prepare(mdl_eval *ev, double t, const double *q, const double *v);
// Re-forms the active set of the last successful mdl_eval_prepare (same rows, M, f) with the
// unilateral and normal rows i flagged extra[i] ≠ 0 active as well (and their contacts'
// tangents) whatever their φ; extra (n_rows entries, caller-owned) may be NULL: the φ ≤ 0 rule
// alone. Forms Y, W (when dense) and p again. Allocates nothing. Used by paper A's speculative
// activation (SPEC §1.5).
mdl_eval_status mdl_eval_activate(mdl_eval *ev, const int *extra);
// x ← M⁻¹ x (nv entries) with the factored mass blocks of the last evaluation.
void mdl_eval_mass_solve(const mdl_eval *ev, double *x);
// G_i x for row i of r (x nv entries).
double mdl_eval_row_dot(const mdl_rows *r, int i, const double *x);
// Stiffness over the step (SPEC §1.5 item 3) of unilateral or normal row i of r (the rows last
// reported by the model), taken in a step with stiffness K_used, whose end-of-step value is
// phi1: the model's K(phi1) (row_stiffness) when it exceeds K_used by more than 2× (raised only:
// lowering made the coupled passes of a pile cycle), or, for a row open at the step's start
// (φ0 > 0) taken at gap_stiffness that closes, K(phi1) whatever its size (the contact's own law).
// 1 and *K_new when the row should be solved again with it; 0 when K_used stands (a row open at
// both ends, no or a failing callback, a non-finite or negative K).
int mdl_row_stiffness_over_step(const mdl_model *m, const mdl_rows *r, int i, double phi1,
                                double K_used, double gap_stiffness, double *K_new);

#endif  // MDL_MDL_EVAL_H
