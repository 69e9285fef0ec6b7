// SPDX-License-Identifier: MIT
// Infeasible-start primal-dual interior-point method (Mehrotra predictor-corrector, NT scaling).
//
// Derivation (Vandenberghe, "The CVXOPT linear and quadratic cone program solvers", 2010, §§5–6;
// Wright 1997 ch. 10; SPEC §3). The central path of min ½xᵀPx + cᵀx, Ax = b, Gx + s = h, s ∈ K is
//   r_x = Px + c + Aᵀy + Gᵀz = 0,  r_y = Ax − b = 0,  r_z = Gx + s − h = 0,  λ∘λ = μ e,
// with λ = W z = W⁻¹ s the NT-scaled point (qcp_cone.c). Each iteration
//  1. predictor: Newton step with right-hand side (−r_x, −r_y, −r_z) and λ∘(W dz + W⁻¹ds) = −λ∘λ;
//     α_a = largest step keeping s, z in K; μ_a = (s + α_a ds)ᵀ(z + α_a dz)/deg, σ = (μ_a/μ)³;
//  2. corrector: same residuals with λ∘(W dz + W⁻¹ds) = −λ∘λ − (W⁻¹ds_a)∘(W dz_a) + σμe;
//  3. step α = min(1, 0.99·α_max) on (x, s, y, z) (one step length: P couples primal and dual),
//     cut to the minimiser of the gap sᵀz(α) once nearly feasible (gap_safeguard).
// Both solves share one LDLᵀ of the KKT matrix (qcp_kkt.c). The iteration runs on the
// Ruiz-equilibrated data (qcp_scale.c) when the data is badly scaled; every test is on the
// caller's problem: residuals unscaled, and "solved" only when the residuals and the gap
// pobj − dobj, recomputed from the original data in long double whenever double rounding could
// change the verdict, meet the tolerance (converged_checked). Termination, best-iterate keeping and
// infeasibility certificates follow SPEC §3 item 4: a primal-infeasibility certificate is
// (y, z) with z ∈ K, Aᵀy + Gᵀz = 0, bᵀy + hᵀz < 0; a dual one is x with Px = 0, Ax = 0,
// −Gx ∈ K, cᵀx < 0 (both checked relative to the violated inner product). A solve with no better
// iterate for settings.stall_window iterations ends as `stalled` (honest, and early) — after one
// restart of a cold solve from a widely centred point (restart_cold); Gondzio's centrality
// correctors lengthen short steps (centrality_correct), and the static regularisation is relaxed
// when iterative refinement cannot remove it (relax_regularisation).
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "qcp_internal.h"

// static regularisation relaxation (relax_regularisation)
#define REG_RELAX_REL 1e-10
#define REG_RELAX_FRAC 0.1
#define REG_FLOOR 1e-12
// ... and below it, in the endgame, where the proximal step cannot lower the dual residual
// (stalled_dual_delta); the centring the iteration keeps there
#define STALL_REG_FLOOR 1e-14
#define STALL_SIGMA 0.5

// proximal Newton solves (newton_solve): refinement steps against K_reg after a replaced pivot;
// the share of the iterate's residuals the step's proximal error may reach before it is refined
#define PROX_REFINE_MAX 2
#define PROX_ERR_FRAC 0.5
// ... and at least this share of the other block's limit (newton_solve)
#define PROX_LIM_FLOOR 1e-6

// ---- sparse products -------------------------------------------------------------

// y += M x
static void csc_mv(const qcp_csc *M, const double *x, double *y) {
  for (int j = 0; j < M->ncols; j++) {
    double xj = x[j];
    for (int k = M->colptr[j]; k < M->colptr[j + 1]; k++) y[M->rowind[k]] += M->values[k] * xj;
  }
}

// y += Mᵀ x
static void csc_mtv(const qcp_csc *M, const double *x, double *y) {
  for (int j = 0; j < M->ncols; j++) {
    double acc = 0.0;
    for (int k = M->colptr[j]; k < M->colptr[j + 1]; k++) acc += M->values[k] * x[M->rowind[k]];
    y[j] += acc;
  }
}

// y += P x with P given by its upper triangle
static void sym_mv(const qcp_csc *P, const double *x, double *y) {
  for (int j = 0; j < P->ncols; j++) {
    double xj = x[j], acc = 0.0;
    for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++) {
      int i = P->rowind[k];
      y[i] += P->values[k] * xj;
      if (i != j) acc += P->values[k] * x[i];
    }
    y[j] += acc;
  }
}

// ---- setup / update / teardown --------------------------------------------------------

#define WS_ALLOC(ptr, count)                                                      \
  do {                                                                            \
    if (!((ptr) = qcp_calloc(&ws->al, (size_t)(count), sizeof *(ptr)))) goto oom; \
  } while (0)

// The arrays that setup does not write, in one block that is not zeroed: scratch that is only
// read after a copy into it (best and first-run points, a kept direction, the unscaled and
// double-double copies of the termination check), the equilibrated data and scales (written only
// when the scaling is applied) and a Ruiz pass's factors. One allocation instead of 28: each would
// put its header on a page of its own, which the first write faults in even if the array is never
// used (the scaled copies of well-scaled data).
static int scratch_parts(qcp_workspace *ws) {
  const int n = ws->prob.n, p = ws->prob.p, m = ws->K.m, mx = p > m ? p : m;
  const size_t nnzP = (size_t)ws->Pp[n], nnzA = (size_t)ws->Ap[n], nnzG = (size_t)ws->Gp[n];
  double **dbl[] = {&ws->sPv,   &ws->sAv,    &ws->sGv,    &ws->sc,      &ws->sb,  &ws->sh,
                    &ws->scl.D, &ws->scl.Ey, &ws->scl.Ez, &ws->scl.fac, &ws->cdx, &ws->cdy,
                    &ws->cdz,   &ws->cds,    &ws->bx,     &ws->bsv,     &ws->by,  &ws->bz,
                    &ws->fx,    &ws->fsv,    &ws->fy,     &ws->fz,      &ws->ux,  &ws->us,
                    &ws->uy,    &ws->uz};
  const size_t len[] = {nnzP, nnzA, nnzG, n, p, m, n, p, m, (size_t)n + p + m, n, p, m, m, n, m, p,
                        m,    n,    m,    p, m, n, m, p, m};
  enum { ND = sizeof len / sizeof len[0], LINE = 64 };  // parts start on cache lines
  _Static_assert(sizeof dbl / sizeof dbl[0] == ND, "one length per array");
  size_t off[ND + 2], total = 0;
  for (int k = 0; k < ND; k++)
    off[k] = total, total += (len[k] * sizeof(double) + LINE - 1) / LINE * LINE;
  off[ND] = total, total += ((size_t)n * sizeof(sc_dd) + LINE - 1) / LINE * LINE;
  off[ND + 1] = total, total += (size_t)mx * sizeof(sc_dd) + LINE;
  char *block = qcp_alloc_uninit(&ws->al, total, 1);
  if (!block) return -1;
  // the block is LINE-aligned only as far as the allocator aligns; malloc's 16 bytes suffice for
  // doubles and double-doubles
  ws->scratch = block;
  for (int k = 0; k < ND; k++) *dbl[k] = (double *)(void *)(block + off[k]);
  ws->ddn = (sc_dd *)(void *)(block + off[ND]);
  ws->ddm = (sc_dd *)(void *)(block + off[ND + 1]);
  return 0;
}

// a copy of src (n entries; zeros without src): the copy overwrites, so it needs no zeroing
static int *copy_int(const qcp_allocator *al, const int *src, int n) {
  if (!src || n <= 0) return qcp_calloc(al, (size_t)n, sizeof(int));
  int *d = qcp_alloc_uninit(al, (size_t)n, sizeof *d);
  if (d) memcpy(d, src, (size_t)n * sizeof *d);
  return d;
}

static double *copy_dbl(const qcp_allocator *al, const double *src, int n) {
  if (!src || n <= 0) return qcp_calloc(al, (size_t)n, sizeof(double));
  double *d = qcp_alloc_uninit(al, (size_t)n, sizeof *d);
  if (d) memcpy(d, src, (size_t)n * sizeof *d);
  return d;
}

// The equilibration of the caller's values; the iteration then runs on the scaled copies when it
// is applied, on the caller's values themselves when not (well-scaled data: nothing copied)
static void equilibrate(qcp_workspace *ws) {
  qcp_problem *pr = &ws->prob;
  pr->P.values = ws->sPv, pr->A.values = ws->sAv, pr->G.values = ws->sGv;
  pr->c = ws->sc, pr->b = ws->sb, pr->h = ws->sh;
  qcp_scale_compute(&ws->scl, &ws->oprob, &ws->K, pr);
  const int a = ws->scl.applied;
  ws->Pv = a ? ws->sPv : ws->oPv, ws->Av = a ? ws->sAv : ws->oAv, ws->Gv = a ? ws->sGv : ws->oGv;
  ws->c = a ? ws->sc : ws->oc, ws->b = a ? ws->sb : ws->ob, ws->h = a ? ws->sh : ws->oh;
  pr->P.values = ws->Pv, pr->A.values = ws->Av, pr->G.values = ws->Gv;
  pr->c = ws->c, pr->b = ws->b, pr->h = ws->h;
  // the caller's data norms in the residuals' scales (compute_residuals)
  ws->norm_b = qcp_vec_norm_inf(ws->ob, pr->p);
  ws->norm_h = qcp_vec_norm_inf(ws->oh, ws->K.m);
  ws->norm_c = qcp_vec_norm_inf(ws->oc, pr->n);
  double md = INFINITY, mp = INFINITY;
  if (a) {
    for (int j = 0; j < pr->n; j++) md = fmin(md, ws->scl.D[j]);
    for (int i = 0; i < pr->p; i++) mp = fmin(mp, ws->scl.Ey[i]);
    for (int i = 0; i < ws->K.m; i++) mp = fmin(mp, ws->scl.Ez[i]);
  }
  // r̄_x = κ·D·r_x, r̄_y = E_y·r_y, r̄_z = E_z·r_z (compute_residuals)
  ws->scale_min_d = a && isfinite(md) ? ws->scl.cost * md : 1.0;
  ws->scale_min_p = a && isfinite(mp) ? mp : 1.0;
}

// √ of the largest number of entries in a row of M (count: M->nrows doubles of scratch)
static double row_len_sqrt(const qcp_csc *M, double *count) {
  if (M->nrows <= 0) return 0.0;
  memset(count, 0, (size_t)M->nrows * sizeof *count);
  for (int k = 0; k < M->colptr[M->ncols]; k++) count[M->rowind[k]] += 1.0;
  double c = 0.0;
  for (int i = 0; i < M->nrows; i++) c = fmax(c, count[i]);
  return sqrt(c);
}

void qcp_workspace_free(qcp_workspace *ws) {
  if (!ws) return;
  qcp_allocator al = ws->al;
  qcp_kkt_free(&ws->kkt, &al);
  qcp_lastbit_free(&ws->lastbit, &al);
  void *ptrs[] = {ws->Pp,     ws->Pi,   ws->Ap,     ws->Ai,  ws->Gp, ws->Gi,      ws->q,
                  ws->K.off,  ws->nt.w, ws->nt.eta, ws->x,   ws->s,  ws->y,       ws->z,
                  ws->lambda, ws->rx,   ws->ry,     ws->rz,  ws->dx, ws->ds,      ws->dy,
                  ws->dz,     ws->dsa,  ws->dza,    ws->bs,  ws->t1, ws->t2,      ws->t3,
                  ws->rhs,    ws->sol,  ws->Px,     ws->Atz, ws->tn, ws->rec,     ws->oPv,
                  ws->oAv,    ws->oGv,  ws->oc,     ws->ob,  ws->oh, ws->scratch, ws->kry};
  for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++) qcp_release(&al, ptrs[i]);
  qcp_release(&al, ws);
}

// Long on purpose: validation, equilibration and every allocation of the workspace in one
// sequence with one cleanup path (SPEC §3 item 6: setup is the only function that allocates).
int qcp_setup(qcp_workspace **out, const qcp_problem *prob, const qcp_settings *settings,
              qcp_error *err) {
  double t0 = qcp_clock();
  int rc;
  *out = NULL;
  qcp_settings set = settings ? *settings : qcp_settings_default();
  if ((rc = qcp_settings_validate(&set, err))) return rc;
  if ((rc = qcp_problem_validate(prob, err))) return rc;
  qcp_workspace *ws = qcp_calloc(&set.allocator, 1, sizeof *ws);
  if (!ws) return qcp_fail(err, QCP_ERR_ALLOC, "out of memory allocating the workspace");
  ws->set = set;
  ws->al = set.allocator;
  int n = prob->n, p = prob->p, m = prob->G.nrows;
  int nnzP = prob->P.colptr[n], nnzG = prob->G.colptr[n];
  int nnzA = p > 0 ? prob->A.colptr[n] : 0;
  const qcp_allocator *al = &ws->al;

  // own copies of the problem
  if (!(ws->Pp = copy_int(al, prob->P.colptr, n + 1))) goto oom;
  if (!(ws->Pi = copy_int(al, prob->P.rowind, nnzP))) goto oom;
  if (!(ws->Ap = copy_int(al, p > 0 ? prob->A.colptr : NULL, n + 1))) goto oom;
  if (!(ws->Ai = copy_int(al, p > 0 ? prob->A.rowind : NULL, nnzA))) goto oom;
  if (!(ws->Gp = copy_int(al, prob->G.colptr, n + 1))) goto oom;
  if (!(ws->Gi = copy_int(al, prob->G.rowind, nnzG))) goto oom;
  if (!(ws->q = copy_int(al, prob->q, prob->nsoc))) goto oom;
  // the original values (the equilibrated ones go to ws->sPv … ws->sh when they are needed)
  if (!(ws->oPv = copy_dbl(al, prob->P.values, nnzP))) goto oom;
  if (!(ws->oAv = copy_dbl(al, p > 0 ? prob->A.values : NULL, nnzA))) goto oom;
  if (!(ws->oGv = copy_dbl(al, prob->G.values, nnzG))) goto oom;
  if (!(ws->oc = copy_dbl(al, prob->c, n))) goto oom;
  if (!(ws->ob = copy_dbl(al, prob->b, p))) goto oom;
  if (!(ws->oh = copy_dbl(al, prob->h, m))) goto oom;
  ws->oprob = (qcp_problem){.n = n,
                            .p = p,
                            .l = prob->l,
                            .nsoc = prob->nsoc,
                            .q = ws->q,
                            .P = {n, n, ws->Pp, ws->Pi, ws->oPv},
                            .A = {p, n, ws->Ap, ws->Ai, ws->oAv},
                            .G = {m, n, ws->Gp, ws->Gi, ws->oGv},
                            .c = ws->oc,
                            .b = ws->ob,
                            .h = ws->oh};
  ws->prob = (qcp_problem){.n = n,
                           .p = p,
                           .l = prob->l,
                           .nsoc = prob->nsoc,
                           .q = ws->q,
                           .P = {n, n, ws->Pp, ws->Pi, ws->oPv},
                           .A = {p, n, ws->Ap, ws->Ai, ws->oAv},
                           .G = {m, n, ws->Gp, ws->Gi, ws->oGv},
                           .c = ws->oc,
                           .b = ws->ob,
                           .h = ws->oh};  // values chosen by equilibrate below

  // cones
  ws->K.l = prob->l;
  ws->K.nsoc = prob->nsoc;
  ws->K.q = ws->q;
  ws->K.m = m;
  ws->K.deg = prob->l + prob->nsoc;
  WS_ALLOC(ws->K.off, prob->nsoc);
  for (int k = 0, o = prob->l; k < prob->nsoc; k++) {
    ws->K.off[k] = o;
    o += ws->q[k];
  }
  WS_ALLOC(ws->nt.w, m);
  WS_ALLOC(ws->nt.eta, prob->nsoc);

  if ((rc = qcp_kkt_setup(&ws->kkt, &ws->prob, &ws->K, al, err))) {
    qcp_workspace_free(ws);
    return rc;
  }
  int N = ws->kkt.N;
  WS_ALLOC(ws->x, n);
  WS_ALLOC(ws->s, m);
  WS_ALLOC(ws->y, p);
  WS_ALLOC(ws->z, m);
  WS_ALLOC(ws->lambda, m);
  WS_ALLOC(ws->rx, n);
  WS_ALLOC(ws->ry, p);
  WS_ALLOC(ws->rz, m);
  WS_ALLOC(ws->dx, n);
  WS_ALLOC(ws->ds, m);
  WS_ALLOC(ws->dy, p);
  WS_ALLOC(ws->dz, m);
  WS_ALLOC(ws->dsa, m);
  WS_ALLOC(ws->dza, m);
  WS_ALLOC(ws->bs, m);
  WS_ALLOC(ws->t1, m);
  WS_ALLOC(ws->t2, m);
  WS_ALLOC(ws->t3, m);
  WS_ALLOC(ws->rhs, N);
  WS_ALLOC(ws->sol, N);
  WS_ALLOC(ws->Px, n);
  WS_ALLOC(ws->Atz, n);
  WS_ALLOC(ws->tn, n);
  if (ws->K.nsoc == 0 && set.lastbit && qcp_lastbit_alloc(&ws->lastbit, &ws->oprob, &ws->al))
    goto oom;
  // written before it is read (qcp_kkt_refine_krylov); without the polish never touched
  if (ws->K.nsoc == 0 && set.polish &&
      !(ws->kry = qcp_alloc_uninit(&ws->al, (size_t)QCP_KRYLOV_WORK * (size_t)N, sizeof *ws->kry)))
    goto oom;
  if (scratch_parts(ws)) goto oom;
  // the norms' scratch is the factor's accumulator (N = n + p + m doubles), free outside a
  // factorisation: its pages are then touched at setup only where the first factorisation
  // touches them anyway
  ws->row_len[0] = row_len_sqrt(&ws->oprob.A, ws->kkt.fwork);
  ws->row_len[1] = row_len_sqrt(&ws->oprob.G, ws->kkt.fwork);
  ws->scl.work = ws->kkt.fwork;
  ws->scl.passes = set.equilibrate;
  equilibrate(ws);
  ws->rec_cap = set.max_iter + 1;
  ws->max_iter_setup = set.max_iter;
  WS_ALLOC(ws->rec, ws->rec_cap);
  ws->info.status = QCP_UNSOLVED;
  ws->info.nnz_kkt = ws->kkt.nnzK;
  ws->info.nnz_l = ws->kkt.nnzL;
  ws->info.setup_time = qcp_clock() - t0;
  *out = ws;
  return QCP_OK;
oom:
  qcp_workspace_free(ws);
  return qcp_fail(err, QCP_ERR_ALLOC, "out of memory in qcp_setup");
}

static int check_finite(const double *v, int n, const char *name, qcp_error *err) {
  for (int i = 0; i < n; i++)
    if (!isfinite(v[i]))
      return qcp_fail(err, QCP_ERR_INPUT, "update: %s entry %d is not finite (%g)", name, i, v[i]);
  return QCP_OK;
}

