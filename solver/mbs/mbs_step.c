// SPDX-License-Identifier: MIT
// Paper A's first-order constraint step (SPEC §1.2–1.3; paper A eqs. 36–38, 53, 59–62, 83–85).
//
// Derivation (forces λ, not impulses). Semi-implicit Euler on the multibody part (eqs. 36–37):
//   v1 = v0 + h M⁻¹(Gᵀλ + f) = v_free + h w,   v_free = v0 + h M⁻¹ f,   w = M⁻¹ Gᵀ λ,
//   q1 = q0 + h N(q0) v1.
// Each row is a spring-damper integrated implicitly (eqs. 38, 53): with φ1 ≈ φ0 + h φ̇1 and
// φ̇1 = G v1 + h (Ġ v0) (eq. 50, Ġv held at t0 by Lemma 2),
//   λ_i = −K_i φ1 − B_i φ̇1 − p_i = −K_i φ_i0 − (hK_i + B_i)(G_i v1 + h(Ġv0)_i) − p_i,
// where p = M̂_X (Ġ_X v0) is the bias of eq. 23 (M̂_X = (G_X M⁻¹ G_Xᵀ)⁻¹, eq. 24), taken per
// group X of rows of one kind. Substituting v1 = v_free + h w gives the row residual
//   r_i = λ_i + D_i G_i w − c_i,   D_i = h² K_i + h B_i,
//   c_i = −K_i φ_i0 − (hK_i + B_i)(G_i v_free + h (Ġv0)_i) − p_i,
// i.e. (I + D W) λ = c with W = G M⁻¹ Gᵀ — paper A's (I + (h²K + hB) M̂⁻¹) λ of eqs. 60 and 84
// (eq. 61 is the same system written for φ̇1; eq. 62 follows from φ1 = φ0 + h φ̇1).
// Compliance form (SPEC §1.2): dividing row i by D_i > 0,
//   r̂_i = r_i / D_i = (C λ + W λ − ĉ)_i,   C = diag(1/D_i),
//   ĉ_i = c_i / D_i = −K_i φ_i0 / D_i − (G_i v_free)/h − (Ġv0)_i − p_i / D_i,
// whose entries stay O(1) as K → ∞ (K_i/D_i → 1/h², the rigid limit G w = ĉ). Rows with D_i = 0
// (K = B = 0) are explicit forces: λ_i = c_i (bilateral) or max(0, c_i) (unilateral); they enter
// the others' ĉ through W.
//   bilateral-only: one SPD solve (C + W) λ = ĉ (the Schur complement of the saddle system
//     [M −Gᵀ; G C][w; λ] = [0; ĉ]); redundant rows are fine since C > 0 regularises (§4.3).
//   unilateral rows (active only while φ_i0 ≤ 0): relaxed or paper formulation, solved exactly
//     by the dense active-set methods of mbs_lcp.c (default) or by qcp in lifted form
//     (mbs_qcp.c, settings.solver = MBS_SOLVER_QCP), which needs ĉ0 = ĉ without the explicit
//     rows' coupling term and their force g_E = G_Eᵀλ_E.
// The bias p (mdl_eval.c) is a regularised solve (W_XX + ε I) p_X = (Ġv0)_X, ε = 1e-8·max diag
// W_XX by default, so duplicated rows share it evenly.
// Measured caveat (tests/mbs/test_pendulum.c): on the nonlinear pendulum the h(Ġv0) term of the
// velocity target pumps energy at large h (the rigid-limit target G v1 = −φ0/h − hĠv0 makes the
// joint's radial velocity work against the rod tension); settings.gdot_target = 0 drops it.
//
// Contact rows (normal + one or two tangents per contact): a step with an active normal or
// tangent row always goes to the conic path (mbs_qcp.c), which holds the friction cones and the
// three formulations (relaxed, coulomb = relaxed + De Saxcé fixed point, paper eq. 124); tangent
// rows are active while their contact's normal row is (φ_n ≤ 0).
// Two modes, chosen per step: dense (W formed over the m active rows; exact Cholesky / active-set
// solvers; used while m ≤ dense_max_rows, 64 by default) and sparse (no W: every compliant row
// goes to qcp in the lifted form M w − Gᵀλ = g_E with O(nnz(G) + nnz(M)) KKT entries — for
// bilateral-only steps that is one quasi-definite KKT solve, qcp's start, with no interior-point
// iteration; the bias uses matrix-free CG). settings.solver forces either.
//
// Activation (SPEC §1.5). settings.activation = overlap is paper A §5.2: a unilateral or normal
// row takes part while φ0 ≤ 0, so a gap that closes during a step gets no force in it and the
// next, stiff step removes the whole overlap at once (the kicks that launch a dropped column).
// speculative (a documented extension, not paper A) adds, in this order:
//  1. predicted-gap rows: an open row (φ0 > 0) joins when φ0 − h Σ_j |G_ij v_free,j| ≤ margin —
//     the gap could close within the step if either side stopped;
//  2. open rows are compliant unilateral rows with paper A's own law on the end-of-step gap,
//     λ = max(0, −K_gap φ1 − B φ̇1), i.e. the same row with K = gap_stiffness: they push only if
//     the gap would close;
//  3. after each solve, a row that did not take part but ends penetrating (φ0 + h G v1 < 0; in
//     a column the gap closes because the body below lands in the same step) joins, and a row
//     that ends closed (φ1 < 0, or φ0 ≤ 0) whose stiffness at the end-of-step value, K(φ1) from
//     the model's row_stiffness, exceeds the one used by more than a factor 2 takes K(φ1)
//     (right after a gap closes K = E*√(r d0) is ≈ 0: soft, then stiff — an energy spike; and
//     an open row that closes gets the contact's own law instead of K_gap, which keeps a single
//     impact at order 1 in h, tests/sim/test_sphere_impact.c); then the step is solved again,
//     at most max_resolves times (counted in info).
// The active set only grows within a step, so the passes end.
#include "mbs/mbs_step.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbs_internal.h"
#include "mdl/mdl_dense.h"

