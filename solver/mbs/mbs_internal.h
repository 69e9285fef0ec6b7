// SPDX-License-Identifier: MIT
// Internals of mbs shared by the step and the penalty right-hand side. Not public.
#ifndef MBS_INTERNAL_H
#define MBS_INTERNAL_H

#include "mbs/mbs_step.h"
#include "mbs_lcp.h"

#include <stddef.h>

struct mbs_workspace {
  const mbs_model *model;
  mbs_settings settings;
  mbs_info info;
  mbs_rows *rows;
  int nv, nq, cap;
  size_t mass_entries;
  double *mass;     // M blocks, then their Cholesky factors in place
  double *f, *vfree, *vnew, *qdot, *tmp;  // nv (qdot nq)
  double *lambda, *resid, *D, *chat, *p;  // cap
  int *active, *act, *free_row, *sidx;     // cap
  double *Y;  // nv × cap: column a is M⁻¹ G_aᵀ of active row a (column-major by row)
  double *W;  // cap × cap: W of the active rows, then C + W
  double *A;  // cap × cap scratch (bias solves)
  double *lam_act, *rhat;  // cap
  mbs_lcp_ws lcp;
  int na;  // active rows of the last evaluation (ws->act[0..na))
  double *mass_raw;     // M blocks as the model gave them (before factorisation)
  double *chat0, *gE;   // ĉ without the explicit rows' coupling (cap); G_Eᵀλ_E (nv)
  double h;             // step size of the current step [s]
  struct mbs_qcp *qcp;  // qcp path state (mbs_qcp.c), NULL without qcp
  int dcap;             // capacity of the dense row-space arrays Y, W, A, lcp (≤ cap)
  int dense;            // 1 if the last evaluation formed Y and W (na ≤ dcap, solver ≠ qcp)
  int *grp;             // cap: indices of one bias group
  int *col_block, *blk_v0, *blk_size;  // nv: block of each velocity; per block: start, size
  size_t *blk_off;      // per block: offset of its factor in ws->mass
  double *cg_r, *cg_z, *cg_d, *cg_q, *cg_x, *cg_b, *cg_dg;  // cap each: bias CG vectors
  double *cg_t, *cg_g;  // nv, 2·(largest block): scratch
  double *wvec;         // nv: w of the qcp path
  double *ctt;          // cap: per contact index, Σ λ_t² (cone statistics)
  int *cnormal;         // cap: per contact index, its normal row (−1 between evaluations)
  long step_count;      // mbs_step calls so far (for settings.dump_step)
};

// Evaluates the model at (t, q, v) into the workspace: rows (checked), M (factored), f, the
// active set (bilateral always; unilateral and normal rows while φ ≤ 0; tangent rows while their
// contact's normal row is active), Y_a = M⁻¹G_aᵀ and W = G Y over the active rows, and the bias
// p = M̂_X Ġ_X v per kind. contacts = 0 reports MBS_UNSUPPORTED for an active normal/tangent row.
// Fills info->rows, rows_active, rows_bilateral, rows_unilateral (unilateral + normal).
mbs_status mbs_eval_prepare(mbs_workspace *ws, double t, const double *q, const double *v,
                            int contacts);
// x ← M⁻¹ x with the factored mass blocks.
void mbs_eval_mass_solve(const mbs_workspace *ws, double *x);
// G_i x for row i of the workspace's rows.
double mbs_eval_row_dot(const mbs_rows *r, int i, const double *x);
// 1 if all n entries are finite.
int mbs_eval_finite(const double *x, int n);
// Records a failing callback in info and maps its code to a status.
mbs_status mbs_eval_callback_status(mbs_workspace *ws, const char *name, int code);

// qcp path (mbs_qcp.c): allocate its buffers (0 ok, −1 out of memory), free them, and solve the
// compliant rows' problem (bilateral, unilateral, contact rows; formulation from the settings) in
// lifted form into lam_s (ns) and w = M⁻¹Gᵀλ (nv); ĉ0 (ns) and g_E (nv) as in mbs_step.c. Sets
// info.contacts and info.fp_iterations.
int mbs_qcp_create(mbs_workspace *ws);
void mbs_qcp_free(mbs_workspace *ws);
mbs_status mbs_qcp_solve(mbs_workspace *ws, int ns, const int *sidx, const double *chat0,
                         const double *gE, double *lam_s, double *w);

#endif  // MBS_INTERNAL_H