int qcp_update(qcp_workspace *ws, const double *Pv, const double *Av, const double *Gv,
               const double *c, const double *b, const double *h, qcp_error *err) {
  int n = ws->prob.n, p = ws->prob.p, m = ws->K.m, rc;
  int nnzP = ws->Pp[n], nnzA = ws->Ap[n], nnzG = ws->Gp[n];
  // validate everything first so a rejected update leaves the workspace unchanged
  if (Pv && (rc = check_finite(Pv, nnzP, "P values", err))) return rc;
  if (Av && (rc = check_finite(Av, nnzA, "A values", err))) return rc;
  if (Gv && (rc = check_finite(Gv, nnzG, "G values", err))) return rc;
  if (c && (rc = check_finite(c, n, "c", err))) return rc;
  if (b && (rc = check_finite(b, p, "b", err))) return rc;
  if (h && (rc = check_finite(h, m, "h", err))) return rc;
  if (Pv) memcpy(ws->oPv, Pv, (size_t)nnzP * sizeof *Pv);
  if (Av && nnzA) memcpy(ws->oAv, Av, (size_t)nnzA * sizeof *Av);
  if (Gv) memcpy(ws->oGv, Gv, (size_t)nnzG * sizeof *Gv);
  if (c) memcpy(ws->oc, c, (size_t)n * sizeof *c);
  if (b && p) memcpy(ws->ob, b, (size_t)p * sizeof *b);
  if (h && m) memcpy(ws->oh, h, (size_t)m * sizeof *h);
  equilibrate(ws);
  ws->info.status = QCP_UNSOLVED;
  return QCP_OK;
}

int qcp_settings_set(qcp_workspace *ws, const qcp_settings *settings, qcp_error *err) {
  int rc = qcp_settings_validate(settings, err);
  if (rc) return rc;
  if (settings->max_iter > ws->max_iter_setup)
    return qcp_fail(err, QCP_ERR_SETTINGS,
                    "setting max_iter = %d exceeds the %d the workspace was set up for",
                    settings->max_iter, ws->max_iter_setup);
  qcp_allocator keep = ws->set.allocator;
  ws->set = *settings;
  ws->set.allocator = keep;  // memory already allocated belongs to the setup allocator
  if (ws->scl.passes != settings->equilibrate) {
    ws->scl.passes = settings->equilibrate;
    equilibrate(ws);
  }
  return QCP_OK;
}

const double *qcp_solution_x(const qcp_workspace *ws) { return ws->x; }
const double *qcp_solution_s(const qcp_workspace *ws) { return ws->s; }
const double *qcp_solution_y(const qcp_workspace *ws) { return ws->y; }
const double *qcp_solution_z(const qcp_workspace *ws) { return ws->z; }
const qcp_info *qcp_info_get(const qcp_workspace *ws) { return &ws->info; }
const qcp_problem *qcp_problem_get(const qcp_workspace *ws) { return &ws->oprob; }

const qcp_iter_record *qcp_records_get(const qcp_workspace *ws, int *count) {
  *count = ws->info.status == QCP_UNSOLVED ? 0 : ws->info.iterations + 1;
  return ws->rec;
}

// ---- residuals and termination ------------------------------------------------------------

// Every measure is of the ORIGINAL problem (the iterate unscaled) except mu, the scaled
// complementarity the iteration itself uses.
typedef struct ipm_stats {
  double pres_abs, dres_abs, pscale, dscale;  // ‖residual‖∞ and the scales they are relative to
  double pres, dres;                          // relative: abs / max(1, scale)
  double gap, mu, pobj, dobj;                 // gap = sᵀz
  double pdgap;  // |pobj − dobj| = |xᵀPx + cᵀx + bᵀy + hᵀz|; exact only after accurate_stats
  double terms;  // largest |term| of that sum: rounding in pdgap is ~1e-16 of it
} ipm_stats;

// ‖v ./ (k·d)‖∞ (NaN-propagating like qcp_vec_norm_inf; d = NULL: ‖v‖∞/k) kept element by
// element, so that several norms share one pass over their vectors: norm_max_add(&a, v_i, q) with
// q = k·d_i (d given) or 1 (d = NULL, the division by k done at the end by norm_max_value); a
// maximum does not depend on the order, so the value is that of a pass of its own.
typedef struct norm_max {
  double r;
  int nan;
} norm_max;

static inline void norm_max_add(norm_max *a, double v, double q) {
  // |v| below r·q (rounded to nearest, below the rounded product is below the exact one; 4ε
  // margin) cannot raise the maximum: no division (most rows, once the maximum is found)
  if (fabs(v) < a->r * q * (1.0 - 4.0 * DBL_EPSILON)) return;
  const double t = fabs(v / q);
  a->r = t > a->r ? t : a->r;
  a->nan |= t != t;
}

static inline double norm_max_value(const norm_max *a, const double *d, double k) {
  return a->nan ? NAN : (d ? a->r : a->r / k);
}

// r_x = Px + c + Aᵀy + Gᵀz from its parts, with ‖·./(κD)‖∞ of r_x, Px, Aᵀy and Gᵀz (norms[0…3])
// and xᵀPx, cᵀx (dots[0…1]) in the same pass, as compute_residuals computed them one by one
static void dual_rows(qcp_workspace *ws, const double *D, double norms[4], double dots[2]) {
  const int n = ws->prob.n;
  const double k = ws->scl.cost;
  norm_max a[4] = {{0.0, 0}, {0.0, 0}, {0.0, 0}, {0.0, 0}};
  double xpx = 0.0, cx = 0.0;
  for (int j = 0; j < n; j++) {
    ws->rx[j] = ws->Px[j] + ws->c[j] + ws->Atz[j] + ws->tn[j];
    const double q = D ? k * D[j] : 1.0;
    norm_max_add(&a[0], ws->rx[j], q);
    norm_max_add(&a[1], ws->Px[j], q);
    norm_max_add(&a[2], ws->Atz[j], q);
    norm_max_add(&a[3], ws->tn[j], q);
    xpx += ws->x[j] * ws->Px[j];
    cx += ws->c[j] * ws->x[j];
  }
  for (int t = 0; t < 4; t++) norms[t] = norm_max_value(&a[t], D, k);
  dots[0] = xpx, dots[1] = cx;
}

// M v − rhs (with s: M v + s − rhs), each row summed in double-double in acc (M's rows), so
// that it is rounded once, not at every partial sum: into out (unless NULL); returns its ‖·‖∞
static double rows_residual_dd(const qcp_csc *M, const double *v, const double *s,
                               const double *rhs, double *out, sc_dd *acc) {
  for (int i = 0; i < M->nrows; i++) {
    acc[i] = (sc_dd){-rhs[i], 0.0};
    if (s) sc_dd_add(&acc[i], s[i]);
  }
  for (int j = 0; j < M->ncols; j++)
    for (int k = M->colptr[j]; k < M->colptr[j + 1]; k++)
      sc_dd_add_prod(&acc[M->rowind[k]], M->values[k], v[j]);
  double r = 0.0;
  for (int i = 0; i < M->nrows; i++) {
    const double v_i = sc_dd_value(acc[i]);
    if (out) out[i] = v_i;
    r = fmax(r, fabs(v_i));
  }
  return r;
}

// The primal residual of a row summed in double is off by about ε·√k·|aᵀx| (k entries, rounding
// at every partial sum: a random walk of k steps of ε times the partial sums). BOYD1's 18
// equality rows have 4e3–9e4 entries and right-hand sides up to 3.75e12: the double residual
// sat at ~1e-3 while the exact one was 5.7e-2, and the iteration, which saw a converged primal
// residual, never corrected it (200 iterations; the check failed at pres 5.7e-2 against 1e-6).
// Once a block's residual has come down to ROWS_DD_NEAR times that rounding and the rounding
// exceeds the primal threshold (the double sum cannot decide the test), the block's rows are
// summed in double-double for the rest of the solve (the scaling is by powers of two, so the
// residual of the scaled rows is that of the caller's).
#define ROWS_DD_NEAR 10.0

// 1 if a block (A's rows, G's rows: residual ‖·‖∞ res[b], magnitude of its sums mag[b]) is summed
// in double-double from now on (ws->rows_dd)
static int rows_dd_switch(qcp_workspace *ws, const ipm_stats *st, const double res[2],
                          const double mag[2]) {
  const double thr = fmax(ws->set.eps_abs, ws->set.eps_rel * st->pscale);
  int add = 0;
  double noise = 0.0;
  for (int b = 0; b < 2; b++) {
    const double nb = DBL_EPSILON * ws->row_len[b] * mag[b];
    if (!(ws->rows_dd >> b & 1) && nb > thr && res[b] <= ROWS_DD_NEAR * nb)
      add |= 1 << b, noise = fmax(noise, nb);
  }
  if (!add) return 0;
  if (ws->set.verbose)
    fprintf(stderr, "qcp: %s residual summed in double-double (rounding of its sums ~%.1e)\n",
            add == 1 ? "equality" : (add == 2 ? "cone" : "primal"), noise);
  ws->rows_dd |= add;
  return 1;
}

static void compute_residuals(qcp_workspace *ws, ipm_stats *st) {
  const qcp_problem *pr = &ws->prob;
  const qcp_scaling *sc = &ws->scl;
  int n = pr->n, p = pr->p, m = ws->K.m;
  // unit scales (data not equilibrated): plain norms, no divisions
  const double *D = sc->applied ? sc->D : NULL, *Ey = sc->applied ? sc->Ey : NULL;
  const double *Ez = sc->applied ? sc->Ez : NULL;
  // Px, then r_x = Px + c + Aᵀy + Gᵀz, keeping the norms of each part for the scale
  memset(ws->Px, 0, (size_t)n * sizeof *ws->Px);
  sym_mv(&pr->P, ws->x, ws->Px);
  memset(ws->Atz, 0, (size_t)n * sizeof *ws->Atz);
  memset(ws->tn, 0, (size_t)n * sizeof *ws->tn);
  if (p > 0) csc_mtv(&pr->A, ws->y, ws->Atz);
  csc_mtv(&pr->G, ws->z, ws->tn);
  double nx[4], dx[2];
  dual_rows(ws, D, nx, dx);
  // r_y = Ax − b, r_z = Gx + s − h, with the norms of Ax, Gx, s and of the residuals in the
  // same passes
  // (rows_dd: the residual itself summed in double-double, the product recovered for its norm)
  const int dd_a = ws->rows_dd & 1, dd_g = ws->rows_dd & 2;
  memset(ws->ry, 0, (size_t)(p > 0 ? p : 1) * sizeof *ws->ry);
  if (p > 0 && dd_a) rows_residual_dd(&pr->A, ws->x, NULL, ws->b, ws->ry, ws->ddm);
  if (p > 0 && !dd_a) csc_mv(&pr->A, ws->x, ws->ry);
  norm_max ax = {0.0, 0}, ry = {0.0, 0}, gx = {0.0, 0}, rz = {0.0, 0}, sn = {0.0, 0};
  double by = 0.0, szs = 0.0, hz = 0.0;
  for (int i = 0; i < p; i++) {
    const double q = Ey ? 1.0 * Ey[i] : 1.0;
    norm_max_add(&ax, dd_a ? ws->ry[i] + ws->b[i] : ws->ry[i], q);
    if (!dd_a) ws->ry[i] -= ws->b[i];
    norm_max_add(&ry, ws->ry[i], q);
    by += ws->b[i] * ws->y[i];
  }
  memset(ws->rz, 0, (size_t)(m > 0 ? m : 1) * sizeof *ws->rz);
  if (m > 0 && dd_g) rows_residual_dd(&pr->G, ws->x, ws->s, ws->h, ws->rz, ws->ddm);
  if (m > 0 && !dd_g) csc_mv(&pr->G, ws->x, ws->rz);
  for (int i = 0; i < m; i++) {
    const double q = Ez ? 1.0 * Ez[i] : 1.0;
    norm_max_add(&gx, dd_g ? ws->rz[i] - ws->s[i] + ws->h[i] : ws->rz[i], q);
    if (!dd_g) ws->rz[i] += ws->s[i] - ws->h[i];
    norm_max_add(&rz, ws->rz[i], q);
    norm_max_add(&sn, ws->s[i], q);
    szs += ws->s[i] * ws->z[i];
    hz += ws->h[i] * ws->z[i];
  }
  double n_ax = norm_max_value(&ax, Ey, 1.0), n_gx = norm_max_value(&gx, Ez, 1.0);

  // objective and gap of the original problem: the scaled ones divided by the cost scale
  double xpx = dx[0], kinv = 1.0 / sc->cost, cx = dx[1];
  ws->res_dots[0] = by, ws->res_dots[1] = hz, ws->res_dots[2] = cx, ws->res_dots[3] = xpx;
  st->pobj = (0.5 * xpx + cx) * kinv;
  st->dobj = (-0.5 * xpx - by - hz) * kinv;
  st->terms = fmax(fmax(fabs(xpx), fabs(cx)), fmax(fabs(by), fabs(hz))) * kinv;
  st->gap = szs * kinv;
  st->mu = ws->K.deg > 0 ? szs / ws->K.deg : 0.0;
  // residuals of the original problem: r_x = r̄_x/(κD), r_y = r̄_y/E_y, r_z = r̄_z/E_z
  const double ry_abs = norm_max_value(&ry, Ey, 1.0), rz_abs = norm_max_value(&rz, Ez, 1.0);
  st->pres_abs = fmax(ry_abs, rz_abs);
  st->dres_abs = nx[0];
  // the data's own norms are fixed between updates (equilibrate)
  st->pscale =
      fmax(fmax(ws->norm_b, ws->norm_h), fmax(fmax(n_ax, n_gx), norm_max_value(&sn, Ez, 1.0)));
  st->dscale = fmax(fmax(ws->norm_c, nx[1]), fmax(nx[2], nx[3]));
  st->pres = st->pres_abs / fmax(1.0, st->pscale);
  st->dres = st->dres_abs / fmax(1.0, st->dscale);
  st->pdgap = fabs(st->pobj - st->dobj);
  // the rows' sums in double-double from here on where the double ones stopped resolving the test
  const double res[2] = {ry_abs, rz_abs};
  const double mag[2] = {fmax(ws->norm_b, n_ax),
                         fmax(fmax(ws->norm_h, n_gx), norm_max_value(&sn, Ez, 1.0))};
  if (rows_dd_switch(ws, st, res, mag)) compute_residuals(ws, st);
}

// Termination check on the ORIGINAL data that cannot be fooled by cancellation (AUG2D's
// |pobj − dobj| is 1e-10 in exact arithmetic but ~1e-8 in double with |pobj| = 1.7e6; HUESTIS's
// was 4.7e-4 though the double test said 1e-9). The residual norms and the gap pobj − dobj = xᵀPx +
// cᵀx + bᵀy + hᵀz are recomputed from the data with every sum in double-double (sc_dd.h; long
// double's 64 bits still left HUES-MOD's gap 1.4e-10 off at 1e-9), as an independent checker
// would; only done once the cheap double-precision tests pass, so it costs one pass at the end.
static void accurate_stats(qcp_workspace *ws, ipm_stats *st) {
  const qcp_problem *pr = &ws->oprob;
  int n = pr->n, p = pr->p, m = ws->K.m;
  const double *x = ws->ux, *s = ws->us, *y = ws->uy, *z = ws->uz;
  memcpy(ws->ux, ws->x, (size_t)n * sizeof *x);
  if (p > 0) memcpy(ws->uy, ws->y, (size_t)p * sizeof *y);
  if (m > 0) memcpy(ws->us, ws->s, (size_t)m * sizeof *s);
  if (m > 0) memcpy(ws->uz, ws->z, (size_t)m * sizeof *z);
  qcp_scale_unscale(&ws->scl, n, p, m, ws->ux, ws->us, ws->uy, ws->uz);
  sc_dd *px = ws->ddn, gap = {0.0, 0.0};
  for (int j = 0; j < n; j++) px[j] = (sc_dd){0.0, 0.0};
  for (int j = 0; j < n; j++)  // P x from the upper triangle
    for (int k = pr->P.colptr[j]; k < pr->P.colptr[j + 1]; k++) {
      int i = pr->P.rowind[k];
      sc_dd_add_prod(&px[i], pr->P.values[k], x[j]);
      if (i != j) sc_dd_add_prod(&px[j], pr->P.values[k], x[i]);
    }
  double dres = 0.0;
  for (int j = 0; j < n; j++) {
    sc_dd r = px[j];
    sc_dd_add(&r, pr->c[j]);
    sc_dd_add_dd_prod(&gap, r, x[j]);
    for (int k = p > 0 ? pr->A.colptr[j] : 0; k < (p > 0 ? pr->A.colptr[j + 1] : 0); k++)
      sc_dd_add_prod(&r, pr->A.values[k], y[pr->A.rowind[k]]);
    for (int k = pr->G.colptr[j]; k < pr->G.colptr[j + 1]; k++)
      sc_dd_add_prod(&r, pr->G.values[k], z[pr->G.rowind[k]]);
    dres = fmax(dres, fabs(sc_dd_value(r)));
  }
  for (int i = 0; i < p; i++) sc_dd_add_prod(&gap, pr->b[i], y[i]);
  for (int i = 0; i < m; i++) sc_dd_add_prod(&gap, pr->h[i], z[i]);
  double pres = p > 0 ? rows_residual_dd(&pr->A, x, NULL, pr->b, NULL, ws->ddm) : 0.0;
  if (m > 0) pres = fmax(pres, rows_residual_dd(&pr->G, x, s, pr->h, NULL, ws->ddm));
  st->pres_abs = pres;
  st->dres_abs = dres;
  st->pres = pres / fmax(1.0, st->pscale);
  st->dres = dres / fmax(1.0, st->dscale);
  st->pdgap = fabs(sc_dd_value(gap));
}

// 1 if residuals and gap meet max(eps_abs, eps_rel·scale)
// the gap's threshold: absolute, or relative to the smaller objective
static double gap_threshold(const ipm_stats *st, double eps_abs, double eps_rel) {
  return fmax(eps_abs, eps_rel * fmin(fabs(st->pobj), fabs(st->dobj)));
}

static int converged(const ipm_stats *st, double eps_abs, double eps_rel, int strict) {
  // the gap is both sᵀz and pobj − dobj (they differ by residual terms xᵀr_x − yᵀr_y − zᵀr_z).
  // strict: their sum, a bound on the gap of a two-sided problem lifted to pairs of orthant rows.
  // Its row l ≤ aᵀx ≤ u has the netted multiplier z_u − z_l, whose dual objective is the conic one
  // minus D = (u − l)·min(z_u, z_l), 0 ≤ D ≲ sᵀz (UBH1 at 1e-6 met max(sᵀz, |pobj − dobj|) ≤ tol
  // with a two-sided gap of 1.1e-6; with max(sᵀz, pobj − dobj) when pobj ≥ dobj, QSHIP04S at 1e-9
  // still ended at 1.0e-9 + ε: D ≤ sᵀz holds only up to the residuals)
  double gap = strict ? fabs(st->gap) + st->pdgap : fmax(fabs(st->gap), st->pdgap);
  // max(abs, rel·scale) rather than the sum, so that the checker's relative measures
  // (abs / max(1, scale)) are below eps whenever eps_abs = eps_rel = eps
  return st->pres_abs <= fmax(eps_abs, eps_rel * st->pscale) &&
         st->dres_abs <= fmax(eps_abs, eps_rel * st->dscale) &&
         gap <= gap_threshold(st, eps_abs, eps_rel);
}