static const char *const formulation_names[] = {
#define MBS_NAME(id, str) str,
    MBS_FORMULATION_LIST(MBS_NAME)
#undef MBS_NAME
};

const char *mbs_formulation_name(mbs_formulation f) {
  if ((int)f < 0 || f >= MBS_FORMULATION_COUNT) return "invalid";
  return formulation_names[f];
}

int mbs_formulation_parse(const char *name, mbs_formulation *f) {
  for (int i = 0; i < MBS_FORMULATION_COUNT; i++)
    if (strcmp(name, formulation_names[i]) == 0) return *f = (mbs_formulation)i, 0;
  return -1;
}

static const char *const solver_names[] = {"auto", "dense", "qcp"};

const char *mbs_solver_name(mbs_solver s) {
  if ((int)s < 0 || s > MBS_SOLVER_QCP) return "invalid";
  return solver_names[s];
}

int mbs_solver_parse(const char *name, mbs_solver *s) {
  for (int i = 0; i <= MBS_SOLVER_QCP; i++)
    if (strcmp(name, solver_names[i]) == 0) return *s = (mbs_solver)i, 0;
  return -1;
}

static const char *const start_names[] = {"cold", "warm", "feasible"};

const char *mbs_start_name(mbs_start s) {
  if ((int)s < 0 || s > MBS_START_FEASIBLE) return "invalid";
  return start_names[s];
}

int mbs_start_parse(const char *name, mbs_start *s) {
  for (int i = 0; i <= MBS_START_FEASIBLE; i++)
    if (strcmp(name, start_names[i]) == 0) return *s = (mbs_start)i, 0;
  return -1;
}

static const char *const activation_names[] = {"overlap", "speculative"};

const char *mbs_activation_name(mbs_activation a) {
  if ((int)a < 0 || a > MBS_ACTIVATION_SPECULATIVE) return "invalid";
  return activation_names[a];
}

int mbs_activation_parse(const char *name, mbs_activation *a) {
  for (int i = 0; i <= MBS_ACTIVATION_SPECULATIVE; i++)
    if (strcmp(name, activation_names[i]) == 0) return *a = (mbs_activation)i, 0;
  return -1;
}

static const char *const coulomb_solver_names[] = {"newton", "fixed-point"};

const char *mbs_coulomb_solver_name(mbs_coulomb_solver c) {
  if ((int)c < 0 || c > MBS_COULOMB_FIXED_POINT) return "invalid";
  return coulomb_solver_names[c];
}

int mbs_coulomb_solver_parse(const char *name, mbs_coulomb_solver *c) {
  for (int i = 0; i <= MBS_COULOMB_FIXED_POINT; i++)
    if (strcmp(name, coulomb_solver_names[i]) == 0) return *c = (mbs_coulomb_solver)i, 0;
  return -1;
}

const char *mbs_status_name(mbs_status s) {
  if (mdl_common_status_is((int)s)) return mdl_common_status_name((int)s);
  switch (s) {
#define MBS_CASE(suffix, value, str, severity) \
  case MBS_##suffix:                           \
    return str;
    MBS_STEP_STATUS_LIST(MBS_CASE)
#undef MBS_CASE
    default:
      return "invalid";
  }
}

int mbs_status_severity(mbs_status s) {
  if (mdl_common_status_is((int)s)) return mdl_common_status_severity((int)s);
  switch (s) {
#define MBS_CASE(suffix, value, str, severity) \
  case MBS_##suffix:                           \
    return severity;
    MBS_STEP_STATUS_LIST(MBS_CASE)
#undef MBS_CASE
    default:
      return -1;
  }
}

