// SPDX-License-Identifier: MIT
// Internals of paper A's step shared by mbs_step.c and mbs_qcp.c. Not public.
#ifndef MBS_INTERNAL_H
#define MBS_INTERNAL_H

#include <stddef.h>

#include "mbs/mbs_step.h"
#include "mbs_lcp.h"
#include "mdl/mdl_eval.h"

// The step workspace. The model evaluation (rows, M and its factors, f, active set, Y, W, bias)
// lives in the model layer's evaluator ev; the fields marked "view" point into it (set once at
// creation: the evaluator's arrays never move) so the step code reads them directly.
struct mbs_workspace {
  const mdl_model *model;
  mbs_settings settings;
  mbs_info info;
  mdl_eval *ev;    // model evaluation (owned)
  mdl_rows *rows;  // view: ev->rows
  int nv, nq, cap;
  size_t mass_entries;
  double *mass, *mass_raw, *f, *p;     // views: ev->mass (factors), ev->mass_raw, ev->f, ev->p
  int *act, *active;                   // views: ev->act, ev->active
  double *Y, *W;                       // views: ev->Y (nv × dcap), ev->W (dcap × dcap)
  int *col_block, *blk_v0, *blk_size;  // views: block structure of M
  size_t *blk_off;                     // view
  int na;                              // active rows of the last evaluation (copy of ev->na)
  int dense;  // 1 if the last evaluation formed Y and W (copy of ev->dense)
  int dcap;   // capacity of the dense row-space arrays Y, W, A, lcp (= ev->dcap)
  double *vfree, *vnew, *qdot, *tmp;  // nv (qdot nq)
  double *lambda, *resid, *D, *chat;  // cap
  int *free_row, *sidx;               // cap
  double *A;                          // dcap × dcap: C + W of the compliant rows
  double *lam_act, *rhat, *lam_s;     // cap
  mbs_lcp_ws lcp;
  double *chat0, *gE;   // ĉ without the explicit rows' coupling (cap); G_Eᵀλ_E (nv)
  double h;             // step size of the current step [s]
  struct mbs_qcp *qcp;  // qcp path state (mbs_qcp.c), NULL without qcp
  double *wvec;         // nv: w of the qcp path
  double *ctt;          // cap: per contact index, Σ λ_t² (cone statistics)
  int qcp_used;         // 1 if the last step made a conic solve (mbs_step_qcp_problem)
  int rows_kept;        // 1 if this pass solves the rows of the step's last pass again (only
                        // their stiffnesses changed: a speculative re-solve without joins)
  int *extra;           // cap: speculative rows flagged to join (mdl_eval_activate), per row
  double *Krow;         // cap: stiffness each row uses in this step (speculative), per row
  double *gvfree;       // cap: G_a v_free of the active rows (a pass of the same rows reuses it)
};

// qcp path (mbs_qcp.c): allocate its buffers (0 ok, −1 out of memory), free them, and solve the
// compliant rows' problem (bilateral, unilateral, contact rows; formulation from the settings) in
// lifted form into lam_s (ns) and w = M⁻¹Gᵀλ (nv); ĉ0 (ns) and g_E (nv) as in mbs_step.c. Sets
// info.contacts and info.fp_iterations.
int mbs_qcp_create(mbs_workspace *ws);
void mbs_qcp_free(mbs_workspace *ws);
// The problem of the last conic solve (NULL if none yet or without qcp).
const struct qcp_problem *mbs_qcp_problem(const mbs_workspace *ws);
mbs_status mbs_qcp_solve(mbs_workspace *ws, int ns, const int *sidx, const double *chat0,
                         const double *gE, double *lam_s, double *w);

// roles of the conic path's compact rows (mbs_qcp.c classify): bilateral (free), unilateral-like
// (λ ≥ 0: unilateral rows and frictionless normals), cone normal, cone tangent, and the tangents
// of μ = 0 contacts (off: λ_t = 0)
enum { MBS_ROLE_FREE, MBS_ROLE_UNI, MBS_ROLE_NORMAL, MBS_ROLE_TANGENT, MBS_ROLE_OFF };

// Exact Coulomb friction by semismooth Newton (mbs_coulomb_newton.c, SPEC §1.6) on the conic
// path's problem: compact rows s (model row ws->act[sidx[s]]) with their roles and contact links,
// targets ĉ0, the momentum equality M w − G_Sᵀλ_S = b as CSC columns over (λ_S, w) (nv rows), and
// G_S by velocity (column j: pairs (s, G_sj)).
typedef struct mbs_cn mbs_cn;
typedef struct mbs_cn_problem {
  int ns, nv;
  const int *sidx;
  const int *role, *tn, *tan1, *tan2, *ntan;
  const double *chat0;
  const int *Ap, *Ai;
  const double *Ax, *b;
  const int *Tp, *Ti;
  const double *Tx;
} mbs_cn_problem;
mbs_cn *mbs_cn_create(const mbs_workspace *ws);  // NULL when out of memory
void mbs_cn_free(mbs_cn *cn);
// Newton from x = (λ_S, w) (ns + nv, updated in place) until the residual of the exact Coulomb
// conditions relative to the force scale is ≤ settings.fp_tol, at most 4·settings.fp_max_iter
// iterations for each of the first `rungs` rungs of its ladder of scales (0: all): MBS_OK,
// MBS_MAX_ITERATIONS (budget spent or no descent; x the last iterate), MBS_SOLVER_FAILED (a
// singular Newton matrix or no sparse LU in this build), MBS_NONFINITE.
mbs_status mbs_cn_solve(mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p, double *x,
                        int rungs, int *iterations, double *residual);
// A test's view of the starts mbs_cn_solve gets (the relaxed solution): fn(ctx, ns, nv, x) is
// called with x = (λ_S, w) before each solve and may read or replace it (NULL: none). Process-wide;
// for tests that compare starts (tests/sim/test_coulomb_corpus.c), never set by the product.
typedef void (*mbs_cn_start_fn)(void *ctx, int ns, int nv, double *x);
void mbs_cn_start_hook(mbs_cn_start_fn fn, void *ctx);
// Tests only (tests/sim/test_coulomb_reduced.c): always = 1 solves every Newton system whose M
// is block diagonal through the reduced matrix S, not only the patterns whose J factor filled in
// (0: the product's choice). Process-wide; never set by the product.
void mbs_cn_reduced_hook(int always);
// Newton alone (no proximal loop, one scale) from x, at most max_it iterations: a quick try from a
// warm point (the last solve's forces); returns as mbs_cn_solve
mbs_status mbs_cn_quick(mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p, double *x,
                        int max_it, int *iterations, double *residual);
// The exact Coulomb conditions' residual at (λ_S, w) with the unit scales r_s = 1/(C + W)_ss,
// ‖F‖∞ relative to the force scale: one measure for every step whichever solver (or prediction)
// gave the forces and whichever scale it converged with (SPEC §1.6)
double mbs_cn_residual(const mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p,
                       const double *lam, const double *w);

#endif  // MBS_INTERNAL_H