// The solved test: the double-precision measures first (cheap), then the same test on the
// long-double recomputation (accurate_stats); st takes the accurate values when it passes.
// 1 if the double-precision measures cannot be spoiled by rounding at these tolerances: for each
// measure a generous rounding bound (1e-13, ~500 ulps, of the magnitudes it is computed from:
// pscale, dscale, the largest term of pobj − dobj) is below 1 % of its threshold. Then the
// long-double recomputation would not change the verdict (the contact problems with
// eps_rel = 1e-8 never need it; absolute 1e-9 on a 1e6 objective always does).
static int double_reliable(const ipm_stats *st, double eps_abs, double eps_rel) {
  double thr_p = fmax(eps_abs, eps_rel * st->pscale), thr_d = fmax(eps_abs, eps_rel * st->dscale);
  double thr_g = gap_threshold(st, eps_abs, eps_rel);
  return 1e-13 * st->pscale <= 1e-2 * thr_p && 1e-13 * st->dscale <= 1e-2 * thr_d &&
         1e-13 * st->terms <= 1e-2 * thr_g;
}

// the full test on the original data: in double when that is reliable, else in long double
static int converged_verified(qcp_workspace *ws, ipm_stats *st) {
  const qcp_settings *set = &ws->set;
  if (double_reliable(st, set->eps_abs, set->eps_rel))
    return converged(st, set->eps_abs, set->eps_rel, set->strict_gap);
  ipm_stats acc = *st;
  accurate_stats(ws, &acc);
  if (!converged(&acc, set->eps_abs, set->eps_rel, set->strict_gap)) return 0;
  *st = acc;
  return 1;
}

static int converged_checked(qcp_workspace *ws, ipm_stats *st) {
  const qcp_settings *set = &ws->set;
  ipm_stats acc = *st;
  acc.pdgap = 0.0;  // the double |pobj − dobj| may be pure rounding: judged accurately below
  if (!converged(&acc, set->eps_abs, set->eps_rel, set->strict_gap)) return 0;
  if (double_reliable(st, set->eps_abs, set->eps_rel))
    return converged(st, set->eps_abs, set->eps_rel, set->strict_gap);
  accurate_stats(ws, &acc);
  if (!converged(&acc, set->eps_abs, set->eps_rel, set->strict_gap)) return 0;
  *st = acc;
  return 1;
}

// 1 if sᵀz is above its convergence threshold: a μ that rises below it is rounding noise
// (QSCRS8's μ moves between 1e-47 and 1e-45 once converged), not a re-centring
static int gap_open(const ipm_stats *st, const qcp_settings *set) {
  return fabs(st->gap) > gap_threshold(st, set->eps_abs, set->eps_rel);
}

// a single number for best-iterate keeping
static double merit(const ipm_stats *st) {
  double g = fmax(fabs(st->gap), st->pdgap) / fmax(1.0, fmin(fabs(st->pobj), fabs(st->dobj)));
  return fmax(fmax(st->pres, st->dres), g);
}

// ---- Newton solves ----------------------------------------------------------------

// Inexact Newton: the solve's residual on the x rows is an error of the step's dual residual, on
// the y and z rows one of its primal residual (ds follows dz exactly, so complementarity has
// none); the next iterate's residuals are (1 − α) r + α·e. Refinement therefore stops once e is
// below REFINE_RES_FRAC of the current residuals, block by block, or at the solve's relative
// tolerance, whichever comes first: early iterates with large residuals take 0–1 refinement
// steps instead of up to refine_iter against the unregularised matrix (the substitutions were
// 60–70 % of an iteration on LISWET2 and PRIMALC2, 4–5 per solve), late ones refine fully.
#define REFINE_RES_FRAC 0.01

// Proximal Newton (settings.proximal; the proximal method of multipliers inside the interior
// point: Pougkakiotis & Gondzio, Comput. Optim. Appl. 78 (2021); PIQP, Schwan et al., 2023): the
// system solved is K_reg d = −r, K_reg = K + diag(δI, −δI, −δI), the Newton step of the proximal
// subproblem centred at the current iterate (so the right-hand side is the ordinary residual).
// δ is then part of the method, not an error that refinement must remove: against K refinement
// converges at the rate δ/(λ + δ) and took 11 steps per iteration on LISWET11. The step's error
// against the exact Newton step is δ·(dx, −dy, −dz), computed without a product; like the inexact
// solves above it is refined away only where it exceeds PROX_ERR_FRAC of the iterate's residuals
// (the next residuals are (1 − α)·r + α·e), and δ is relaxed by the same rule
// (relax_regularisation) where that refinement stalls.

// ... and never below what the tolerance asks of the step (proximal path). Once a block's
// residual is far below its threshold its share is too, and every solve refined that block
// towards rounding level (without the floor, KSIP at 1e-6: primal residual 1e-10–1e-13 from the
// first step, 15 refinement steps in 12 iterations; QPCBLEND: residuals ~1e-15, half of its 103
// steps ran to refine_tol). An error e enters the next residuals as α·e and pobj − dobj as
// (x̄ᵀe_x − ȳᵀe_y − z̄ᵀe_z)/κ (pobj − dobj = (s̄ᵀz̄ + x̄ᵀr̄_x − ȳᵀr̄_y − z̄ᵀr̄_z)/κ in the scaled
// variables), so a block's error below TOL_FLOOR_SHARE of its residual threshold (times the
// smallest row scale: ‖·‖∞ in the caller's rows) and of the gap's threshold·κ over ‖x̄‖₁ (resp.
// ‖ȳ‖₁ + ‖z̄‖₁) cannot keep the iterate from the tolerance. The gap's term is needed: with the
// residual's alone (even at a hundredth) LISWET10's x̄ᵀr̄_x held its gap open, 200 iterations
// instead of 39.
#define TOL_FLOOR_SHARE 0.1

// the floor of this iterate's block limits (ws->lim_floor_d, lim_floor_p; scaled rows)
static void tolerance_floor(qcp_workspace *ws, const ipm_stats *st) {
  const int n = ws->prob.n, p = ws->prob.p, m = ws->K.m;
  const qcp_settings *set = &ws->set;
  double x1 = 0.0, yz1 = 0.0;
  for (int j = 0; j < n; j++) x1 += fabs(ws->x[j]);
  for (int i = 0; i < p; i++) yz1 += fabs(ws->y[i]);
  for (int i = 0; i < m; i++) yz1 += fabs(ws->z[i]);
  const double tg = TOL_FLOOR_SHARE * gap_threshold(st, set->eps_abs, set->eps_rel) * ws->scl.cost;
  const double fd =
      TOL_FLOOR_SHARE * fmax(set->eps_abs, set->eps_rel * st->dscale) * ws->scale_min_d;
  const double fp =
      TOL_FLOOR_SHARE * fmax(set->eps_abs, set->eps_rel * st->pscale) * ws->scale_min_p;
  ws->lim_floor_d = fmin(fd, x1 > 0.0 ? tg / x1 : INFINITY);
  ws->lim_floor_p = fmin(fp, yz1 > 0.0 ? tg / yz1 : INFINITY);
  if (!(ws->lim_floor_d >= 0.0)) ws->lim_floor_d = 0.0;  // NaN (a failed iterate): no floor
  if (!(ws->lim_floor_p >= 0.0)) ws->lim_floor_p = 0.0;
}

// dst = src (len values); 1 if any is not finite (the check in the copy's pass)
static int copy_finite(double *dst, const double *src, int len) {
  int bad = 0;
  for (int i = 0; i < len; i++) {
    dst[i] = src[i];
    bad |= !isfinite(src[i]);
  }
  return bad;
}

// Solves the linearised system with residual right-hand sides −r and complementarity rhs bs
// (ws->bs); result in dx, dy, dz, ds. Returns 0 or -1 if the solve produced non-finite values.
static int newton_solve(qcp_workspace *ws, double *dx, double *dy, double *dz, double *ds) {
  int n = ws->prob.n, p = ws->prob.p, m = ws->K.m;
  // t1 = λ⋄bs, t2 = W t1 enters the z rows: G dx − W² dz = −r_z − W(λ⋄bs)
  qcp_cone_div(&ws->K, ws->lambda, ws->bs, ws->t1);
  qcp_cone_scale(&ws->K, &ws->nt, 0, ws->t1, ws->t2);
  for (int j = 0; j < n; j++) ws->rhs[j] = -ws->rx[j];
  for (int i = 0; i < p; i++) ws->rhs[n + i] = -ws->ry[i];
  for (int i = 0; i < m; i++) ws->rhs[n + p + i] = -ws->rz[i] - ws->t2[i];
  // refinement needs to go no further than REFINE_RES_FRAC (proximal: PROX_ERR_FRAC) of the
  // iterate's own residuals
  const double frac = ws->set.proximal ? ws->prox_frac : REFINE_RES_FRAC;
  ws->kkt.lim_d = frac * ws->rnorm_d;
  ws->kkt.lim_p = frac * ws->rnorm_p;
  // a block whose residual is at rounding level while the other's is not (the cold start solves
  // the dual equations of CVXQP*_M exactly: dres 6e-16 against pres 0.5) would have its rows
  // refined to rounding level in every solve, 3–8 steps, while an error a millionth of the other
  // block's cannot hold the iteration back (proximal solves only)
  if (ws->set.proximal) {
    const double ld = ws->kkt.lim_d, lp = ws->kkt.lim_p;
    ws->kkt.lim_d = fmax(ld, PROX_LIM_FLOOR * lp);
    ws->kkt.lim_p = fmax(lp, PROX_LIM_FLOOR * ld);
    // below what the tolerance asks of the step: no refinement (tolerance_floor)
    ws->kkt.lim_d = fmax(ws->kkt.lim_d, ws->lim_floor_d);
    ws->kkt.lim_p = fmax(ws->kkt.lim_p, ws->lim_floor_p);
  }
  // after a long step (the endgame: tight limits, μ small, W² spread widely) the factor's rounding
  // can exceed δ·S·sol, the proximal error the solve otherwise assumes (STADAT3: its dual residual
  // stalled at 1e-10 with refinement skipped): the residual against K is then measured
  ws->kkt.measure_res = frac < PROX_ERR_FRAC;
  double kr = ws->set.proximal ? qcp_kkt_solve_prox(&ws->kkt, ws->rhs, ws->sol, PROX_REFINE_MAX,
                                                    ws->set.refine_iter, ws->set.refine_tol)
                               : qcp_kkt_solve(&ws->kkt, ws->rhs, ws->sol, ws->set.refine_iter,
                                               ws->set.refine_tol);
  ws->kkt.lim_d = ws->kkt.lim_p = 0.0;
  // a solve stopped at those limits is as accurate as this iterate needs (it does not ask for a
  // relaxed regularisation)
  if (ws->kkt.met_limits) kr = 0.0;
  double rel = kr / (1.0 + ws->kkt.rhs_norm);        // relative to the right-hand side
  if (!(rel <= ws->kkt_worst)) ws->kkt_worst = rel;  // NaN-propagating
  if (!(kr <= ws->kkt_worst_abs)) ws->kkt_worst_abs = kr;
  int bad = copy_finite(dx, ws->sol, n);
  bad |= copy_finite(dy, ws->sol + n, p);
  bad |= copy_finite(dz, ws->sol + n + p, m);
  // ds = W(λ⋄bs − W dz)
  qcp_cone_scale(&ws->K, &ws->nt, 0, dz, ws->t3);
  for (int i = 0; i < m; i++) ws->t1[i] -= ws->t3[i];
  qcp_cone_scale(&ws->K, &ws->nt, 0, ws->t1, ds);
  return bad ? -1 : 0;
}

// Step-length safeguard against Mehrotra cycling. Along the step the gap is the quadratic
// f(α) = sᵀz + α(sᵀdz + dsᵀz) + α² dsᵀdz, and dsᵀdz = dxᵀP dx ≥ 0 on a feasible QP, so a long
// step can raise the gap: on an open-rows contact problem (λ → 0 from a start with λ ~ 1e4) the
// iterates cycled with period 4, the gap growing 6× in every other step while the residuals
// were already 1e-7 (Cartis, "Some disadvantages of a Mehrotra-type primal-dual corrector
// interior point algorithm", Appl. Numer. Math. 59 (2009), shows such failures). Once the
// iterate is nearly feasible (residuals no longer need the long step), the step is cut to the
// minimiser of f when the full step would raise the gap.
static double gap_safeguard(const qcp_workspace *ws, const ipm_stats *st, double alpha) {
  if (!(st->pres <= 1e-4 && st->dres <= 1e-4) || ws->K.m == 0) return alpha;
  double dsdz = 0.0, lin = 0.0;
  for (int i = 0; i < ws->K.m; i++) {  // one pass: this runs in every late iteration
    dsdz += ws->ds[i] * ws->dz[i];
    lin += ws->s[i] * ws->dz[i] + ws->ds[i] * ws->z[i];
  }
  if (!(dsdz > 0.0) || !(lin < 0.0) || alpha * (lin + alpha * dsdz) <= 0.0) return alpha;
  return fmin(alpha, -lin / (2.0 * dsdz));
}

// ---- starting points -----------------------------------------------------------------------

// pushes v into the cone so that its smallest eigenvalue is at least floor
static void push_interior(const qcp_cones *K, double *v, double floor_val) {
  for (int i = 0; i < K->l; i++)
    if (v[i] < floor_val) v[i] = floor_val;
  for (int k = 0; k < K->nsoc; k++) {
    int o = K->off[k], q = K->q[k];
    double nrm = 0.0;
    for (int i = 1; i < q; i++) nrm += v[o + i] * v[o + i];
    nrm = sqrt(nrm);
    if (v[o] - nrm < floor_val) v[o] = nrm + floor_val;
  }
}

// e-weight of v: Σ v_i over the orthant plus Σ v_0 over the cones (eᵀv)
static double cone_trace(const qcp_cones *K, const double *v) {
  double t = 0.0;
  for (int i = 0; i < K->l; i++) t += v[i];
  for (int k = 0; k < K->nsoc; k++) t += v[K->off[k]];
  return t;
}

// Mehrotra's shift (SIAM J. Optim. 2 (1992) §7), scale-aware unlike a fixed shift of 1:
// s̃ = s + max(0, −1.5 λ_min(s)) e (same for z), then s = s̃ + ½ s̃ᵀz̃ / eᵀz̃ · e and
// z = z̃ + ½ s̃ᵀz̃ / eᵀs̃ · e, which balances the two and makes every s_i z_i comparable.
static void shift_start(qcp_workspace *ws, double widen) {
  const qcp_cones *K = &ws->K;
  int m = K->m;
  double ds = fmax(0.0, -1.5 * qcp_cone_min_eig(K, ws->s));
  double dz = fmax(0.0, -1.5 * qcp_cone_min_eig(K, ws->z));
  qcp_cone_add_identity(K, ws->s, ds);
  qcp_cone_add_identity(K, ws->z, dz);
  double sz = qcp_vec_dot(ws->s, ws->z, m);
  double ts = cone_trace(K, ws->s), tz = cone_trace(K, ws->z);
  if (sz > 0.0 && ts > 0.0 && tz > 0.0) {
    qcp_cone_add_identity(K, ws->s, widen * 0.5 * sz / tz);
    qcp_cone_add_identity(K, ws->z, widen * 0.5 * sz / ts);
  }
  // degenerate data (s = z = 0, e.g. h = 0 and c = 0): fall back to the unit shift
  double floor_s = 1e-8 * (1.0 + qcp_vec_norm_inf(ws->s, m));
  double floor_z = 1e-8 * (1.0 + qcp_vec_norm_inf(ws->z, m));
  if (!(qcp_cone_min_eig(K, ws->s) > floor_s)) qcp_cone_add_identity(K, ws->s, 1.0);
  if (!(qcp_cone_min_eig(K, ws->z) > floor_z)) qcp_cone_add_identity(K, ws->z, 1.0);
}

static int start_cold_rho(qcp_workspace *ws, double rho, double widen) {
  int n = ws->prob.n, p = ws->prob.p, m = ws->K.m, N = ws->kkt.N;
  qcp_kkt_set_w(&ws->kkt, &ws->K, NULL, rho);
  if (qcp_kkt_factor(&ws->kkt, ws->set.dyn_reg_eps, ws->set.dyn_reg_delta) < 0) return -1;
  // x minimises ½xᵀPx + cᵀx + ‖Gx − h‖²/(2ρ) s.t. Ax = b (CVXOPT's coneqp start has ρ = 1):
  // [P Aᵀ Gᵀ; A 0 0; G 0 −ρI](x, y, z) = (−c, b, h) gives z = (Gx − h)/ρ and s = h − Gx = −ρz;
  // both are then moved into the cone. A large ρ puts x near the all-active solution, which for
  // contact problems already carries the loads (a 1000-sphere stack needs 5–10 iterations
  // instead of 14–27 with ρ = 1, so contact callers set ρ = 1e4); general QPs start badly
  // centred there (CVXQP1_M 29 iterations instead of 17), so the default is CVXOPT's ρ = 1.
  memset(ws->rhs, 0, (size_t)N * sizeof *ws->rhs);
  for (int j = 0; j < n; j++) ws->rhs[j] = -ws->c[j];
  for (int i = 0; i < p; i++) ws->rhs[n + i] = ws->b[i];
  for (int i = 0; i < m; i++) ws->rhs[n + p + i] = ws->h[i];
  qcp_kkt_solve(&ws->kkt, ws->rhs, ws->sol, ws->set.refine_iter, ws->set.refine_tol);
  memcpy(ws->x, ws->sol, (size_t)n * sizeof *ws->x);
  if (p > 0) memcpy(ws->y, ws->sol + n, (size_t)p * sizeof *ws->y);
  for (int i = 0; i < m; i++) {
    ws->s[i] = -rho * ws->sol[n + p + i];
    ws->z[i] = ws->sol[n + p + i];
  }
  if (m > 0) shift_start(ws, widen);
  for (int j = 0; j < N; j++)
    if (!isfinite(ws->sol[j])) return -1;
  for (int j = 0; j < n; j++)
    if (!isfinite(ws->x[j])) return -1;
  return 0;
}

// The cold start with settings.cold_rho; when that KKT solve is not finite (a nearly singular
// matrix whose dynamically regularised pivots blow up), CVXOPT's ρ = 1 if that was not the one
// tried, and as the last resort the trivially centred point x = 0, y = 0, s = z = e. Returns 0
// (always finite).
static int start_cold(qcp_workspace *ws) {
  if (!start_cold_rho(ws, ws->set.cold_rho, 1.0)) return 0;
  ws->info.factorizations++;
  if (ws->set.cold_rho != 1.0 && !start_cold_rho(ws, 1.0, 1.0)) return 0;
  int n = ws->prob.n, p = ws->prob.p, m = ws->K.m;
  memset(ws->x, 0, (size_t)n * sizeof *ws->x);
  if (p > 0) memset(ws->y, 0, (size_t)p * sizeof *ws->y);
  memset(ws->s, 0, (size_t)(m > 0 ? m : 1) * sizeof *ws->s);
  memset(ws->z, 0, (size_t)(m > 0 ? m : 1) * sizeof *ws->z);
  qcp_cone_add_identity(&ws->K, ws->s, 1.0);
  qcp_cone_add_identity(&ws->K, ws->z, 1.0);
  return 0;
}

// The restart of a stalled cold solve (YAO, and problems whose rows are differences of
// neighbouring variables: the default start near the all-active solution has μ ~1e-4 against a
// primal residual of 0.7, and the steps stay at 0.06 for hundreds of iterations): CVXOPT's
// ρ = 1 point with Mehrotra's balancing shift widened RESTART_WIDEN-fold, so that μ is large
// against the residuals and the path is entered from well inside the cone. Returns 0, or −1 if
// the KKT solve was not finite (no restart then).
#define RESTART_WIDEN 100.0
#define CRAWL_STEP 0.3
#define CRAWL_RUN 8
#define CRAWL_GAIN 0.1