mbs_settings mbs_settings_default(void) {
  return (mbs_settings){.formulation = MBS_RELAXED,
                        .solver = MBS_SOLVER_AUTO,
                        .dense_max_rows = 64,
                        .zeta = 0,
                        .use_bias = 1,
                        .bias_reg = 1e-8,
                        .gdot_target = 1,
                        .max_iter = 100,
                        .tol = 1e-12,
                        .coulomb_solver = MBS_COULOMB_NEWTON,
                        .fp_max_iter = 50,
                        .fp_tol = 1e-10,
                        .qcp_eps = 1e-11,
                        .start = MBS_START_WARM,
                        .activation = MBS_ACTIVATION_OVERLAP,
                        .margin = 1e-4,
                        .gap_stiffness = 1e8,
                        .max_resolves = 8,
                        .predict = 1};
}

static int settings_check(const mbs_settings *s, sc_error *err) {
  const char *bad = NULL;
  if ((int)s->formulation < 0 || s->formulation >= MBS_FORMULATION_COUNT)
    bad = "formulation";
  else if ((int)s->solver < 0 || s->solver > MBS_SOLVER_QCP)
    bad = "solver";
  else if (s->dense_max_rows < 0)
    bad = "dense_max_rows (must be >= 0)";
  else if (!isfinite(s->zeta))
    bad = "zeta (must be finite; <= 0 means 1/h)";
  else if (!(s->bias_reg > 0) || !isfinite(s->bias_reg))
    bad = "bias_reg (must be > 0)";
  else if (!isfinite(s->gdot_target))
    bad = "gdot_target (must be finite)";
  else if (s->max_iter < 1 || s->max_iter > 100000)
    bad = "max_iter (must be in 1..100000)";
  else if (!(s->tol > 0) || !(s->tol < 1))
    bad = "tol (must be in (0, 1))";
  else if ((int)s->coulomb_solver < 0 || s->coulomb_solver > MBS_COULOMB_FIXED_POINT)
    bad = "coulomb_solver";
  else if (s->fp_max_iter < 1 || s->fp_max_iter > 100000)
    bad = "fp_max_iter (must be in 1..100000)";
  else if (!(s->fp_tol > 0) || !(s->fp_tol < 1))
    bad = "fp_tol (must be in (0, 1))";
  else if (!isfinite(s->qcp_eps) || s->qcp_eps >= 1)
    bad = "qcp_eps (must be < 1; <= 0: qcp default)";
  else if ((int)s->start < 0 || s->start > MBS_START_FEASIBLE)
    bad = "start";
  else if ((int)s->activation < 0 || s->activation > MBS_ACTIVATION_SPECULATIVE)
    bad = "activation";
  else if (!isfinite(s->margin) || s->margin < 0)
    bad = "margin (must be finite and >= 0)";
  else if (!isfinite(s->gap_stiffness) || !(s->gap_stiffness > 0))
    bad = "gap_stiffness (must be finite and > 0)";
  else if (s->max_resolves < 0 || s->max_resolves > 1000)
    bad = "max_resolves (must be in 0..1000)";
  else if (s->predict != 0 && s->predict != 1)
    bad = "predict (must be 0 or 1)";
  return bad ? sc_error_set(err, SC_ERR_INPUT, "mbs settings: invalid %s", bad) : SC_OK;
}

// evaluation settings of the step's evaluator: the bias settings, and Y, W formed only while
// the active rows fit the dense row space (never when qcp is forced)
static mdl_eval_settings eval_settings(const mbs_settings *s, int cap) {
  mdl_eval_settings e = mdl_eval_settings_default();
  e.use_bias = s->use_bias;
  e.bias_reg = s->bias_reg;
  e.dense_max_rows = s->solver == MBS_SOLVER_QCP     ? -1
                     : s->solver == MBS_SOLVER_DENSE ? cap
                                                     : s->dense_max_rows;
  e.dense_contact = 0;  // active contact rows always take the conic (sparse) path
  return e;
}

void mbs_workspace_free(mbs_workspace *ws) {
  if (!ws) return;
  mdl_eval_free(ws->ev);
  free(ws->vfree), free(ws->vnew), free(ws->qdot), free(ws->tmp);
  free(ws->lambda), free(ws->resid), free(ws->D), free(ws->chat);
  free(ws->free_row), free(ws->sidx), free(ws->A), free(ws->lam_act), free(ws->rhat);
  free(ws->lam_s), free(ws->chat0), free(ws->gE), free(ws->wvec), free(ws->ctt);
  free(ws->extra), free(ws->Krow), free(ws->gvfree);
  mbs_qcp_free(ws);
  mbs_lcp_ws_free(&ws->lcp);
  free(ws);
}