static int restart_cold(qcp_workspace *ws, qcp_status why) {
  ws->info.factorizations++;
  if (ws->set.verbose)
    fprintf(stderr, "qcp: restart from a widely centred cold start (%s)\n",
            why == QCP_UNSOLVED ? "short steps" : qcp_status_string(why));
  return start_cold_rho(ws, 1.0, RESTART_WIDEN);
}

// A first run from a start less all-active than ρ = ACTIVE_RHO (CVXOPT's ρ = 1, as bench maros
// may set it) that failed in the endgame, not on the path, restarts from the ρ = ACTIVE_RHO
// point rather than the widened ρ = 1 one, which would retrace that path: with the configured
// static regularisation (the first run may have relaxed it) and the polish tries renewed. The
// endgame: its best iterate converged to rounding level (relative measures ≤ ENDGAME_MERIT) and
// could not be finished (the polish found no passing point: QFFFFF80, QFORPLAN), or some iterate
// was feasible to ENDGAME_FEAS relative and the gap could not be closed from there (QPILOTNO:
// from iteration 20 refinement leaves 5e-5 on the primal rows, the primal residual stays at
// 5.6e-10 relative, μ falls to 1e-63 and the widened restart crawls to the iteration limit; from
// the ρ = 1e4 point it is solved). A run that crawls from a badly centred start (LISWET, YAO,
// POWELL20: max(pres, dres) ≥ 1e-7 when it restarts, after 14–21 iterations) keeps the widened
// restart; from the ρ = 1e4 point they took 27–143 % more iterations. Returns 0, or −1 if
// that KKT solve was not finite.
#define ACTIVE_RHO 1e4
#define ENDGAME_MERIT 1e-12
#define ENDGAME_FEAS 1e-9

static int restart_all_active(qcp_workspace *ws, qcp_status why, int *polish_tries,
                              int *polish_next) {
  ws->info.factorizations++;
  if (ws->set.verbose)
    fprintf(stderr, "qcp: restart from the rho = %.0e cold start (%s)\n", ACTIVE_RHO,
            why == QCP_UNSOLVED ? "short steps" : qcp_status_string(why));
  qcp_kkt_set_delta(&ws->kkt, ws->set.static_reg);
  ws->relax_off = 0;
  ws->relax_from = 0.0;
  *polish_tries = *polish_next = 0;
  return start_cold_rho(ws, ACTIVE_RHO, 1.0);
}

// The start switch: a cold start from ρ = cold_rho > 1 (x near the all-active solution) suits
// contact loads. General QPs that start badly centred from it (μ small against a primal
// residual of 0.5–0.7) take a step of ~0.55 and then crawl: steps of 0.02–0.3 for 8–15
// iterations (CVXQP*_M, STCQP*, AUG2D*/AUG3D*, LASER, LISWET, MOSARQP, GOULDQP3; the crawl rule
// restarted them from a point that then took 14–20 more). A cold run whose steps after the
// first are all shorter than CRAWL_STEP up to iteration SWITCH_IT, and whose start had the
// primal residual above the dual one (what a smaller ρ trades away; PRIMALC*, dual residual 1
// against a primal 0.01–0.05, took 2–9 more iterations from ρ = 1), continues from CVXOPT's
// ρ = 1 point (no widening): not counted as the restart, which stays available, and the endgame
// restart treats that run as one started from ρ = 1. Not after the second step alone: paper
// A's foundation (its solves start cold at every change of the contact set) takes 0.47, 0.01,
// 0.01–0.26 and then ≥ 0.72 from ρ = 1e4; from ρ = 1 it converged to a point whose nonunique
// multipliers of dependent contact rows drift under the static regularisation (the KKT error
// δ·dz on a row whose slack falls 100-fold per step held its primal residual at 1.3e-11
// relative against 1e-11 until the iteration limit). A switched run whose steps 1–3 from its
// own start are short as well gets the restart (the widened ρ = 1 point) at once: the stack of
// the stiffness study (20 orthant rows, E = 1e8) crawled from both points, 13 more iterations
// from ρ = 1 before the crawl rule restarted it.
#define SWITCH_IT 3

static int start_switch(qcp_workspace *ws, double *run_rho) {
  ws->info.factorizations++;
  if (ws->set.verbose)
    fprintf(stderr, "qcp: short steps from the start, cold start from rho = 1\n");
  *run_rho = 1.0;
  return start_cold_rho(ws, 1.0, 1.0);
}

// z = μ s⁻¹ (so s∘z = μe) with μ fitting the dual residual Px + c + Aᵀy + μ Gᵀs⁻¹ best
static void centre_dual(qcp_workspace *ws) {
  int n = ws->prob.n, m = ws->K.m;
  const qcp_problem *pr = &ws->prob;
  qcp_cone_inverse(&ws->K, ws->s, 1.0, ws->t1);
  memset(ws->tn, 0, (size_t)n * sizeof *ws->tn);
  csc_mtv(&pr->G, ws->t1, ws->tn);
  memset(ws->Px, 0, (size_t)n * sizeof *ws->Px);
  sym_mv(&pr->P, ws->x, ws->Px);
  memset(ws->Atz, 0, (size_t)n * sizeof *ws->Atz);
  if (pr->p > 0) csc_mtv(&pr->A, ws->y, ws->Atz);
  double num = 0.0, den = 0.0, r0 = 0.0;
  for (int j = 0; j < n; j++) {
    double r = ws->Px[j] + ws->c[j] + ws->Atz[j];
    num -= r * ws->tn[j];
    den += ws->tn[j] * ws->tn[j];
    r0 = fmax(r0, fabs(r));
  }
  double mu = den > 0.0 ? num / den : 0.0;
  // fall back to a scale-aware value when the fit is not positive
  double floor_mu = 1e-3 * (1.0 + r0) * (1.0 + qcp_vec_norm_inf(ws->s, m)) / fmax(1, ws->K.deg);
  if (!(mu > floor_mu)) mu = floor_mu;
  qcp_cone_inverse(&ws->K, ws->s, mu, ws->z);
}

static int start_feasible(qcp_workspace *ws, const double *x0, const double *y0, qcp_error *err) {
  int n = ws->prob.n, p = ws->prob.p, m = ws->K.m;
  memcpy(ws->x, x0, (size_t)n * sizeof *ws->x);
  if (p > 0) {
    if (y0)
      memcpy(ws->y, y0, (size_t)p * sizeof *ws->y);
    else
      memset(ws->y, 0, (size_t)p * sizeof *ws->y);
  }
  qcp_scale_scale(&ws->scl, n, p, 0, ws->x, NULL, ws->y, NULL);
  // s = h − G x must be interior (a positive scale per cone keeps interior points interior)
  for (int i = 0; i < m; i++) ws->s[i] = ws->h[i];
  for (int i = 0; i < m; i++) ws->t1[i] = 0.0;
  csc_mv(&ws->prob.G, ws->x, ws->t1);
  for (int i = 0; i < m; i++) ws->s[i] -= ws->t1[i];
  double e = m > 0 ? qcp_cone_min_eig(&ws->K, ws->s) : 1.0;
  if (!(e > 0.0))
    return qcp_fail(err, QCP_ERR_START,
                    "feasible start: h - G x0 is not in the cone interior (min eigenvalue %g)", e);
  centre_dual(ws);
  return QCP_OK;
}

static void start_warm(qcp_workspace *ws, const double *x0, const double *s0, const double *y0,
                       const double *z0) {
  int n = ws->prob.n, p = ws->prob.p, m = ws->K.m;
  memcpy(ws->x, x0, (size_t)n * sizeof *ws->x);
  if (p > 0) {
    if (y0)
      memcpy(ws->y, y0, (size_t)p * sizeof *ws->y);
    else
      memset(ws->y, 0, (size_t)p * sizeof *ws->y);
  }
  qcp_scale_scale(&ws->scl, n, p, 0, ws->x, NULL, ws->y, NULL);
  if (s0) {
    memcpy(ws->s, s0, (size_t)m * sizeof *ws->s);
    qcp_scale_scale(&ws->scl, 0, 0, m, ws->x, ws->s, NULL, NULL);
  } else {
    for (int i = 0; i < m; i++) ws->t1[i] = 0.0;
    csc_mv(&ws->prob.G, ws->x, ws->t1);
    for (int i = 0; i < m; i++) ws->s[i] = ws->h[i] - ws->t1[i];
  }
  if (m == 0) return;
  push_interior(&ws->K, ws->s, ws->set.warm_push * (1.0 + qcp_vec_norm_inf(ws->s, m)));
  if (z0) {
    memcpy(ws->z, z0, (size_t)m * sizeof *ws->z);
    qcp_scale_scale(&ws->scl, 0, 0, m, ws->x, NULL, NULL, ws->z);
    push_interior(&ws->K, ws->z, ws->set.warm_push * (1.0 + qcp_vec_norm_inf(ws->z, m)));
  } else {
    centre_dual(ws);
  }
}

// ---- the iteration ----------------------------------------------------------------------------

// (x, y, s, z) ← (fx, fy, fs, fz), vectors of the problem's sizes
static void copy_point(const qcp_workspace *ws, double *x, double *y, double *s, double *z,
                       const double *fx, const double *fy, const double *fs, const double *fz) {
  int n = ws->prob.n, p = ws->prob.p, m = ws->K.m;
  memcpy(x, fx, (size_t)n * sizeof *x);
  if (p) memcpy(y, fy, (size_t)p * sizeof *y);
  if (m) memcpy(s, fs, (size_t)m * sizeof *s);
  if (m) memcpy(z, fz, (size_t)m * sizeof *z);
}
static void save_best(qcp_workspace *ws) {
  copy_point(ws, ws->bx, ws->by, ws->bsv, ws->bz, ws->x, ws->y, ws->s, ws->z);
}
// the best iterate so far kept as the first run's (f*), at a cold restart
static void keep_first_run(qcp_workspace *ws) {
  copy_point(ws, ws->fx, ws->fy, ws->fsv, ws->fz, ws->bx, ws->by, ws->bsv, ws->bz);
  ws->first_run_kept = 1;
}
// exchanges the best iterate (b*) and the first run's (f*)
static void swap_first_run(qcp_workspace *ws) {
  double *t;
  t = ws->bx, ws->bx = ws->fx, ws->fx = t;
  t = ws->by, ws->by = ws->fy, ws->fy = t;
  t = ws->bsv, ws->bsv = ws->fsv, ws->fsv = t;
  t = ws->bz, ws->bz = ws->fz, ws->fz = t;
}
static void restore_best(qcp_workspace *ws) {
  copy_point(ws, ws->x, ws->y, ws->s, ws->z, ws->bx, ws->by, ws->bsv, ws->bz);
}

// infeasibility certificates at the current iterate (returns a status or QCP_UNSOLVED)
static qcp_status certify(qcp_workspace *ws) {
  const qcp_problem *pr = &ws->prob;
  int n = pr->n, p = pr->p, m = ws->K.m;
  double eps = ws->set.eps_infeas;
  // the products bᵀy, hᵀz, cᵀx, xᵀPx of this iterate, as compute_residuals summed them
  const double *dot = ws->res_dots;
  // primal: t = −(bᵀy + hᵀz) > 0 and ‖Aᵀy + Gᵀz‖ ≤ eps·t (z is interior by construction)
  double t = -(dot[0] + dot[1]);
  if (t > 0.0) {
    double r = 0.0;
    for (int j = 0; j < n; j++) {  // plain comparisons: fmax is a libm call here
      const double a = fabs(ws->Atz[j] + ws->tn[j]);
      r = a > r ? a : r;
    }
    if (r <= eps * t) return QCP_PRIMAL_INFEASIBLE;
  }
  // dual: t = −cᵀx > 0, ‖Px‖, ‖Ax‖ ≤ eps·t and −Gx ∈ K up to eps·t. Both ‖Px‖ and t are linear
  // in x, so also ask the curvature along d = x/t to vanish, dᵀPd = xᵀPx/t² ≤ eps²: a strictly
  // convex problem with a small P (optimum far away, not at infinity) is not certified
  t = -dot[2];
  if (t > 0.0 && qcp_vec_norm_inf(ws->Px, n) <= eps * t && dot[3] <= eps * eps * t * t) {
    double ax = 0.0;
    for (int i = 0; i < p; i++) {
      const double a = fabs(ws->ry[i] + ws->b[i]);
      ax = a > ax ? a : ax;
    }
    if (ax <= eps * t) {
      for (int i = 0; i < m; i++) ws->t1[i] = -(ws->rz[i] - ws->s[i] + ws->h[i]);
      double e = m > 0 ? qcp_cone_min_eig(&ws->K, ws->t1) : 0.0;
      if (e >= -eps * t) return QCP_DUAL_INFEASIBLE;
    }
  }
  return QCP_UNSOLVED;
}

// scales the certificate so that the violated inner product is −1
static void normalise_certificate(qcp_workspace *ws, qcp_status st) {
  int n = ws->prob.n, p = ws->prob.p, m = ws->K.m;
  if (st == QCP_PRIMAL_INFEASIBLE) {
    double t = -(qcp_vec_dot(ws->b, ws->y, p) + qcp_vec_dot(ws->h, ws->z, m));
    for (int i = 0; i < p; i++) ws->y[i] /= t;
    for (int i = 0; i < m; i++) ws->z[i] /= t;
  } else {  // x/t with s = −Gx/t, so that Gx + s = 0 exactly (the certificate's cone part)
    double t = -qcp_vec_dot(ws->c, ws->x, n);
    for (int j = 0; j < n; j++) ws->x[j] /= t;
    for (int i = 0; i < m; i++) ws->s[i] = -(ws->rz[i] - ws->s[i] + ws->h[i]) / t;
  }
}

// ---- time limit ------------------------------------------------------------------
//
// settings.time_limit is kept by a forecast for each iteration (the last one's cost: no iteration
// starts that would end past the limit) and by a check before each round of the polish, each of
// its Krylov cycles and the last-bit selection: the polishes after the last iteration can take
// many factorisations (CVXQP1_L at 1e-9: 13 of ~1.2 s each). A solve so cut short returns its best
// iterate with status time_limit, unpolished.

// seconds since the solve's start on the limit's clock
static double solve_elapsed(const qcp_workspace *ws) { return qcp_limit_clock(&ws->set) - ws->tl0; }

// 1 if work expected to take need seconds from now still ends within the limit (always, without
// one); otherwise the solve is marked as cut short
static int time_fits(qcp_workspace *ws, double need) {
  if (!(ws->set.time_limit > 0.0)) return 1;
  if (solve_elapsed(ws) + need <= ws->set.time_limit) return 1;
  ws->time_out = 1;
  return 0;
}

// the cost of the iteration that led to iterate it (of the start, for it = 0)
static double iteration_cost(const qcp_workspace *ws, int it) {
  return it > 0 ? ws->rec[it].time - ws->rec[it - 1].time : ws->rec[0].time;
}

static void record(qcp_workspace *ws, int it, const ipm_stats *st) {
  qcp_iter_record *r = &ws->rec[it];
  r->iter = it;
  r->pres = st->pres;
  r->dres = st->dres;
  r->gap = st->gap;
  r->mu = st->mu;
  r->sigma = 0.0;
  r->step = 0.0;
  r->pobj = st->pobj;
  r->time = solve_elapsed(ws);
}

// ---- polish ----------------------------------------------------------------------
//
// After an interior-point solve every s_i z_i is small but not zero. With orthant rows only the
// active set A = {i : z_i > s_i} identified by the solution turns the problem into the equality
// system  P x + Aᵀy + G_Aᵀ z_A = −c,  A x = b,  G_A x = h_A,  z_i = 0 (i ∉ A), solved in the same
// KKT pattern: W² = 0 on active rows, W² = POLISH_BIG on inactive rows (which drives z_i to 0,
// then set exactly). The polished point (s_A = 0, s_i = h_i − G_i x, z_{∉A} = 0) is kept only if
// z_A ≥ 0 and s ≥ 0 within the tolerances and its residuals still converge — then s∘z = 0
// exactly; otherwise the interior-point solution is restored (as OSQP's solution polishing).
#define POLISH_BIG 1e14

// How a polish round solves its system: refined in double from K_reg⁻¹ rhs (PLAIN); refined with
// long-double residuals from K_reg⁻¹ rhs (ACCURATE: where the active set is degenerate, the
// multipliers nearest to 0); the same from the interior-point point (FROM_IPM: the multipliers
// nearest to the interior point's, which keep its signs where the smallest ones do not — QPCBOEI2:
// 148 active rows on 143 variables, 32 negative multipliers from 0, none from the point).
enum { POLISH_PLAIN, POLISH_ACCURATE, POLISH_FROM_IPM };

// The polished point from the solution of the active-set system in ws->sol: x, y as solved,
// s_A = 0, z_{∉A} = 0, the other signs clipped. Returns the number of sign violations beyond tol
// (with flip, flipping each violated row's membership in act for the next round), or −1 if the
// solution is not finite.
static int polish_point(qcp_workspace *ws, double *act, double tol, int flip) {
  const int n = ws->prob.n, p = ws->prob.p, m = ws->K.m;
  for (int j = 0; j < ws->kkt.N; j++)
    if (!isfinite(ws->sol[j])) return -1;
  memcpy(ws->x, ws->sol, (size_t)n * sizeof *ws->x);
  if (p > 0) memcpy(ws->y, ws->sol + n, (size_t)p * sizeof *ws->y);
  memset(ws->rz, 0, (size_t)m * sizeof *ws->rz);
  csc_mv(&ws->prob.G, ws->x, ws->rz);
  int bad = 0;
  for (int i = 0; i < m; i++) {
    double z = ws->sol[n + p + i], s = ws->h[i] - ws->rz[i];
    if (act[i] > 0.0) {
      if (z < -tol) {
        bad++;
        if (flip) act[i] = 0.0;
      }
      ws->z[i] = fmax(z, 0.0);
      ws->s[i] = 0.0;
    } else {
      if (s < -tol) {
        bad++;
        if (flip) act[i] = 1.0;
      }
      ws->s[i] = fmax(s, 0.0);
      ws->z[i] = 0.0;
    }
  }
  return bad;
}