// the step's views of its evaluator's arrays
static void workspace_views(mbs_workspace *ws) {
  mdl_eval *ev = ws->ev;
  ws->rows = ev->rows, ws->mass = ev->mass, ws->mass_raw = ev->mass_raw, ws->f = ev->f;
  ws->p = ev->p, ws->act = ev->act, ws->active = ev->active, ws->Y = ev->Y, ws->W = ev->W;
  ws->col_block = ev->col_block, ws->blk_v0 = ev->blk_v0, ws->blk_size = ev->blk_size;
  ws->blk_off = ev->blk_off, ws->mass_entries = ev->mass_entries, ws->dcap = ev->dcap;
}

mbs_workspace *mbs_workspace_create(const mdl_model *model, const mbs_settings *settings,
                                    sc_error *err) {
  if (mdl_model_validate(model, err)) return NULL;
  mbs_settings s = settings ? *settings : mbs_settings_default();
  if (settings_check(&s, err)) return NULL;
  mbs_workspace *ws = calloc(1, sizeof *ws);
  if (!ws) goto oom;
  ws->model = model;
  ws->settings = s;
  ws->nv = model->nv;
  ws->nq = model->nq;
  ws->cap = model->max_rows;
  const mdl_eval_settings es = eval_settings(&s, ws->cap);
  if (!(ws->ev = mdl_eval_create(model, &es, err))) goto fail;
  workspace_views(ws);
  size_t nv = (size_t)ws->nv, nq = (size_t)ws->nq, cap = (size_t)(ws->cap > 0 ? ws->cap : 1);
  size_t dcap = (size_t)(ws->dcap > 0 ? ws->dcap : 1);
  double **capv[] = {&ws->lambda, &ws->resid, &ws->D,   &ws->chat, &ws->lam_act, &ws->rhat,
                     &ws->lam_s,  &ws->chat0, &ws->ctt, &ws->Krow, &ws->gvfree};
  double **nvv[] = {&ws->vfree, &ws->vnew, &ws->tmp, &ws->gE, &ws->wvec};
  int ok = 1;
  for (size_t k = 0; k < sizeof capv / sizeof capv[0]; k++)
    ok &= (*capv[k] = calloc(cap, sizeof(double))) != NULL;
  for (size_t k = 0; k < sizeof nvv / sizeof nvv[0]; k++)
    ok &= (*nvv[k] = calloc(nv, sizeof(double))) != NULL;
  ws->qdot = calloc(nq, sizeof(double));
  ws->free_row = calloc(cap, sizeof(int));
  ws->sidx = calloc(cap, sizeof(int));
  ws->extra = calloc(cap, sizeof(int));
  ws->A = calloc(dcap * dcap, sizeof(double));
  if (!ok || !ws->qdot || !ws->free_row || !ws->sidx || !ws->extra || !ws->A) goto oom;
  if (mbs_qcp_create(ws)) goto oom;
  if (mbs_lcp_ws_init(&ws->lcp, (int)dcap)) goto oom;
  ws->info.status = MBS_OK;
  return ws;
oom:
  sc_error_set(err, SC_ERR_MEMORY, "mbs workspace: out of memory");
fail:
  mbs_workspace_free(ws);
  return NULL;
}

int mbs_workspace_set_settings(mbs_workspace *ws, const mbs_settings *s, sc_error *err) {
  if (settings_check(s, err)) return SC_ERR_INPUT;
  ws->settings = *s;
  // the dense row space stays as allocated; Y and W are formed while the rows fit and qcp is
  // not forced
  ws->ev->settings.use_bias = s->use_bias;
  ws->ev->settings.bias_reg = s->bias_reg;
  ws->ev->settings.dense_max_rows = s->solver == MBS_SOLVER_QCP ? -1 : ws->dcap;
  return SC_OK;
}

const mbs_settings *mbs_workspace_settings(const mbs_workspace *ws) { return &ws->settings; }
const mbs_info *mbs_step_info(const mbs_workspace *ws) { return &ws->info; }
const mdl_rows *mbs_step_rows(const mbs_workspace *ws) { return ws->rows; }
const double *mbs_step_lambda(const mbs_workspace *ws) { return ws->lambda; }
const double *mbs_step_residual(const mbs_workspace *ws) { return ws->resid; }
const int *mbs_step_active(const mbs_workspace *ws) { return ws->active; }
const struct qcp_problem *mbs_step_qcp_problem(const mbs_workspace *ws) {
  return ws->qcp_used ? mbs_qcp_problem(ws) : NULL;
}

// ---- the step -----------------------------------------------------------------------------

// sparse mode (no W formed): every compliant row through qcp in lifted form, w from its solution
static mbs_status solve_sparse(mbs_workspace *ws, int ns, const int *sidx, double *lam_s) {
  const mdl_rows *r = ws->rows;
  const int nv = ws->nv, na = ws->na;
  // g_E = G_Eᵀ λ_E: generalised force of the explicit rows
  for (int j = 0; j < nv; j++) ws->gE[j] = 0;
  for (int a = 0; a < na; a++) {
    int i = ws->act[a];
    if (ws->D[a] != 0) continue;
    for (int k = r->start[i]; k < r->start[i + 1]; k++)
      ws->gE[r->col[k]] += r->val[k] * ws->lam_act[a];
  }
  if (ns == 0) {  // nothing to solve: w = M⁻¹ g_E
    memcpy(ws->wvec, ws->gE, (size_t)nv * sizeof(double));
    mdl_eval_mass_solve(ws->ev, ws->wvec);
    return MBS_OK;
  }
  mbs_status st = mbs_qcp_solve(ws, ns, sidx, ws->chat0, ws->gE, lam_s, ws->wvec);
  if (st != MBS_OK && st != MBS_INACCURATE && st != MBS_MAX_ITERATIONS) return st;
  // scaled residuals r̂ = C λ + G w − ĉ0 (w includes the explicit rows' force)
  for (int s = 0; s < ns; s++) {
    int a = sidx[s];
    ws->chat[s] = ws->chat0[s];
    ws->rhat[s] = lam_s[s] / ws->D[a] + mdl_eval_row_dot(r, ws->act[a], ws->wvec) - ws->chat0[s];
  }
  return st;
}

// dense mode: A = C + W over the compliant rows; one Cholesky solve (bilateral only) or the exact
// active-set solvers of mbs_lcp.c
static mbs_status solve_dense(mbs_workspace *ws, int ns, const int *sidx, double *lam_s) {
  const int ld = ws->dcap, na = ws->na;
  mbs_info *info = &ws->info;
  for (int s = 0; s < ns; s++) {
    double ch = ws->chat0[s];
    for (int b = 0; b < na; b++)
      if (ws->D[b] == 0) ch -= ws->W[sidx[s] * ld + b] * ws->lam_act[b];
    ws->chat[s] = ch;
    for (int u = 0; u < ns; u++) ws->A[s * ld + u] = ws->W[sidx[s] * ld + sidx[u]];
    ws->A[s * ld + s] += 1.0 / ws->D[sidx[s]];
  }
  int nfree = 0;
  for (int s = 0; s < ns; s++) nfree += ws->free_row[s];
  mbs_status st = MBS_OK;
  if (nfree == ns) {
    // bilateral only: one SPD solve, no optimiser
    memcpy(lam_s, ws->chat, (size_t)ns * sizeof(double));
    memcpy(ws->lcp.S, ws->A, (size_t)ld * (size_t)(ns > 0 ? ns : 1) * sizeof(double));
    if (ns > 0 && mdl_chol_factor(ws->lcp.S, ns, ld)) return MBS_SINGULAR;
    if (ns > 0) mdl_chol_solve(ws->lcp.S, ns, ld, lam_s);
  } else {
    int rc =
        ws->settings.formulation == MBS_PAPER
            ? mbs_lcp_paper(&ws->lcp, ws->A, ld, ws->chat, ws->free_row, ns, ws->settings.max_iter,
                            ws->settings.tol, lam_s, &info->iterations)
            : mbs_lcp_relaxed(&ws->lcp, ws->A, ld, ws->chat, ws->free_row, ns,
                              ws->settings.max_iter, ws->settings.tol, lam_s, &info->iterations);
    if (rc == MBS_LCP_MAX_ITER)
      st = MBS_MAX_ITERATIONS;
    else if (rc == MBS_LCP_SINGULAR)
      return MBS_SINGULAR;
  }
  // scaled residuals r̂ = A λ − ĉ, kept in the compact order after λ_s
  for (int s = 0; s < ns; s++) {
    double rh = -ws->chat[s];
    for (int u = 0; u < ns; u++) rh += ws->A[s * ld + u] * lam_s[u];
    ws->rhat[s] = rh;
  }
  return st;
}

static mbs_status step_active(mbs_workspace *ws, mbs_status st, int *has_contact);

// evaluates the model at (t0, q0, v0) through the evaluator and copies its counters to info
static mbs_status step_evaluate(mbs_workspace *ws, double t, const double *q0, const double *v0,
                                int *has_contact) {
  mbs_info *info = &ws->info;
  mdl_eval *ev = ws->ev;
  mbs_status st = (mbs_status)mdl_eval_prepare(ev, t, q0, v0);
  info->callback = ev->callback, info->callback_code = ev->callback_code;
  for (int i = 0; i < ev->n_rows; i++) ws->lambda[i] = 0, ws->resid[i] = 0;
  return step_active(ws, st, has_contact);
}