// One polish solve with the active set in act (1 active, 0 inactive): the equality KKT system,
// then the point (x, y, s, z) with s_A = 0, z_{∉A} = 0. Returns the number of sign violations
// beyond tol (z_A < −tol or s_{∉A} < −tol), flipping each violated row's membership in act for
// the next round, or −1 on a numerical failure.
static int polish_round(qcp_workspace *ws, double *act, double tol, int how) {
  const qcp_settings *set = &ws->set;
  const int n = ws->prob.n, p = ws->prob.p, m = ws->K.m;
  qcp_kkt *kkt = &ws->kkt;
  if (!time_fits(ws, 0.0)) return -1;
  for (int i = 0; i < m; i++)
    kkt->Kx[kkt->mapW[i]] = (act[i] > 0.0 ? 0.0 : -POLISH_BIG) - kkt->delta;
  ws->info.factorizations++;
  if (qcp_kkt_factor(kkt, set->dyn_reg_eps, set->dyn_reg_delta) < 0) return -1;
  for (int j = 0; j < n; j++) ws->rhs[j] = -ws->c[j];
  for (int i = 0; i < p; i++) ws->rhs[n + i] = ws->b[i];
  // an inactive row reads G_i x − BIG z_i = G_i x_ipm (= h_i − s_i at the interior-point
  // point): its z_i = G_i (x − x_ipm)/BIG is then ~0, so zeroing it below leaves the dual residual
  // as solved (with a zero right-hand side z_i = G_i x/BIG, whose sum over rows far from their
  // bound could leave DUALC1's dual residual at 5e-5)
  for (int i = 0; i < m; i++) ws->rhs[n + p + i] = act[i] > 0.0 ? ws->h[i] : ws->h[i] - ws->bsv[i];
  if (how == POLISH_FROM_IPM) {
    memcpy(ws->sol, ws->bx, (size_t)n * sizeof *ws->sol);
    if (p > 0) memcpy(ws->sol + n, ws->by, (size_t)p * sizeof *ws->sol);
    for (int i = 0; i < m; i++) ws->sol[n + p + i] = act[i] > 0.0 ? ws->bz[i] : 0.0;
    qcp_kkt_refine_from(kkt, ws->rhs, ws->sol, ws->sol, set->refine_iter, 0.0);
  } else if (how == POLISH_ACCURATE) {
    qcp_kkt_solve_accurate(kkt, ws->rhs, ws->sol, set->refine_iter, 0.0);
  } else {
    qcp_kkt_solve(kkt, ws->rhs, ws->sol, set->refine_iter, set->refine_tol);
  }
  return polish_point(ws, act, tol, 1);
}

// The active set of the interior-point point, corrected for a few rounds when the polished point
// violates signs: a row whose multiplier came out negative leaves the set, an inactive row the
// polished x violates joins it (a degenerate problem such as LISWET, where s_i and z_i both tend
// to 0, is misclassified by z_i > s_i alone). The first round is the plain polish above.
#define POLISH_ROUNDS 8
#define POLISH_RISES 2
#define POLISH_JUMP 2

// 1 if the polished point in ws meets the full test on the original data (st takes its stats)
static int polish_accept(qcp_workspace *ws, ipm_stats *st) {
  ipm_stats polished;
  compute_residuals(ws, &polished);
  if (!converged_verified(ws, &polished)) return 0;
  *st = polished;
  return 1;
}

// targets of the last-bit selection, as fractions of the thresholds of the full test
#define LASTBIT_THETA 0.5

// the thresholds of the full test (converged) for primal and dual residuals and the gap, at the
// scales and objectives of *st
static void test_thresholds(const qcp_settings *set, const ipm_stats *st, double t[3]) {
  t[0] = fmax(set->eps_abs, set->eps_rel * st->pscale);
  t[1] = fmax(set->eps_abs, set->eps_rel * st->dscale);
  t[2] = gap_threshold(st, set->eps_abs, set->eps_rel);
}

// the worst measure of the point in ws, recomputed exactly, in units of its threshold
static double exact_units(qcp_workspace *ws) {
  const qcp_settings *set = &ws->set;
  ipm_stats cur;
  double t[3];
  compute_residuals(ws, &cur);
  accurate_stats(ws, &cur);
  test_thresholds(set, &cur, t);
  double gap = set->strict_gap ? fabs(cur.gap) + cur.pdgap : fmax(fabs(cur.gap), cur.pdgap);
  return fmax(fmax(cur.pres_abs / t[0], cur.dres_abs / t[1]), gap / t[2]);
}

// A polished point that keeps every sign but misses the full test is a candidate: for the point
// an inaccurate solve returns (finish) and for the last-bit selection. The one whose worst measure
// (units, exact_units) is smallest is kept in the centrality corrector's scratch, free once the
// iteration is over.
static void keep_candidate(qcp_workspace *ws, double *best_units, double units) {
  if (!(units < *best_units)) return;
  *best_units = units;
  copy_point(ws, ws->cdx, ws->cdy, ws->cds, ws->cdz, ws->x, ws->y, ws->s, ws->z);
}

// The stop where rounding decides the check (rounding_decides) is made at an iterate at rounding
// level, and the best iterate by merit may be an earlier one: merit's relative measures compare
// rounding noise there (HUESTIS at 1e-6, objective 3.5e11: iteration 13's relative primal residual
// 6e-16 against the stop's 5.9e-14, both far below the test, made 13 the best, whose exact gap is
// 1.3e-2 against the stop's 1.6e-5). Of the two, the one whose worst exact measure in units of the
// test's thresholds (exact_units) is smaller becomes the best iterate. The centrality corrector's
// scratch holds the stop's point meanwhile (the iteration is over).
static void keep_stop_point(qcp_workspace *ws) {
  const double units_stop = exact_units(ws);
  copy_point(ws, ws->cdx, ws->cdy, ws->cds, ws->cdz, ws->x, ws->y, ws->s, ws->z);
  restore_best(ws);
  if (!(units_stop < exact_units(ws))) return;
  copy_point(ws, ws->x, ws->y, ws->s, ws->z, ws->cdx, ws->cdy, ws->cds, ws->cdz);
  save_best(ws);
}

// The kept candidate's last bits chosen against its exactly computed residuals (qcp_lastbit.c),
// on the original data (the equilibration's factors are powers of two: unscaling and scaling back
// are exact), then judged by the full test. No measure above its target rises. 1 if it passes.
static int lastbit_accept(qcp_workspace *ws, ipm_stats *st) {
  const qcp_settings *set = &ws->set;
  const int n = ws->prob.n, p = ws->prob.p, m = ws->K.m;
  copy_point(ws, ws->x, ws->y, ws->s, ws->z, ws->cdx, ws->cdy, ws->cds, ws->cdz);
  ipm_stats cur;
  double t[3];
  compute_residuals(ws, &cur);
  test_thresholds(set, &cur, t);
  if (set->strict_gap) t[2] -= fabs(cur.gap);  // s∘z = 0 on a polished point: sᵀz is 0 here
  copy_point(ws, ws->ux, ws->uy, ws->us, ws->uz, ws->x, ws->y, ws->s, ws->z);
  qcp_scale_unscale(&ws->scl, n, p, m, ws->ux, ws->us, ws->uy, ws->uz);
  qcp_lastbit_select(&ws->lastbit, &ws->oprob, ws->ux, ws->us, ws->uy, ws->uz, LASTBIT_THETA * t[0],
                     LASTBIT_THETA * t[1], LASTBIT_THETA * t[2]);
  copy_point(ws, ws->x, ws->y, ws->s, ws->z, ws->ux, ws->uy, ws->us, ws->uz);
  qcp_scale_scale(&ws->scl, n, p, m, ws->x, ws->s, ws->y, ws->z);
  return polish_accept(ws, st);
}

// A round without sign violations whose point misses the full test: refinement from the interior
// point (or from K_reg⁻¹ rhs) stops at the first step that does not lower ‖r‖∞, and on a degenerate
// active set it barely moves the components along K's eigenvalues λ ≪ δ (rate δ/(λ + δ)), which
// the gap xᵀr_x − zᵀr_z weighs by large x. STADAT1 at 1e-6: 3998 active rows on 2001 variables,
// x ~ 1e5–1e6; refinement left the dual residual at 1.4e-8 and the gap at 1.8e-4, 1000 plain steps
// 1.6e-11 and 1.8e-6. So the same system is refined on by GMRES cycles preconditioned with the
// factor (qcp_kkt_refine_krylov), at most POLISH_KRYLOV of them, each point judged by the full
// test (STADAT1: the first cycle's, dual residual 1.2e-7, gap 3.9e-7), and they stop once a
// cycle did not halve the worst measure (exact_units): a point at rounding level (HUESTIS's
// polished gap, 1.6e-4, is what one ulp of its components moves it by) is not improved by
// solving more accurately. Only in a polish run in full (the iteration cannot end the solve): a
// solved point's polish, an improvement only, and a polish during the iteration that the
// iteration may still overtake skip them (STADAT2 and STADAT3 at 1e-6, solved: 3 cycles of 17
// solves each in the final polish took 1.6–1.8× the solve's CPU). 1 if one is accepted.
#define POLISH_KRYLOV 3
static int polish_krylov(qcp_workspace *ws, double *act, double tol, ipm_stats *st,
                         double *candidate) {
  if (!ws->kry) return 0;  // the polish switched on after a setup without it
  double units = exact_units(ws);
  for (int c = 0; c < POLISH_KRYLOV && time_fits(ws, 0.0); c++) {
    if (!isfinite(qcp_kkt_refine_krylov(&ws->kkt, ws->rhs, ws->sol, ws->kry))) return 0;
    // a cycle's point that violates a sign ends them with act as it was: the ladder, next, needs
    // the set that kept every sign (QSIERRA at 1e-9: with the set flipped here its polish at
    // iteration 32 failed and the solve ran 148 iterations; 32 with the set kept)
    if (polish_point(ws, act, tol, 0) != 0) return 0;
    if (polish_accept(ws, st)) return 1;
    const double u = exact_units(ws);
    if (candidate) keep_candidate(ws, candidate, u);
    if (!(u <= 0.5 * units)) return 0;
    units = u;
  }
  return 0;
}

// the interior point's active set: the rows whose multiplier exceeds their slack
static void interior_active_set(const qcp_workspace *ws, double *act) {
  for (int i = 0; i < ws->K.m; i++) act[i] = ws->bz[i] > ws->bsv[i] ? 1.0 : 0.0;
}

// a 64-bit key of the active set in act (FNV-1a over the active rows' indices)
static uint64_t active_set_key(const double *act, int m) {
  uint64_t key = 14695981039346656037u;
  for (int i = 0; i < m; i++)
    if (act[i] > 0.0) key = (key ^ (uint64_t)i) * 1099511628211u;
  return key;
}

// Polish rounds from the interior point's active set, corrected from round to round; 1 if one
// is accepted (a round without sign violations that is not ends them, kept as a candidate for
// the last-bit selection unless candidate is NULL)
static int polish_rounds(qcp_workspace *ws, double *act, double tol, int how, ipm_stats *st,
                         double *candidate, int by_rate, int ref, int *first_bad, int *last_bad) {
  interior_active_set(ws, act);
  int prev = -1, rises = 0;
  uint64_t seen[POLISH_ROUNDS];
  *last_bad = -1;
  for (int round = 0; round < POLISH_ROUNDS; round++) {
    // a round's point depends on its active set alone (a pass keeps the matrix, the right-hand
    // side and the start): a set that an earlier round of the pass began with repeats that
    // round's violations, and the rounds from it cycle (CVXQP1_M at 1e-9: 2, 3, 2, 2, … without δ)
    seen[round] = active_set_key(act, ws->K.m);
    int cycle = 0;
    for (int q = 0; q < round; q++) cycle |= seen[q] == seen[round];
    if (cycle) break;
    int bad = polish_round(ws, act, tol, how);
    *last_bad = bad;
    if (round == 0) *first_bad = bad;
    if (bad < 0) break;
    // sign violations beyond tol were clipped: the full test on the original data judges them
    if (polish_accept(ws, st)) return 1;
    if (bad == 0) {
      if (candidate) keep_candidate(ws, candidate, exact_units(ws));
      return !by_rate && polish_krylov(ws, act, tol, st, candidate);
    }
    // the corrections diverge: the violations rose POLISH_RISES rounds in a row (QETAMACR's 57,
    // 71, 131, …, QSCSD6's 100, 78, 115, 536, …; every accepted sequence of the 131 Maros–Mészáros
    // problems under 5 s at 1e-9 and 1e-6 rose at most once in a row, LISWET7's 1, 2, 1, 0)
    rises = prev >= 0 && bad > prev ? rises + 1 : 0;
    // by_rate (a solved point's polish, only an improvement, and the one during the iteration,
    // which may fail: polish): the rounds stop where the violations, falling at
    // the last round's rate, would not reach 0 in the rounds left (GOULDQP2 at 1e-6: 634, 321,
    // 128, …, 7 after all 8; KSIP's 362, 253, …; LISWET7's accepted 1, 2, 1, 0 goes on)
    if (by_rate && prev > 0 && bad < prev &&
        bad * pow((double)bad / prev, POLISH_ROUNDS - 1 - round) >= 1.0)
      break;
    // and where they more than doubled in one round: of the 131 at 1e-9 and 1e-6, no pass whose
    // violations did so was accepted (QSCSD6's solved point: 63, 596, 455; KSIP's 3, 24, 426;
    // QPILOTNO's 21, 172, 390). Not in the passes run in full: paper A's foundation step's
    // accepted 9, 7, 20, 13, 9, 2, 1, 0 (tests/qcp qcp_step) jumps too
    if (by_rate && prev > 0 && bad > POLISH_JUMP * prev) break;
    // ref (≥ 0): the violations of the first round from the interior point, which began with the
    // same set. Without δ a degenerate set's multipliers are not unique and the solve finds the
    // smallest, of the wrong sign on many rows: on the proximal path a first round with more
    // than POLISH_JUMP times ref's (at least 1) violations started corrections that did not
    // converge (of the 131 Maros–Mészáros problems at 1e-9 and 1e-6, POWELL20's 9999 against 0,
    // 8 rounds at 1e-6; QFORPLAN's 104 against 0, QPILOTNO's 877 against 0, QETAMACR's 59
    // against 18: none of these passes was accepted), where LISWET's accepted ones begin as from
    // the interior point (26 and 26, 30 and 30, 1 and 0), their set nearly dependent but its
    // multipliers unique
    if (round == 0 && ref >= 0 && bad > POLISH_JUMP * (ref > 1 ? ref : 1)) break;
    prev = bad;
    if (rises >= POLISH_RISES) break;
  }
  return 0;
}

// The pass from the interior point refines the polished point with proximal steps at the δ in
// the matrix: where the active system is nearly singular, a step at a small δ amplifies the
// factor's error, the first one raises the residual, and refinement stops with the iterate's own
// residuals (QPCBOEI2 at 1e-9: 144 active rows on 143 variables, δ relaxed to 1e-10 by the
// iteration; its first correction raised the dual residual from 5.5e-9 to 8.8e-9, the one-ulp
// move of that measure being 3.6e-10). Where that pass kept every sign, the active set is right
// and only the solve's accuracy is wanting: the same pass is repeated at δ 10, 100 and 1000 times
// the matrix's (at 1, 10 and 100 times the configured one where the iteration relaxed the
// matrix's below it), each step then a damped proximal step (QPCBOEI2 at δ = 1e-7: dual
// residual 4.7e-9, 3.0e-9, 1.5e-9, 1.7e-10; QPILOTNO at 1e-6: 7.5e-9 → 4.8e-10). One factorisation
// each; 1 if one passes the full test. Only on the proximal path (setting proximal): on the exact
// Newton path, which paper A's step and paper B's dual solver take, it changed paper A's foundation
// (n = 10, E = 1e11, F = 50 N: 3839 → 3838 solver iterations over the run, its pressures in the
// 10th digit).
#define POLISH_LADDER 3
#define POLISH_LADDER_FACTOR 10.0
static int polish_ladder(qcp_workspace *ws, double *act, double tol, ipm_stats *st) {
  const double base = fmax(ws->kkt.delta, ws->set.static_reg);
  double delta = ws->kkt.delta < ws->set.static_reg ? base : base * POLISH_LADDER_FACTOR;
  for (int k = 0; k < POLISH_LADDER; k++, delta *= POLISH_LADDER_FACTOR) {
    qcp_kkt_fill(&ws->kkt, &ws->prob, &ws->K, delta);
    int bad = polish_round(ws, act, tol, POLISH_FROM_IPM);
    if (bad != 0) return 0;  // sign violations: the active set, not the accuracy, is wanting
    if (polish_accept(ws, st)) {
      if (ws->set.verbose) fprintf(stderr, "qcp: polish accepted at delta %.0e\n", delta);
      return 1;
    }
  }
  return 0;
}

// last_resort: the interior-point point failed the full test (solved_inaccurate), so the last-bit
// selection may finish a polished point; a solved point is returned as it is when no polish pass
// is accepted. rounds says how its rounds stop. A solved point's polish can only improve it: with
// the setting polish_bound its rounds from the interior point stop by the violations' rate
// (polish_rounds) and the rounds without δ are skipped, ROUNDS_RATE_IPM_ONLY (of the 131
// Maros–Mészáros problems under
// 5 s, no solved point's polish was accepted there at 1e-9 or 1e-6, and where they ran they were 8
// of the polish's 17 factorisations: GOULDQP2, KSIP, LISWET3–6 at 1e-6 spent more on the polish
// than on the solve). The polish during the iteration, with polish_bound, while the iteration
// still closes the gap (iteration_closes), which it and the polish at the end follow when the
// polish fails: its rounds stop by the same rate rule, ROUNDS_RATE (LISWET4 and LISWET6 at 1e-6
// spent 17 factorisations there, about as many as their iterations, and ended solved 4
// iterations later); and the rounds without δ are skipped where one more step ends the solve as
// well, ROUNDS_RATE_IPM_ONLY (next_step_ends). Otherwise every round runs, ROUNDS_FULL.
// ladder: a pass from the interior point that ends with every sign kept but misses the test is
// repeated at larger proximal δ (polish_ladder).
typedef enum { ROUNDS_FULL, ROUNDS_RATE, ROUNDS_RATE_IPM_ONLY } polish_stop;
static int polish(qcp_workspace *ws, ipm_stats *st, int last_resort, polish_stop rounds,
                  int ladder) {
  const qcp_settings *set = &ws->set;
  const int by_rate = rounds != ROUNDS_FULL;
  const int m = ws->K.m;
  if (ws->K.nsoc > 0 || m == 0) return 0;
  save_best(ws);
  double *act = ws->dsa;  // scratch: the directions are not needed after the iteration
  // a last resort keeps its most accurate sign-keeping point (keep_candidate): finish returns it
  // if it beats the interior point, and the last-bit selection starts from it
  double *candidate = last_resort ? &ws->cand_units : NULL;
  interior_active_set(ws, act);
  // sign tests before the clean-up, at the solver's own tolerance
  double tol = fmax(set->eps_abs, set->eps_rel * fmax(1.0, fmax(st->pscale, st->dscale)));
  int bad = polish_round(ws, act, tol, POLISH_PLAIN);
  if (bad == 0 && polish_accept(ws, st)) return 1;
  if (bad == 0 && candidate) keep_candidate(ws, candidate, exact_units(ws));
  // refined from the interior point with the static δ kept: every refinement step is then a
  // proximal step on the degenerate system (without δ the near-zero pivots make it oscillate:
  // QPCBOEI2's residual swung between 1e-10 and 7e-9)
  int first_bad = -1, last_bad;
  if (polish_rounds(ws, act, tol, POLISH_FROM_IPM, st, candidate, by_rate, -1, &first_bad,
                    &last_bad))
    return 1;
  if (ladder && set->proximal && last_bad == 0 && polish_ladder(ws, act, tol, st)) return 1;
  if (rounds == ROUNDS_RATE_IPM_ONLY) {
    restore_best(ws);
    return 0;
  }
  // again without the static regularisation, whose refinement stalls on a nearly dependent
  // active set (LISWET: 9999 second-difference rows on 10002 variables), from 0
  qcp_kkt_fill(&ws->kkt, &ws->prob, &ws->K, 0.0);
  // the first round's violations judged against the pass from the interior point where the
  // polish is bounded and not a last resort (polish_rounds), on the proximal path only: on the
  // exact Newton path paper A's foundation step (tests/qcp qcp_step, bounded) began this pass
  // with 9 violations against 0 and was accepted after 8 rounds (9, 7, 20, 13, 9, 2, 1, 0)
  const int ref = set->polish_bound && set->proximal && !last_resort ? first_bad : -1;
  if (polish_rounds(ws, act, tol, POLISH_ACCURATE, st, candidate, by_rate, ref, &first_bad,
                    &last_bad))
    return 1;
  // last, the best candidate's last bits (CONT-201: the plain pass's point would pass that way
  // at residuals of 5e-10, the pass from the interior point passes as it is at 1e-15)
  if (set->lastbit && candidate && *candidate < INFINITY && time_fits(ws, 0.0) &&
      lastbit_accept(ws, st)) {
    ws->info.lastbit = 1;
    return 1;
  }
  restore_best(ws);
  return 0;
}

// Polish during the iteration. An iterate can meet the double-precision test (residuals and sᵀz)
// while the exact test never passes: the exact |pobj − dobj| carries xᵀr_x and zᵀr_z over large
// multipliers (QSCRS8: converged in the double sense at iteration ~35, then μ driven to 1e-47
// until the stall window, a restart and 127 iterations in all; LISWET1/2: the 200-iteration
// limit), and only the polish at the end makes the point pass. So once the best iterate passes
// the double test, the polish is tried at once (at most EARLY_POLISH_TRIES times, EARLY_POLISH_GAP
// iterations apart); a polished point that passes the full test ends the solve as solved.
// Otherwise the iterate, its residuals and the KKT matrix (the polish rewrote it and its δ) are
// restored and the iteration goes on as before. Orthant cones only, as the polish.
#define EARLY_POLISH_TRIES 2
#define EARLY_POLISH_GAP 10

// Where an absolute gap threshold asks for a relative gap far below what identifies the active set
// (large objectives: HUES-MOD at 1e-6, objective 3.5e7, threshold 3e-14 relative), the iteration
// spends its last steps on digits the polish does not need: sᵀz falls ~12-fold per step and the
// polish of iteration 7 already passes, that of 14 was the first tried. So once per solve, on the
// proximal path, the polish is also tried when the residuals pass, sᵀz is at most
// EARLY_POLISH_REL of the objective, no orthant row changed sides (s < z) over the last step
// (active_set_settled) and, at the rate sᵀz fell over that step, the iteration needs more than
// EARLY_WIDE_LEFT further steps (HUES-MOD: iteration 10, 14 → 10 iterations). A failed try
// leaves the usual tries and their spacing as they were. Without the side test, the tries at
// 1e-6 failed on 15 of the 131 problems (CVXQP3_M: 7 factorisations, 63 → 130 refinement steps;
// QSCFXM1, QCAPRI, Q25FV47: 7–25 rows changed sides over that step), with it on 3; without the
// step count GOULDQP2's at 1e-9 failed two steps before the end (3 factorisations).
#define EARLY_POLISH_REL 1e-8
#define EARLY_WIDE_LEFT 2

// the double-precision test of converged_checked (its first, cheap stage)
static int double_converged(const qcp_settings *set, const ipm_stats *st) {
  ipm_stats cheap = *st;
  cheap.pdgap = 0.0;
  return converged(&cheap, set->eps_abs, set->eps_rel, set->strict_gap);
}

// 1 if the iteration still closes the gap at iterate it: the exact gap is mostly sᵀz, which the
// steps reduce, or a residual above rounding level (POLISH_FLOOR, relative) fell at least half as
// far as the last step promised ((1 − α)·r without errors). Then a failed polish costs a few
// iterations, and its rounds stop by the violations' rate. Otherwise the gap is residual terms
// that the solves' error holds: the iteration cannot end the solve and the polish is all that
// can, so its rounds run in full (paper A's foundation, n = 10, E = 1e11, F = 50 N: pres 6.9e-12
// → 7.8e-12 relative while μ fell 100-fold, the exact gap 1.8e-5 against 1.2e-5 with sᵀz 7e-6;
// its violations 9, 7, 20, 13, 9, 2, 1, 0 were stopped after 7, and the solve ran to its
// 50-iteration limit instead of 17). Over one step both residuals: LISWET11 at 1e-6 holds dres
// at 2.2e-11 while pres falls 8-fold per step and the solve ends 5 iterations later.
#define POLISH_FLOOR (10.0 * DBL_EPSILON)
static int iteration_closes(const qcp_workspace *ws, const ipm_stats *st, int it) {
  if (it == 0 || st->pdgap <= 2.0 * fabs(st->gap)) return 1;
  const qcp_iter_record *last = &ws->rec[it - 1];
  const double keep = 1.0 - 0.5 * last->step;
  return (st->pres > POLISH_FLOOR && st->pres <= keep * last->pres) ||
         (st->dres > POLISH_FLOOR && st->dres <= keep * last->dres);
}

// 1 if one more step as long as the last (α) would end the solve: the iterate meets the
// double-precision test, and the exact gap, whose sᵀz and residual terms the step scales by
// 1 − α, would fall below its threshold. There the polish's rounds without δ are worth less than
// that step: on the 131 Maros–Mészáros problems under 5 s (1e-9 / 1e-6), 23 / 19 early polishes
// met this forecast, the 15 / 13 accepted were so before those rounds, the 8 / 6 others spent 27 /
// 15 factorisations in them; every early polish accepted in them had its forecast gap at least
// twice its threshold, or an iteration that could not close the gap (QSCSD6 at 1e-9: sᵀz and
// |pobj − dobj| each at 0.52 of the threshold, their sum above it, α = 0.92; the rounds without δ
// found 100, 78 sign violations, and the next iterate passed).
static int next_step_ends(qcp_workspace *ws, const ipm_stats *st, int it) {
  const qcp_settings *set = &ws->set;
  if (it == 0) return 0;
  ipm_stats acc = *st;
  accurate_stats(ws, &acc);
  const double gap = set->strict_gap ? fabs(acc.gap) + acc.pdgap : fmax(fabs(acc.gap), acc.pdgap);
  return (1.0 - ws->rec[it - 1].step) * gap <= gap_threshold(&acc, set->eps_abs, set->eps_rel);
}

// Where one more step as long as the last is forecast to end the solve (next_step_ends, the
// iteration closing the gap), that step costs less than the polish, accepted or not: a polish
// round refines its solve until it stops improving (up to refine_iter steps) and judges its point
// on the exact sums. On the 131 Maros–Mészáros problems, where the forecast held, a try cost a
// median 3 iterations' CPU at 1e-6 and at 1e-9 (25 tries each, 0.6–9; QSIERRA at 1e-6: 9.5 ms,
// not accepted, against 1.1 ms per iteration, and iteration 30 passes; DUAL4 0.61 ms, accepted,
// against 0.19 ms). So the usual try waits once for the next iterate (polish_waited): the step
// either ends the solve or the try is made there. Not after a full step (α = 1), whose forecast
// (1 − α)·gap is 0 whatever the gap (LISWET8 at 1e-6: exact gap 7.7e3 thresholds after a full
// step, 10 more iterations). 1 if the try waits.
static int polish_waits(qcp_workspace *ws, const ipm_stats *st, int it) {
  const int wait = ws->set.polish_bound && !ws->polish_waited && it > 0 &&
                   ws->rec[it - 1].step < 1.0 && iteration_closes(ws, st, it) &&
                   next_step_ends(ws, st, it);
  ws->polish_waited = wait;
  return wait;
}

static int rounding_level(const qcp_settings *set, const ipm_stats *st);

static int early_wide(const qcp_workspace *ws, const ipm_stats *st, int it);

static int early_polish(qcp_workspace *ws, ipm_stats *st, int it, int best_it, int *tries,
                        int *next_it) {
  const qcp_settings *set = &ws->set;
  if (!set->polish || ws->K.nsoc > 0 || ws->K.m == 0 || it != best_it || it < *next_it ||
      *tries >= EARLY_POLISH_TRIES)
    return 0;
  const int usual = double_converged(set, st);
  if (!usual && !early_wide(ws, st, it)) return 0;
  if (usual) {
    if (polish_waits(ws, st, it)) return 0;
    ++*tries;
    *next_it = it + EARLY_POLISH_GAP;
  } else {
    ws->early_wide = 1;
  }
  // the x and y diagonals as the iteration left them (its δ changes are increments: a refill
  // rounds differently), kept in the centrality corrector's scratch (free here)
  qcp_kkt *kkt = &ws->kkt;
  const int n = ws->prob.n, p = ws->prob.p;
  const double delta = kkt->delta;
  for (int i = 0; i < n; i++) ws->cdx[i] = kkt->Kx[kkt->mapD[i]];
  for (int i = 0; i < p; i++) ws->cdy[i] = kkt->Kx[kkt->mapD[n + i]];
  ipm_stats polished = *st;
  const int f0 = ws->info.factorizations;
  polish_stop rounds = ROUNDS_FULL;
  if (set->polish_bound && iteration_closes(ws, st, it))
    rounds = next_step_ends(ws, st, it) ? ROUNDS_RATE_IPM_ONLY : ROUNDS_RATE;
  // the ladder where the iterate is at rounding level, which the iteration cannot improve, unless
  // one more step is forecast to end the solve (QSCSD6 at 1e-9: its ladder's first pass, at
  // iteration 18, violated signs, and the next iterate passed)
  const int ladder = rounds != ROUNDS_RATE_IPM_ONLY && rounding_level(set, st);
  const int ok = polish(ws, &polished, 0, rounds, ladder);
  if (set->verbose)
    fprintf(stderr, "qcp: polish tried at iteration %d: %s, %d factorisations\n", it,
            ok ? "accepted" : "not accepted", ws->info.factorizations - f0);
  if (ok) {
    *st = polished;
    ws->early_polished = 1;
    return 1;
  }
  // polish restored the iterate (the best one, saved this iteration); the matrix as it was
  qcp_kkt_fill(kkt, &ws->prob, &ws->K, delta);
  for (int i = 0; i < n; i++) kkt->Kx[kkt->mapD[i]] = ws->cdx[i];
  for (int i = 0; i < p; i++) kkt->Kx[kkt->mapD[n + i]] = ws->cdy[i];
  compute_residuals(ws, st);
  return 0;
}

// The endgame decided by rounding: an iterate converged to rounding level (each measure within
// ROUND_LEVEL·ε of its scale, or passing; sᵀz for the gap) whose check has not passed. Where the
// gap's threshold is below ROUND_LUCK·ε·terms, the rounding that the largest term of pobj − dobj
// (xᵀPx, cᵀx, bᵀy or hᵀz) puts on it, no double point passes except by a rounding accident of odds
// ≲ ROUND_LUCK, and more iterations or a restart only retrace it (HUESTIS at 1e-9: objective
// 3.5e11, rounding ~4e-5; converged by iteration 22, it then ran 113 more: to the stall window, a
// restart and the stall window again). The largest term, not |pobj|: the one-ulp move of the
// exact gap is within 2.1× above ε·terms and 2–20× above ε·|pobj| (HUESTIS 3.2e-4 against 1.5e-4
// and 7.7e-5, QSHELL 6.5e-4 / 7.0e-4 / 3.5e-4, POWELL20 2.3e-4 / 2.3e-5 / 1.2e-5), and with |pobj|
// HUESTIS at 1e-6 (threshold 1.3 % of ε·|pobj|) ran 91 iterations instead of 15, failing at the
// same rounding (its polished gap 1.6e-4 at dual residual 1e-11). The solve stops there
// with the best iterate, no restart (finish still polishes it). The residuals' scales are not
// used: they depend on the point where the solution is not unique (QFFFFF80's multipliers, dual
// scale 1e12, QSCRS8's slacks, 3.5e7: their restarts end at points that pass).
#define ROUND_LUCK 1e-2
#define ROUND_LEVEL 10.0

// 1 if every measure of st is within ROUND_LEVEL·ε of its scale or passing (sᵀz for the gap)
static int rounding_level(const qcp_settings *set, const ipm_stats *st) {
  double thr_p = fmax(set->eps_abs, set->eps_rel * st->pscale);
  double thr_d = fmax(set->eps_abs, set->eps_rel * st->dscale);
  double thr_g = gap_threshold(st, set->eps_abs, set->eps_rel), e = ROUND_LEVEL * DBL_EPSILON;
  return st->pres_abs <= fmax(thr_p, e * st->pscale) &&
         st->dres_abs <= fmax(thr_d, e * st->dscale) && fabs(st->gap) <= fmax(thr_g, e * st->terms);
}

// The magnitudes the residuals' double sums round against: the largest Σ|terms| of a row of
// r_y = Ax − b and r_z = Gx + s − h (*pmag) and of a column of r_x = Px + c + Aᵀy + Gᵀz (*dmag), in
// the caller's units (the equilibration's factors are powers of two). ‖Aᵀy‖∞ and the other norms
// of the scales are those of the sums, not of their terms: where multipliers of opposite signs
// cancel in a column (CVXQP1_L: max|y| 4e7) the terms are far larger than the scale.
static void residual_magnitudes(qcp_workspace *ws, double *pmag, double *dmag) {
  const qcp_problem *pr = &ws->prob;
  const qcp_scaling *sc = &ws->scl;
  const int n = pr->n, p = pr->p, m = ws->K.m;
  const double *D = sc->applied ? sc->D : NULL, *Ey = sc->applied ? sc->Ey : NULL;
  const double *Ez = sc->applied ? sc->Ez : NULL;
  sc_dd *col = ws->ddn, *row = ws->ddm;  // only their hi parts: the termination check's scratch
  for (int j = 0; j < n; j++) col[j].hi = fabs(ws->c[j]);
  const qcp_csc *P = &pr->P;
  for (int j = 0; j < n; j++)  // |P||x| from the upper triangle
    for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++) {
      const int i = P->rowind[k];
      col[i].hi += fabs(P->values[k] * ws->x[j]);
      if (i != j) col[j].hi += fabs(P->values[k] * ws->x[i]);
    }
  double pm = 0.0, dm = 0.0;
  for (int b = 0; b < 2; b++) {  // A's rows, then G's
    const qcp_csc *M = b == 0 ? &pr->A : &pr->G;
    const int rows = b == 0 ? p : m;
    const double *v = b == 0 ? ws->y : ws->z, *E = b == 0 ? Ey : Ez;
    if (rows == 0) continue;
    for (int i = 0; i < rows; i++)
      row[i].hi = b == 0 ? fabs(ws->b[i]) : fabs(ws->h[i]) + fabs(ws->s[i]);
    for (int j = 0; j < n; j++)
      for (int k = M->colptr[j]; k < M->colptr[j + 1]; k++) {
        row[M->rowind[k]].hi += fabs(M->values[k] * ws->x[j]);
        col[j].hi += fabs(M->values[k] * v[M->rowind[k]]);
      }
    for (int i = 0; i < rows; i++) pm = fmax(pm, E ? row[i].hi / E[i] : row[i].hi);
  }
  for (int j = 0; j < n; j++) dm = fmax(dm, D ? col[j].hi / D[j] : col[j].hi);
  *pmag = pm, *dmag = dm / sc->cost;
}

// Where the residuals round as well (proximal path only): an iterate whose sᵀz is at its level
// and whose residuals are within ROUND_LEVEL·ε of the magnitudes their sums round against
// (residual_magnitudes, not the scales: CVXQP1_L's dual residual sits at 1e-8 … 3e-8 against
// ε·dmag = 7.2e-8, where 10ε·dscale is 2.7e-10) is decided by rounding when the odds that
// rounding lands a double point within all three thresholds, the product of
// min(1, threshold/(ε·magnitude)) over the residuals and the gap (terms), are below ROUND_LUCK:
// CVXQP1_L at 1e-9, 0.014 × 0.021, and none of its one-ulp neighbours passes. Such odds are not a
// bound: an iterate refined on the exact (power-of-two) scaled problem can beat them (QSEBA at
// 1e-9 passes at the iterate after the first so judged, gap 3.6e-10 against a rounding scale of
// 5.6e-8; QPILOTNO's restarted run is so judged for 27 iterations before its final polish
// passes), and where the multipliers are not unique the magnitudes depend on the point
// (QFFFFF80: its restart from the ρ = 1e4 point ends at one that passes). So this only ends a
// first cold run, after ROUND_RUN such iterates in a row, the restart rules following as after a
// stall (CVXQP1_L: 25 iterations of the stall window at rounding level saved, QFFFFF80 22); a
// run after a restart keeps its stall window. Returns 0, 1 (the gap's rounding decides: stop)
// or 2 (the residuals' with it).
#define ROUND_RUN 3
// An iterate whose exact |pobj − dobj| (at least ROUND_LEVEL·ε of its largest term, what one ulp
// of the point moves it by) rose above GAP_RISE times the smallest of the run so far starts the
// run anew: the point still moves by more than rounding, in a measure the odds above do not see
// (STADAT1 at 1e-9, x ~ 1e5–1e6: 2.9e-6 at iterate 15, 1.3e-4 at 16 and 17, where the run of
// three ended the first run and the best iterate by merit, 16, was returned with a gap of 1.3e-4;
// counted anew from 16, it ends at 18, gap 3.0e-6, the point returned as without the rule). Not
// a requirement that the gap has stopped falling: where the rule pays, it still falls 4–8-fold
// per iterate when it ends the run (CVXQP1_L 1.1e-4, 3.1e-5, 8.2e-6; QPCBOEI2 2.5e-3, 3.1e-4,
// 3.9e-5), and waiting until three in a row settled within a factor 2 took CVXQP1_L 74 iterations
// instead of 68 and QPCBOEI2 100 instead of 94. The exact gap, not the double one, whose
// rounding (the sums of pobj and dobj over their elements) exceeds ROUND_LEVEL·ε·terms: CVXQP3_L's
// double gap swung between 1.6e-7 and 4.0e-6 while the exact one stayed at 1.3e-7–2.7e-7 (and
// 2.2e-9 once), which delayed its first run's end from iterate 15 to 18.
#define GAP_RISE 2.0
static int rounding_decides(qcp_workspace *ws, const ipm_stats *st) {
  const qcp_settings *set = &ws->set;
  const double thr_g = gap_threshold(st, set->eps_abs, set->eps_rel);
  const double e = ROUND_LEVEL * DBL_EPSILON;
  if (rounding_level(set, st) && thr_g < ROUND_LUCK * DBL_EPSILON * st->terms) return 1;
  if (!set->proximal || !(fabs(st->gap) <= fmax(thr_g, e * st->terms))) return 0;
  const double thr_p = fmax(set->eps_abs, set->eps_rel * st->pscale);
  const double thr_d = fmax(set->eps_abs, set->eps_rel * st->dscale);
  double pmag, dmag;
  residual_magnitudes(ws, &pmag, &dmag);
  if (!(st->pres_abs <= fmax(thr_p, e * pmag) && st->dres_abs <= fmax(thr_d, e * dmag))) return 0;
  const double odds = fmin(1.0, thr_p / (DBL_EPSILON * pmag)) *
                      fmin(1.0, thr_d / (DBL_EPSILON * dmag)) *
                      fmin(1.0, thr_g / (DBL_EPSILON * st->terms));
  return odds < ROUND_LUCK ? 2 : 0;
}