// copies the evaluator's active set to the step (counters, na, dense) and finds whether a
// contact row takes part
static mbs_status step_active(mbs_workspace *ws, mbs_status st, int *has_contact) {
  mbs_info *info = &ws->info;
  const mdl_eval *ev = ws->ev;
  info->rows = ev->n_rows, info->rows_bilateral = ev->n_bilateral;
  info->rows_unilateral = ev->n_unilateral;
  ws->na = ev->na, ws->dense = ev->dense;
  const mdl_rows *r = ws->rows;
  // active normal/tangent rows always take the conic path (unsupported without qcp)
  *has_contact = 0;
  for (int a = 0; a < ev->na; a++)
    *has_contact |= r->kind[ev->act[a]] == MDL_ROW_NORMAL || r->kind[ev->act[a]] == MDL_ROW_TANGENT;
#ifndef MBS_HAVE_QCP
  if (*has_contact && (st == MBS_OK || st == MBS_SINGULAR)) return MBS_UNSUPPORTED;
#endif
  info->rows_active = ev->na;
  return st;
}

// explicit rows (D = 0): λ = c (bilateral) or max(0, c) (unilateral), c = −p; compliant rows
// compacted to s = 0..ns with targets ĉ0 (no explicit-row coupling); returns ns
static int step_rows(mbs_workspace *ws, double h) {
  const mdl_rows *r = ws->rows;
  const int na = ws->na;
  // the row stiffnesses: the model's, or this step's (speculative)
  const double *K = ws->settings.activation == MBS_ACTIVATION_SPECULATIVE ? ws->Krow : r->K;
  for (int a = 0; a < na; a++) {
    int i = ws->act[a];
    // G v_free of the row: this step's rows again (a speculative re-solve) have it already
    if (!ws->rows_kept) ws->gvfree[a] = mdl_eval_row_dot(r, i, ws->vfree);
    ws->D[a] = h * (h * K[i] + r->B[i]);
    ws->lam_act[a] = 0;
    if (ws->D[a] == 0) {
      double c = -ws->p[a];
      ws->lam_act[a] = r->kind[i] == MDL_ROW_BILATERAL ? c : fmax(0.0, c);
    }
  }
  int ns = 0;
  for (int a = 0; a < na; a++) {
    if (ws->D[a] == 0) continue;
    int i = ws->act[a];
    double Kd = K[i] > 0 ? 1.0 / (h * (h + r->B[i] / K[i])) : 0.0;  // K/D without overflow
    ws->chat0[ns] = -Kd * r->phi[i] - ws->gvfree[a] / h - ws->settings.gdot_target * r->gdot_v[i] -
                    ws->p[a] / ws->D[a];
    ws->sidx[ns] = a;
    ws->free_row[ns] = r->kind[i] == MDL_ROW_BILATERAL;
    ns++;
  }
  return ns;
}

// per-row statistics: scaled residual r̂ for compliant rows, r = λ − c for explicit ones; row
// forces λ per model row
static void step_row_statistics(mbs_workspace *ws, int ns, const double *lam_s) {
  const mdl_rows *r = ws->rows;
  mbs_info *info = &ws->info;
  info->lambda_min = INFINITY;
  for (int s = 0; s < ns; s++) {
    int a = ws->sidx[s], i = ws->act[a];
    double rh = ws->rhat[s], lam = lam_s[s];
    ws->resid[i] = rh;
    if (r->kind[i] == MDL_ROW_TANGENT) continue;  // judged by the cone residual
    if (ws->free_row[s]) {
      info->residual = fmax(info->residual, fabs(rh));
    } else {
      info->residual = fmax(info->residual, fmax(0.0, -rh) + fmax(0.0, -lam) / ws->D[a]);
      info->complementarity = fmax(info->complementarity, fabs(lam * rh) * ws->D[a]);
      info->lambda_min = fmin(info->lambda_min, lam);
      info->rows_positive += lam > 0;
    }
  }
  for (int a = 0; a < ws->na; a++) {
    int i = ws->act[a];
    ws->lambda[i] = ws->lam_act[a];
    if (ws->D[a] == 0) {
      ws->resid[i] = ws->lam_act[a] + ws->p[a];
      if (r->kind[i] != MDL_ROW_BILATERAL) {
        info->lambda_min = fmin(info->lambda_min, ws->lam_act[a]);
        info->rows_positive += ws->lam_act[a] > 0;
      }
    }
  }
}

// friction cones: max(0, ‖λ_t‖ − μ λ_n) per contact (squares summed per contact index)
static void step_cone_statistics(mbs_workspace *ws) {
  const mdl_rows *r = ws->rows;
  const int na = ws->na;
  double *tt = ws->ctt;
  for (int a = 0; a < na; a++) {
    int c = r->contact[ws->act[a]];
    if (c >= 0 && c < ws->cap) tt[c] = 0;
  }
  for (int a = 0; a < na; a++) {
    int i = ws->act[a], c = r->contact[i];
    if (r->kind[i] == MDL_ROW_TANGENT && c >= 0 && c < ws->cap)
      tt[c] += ws->lam_act[a] * ws->lam_act[a];
  }
  for (int a = 0; a < na; a++) {
    int i = ws->act[a], c = r->contact[i];
    if (r->kind[i] == MDL_ROW_NORMAL && c >= 0 && c < ws->cap)
      ws->info.cone_residual =
          fmax(ws->info.cone_residual, sqrt(tt[c]) - r->mu[i] * ws->lam_act[a]);
  }
}

// v1 = v_free + h w, w = M⁻¹ Gᵀ λ (from Y in dense mode, from qcp's solution otherwise), then
// q̇ = N(q0) v1
static mbs_status step_velocity(mbs_workspace *ws, double t, double h, const double *q0,
                                int use_qcp) {
  const mdl_model *m = ws->model;
  const int nv = ws->nv;
  memcpy(ws->vnew, ws->vfree, (size_t)nv * sizeof(double));
  if (use_qcp) {
    for (int j = 0; j < nv; j++) ws->vnew[j] += h * ws->wvec[j];
  } else {
    for (int a = 0; a < ws->na; a++) {
      const double *y = ws->Y + (size_t)a * (size_t)nv;
      double hl = h * ws->lam_act[a];
      if (hl != 0)
        for (int j = 0; j < nv; j++) ws->vnew[j] += hl * y[j];
    }
  }
  if (!mdl_finite(ws->vnew, nv) || !mdl_finite(ws->lam_act, ws->na)) return MBS_NONFINITE;
  int code;
  if (m->velocity_map) {
    if ((code = m->velocity_map(t, q0, ws->vnew, ws->qdot, m->ctx)))
      return (mbs_status)mdl_callback_status("velocity_map", code, &ws->info.callback,
                                             &ws->info.callback_code);
  } else {
    memcpy(ws->qdot, ws->vnew, (size_t)nv * sizeof(double));
  }
  return MBS_OK;
}

// one solve of the active rows: λ, statistics, v1 and q̇ (step_rows … step_velocity)
static mbs_status step_pass(mbs_workspace *ws, double t, double h, const double *q0,
                            int has_contact) {
  mbs_info *info = &ws->info;
  info->residual = 0, info->complementarity = 0, info->lambda_min = INFINITY;
  info->rows_positive = 0, info->cone_residual = 0;
  const int ns = step_rows(ws, h);
  double *lam_s = ws->lam_s;  // solution of the compliant rows, in compact order
  int use_qcp = !ws->dense || has_contact ||
                (ws->settings.solver == MBS_SOLVER_AUTO && ns > ws->settings.dense_max_rows);
  mbs_status st =
      use_qcp ? solve_sparse(ws, ns, ws->sidx, lam_s) : solve_dense(ws, ns, ws->sidx, lam_s);
  if (st != MBS_OK && st != MBS_INACCURATE && st != MBS_MAX_ITERATIONS) return st;
  for (int s = 0; s < ns; s++) ws->lam_act[ws->sidx[s]] = lam_s[s];
  step_row_statistics(ws, ns, lam_s);
  if (has_contact) step_cone_statistics(ws);
  mbs_status vs = step_velocity(ws, t, h, q0, use_qcp);
  return vs != MBS_OK ? vs : st;
}

static int row_pushes(const mdl_rows *r, int i) {
  return r->kind[i] == MDL_ROW_UNILATERAL || r->kind[i] == MDL_ROW_NORMAL;
}

// speculative item 1: flags the open rows whose gap could close within the step,
// φ0 − h Σ_j |G_ij v_free,j| ≤ margin, and sets every row's stiffness for the step (K_gap for
// open rows)
static void speculative_predict(mbs_workspace *ws, double h) {
  const mdl_rows *r = ws->rows;
  for (int i = 0; i < r->n; i++) {
    ws->extra[i] = 0;
    ws->Krow[i] = r->K[i];
    if (!row_pushes(r, i) || r->phi[i] <= 0) continue;
    ws->Krow[i] = ws->settings.gap_stiffness;
    double reach = 0;
    for (int k = r->start[i]; k < r->start[i + 1]; k++)
      reach += fabs(r->val[k] * ws->vfree[r->col[k]]);
    ws->extra[i] = r->phi[i] - h * reach <= ws->settings.margin;
  }
}