// the length of the run of iterates that rounding decides with the residuals, with this one
// (rounding_decides returned 2); *gap_min is the run's smallest exact |pobj − dobj|, floored at
// ROUND_LEVEL·ε of its largest term: a gap above GAP_RISE times it starts the run anew
static int rounded_run_next(qcp_workspace *ws, const ipm_stats *st, int run, double *gap_min) {
  ipm_stats acc = *st;
  accurate_stats(ws, &acc);
  const double gap = fmax(acc.pdgap, ROUND_LEVEL * DBL_EPSILON * st->terms);
  if (run == 0 || gap > GAP_RISE * *gap_min) run = 0, *gap_min = gap;
  *gap_min = fmin(*gap_min, gap);
  return run + 1;
}

// 1 if, at the rate sᵀz fell over the last step, more than k further steps would not bring it to
// its threshold (a rate that is not a fall: 1)
static int steps_left(const qcp_workspace *ws, const ipm_stats *st, int it, int k) {
  const double rate = fabs(st->gap) / fabs(ws->rec[it - 1].gap);
  if (!(rate < 1.0)) return 1;
  return fabs(st->gap) * pow(rate, k) > gap_threshold(st, ws->set.eps_abs, ws->set.eps_rel);
}

// 1 if no orthant row changed sides (s below z, or not) over the last step: the previous iterate
// is the current one less the step taken (its directions are still in ds and dz)
static int active_set_settled(const qcp_workspace *ws, int it) {
  const double a = ws->rec[it - 1].step;
  int flips = 0;
  for (int i = 0; i < ws->K.m; i++)
    flips += (ws->s[i] < ws->z[i]) != (ws->s[i] - a * ws->ds[i] < ws->z[i] - a * ws->dz[i]);
  return flips == 0;
}

// 1 for the one try at a relative gap (EARLY_POLISH_REL): proximal path, residuals passing, sᵀz
// within EARLY_POLISH_REL of the objective, and a gap threshold that rounding does not decide
// (HUESTIS, the same problem with the objective ×1e4: its polished gap is what rounding makes it,
// 3.2e-4 per ulp against 1e-6, and the try at iteration 8 cost 5 factorisations)
static int early_wide(const qcp_workspace *ws, const ipm_stats *st, int it) {
  const qcp_settings *set = &ws->set;
  if (!set->proximal || ws->early_wide || it == 0) return 0;
  ipm_stats res = *st;
  res.gap = res.pdgap = 0.0;  // the residuals' part of the test
  return gap_threshold(st, set->eps_abs, set->eps_rel) >= ROUND_LUCK * DBL_EPSILON * st->terms &&
         converged(&res, set->eps_abs, set->eps_rel, set->strict_gap) &&
         fabs(st->gap) <= EARLY_POLISH_REL * fmax(1.0, fmin(fabs(st->pobj), fabs(st->dobj))) &&
         steps_left(ws, st, it, EARLY_WIDE_LEFT) && active_set_settled(ws, it);
}

// An iterate at rounding level (rounding_level, and the double |pobj − dobj| within ROUND_LEVEL·ε
// of its largest term) that does not pass the check is no progress for the stall window, even
// when its merit is lower: further steps only move the point by rounding (μ falls to 1e-47 while
// the measures fluctuate by an ulp, and each fluctuation down counted as a better iterate, so the
// window never closed: QSCRS8 from iteration 35 to 95, its slack of 3.5e7 holding the exact
// primal residual at one ulp, 7e-9, against 1e-9). The window then counts from the last iterate
// above rounding level; the restart rules that follow a stall are unchanged.
static int rounding_flat(const qcp_settings *set, const ipm_stats *st) {
  return rounding_level(set, st) && st->pdgap <= fmax(gap_threshold(st, set->eps_abs, set->eps_rel),
                                                      ROUND_LEVEL * DBL_EPSILON * st->terms);
}

// Once sᵀz is below its threshold the steps are long (μ falls ~100-fold per step) and the residuals
// left are what the Newton solves' error holds: only a fall of the merit below CLOSED_GAIN of the
// run's best counts as a better iterate for the stall window then. QPILOTNO (split steps, 1e-9):
// primal residual 3.3e-11 relative from iteration 26, |pobj − dobj| = 54 (that residual times
// multipliers ~1e6) falling 0.07 % per iteration, each a new best, so the window never closed and
// μ fell to 1e-300 by iteration 191 before the restart that then solves it. Proximal path only
// (setting proximal): on the exact Newton path it changed paper A's foundation (n = 10, E = 1e11,
// F = 50 N: 3839 → 3543 solver iterations, one more step retried, pressures in the 11th digit).
#define CLOSED_GAIN 0.5

// the caller's starting values: finite where given, x0 present for feasible and warm starts
static int check_start(const qcp_workspace *ws, qcp_start start, const double *x0, const double *s0,
                       const double *y0, const double *z0, qcp_error *err) {
  const int n = ws->prob.n, p = ws->prob.p, m = ws->K.m;
  if (start != QCP_START_COLD && !x0)
    return qcp_fail(err, QCP_ERR_START, "feasible and warm starts need x0");
  if (x0 && start != QCP_START_COLD)
    for (int j = 0; j < n; j++)
      if (!isfinite(x0[j])) return qcp_fail(err, QCP_ERR_START, "x0[%d] is not finite", j);
  if (start == QCP_START_WARM) {  // the dual parts of a warm start too (each may be NULL)
    const double *v[3] = {s0, y0, z0};
    const int len[3] = {m, p, m};
    const char *name[3] = {"s0", "y0", "z0"};
    for (int k = 0; k < 3; k++)
      for (int i = 0; v[k] && i < len[k]; i++)
        if (!isfinite(v[k][i]))
          return qcp_fail(err, QCP_ERR_START, "%s[%d] is not finite", name[k], i);
  }
  return QCP_OK;
}

// the verbose line of iterate it. The absolute measures are what the stopping test compares
// with eps_abs (and eps_rel times the scale): with a relative tolerance of 0 the relative columns
// alone do not show why the iteration goes on
static void print_iteration(const qcp_workspace *ws, const ipm_stats *st, int it) {
  if (it == 0)
    fprintf(stderr,
            "qcp: pres, dres relative to max(1, scale), absolute in brackets; gap s'z, "
            "|pobj - dobj| in brackets (the iteration's sums, unscaled problem)\n");
  fprintf(stderr,
          "qcp %3d  pobj %+.8e  pres %.2e (%.1e)  dres %.2e (%.1e)  gap %.2e (%.1e)  mu %.2e  "
          "t %.3f\n",
          it, st->pobj, st->pres, st->pres_abs, st->dres, st->dres_abs, st->gap, st->pdgap, st->mu,
          ws->rec[it].time);
}

// why the iteration stops at iterate it (QCP_UNSOLVED: it goes on)
static qcp_status stop_reason(qcp_workspace *ws, ipm_stats *st, int it, int best_it) {
  const qcp_settings *set = &ws->set;
  if (converged_checked(ws, st)) return QCP_SOLVED;
  qcp_status cert = it > 0 ? certify(ws) : QCP_UNSOLVED;  // not from the starting point
  if (cert != QCP_UNSOLVED) return cert;
  if (it >= set->max_iter) return QCP_MAX_ITERATIONS;
  if (!time_fits(ws, iteration_cost(ws, it))) {  // the next would not end within the limit
    if (set->verbose)
      fprintf(stderr, "qcp: time limit: %.3f s used, the last iteration took %.3f s\n",
              ws->rec[it].time, iteration_cost(ws, it));
    return QCP_TIME_LIMIT;
  }
  // no progress for a whole window (no better iterate and no re-centring step, qcp_solve): more
  // iterations will not help, say so now
  if (it - best_it >= set->stall_window) return QCP_STALLED;
  return QCP_UNSOLVED;
}

// Iterative refinement against the unregularised KKT matrix converges at the rate δ/(λ + δ) for
// an eigenvalue λ of it; on problems whose constraint rows are nearly dependent (YAO, QPCBOEI2:
// differences of neighbouring variables) λ ≪ δ and the refined solution keeps a residual of
// ~1e-5 of the right-hand side: the step then does not reduce the primal residual by (1 − α) and
// the iteration stalls at pres ~1e-6. When the last iteration's refinement left more than
// REG_RELAX_REL of the right-hand side AND more than REG_RELAX_FRAC of the smaller of the primal
// and dual residuals (so that it is what limits their decrease), the static regularisation is
// lowered 100-fold for the rest of the solve, down to REG_FLOOR (the dynamic pivot regularisation
// still guards the factorisation). Problems whose refinement converges keep the configured δ and
// their iterates; a relaxed δ under which the factorisation fails is undone (qcp_solve).
// REG_RELAX_REL, REG_RELAX_FRAC, REG_FLOOR: defined with the other constants at the top

// Columns without curvature (LP columns, P_jj = 0) whose rows are all inactive have the pivot
// δ + Σ g²z/s, and z/s → 0 with μ: the proximal step moves such an x_j by r_j/δ and leaves its dual
// residual r_j as it was (the error δ·dx_j is all of it, and refinement against K converges at
// δ/(λ + δ) ≈ 1). Where r_j can only be removed by a row becoming active (its slack driven to 0 by
// x_j, its multiplier taking r_j), x_j crawls there at r_j/δ per iteration while μ collapses:
// BOYD2's column 27464 (D_j = 1.2e-4, scaled x_j 4.4e4) moved 666 per iteration at δ = 1e-12 and
// r_j = 6.7e-10 (2.2e-5 in the caller's units), with ~2300 to go, when μ reached 1e-22 and the
// factor broke down. So in the endgame (every relative measure ≤ SPLIT_RES), where the last
// corrector's proximal error on the x rows was at least half the dual residual (dual_stall), δ
// goes below REG_FLOOR 100-fold, to STALL_REG_FLOOR (the dynamic pivot threshold follows it,
// ipm_iterate, so that such a pivot is not replaced by dyn_reg_delta), and, below REG_FLOOR, μ is
// held (σ ≥ STALL_SIGMA) while the predictor's proximal error is still half the dual residual, so
// that the multiplier of the row that becomes active can grow: with δ lowered (to 1e-16) at the
// same point and no hold, μ fell on, the dual residual stayed at 1.1e-6 relative, the steps
// became short and the crawl rule restarted the solve; holding μ wherever the dual residual
// stalled in the endgame, not only below REG_FLOOR, changed the iterations of 27 of the 131
// problems at 1e-6 (DUALC1 14 -> 29) and cost CPU ×1.04.
static int stalled_dual_delta(qcp_workspace *ws, int endgame) {
  qcp_kkt *kkt = &ws->kkt;
  if (!(ws->dual_stall && endgame && ws->prox_frac < PROX_ERR_FRAC && kkt->delta <= REG_FLOOR &&
        kkt->delta > STALL_REG_FLOOR))
    return 0;
  const double d = fmax(STALL_REG_FLOOR, 0.01 * kkt->delta);
  if (ws->set.verbose)
    fprintf(stderr,
            "qcp: dual residual held by the proximal term, static regularisation %.0e -> %.0e\n",
            kkt->delta, d);
  qcp_kkt_set_delta(kkt, d);
  return 1;
}

static void relax_regularisation(qcp_workspace *ws, int endgame) {
  qcp_kkt *kkt = &ws->kkt;
  // the last relaxation made the refinement worse (QBEACONF: 8e-10 of the rhs before, 2e-7
  // after): undone, and no more in this solve
  if (ws->relax_from > 0.0) {
    double before = ws->relax_rel;
    if (!(ws->kkt_worst <= before)) {
      if (ws->set.verbose)
        fprintf(stderr, "qcp: refinement worse (%.1e), static regularisation back to %.0e\n",
                ws->kkt_worst, ws->relax_from);
      qcp_kkt_set_delta(kkt, ws->relax_from);
      ws->relax_off = 1;
    }
    ws->relax_from = 0.0;
  }
  if (stalled_dual_delta(ws, endgame)) return;
  if (ws->relax_off || !(ws->kkt_worst > REG_RELAX_REL) || !(kkt->delta > REG_FLOOR)) return;
  if (!(ws->kkt_worst_abs > REG_RELAX_FRAC * fmin(ws->rnorm_p, ws->rnorm_d))) return;
  double d = fmax(REG_FLOOR, 0.01 * kkt->delta);
  if (ws->set.verbose)
    fprintf(stderr,
            "qcp: refinement residual %.1e (%.1e relative), static regularisation %.0e -> %.0e\n",
            ws->kkt_worst_abs, ws->kkt_worst, kkt->delta, d);
  ws->relax_from = kkt->delta;
  ws->relax_rel = ws->kkt_worst;
  qcp_kkt_set_delta(kkt, d);
}

// Gondzio's multiple centrality correctors (Comput. Optim. Appl. 6 (1996); Colombo & Gondzio,
// Comput. Optim. Appl. 41 (2008)) on the orthant rows. When the Mehrotra step is short, the
// products v_i = s̃_i z̃_i at a trial step α̃ = min(1, 1.5α + 0.1) are projected onto
// [β_lo μ_t, β_hi μ_t] (μ_t = σμ); the difference is added to the complementarity right-hand
// side and the system solved again with the same factor. The corrected direction is kept only if
// it lengthens the step by a margin. Only the orthant part is corrected (a second-order cone
// block keeps its Mehrotra right-hand side). Returns 0, or −1 on a non-finite solve.
#define MCC_TRIGGER 0.5  // correct only steps shorter than this (full steps need no help)
#define MCC_MAX 3
#define MCC_BETA_LO 0.1
#define MCC_BETA_HI 10.0

static int centrality_correct(qcp_workspace *ws, double mu_t, double *amax) {
  const int n = ws->prob.n, p = ws->prob.p, m = ws->K.m, l = ws->K.l;
  const double sf = ws->set.step_fraction;
  double alpha = fmin(1.0, sf * *amax);
  if (l == 0 || !(alpha < MCC_TRIGGER) || !(mu_t > 0.0)) return 0;
  for (int k = 0; k < MCC_MAX; k++) {
    double at = fmin(1.0, 1.5 * alpha + 0.1), lo = MCC_BETA_LO * mu_t, hi = MCC_BETA_HI * mu_t;
    for (int i = 0; i < l; i++) {
      double v = (ws->s[i] + at * ws->ds[i]) * (ws->z[i] + at * ws->dz[i]);
      double t = v < lo ? lo - v : (v > hi ? fmax(hi - v, -hi) : 0.0);
      ws->bs[i] += t;
    }
    memcpy(ws->cdx, ws->dx, (size_t)n * sizeof *ws->dx);
    if (p > 0) memcpy(ws->cdy, ws->dy, (size_t)p * sizeof *ws->dy);
    memcpy(ws->cdz, ws->dz, (size_t)m * sizeof *ws->dz);
    memcpy(ws->cds, ws->ds, (size_t)m * sizeof *ws->ds);
    // the correction changes the orthant rows' complementarity right-hand side only: solved from
    // the last direction, whose refinement it keeps (qcp_kkt_solve_prox)
    ws->kkt.from_kept = 1;
    int bad = newton_solve(ws, ws->dx, ws->dy, ws->dz, ws->ds);
    ws->kkt.from_kept = 0;
    if (bad) return -1;
    double an = fmin(qcp_cone_step(&ws->K, ws->s, ws->ds, INFINITY),
                     qcp_cone_step(&ws->K, ws->z, ws->dz, INFINITY));
    double alpha_new = fmin(1.0, sf * an);
    if (!(alpha_new >= 1.01 * alpha)) {  // no gain: the previous direction stays
      memcpy(ws->dx, ws->cdx, (size_t)n * sizeof *ws->dx);
      if (p > 0) memcpy(ws->dy, ws->cdy, (size_t)p * sizeof *ws->dy);
      memcpy(ws->dz, ws->cdz, (size_t)m * sizeof *ws->dz);
      memcpy(ws->ds, ws->cds, (size_t)m * sizeof *ws->ds);
      break;
    }
    alpha = alpha_new;
    *amax = an;
    if (alpha >= 1.0) break;
  }
  return 0;
}

// Separate primal and dual step lengths (settings.split_step; Wright, Primal-Dual Interior-Point
// Methods, SIAM 1997, §11.1 for LPs; PIQP takes them on QPs too): x and s move by α_p, 0.99 of the
// step to the boundary of s alone, y and z by α_d, that of z. One common step, the smaller, lets
// whichever side is blocked hold the other back: PRIMALC5 at 1e-9 took primal steps of 0.6 cut to
// the dual's 0.03 for 8 iterations until the crawl rule restarted it (24 iterations; 15 with
// split steps, no restart; PIQP 10), and LISWET7 109 → 33. On a QP the dual residual after the
// step is (1 − α_d) r_x + (α_p − α_d) P dx rather than (1 − α) r_x, which does no harm far from
// feasibility and which the gap safeguard (one step) does not model: so only while some relative
// residual is above SPLIT_RES; below, the common step (splitting there too cost iterations:
// QCAPRI 47 → 130, LISWET1 34 → 50 at 1e-9).
#define SPLIT_RES 1e-4

static void split_steps(const qcp_workspace *ws, const ipm_stats *st, double *alpha_p,
                        double *alpha_d) {
  if (!ws->set.split_step || ws->K.m == 0 || (st->pres <= SPLIT_RES && st->dres <= SPLIT_RES))
    return;
  const double sf = ws->set.step_fraction;
  *alpha_p = fmin(1.0, sf * qcp_cone_step(&ws->K, ws->s, ws->ds, INFINITY));
  *alpha_d = fmin(1.0, sf * qcp_cone_step(&ws->K, ws->z, ws->dz, INFINITY));
}

// The fraction of the step to the boundary: settings.step_fraction, and step_fraction_late once
// every relative residual is at most SPLIT_RES (one common step; the steps there are ~1 and μ
// falls by about 1 − fraction per step: 0.999 instead of 0.99 makes that 1000-fold, and the
// endgame of a solve to 1e-9 one or two steps shorter — QSCTAP2 16 → 14, CVXQP1_S 11 → 9).
static double step_fraction(const qcp_settings *set, const ipm_stats *st) {
  return st->pres <= SPLIT_RES && st->dres <= SPLIT_RES ? set->step_fraction_late
                                                        : set->step_fraction;
}

// 1 if the last Newton solve (proximal path) left at least PROX_ERR_FRAC of the dual residual on
// its x rows after refinement: the step cannot lower the dual residual (stalled_dual_delta)
static int proximal_stall(const qcp_workspace *ws) {
  return ws->set.proximal && !ws->kkt.met_limits && ws->rnorm_d > 0.0 &&
         ws->kkt.res_d >= PROX_ERR_FRAC * ws->rnorm_d;
}