// speculative item 3: rows left out that end penetrating join; closed rows take the stiffness
// at their end-of-step value when it differs by more than 2×. Returns 1 if anything changed
// (and counts it), 0 if the step stands.
static int speculative_update(mbs_workspace *ws, double h, int *joined) {
  const mdl_model *m = ws->model;
  const mdl_rows *r = ws->rows;
  mbs_info *info = &ws->info;
  int changed = 0;
  *joined = 0;
  for (int i = 0; i < r->n; i++) {
    if (!row_pushes(r, i)) continue;
    const double phi1 = r->phi[i] + h * mdl_eval_row_dot(r, i, ws->vnew);
    if (!ws->active[i]) {
      if (phi1 < 0) ws->extra[i] = 1, *joined += 1;
      continue;
    }
    // closed rows take K(φ1) when it exceeds the one used by more than 2× (raised only:
    // lowering it as well, contacts opening, made the coupled passes of a pile cycle to the
    // bound and inject up to 1e3 J in a step, tests/sim/test_pile.c); an open row that closes
    // leaves K_gap for K(φ1) either way
    if (mdl_row_stiffness_over_step(m, r, i, phi1, ws->Krow[i], ws->settings.gap_stiffness,
                                    &ws->Krow[i]))
      changed = 1, info->stiffness_updates++;
  }
  info->rows_joined += *joined;
  return changed || *joined;
}

// open rows among the active ones (φ0 > 0)
static int rows_open(const mbs_workspace *ws) {
  int n = 0;
  for (int a = 0; a < ws->na; a++)
    n += row_pushes(ws->rows, ws->act[a]) && ws->rows->phi[ws->act[a]] > 0;
  return n;
}

static mbs_status step_solve(mbs_workspace *ws, double t, double h, const double *q0,
                             const double *v0) {
  const int nv = ws->nv;
  int has_contact;
  mbs_status st = step_evaluate(ws, t, q0, v0, &has_contact);
  if (st != MBS_OK) return st;
  ws->h = h;
  // v_free = v0 + h M⁻¹ f
  memcpy(ws->tmp, ws->f, (size_t)nv * sizeof(double));
  mdl_eval_mass_solve(ws->ev, ws->tmp);
  for (int j = 0; j < nv; j++) ws->vfree[j] = v0[j] + h * ws->tmp[j];
  if (ws->settings.activation == MBS_ACTIVATION_OVERLAP)
    return step_pass(ws, t, h, q0, has_contact);
  // speculative: predicted rows join, then solve until no row ends penetrating unheld and the
  // stiffnesses hold (bounded)
  speculative_predict(ws, h);
  st = step_active(ws, (mbs_status)mdl_eval_activate(ws->ev, ws->extra), &has_contact);
  for (int pass = 0; st == MBS_OK; pass++) {
    mbs_info *info = &ws->info;
    info->rows_open = rows_open(ws);
    mbs_status ps = step_pass(ws, t, h, q0, has_contact);
    ws->rows_kept = 1;  // the next pass solves the same rows unless some join
    int joined = 0;
    if (mbs_status_severity(ps) < 0 || !speculative_update(ws, h, &joined)) return ps;
    if (pass == ws->settings.max_resolves) {
      info->penetrating = joined;
      return ps;
    }
    info->resolves++;
    if (joined) {
      ws->rows_kept = 0;
      st = step_active(ws, (mbs_status)mdl_eval_activate(ws->ev, ws->extra), &has_contact);
    }
  }
  return st;
}

mbs_status mbs_step(mbs_workspace *ws, double t, double h, const double *q0, const double *v0,
                    double *q1, double *v1) {
  mbs_info *info = &ws->info;
  memset(info, 0, sizeof *info);
  info->energy = NAN;
  info->lambda_min = INFINITY;
  const mdl_model *m = ws->model;
  ws->qcp_used = 0, ws->rows_kept = 0;
  mbs_status st = (h > 0 && isfinite(h)) ? step_solve(ws, t, h, q0, v0) : MBS_NONFINITE;
  if (st == MBS_OK || st == MBS_MAX_ITERATIONS || st == MBS_INACCURATE) {
    for (int j = 0; j < ws->nq; j++) q1[j] = q0[j] + h * ws->qdot[j];
    memcpy(v1, ws->vnew, (size_t)ws->nv * sizeof(double));
    int code;
    if (m->position_update && (code = m->position_update(q1, m->ctx)))
      st = (mbs_status)mdl_callback_status("position_update", code, &info->callback,
                                           &info->callback_code);
    else if (!mdl_finite(q1, ws->nq))
      st = MBS_NONFINITE;
    else if (m->energy && (code = m->energy(t + h, q1, v1, &info->energy, m->ctx)))
      st = (mbs_status)mdl_callback_status("energy", code, &info->callback, &info->callback_code);
  }
  info->status = st;
  return st;
}