// one Mehrotra predictor-corrector iteration from iterate it (SPEC §3 items 1–3): NT scaling,
// factorisation, affine predictor, corrector with σ = (μ_a/μ)³, step to the boundary (safeguarded)
// and the update. Returns 0, or −1 on a numerical failure.
static int ipm_iterate(qcp_workspace *ws, const ipm_stats *st, int it, double *alpha_out) {
  const int n = ws->prob.n, p = ws->prob.p, m = ws->K.m;
  const qcp_settings *set = &ws->set;
  if (m > 0 && qcp_cone_nt(&ws->K, ws->s, ws->z, &ws->nt, ws->lambda)) return -1;
  // the residuals stay fixed through the iteration's solves: their norms are taken once
  ws->rnorm_d = qcp_vec_norm_inf(ws->rx, n);
  ws->rnorm_p = fmax(qcp_vec_norm_inf(ws->ry, p), qcp_vec_norm_inf(ws->rz, m));
  if (set->proximal) tolerance_floor(ws, st);
  // the endgame of stalled_dual_delta: every relative measure at most SPLIT_RES
  const int endgame = st->pres <= SPLIT_RES && st->dres <= SPLIT_RES &&
                      fabs(st->gap) <= SPLIT_RES * fmax(1.0, fabs(st->pobj));
  // after a long step (α ≥ 0.9, the endgame) the proximal error may reach only the share of the
  // residuals that step left, 1 − α (the next residuals are (1 − α)·r + α·e): a fixed half held
  // LISWET6's residuals back for 9 iterations; shorter steps keep the fixed half (PROX_ERR_FRAC)
  double last = it > 0 ? ws->rec[it - 1].step : 0.0;
  ws->prox_frac = last >= 0.9 ? fmax(REFINE_RES_FRAC, 1.0 - last) : PROX_ERR_FRAC;
  relax_regularisation(ws, endgame);
  ws->kkt_worst = ws->kkt_worst_abs = 0.0;
  qcp_kkt_set_w(&ws->kkt, &ws->K, &ws->nt, 1.0);
  // with δ below REG_FLOOR (stalled_dual_delta) a pivot of δ is kept, not replaced by dyn_reg_delta
  const double delta = ws->kkt.delta;
  const double piv_eps = delta < fmin(REG_FLOOR, set->static_reg)
                             ? fmin(set->dyn_reg_eps, 0.1 * delta)
                             : set->dyn_reg_eps;
  int nreg = qcp_kkt_factor(&ws->kkt, piv_eps, set->dyn_reg_delta);
  ws->info.factorizations++;
  if (nreg < 0) return -1;
  ws->info.dyn_reg_count += nreg;

  // predictor: bs = −λ∘λ
  qcp_cone_prod(&ws->K, ws->lambda, ws->lambda, ws->bs);
  for (int i = 0; i < m; i++) ws->bs[i] = -ws->bs[i];
  if (newton_solve(ws, ws->dx, ws->dy, ws->dza, ws->dsa)) return -1;
  // μ held (stalled_dual_delta) once δ is below REG_FLOOR and the step still cannot lower r_x
  const int hold = endgame && ws->kkt.delta < REG_FLOOR && proximal_stall(ws);
  double aa =
      fmin(qcp_cone_step(&ws->K, ws->s, ws->dsa, 1.0), qcp_cone_step(&ws->K, ws->z, ws->dza, 1.0));
  double sigma = 0.0;
  if (m > 0) {
    double mua = 0.0;
    for (int i = 0; i < m; i++) mua += (ws->s[i] + aa * ws->dsa[i]) * (ws->z[i] + aa * ws->dza[i]);
    mua /= ws->K.deg;
    sigma = fmin(1.0, fmax(0.0, mua / st->mu));
    sigma = sigma * sigma * sigma;
    if (hold) sigma = fmax(sigma, STALL_SIGMA);  // μ held while the dual residual stalls
  }
  // corrector: bs = −λ∘λ − (W⁻¹ds_a)∘(W dz_a) + σμe
  qcp_cone_scale(&ws->K, &ws->nt, 1, ws->dsa, ws->t2);
  qcp_cone_scale(&ws->K, &ws->nt, 0, ws->dza, ws->t3);
  qcp_cone_prod(&ws->K, ws->t2, ws->t3, ws->t1);
  for (int i = 0; i < m; i++) ws->bs[i] -= ws->t1[i];  // bs is still the predictor's −λ∘λ
  qcp_cone_add_identity(&ws->K, ws->bs, sigma * st->mu);
  if (newton_solve(ws, ws->dx, ws->dy, ws->dz, ws->ds)) return -1;
  ws->dual_stall = proximal_stall(ws);
  double amax = fmin(qcp_cone_step(&ws->K, ws->s, ws->ds, INFINITY),
                     qcp_cone_step(&ws->K, ws->z, ws->dz, INFINITY));
  if (centrality_correct(ws, sigma * st->mu, &amax)) return -1;
  double alpha = gap_safeguard(ws, st, fmin(1.0, step_fraction(set, st) * amax));
  double alpha_p = alpha, alpha_d = alpha;  // the step of (x, s) and of (y, z)
  split_steps(ws, st, &alpha_p, &alpha_d);
  ws->rec[it].sigma = sigma;
  ws->rec[it].step = alpha;  // the shorter of the two: the rules on step lengths read it
  for (int j = 0; j < n; j++) ws->x[j] += alpha_p * ws->dx[j];
  for (int i = 0; i < p; i++) ws->y[i] += alpha_d * ws->dy[i];
  for (int i = 0; i < m; i++) {
    ws->s[i] += alpha_p * ws->ds[i];
    ws->z[i] += alpha_d * ws->dz[i];
  }
  *alpha_out = alpha;
  return 0;
}

// A relaxed regularisation that made the factor fail (QSTAIR, QBANDM near the end): the iteration
// again, first at the δ before that relaxation (the last that factored), then at the configured
// one, with no more relaxation in this solve. Straight back to the configured δ lost what the
// relaxations before had won: QPILOTNO (1e-8 → 1e-10 → 1e-12, which failed) had its primal
// residual climb from 3e-7 to 1.8e-5 relative at 1e-8 and stay there (refinement against K does
// not remove the proximal error on its nearly dependent rows); at 1e-10 it falls to 3e-11.
// Returns 0, or −1 if the iteration failed at both.
static int retry_unrelaxed(qcp_workspace *ws, const ipm_stats *st, int it, double *alpha) {
  // on the exact Newton path straight back to the configured δ: the retry at the last δ that
  // factored changed paper A's pile creep there (one solve of 800 took 107 iterations, not 106)
  const double back[2] = {ws->set.proximal ? ws->relax_from : 0.0, ws->set.static_reg};
  ws->relax_off = 1;
  ws->relax_from = 0.0;
  for (int k = 0; k < 2; k++) {
    if (!(back[k] > ws->kkt.delta)) continue;
    qcp_kkt_set_delta(&ws->kkt, back[k]);
    if (!ipm_iterate(ws, st, it, alpha)) return 0;
  }
  return -1;
}

// No polished point passed: the more accurate of the best iterate and the polish's best
// sign-keeping point (keep_candidate) is returned, by the worst exact measure in units of the
// test's thresholds (exact_units). The iterate's gap carries its residuals weighted by large
// components and sᵀz; the polished point has s∘z = 0 (at 1e-9 HUESTIS's gap 1.1e-3 → 6.1e-5,
// POWELL20's 1.9e-4 → 2.4e-6, QSHELL's 9.4e-4 → 1.5e-4 with its dual residual 4.0e-9 → 1.1e-9;
// 6 of the 8 inaccurate ends of the 131 problems under 5 s at 1e-9 moved, every measure down,
// none to a pass).
static void return_most_accurate(qcp_workspace *ws, ipm_stats *st) {
  if (!(ws->cand_units < INFINITY && ws->cand_units < exact_units(ws))) return;
  copy_point(ws, ws->x, ws->y, ws->s, ws->z, ws->cdx, ws->cdy, ws->cds, ws->cdz);
  compute_residuals(ws, st);
  if (ws->set.verbose)
    fprintf(stderr, "qcp: returning the polished point, worst exact measure %.2g of the test\n",
            ws->cand_units);
}

// the outcome: the returned point is the best iterate unless solved or certified (or, ended
// inaccurate, a more accurate polished point: return_most_accurate); polish; back to the caller's
// variables; the statistics into info
static void finish(qcp_workspace *ws, qcp_status final, ipm_stats *st, int best_it, double t0) {
  const int n = ws->prob.n, p = ws->prob.p, m = ws->K.m;
  const qcp_settings *set = &ws->set;
  qcp_info *info = &ws->info;
  if (final == QCP_PRIMAL_INFEASIBLE || final == QCP_DUAL_INFEASIBLE) {
    normalise_certificate(ws, final);
  } else if (final != QCP_SOLVED) {
    if (best_it >= 0) {
      restore_best(ws);
      compute_residuals(ws, st);
    }
    if (best_it >= 0 && final != QCP_TIME_LIMIT && converged(st, set->eps_inacc, set->eps_inacc, 0))
      final = QCP_SOLVED_INACCURATE;
  }
  // polish a solved point; also an inaccurate one, which becomes solved when the polished point
  // passes the full check on the original data (large objectives: the interior-point gap stalls
  // at 1e-16 relative, the active-set solution has s∘z = 0 exactly)
  // a solved point's polish only improves a point that passes (polish_solved): on the 131
  // Maros–Mészáros problems under 5 s it cost 5–8 % of the CPU with the same passes
  int try_polish = (final == QCP_SOLVED && set->polish_solved) || final == QCP_SOLVED_INACCURATE;
  int f0 = info->factorizations, s0 = ws->kkt.solves, r0 = ws->kkt.refines;
  ws->cand_units = INFINITY;
  const polish_stop rounds =
      final == QCP_SOLVED && set->polish_bound ? ROUNDS_RATE_IPM_ONLY : ROUNDS_FULL;
  if (ws->early_polished)
    info->polished = 1;
  else
    info->polished = try_polish && set->polish ? polish(ws, st, final == QCP_SOLVED_INACCURATE,
                                                        rounds, final == QCP_SOLVED_INACCURATE)
                                               : 0;
  if (set->verbose && try_polish && set->polish && !ws->early_polished)
    fprintf(stderr,
            "qcp: final polish %s: %d factorisations, %d solves, %d refinement steps, ended at "
            "t %.3f\n",
            info->polished ? "accepted" : "not accepted", info->factorizations - f0,
            ws->kkt.solves - s0, ws->kkt.refines - r0, solve_elapsed(ws));
  // after a restart, the first run's best point may be the one the polish can finish (STADAT1:
  // its iterate 28 polishes to a pass at 1e-6, the restarted run's best, 67, does not)
  if (!info->polished && final == QCP_SOLVED_INACCURATE && set->polish && ws->first_run_kept) {
    swap_first_run(ws);
    restore_best(ws);
    compute_residuals(ws, st);
    info->polished = polish(ws, st, 1, ROUNDS_FULL, 1);
    if (!info->polished) {  // back to the whole solve's best point and its statistics
      swap_first_run(ws);
      restore_best(ws);
      compute_residuals(ws, st);
    }
  }
  if (info->polished) final = QCP_SOLVED;
  if (!info->polished && final == QCP_SOLVED_INACCURATE) return_most_accurate(ws, st);
  // an inaccurate point whose polish the limit cut short
  if (final == QCP_SOLVED_INACCURATE && ws->time_out) final = QCP_TIME_LIMIT;
  // back to the caller's variables; a certificate normalised in the scaled problem has its
  // violated inner product at −1/κ in the original one
  if (ws->scl.applied) qcp_scale_unscale(&ws->scl, n, p, m, ws->x, ws->s, ws->y, ws->z);
  if (final == QCP_PRIMAL_INFEASIBLE) {
    for (int i = 0; i < p; i++) ws->y[i] *= ws->scl.cost;
    for (int i = 0; i < m; i++) ws->z[i] *= ws->scl.cost;
  } else if (final == QCP_DUAL_INFEASIBLE) {
    for (int j = 0; j < n; j++) ws->x[j] *= ws->scl.cost;
    for (int i = 0; i < m; i++) ws->s[i] *= ws->scl.cost;
  }
  info->status = final;
  info->pobj = st->pobj;
  info->dobj = st->dobj;
  info->pres = st->pres;
  info->dres = st->dres;
  info->gap = st->gap;
  info->kkt_solves = ws->kkt.solves;
  info->refine_steps = ws->kkt.refines;
  info->solve_time = qcp_clock() - t0;
}

// The solve: a start, then the iteration until a stop reason (long on purpose: the state the
// stopping rules share — the best iterate, the stall and crawl counters, the one restart of a cold
// start — lives in this one loop rather than in a struct passed between pieces).
int qcp_solve(qcp_workspace *ws, qcp_start start, const double *x0, const double *s0,
              const double *y0, const double *z0, qcp_error *err) {
  double t0 = qcp_clock();
  ws->tl0 = qcp_limit_clock(&ws->set);
  ws->time_out = 0;
  int rc;
  const qcp_settings *set = &ws->set;
  qcp_info *info = &ws->info;
  info->status = QCP_UNSOLVED;
  info->iterations = 0;
  info->factorizations = 0;
  ws->kkt.solves = ws->kkt.refines = 0;
  info->dyn_reg_count = 0;
  info->lastbit = 0;
  ws->first_run_kept = 0;
  ws->early_polished = 0;
  ws->early_wide = 0;
  ws->polish_waited = 0;
  if ((rc = check_start(ws, start, x0, s0, y0, z0, err))) return rc;
  qcp_kkt_fill(&ws->kkt, &ws->prob, &ws->K, set->static_reg);
  ws->relax_off = 0;
  ws->relax_from = 0.0;
  ws->dual_stall = 0;
  ws->rows_dd = 0;

  // ---- starting point ----
  qcp_status final = QCP_UNSOLVED;
  if (start == QCP_START_FEASIBLE) {
    if ((rc = start_feasible(ws, x0, y0, err))) return rc;
  } else if (start == QCP_START_WARM) {
    start_warm(ws, x0, s0, y0, z0);
  } else {
    info->factorizations++;
    if (start_cold(ws)) final = QCP_NUMERICAL_ERROR;
  }

  ipm_stats st = {0};
  double best = INFINITY, run_best = INFINITY;     // over the solve; since the last (re)start
  double prev_res = INFINITY, prev_mu = INFINITY;  // the previous iterate's max(pres, dres), μ
  double crawl_res = INFINITY;  // max(pres, dres) when the current run of short steps began
  double feas_best = INFINITY;  // the first run's smallest max(pres, dres)
  int best_it = -1, run_best_it = -1, stall = 0, crawl = 0, it = 0;
  int polish_tries = 0, polish_next = 0;  // early_polish
  int restarted = start != QCP_START_COLD;
  double run_rho = set->cold_rho;  // the ρ of the current cold run's start (start_switch)
  int start_primal = 0;            // the start's primal residual above its dual one
  int switch_it = -1;              // the iteration the start switch moved to ρ = 1 (-1: none)
  int decided = 0;                 // stopped where rounding decides the check (rounding_decides)
  int rounded_run = 0;             // iterates in a row that rounding decides with the residuals
  double run_gap_min = INFINITY;   // their smallest |pobj − dobj| (GAP_RISE)
  for (it = 0;; it++) {
    compute_residuals(ws, &st);
    record(ws, it, &st);
    double alpha = 0;
    if (!isfinite(merit(&st))) {
      final = QCP_NUMERICAL_ERROR;
    } else {
      if (merit(&st) < best) {
        best = merit(&st);
        best_it = it;
        save_best(ws);
      }
      if (merit(&st) < (gap_open(&st, set) || !set->proximal ? 1.0 : CLOSED_GAIN) * run_best &&
          !rounding_flat(set, &st))
        run_best = merit(&st), run_best_it = it;
      // a step that lowered the residuals and raised μ is re-centring, slow progress rather than a
      // stall: on LISWET8-12 the gap grows for ~60 iterations (μ from 1e-7 to 1e-2) while the
      // primal residual falls by ~0.3 % per step, and then the steps lengthen and converge
      double res = fmax(st.pres, st.dres);
      if (!restarted && res < feas_best) feas_best = res;
      if (res < prev_res && st.mu > prev_mu && gap_open(&st, set)) run_best_it = it;
      prev_res = res, prev_mu = st.mu;
      if (set->verbose) print_iteration(ws, &st, it);
      final = stop_reason(ws, &st, it, run_best_it);
      if (final == QCP_UNSOLVED && early_polish(ws, &st, it, best_it, &polish_tries, &polish_next))
        final = QCP_SOLVED;
      const int rounded = final == QCP_UNSOLVED ? rounding_decides(ws, &st) : 0;
      rounded_run = rounded == 2 ? rounded_run_next(ws, &st, rounded_run, &run_gap_min) : 0;
      if (rounded == 1) {
        if (set->verbose)
          fprintf(stderr, "qcp: converged to rounding level, the check cannot pass\n");
        final = QCP_STALLED, decided = 1;
      } else if (rounded_run >= ROUND_RUN && !restarted) {
        // the first run ends; the restart rules follow, as after a stall
        if (set->verbose) fprintf(stderr, "qcp: converged to rounding level, the first run ends\n");
        final = QCP_STALLED;
      }
      if (final == QCP_UNSOLVED && ipm_iterate(ws, &st, it, &alpha)) {
        final = QCP_NUMERICAL_ERROR;
        if (ws->kkt.delta < set->static_reg && !retry_unrelaxed(ws, &st, it, &alpha))
          final = QCP_UNSOLVED;
      }
      // no progress for several iterations: give up and fall back to the best iterate
      stall = final == QCP_UNSOLVED && alpha < set->min_step ? stall + 1 : 0;
      if (stall >= set->max_stall) final = QCP_NUMERICAL_ERROR;
      crawl = final == QCP_UNSOLVED && alpha < CRAWL_STEP ? crawl + 1 : 0;
      if (crawl == 1) crawl_res = fmax(st.pres, st.dres);
      if (it == 0) start_primal = st.pres > st.dres;
      if (final == QCP_UNSOLVED && set->start_switch && !restarted && it == SWITCH_IT &&
          crawl >= SWITCH_IT && run_rho > 1.0 && start_primal && !start_switch(ws, &run_rho)) {
        switch_it = it;
        stall = crawl = 0;  // a new run: its own stall window and first-run feasibility
        run_best = prev_res = prev_mu = feas_best = INFINITY;
        continue;
      }
    }
    int crawling = crawl >= CRAWL_RUN && fmax(st.pres, st.dres) > CRAWL_GAIN * crawl_res;
    // a switched run that crawls from its own start as well: the restart at once, not after
    // CRAWL_RUN more short steps (start_switch)
    if (switch_it >= 0 && it == switch_it + 1 + SWITCH_IT && crawl >= SWITCH_IT) crawling = 1;
    if (final == QCP_UNSOLVED && !(crawling && !restarted)) continue;
    // a cold start that stalls, or crawls (CRAWL_RUN steps in a row shorter than CRAWL_STEP that
    // gained less than a factor 1/CRAWL_GAIN in the residuals: a badly centred start, CVXQP*_M took
    // 25 such steps before its 7 fast ones), gets one restart from a widely centred point
    // (no time for the restart's first iteration: the limit ends the solve)
    const int restart =
        (final == QCP_UNSOLVED || final == QCP_STALLED || final == QCP_NUMERICAL_ERROR) &&
        !restarted && !decided && it + 1 < set->max_iter;
    if (restart && !time_fits(ws, iteration_cost(ws, it))) {
      final = QCP_TIME_LIMIT;
    } else if (restart &&
               !(run_rho < ACTIVE_RHO && (best <= ENDGAME_MERIT || feas_best <= ENDGAME_FEAS)
                     ? restart_all_active(ws, final, &polish_tries, &polish_next)
                     : restart_cold(ws, final))) {
      restarted = 1;
      stall = crawl = 0;
      if (best_it >= 0) keep_first_run(ws);
      // the stall window counts from the restart; the best point is kept
      run_best = prev_res = prev_mu = INFINITY;
      final = QCP_UNSOLVED;
      continue;
    }
    if (stall >= set->max_stall) {  // the state after the last short step, for the record
      it++;
      compute_residuals(ws, &st);
      record(ws, it, &st);
    }
    break;
  }
  if (decided && best_it >= 0 && best_it != it) keep_stop_point(ws);
  info->iterations = it;
  finish(ws, final, &st, best_it, t0);
  return QCP_OK;
}
