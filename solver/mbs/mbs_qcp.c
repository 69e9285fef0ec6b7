// SPDX-License-Identifier: MIT
// The unilateral step through the sparse conic solver qcp (SPEC §1.2–1.3, §3), in lifted form.
//
// Variables x = (λ_S, w): the ns compliant active rows' forces and w = M⁻¹Gᵀλ [m/s²], kept as
// a variable so no W = G M⁻¹ Gᵀ is formed (SPEC §1.2 "solve it sparse"). With g_E = G_Eᵀ λ_E
// the generalised force of the explicit rows (D = 0) and ĉ0 the compliance-form targets without
// their coupling (mbs_step.c):
//   equality   M w − G_Sᵀ λ_S = g_E                                   (nv rows)
// relaxed:  min ½ λᵀCλ + ½ wᵀMw − ĉ0ᵀλ   s.t.  −λ_U ≤ 0
//   (eliminating w gives ½λᵀ(C + W)λ − ĉᵀλ, ĉ = ĉ0 − W_SE λ_E: the dense solver's problem; its
//   KKT conditions are 0 ≤ λ_U ⊥ r̂_U ≥ 0 and r̂_B = 0 through the free λ_B.)
// paper:    min ζ/2 ‖λ_U‖²   s.t.  C_B λ_B + G_B w = ĉ0_B,  −λ_U ≤ 0,  −(C_U λ_U + G_U w) ≤ −ĉ0_U
//   (paper A eqs. 83–85 row-scaled by 1/D, bilateral rows as equalities; ζ = 1/h by default).
// qcp's standard form is min ½xᵀPx + cᵀx s.t. Ax = b, Gx + s = h, s ∈ R₊^l. The structure is
// rebuilt every step into preallocated arrays and compared with the one qcp was set up with:
// qcp_setup (which allocates) runs only when the pattern changes, qcp_update otherwise.
#include "mbs_internal.h"

#ifdef MBS_HAVE_QCP

#include "qcp/qcp.h"

#include <stdlib.h>
#include <string.h>

struct mbs_qcp {
  qcp_workspace *qws;
  int n, p, l;  // sizes of the problem qws holds (n = 0: none)
  // structure and values under construction
  int *Pp, *Pi, *Ap, *Ai, *Gp, *Gi;
  double *Px, *Ax, *Gx, *c, *b, *h;
  // structure qws was set up with
  int *Pp0, *Pi0, *Ap0, *Ai0, *Gp0, *Gi0;
  // transpose of the active compliant rows: column j holds (row s, value) pairs
  int *Tp, *Ti, *cnt;
  double *Tx;
  int *uidx, *bidx;  // compact index → unilateral / bilateral numbering (−1 if not)
  int cap_n, cap_p, cap_l, cap_P, cap_A, cap_G;
};

static void *zalloc(size_t n, size_t size) { return calloc(n ? n : 1, size); }

int mbs_qcp_create(mbs_workspace *ws) {
  struct mbs_qcp *q = calloc(1, sizeof *q);
  if (!q) return -1;
  ws->qcp = q;
  const int nv = ws->nv, cap = ws->cap > 0 ? ws->cap : 1, me = (int)ws->mass_entries;
  const int nnz = ws->model->max_nnz;
  q->cap_n = cap + nv, q->cap_p = nv + cap, q->cap_l = 2 * cap;
  q->cap_P = cap + me, q->cap_A = 2 * nnz + cap + me, q->cap_G = 2 * cap + nnz;
  q->Pp = zalloc((size_t)q->cap_n + 1, sizeof(int)), q->Pp0 = zalloc((size_t)q->cap_n + 1, sizeof(int));
  q->Ap = zalloc((size_t)q->cap_n + 1, sizeof(int)), q->Ap0 = zalloc((size_t)q->cap_n + 1, sizeof(int));
  q->Gp = zalloc((size_t)q->cap_n + 1, sizeof(int)), q->Gp0 = zalloc((size_t)q->cap_n + 1, sizeof(int));
  q->Pi = zalloc((size_t)q->cap_P, sizeof(int)), q->Pi0 = zalloc((size_t)q->cap_P, sizeof(int));
  q->Ai = zalloc((size_t)q->cap_A, sizeof(int)), q->Ai0 = zalloc((size_t)q->cap_A, sizeof(int));
  q->Gi = zalloc((size_t)q->cap_G, sizeof(int)), q->Gi0 = zalloc((size_t)q->cap_G, sizeof(int));
  q->Px = zalloc((size_t)q->cap_P, sizeof(double));
  q->Ax = zalloc((size_t)q->cap_A, sizeof(double));
  q->Gx = zalloc((size_t)q->cap_G, sizeof(double));
  q->c = zalloc((size_t)q->cap_n, sizeof(double));
  q->b = zalloc((size_t)q->cap_p, sizeof(double));
  q->h = zalloc((size_t)q->cap_l, sizeof(double));
  q->Tp = zalloc((size_t)nv + 1, sizeof(int));
  q->cnt = zalloc((size_t)nv + 1, sizeof(int));
  q->Ti = zalloc((size_t)nnz, sizeof(int));
  q->Tx = zalloc((size_t)nnz, sizeof(double));
  q->uidx = zalloc((size_t)cap, sizeof(int));
  q->bidx = zalloc((size_t)cap, sizeof(int));
  if (!q->Pp || !q->Pp0 || !q->Ap || !q->Ap0 || !q->Gp || !q->Gp0 || !q->Pi || !q->Pi0 || !q->Ai ||
      !q->Ai0 || !q->Gi || !q->Gi0 || !q->Px || !q->Ax || !q->Gx || !q->c || !q->b || !q->h ||
      !q->Tp || !q->cnt || !q->Ti || !q->Tx || !q->uidx || !q->bidx)
    return -1;
  return 0;
}

void mbs_qcp_free(mbs_workspace *ws) {
  struct mbs_qcp *q = ws->qcp;
  if (!q) return;
  qcp_workspace_free(q->qws);
  free(q->Pp), free(q->Pp0), free(q->Ap), free(q->Ap0), free(q->Gp), free(q->Gp0);
  free(q->Pi), free(q->Pi0), free(q->Ai), free(q->Ai0), free(q->Gi), free(q->Gi0);
  free(q->Px), free(q->Ax), free(q->Gx), free(q->c), free(q->b), free(q->h);
  free(q->Tp), free(q->cnt), free(q->Ti), free(q->Tx), free(q->uidx), free(q->bidx);
  free(q);
  ws->qcp = NULL;
}

// transpose of the compliant active rows' Jacobian: column j → (s, G_s,j), duplicates merged
static void transpose_rows(mbs_workspace *ws, int ns, const int *sidx) {
  struct mbs_qcp *q = ws->qcp;
  const mbs_rows *r = ws->rows;
  const int nv = ws->nv;
  for (int j = 0; j <= nv; j++) q->cnt[j] = 0;
  for (int s = 0; s < ns; s++) {
    int i = ws->act[sidx[s]];
    for (int k = r->start[i]; k < r->start[i + 1]; k++) q->cnt[r->col[k]]++;
  }
  q->Tp[0] = 0;
  for (int j = 0; j < nv; j++) q->Tp[j + 1] = q->Tp[j] + q->cnt[j], q->cnt[j] = q->Tp[j];
  for (int s = 0; s < ns; s++) {
    int i = ws->act[sidx[s]];
    for (int k = r->start[i]; k < r->start[i + 1]; k++) {
      int j = r->col[k], at = q->cnt[j];
      if (at > q->Tp[j] && q->Ti[at - 1] == s) {  // same row, same column: merge
        q->Tx[at - 1] += r->val[k];
        continue;
      }
      q->Ti[at] = s, q->Tx[at] = r->val[k], q->cnt[j]++;
    }
  }
  // columns may have shrunk by merging: compact
  int w = 0;
  for (int j = 0; j < nv; j++) {
    int from = q->Tp[j], to = q->cnt[j];
    q->Tp[j] = w;
    for (int k = from; k < to; k++) q->Ti[w] = q->Ti[k], q->Tx[w] = q->Tx[k], w++;
  }
  q->Tp[nv] = w;
}

// row i's entries in column-sorted order are not needed: one λ column lists G_i's entries by
// velocity index; sort them (short rows: insertion sort) merging duplicates
static int lambda_column(const mbs_rows *r, int i, int *idx, double *val, double scale) {
  int n = 0;
  for (int k = r->start[i]; k < r->start[i + 1]; k++) {
    int c = r->col[k], pos = n;
    double v = scale * r->val[k];
    int dup = -1;
    for (int a = 0; a < n; a++)
      if (idx[a] == c) dup = a;
    if (dup >= 0) {
      val[dup] += v;
      continue;
    }
    while (pos > 0 && idx[pos - 1] > c) idx[pos] = idx[pos - 1], val[pos] = val[pos - 1], pos--;
    idx[pos] = c, val[pos] = v, n++;
  }
  return n;
}

// the mass block holding velocity j: first index b0, size bs, offset in the blocks; −1 if none
static int mass_block_of(const mbs_workspace *ws, int j, int *b0, int *bs, size_t *off) {
  const mbs_model *m = ws->model;
  if (m->nblocks == 0) {
    *b0 = 0, *bs = ws->nv, *off = 0;
    return 0;
  }
  int v = 0;
  size_t o = 0;
  for (int b = 0; b < m->nblocks; b++) {
    int s = m->block_size[b];
    if (j < v + s) {
      *b0 = v, *bs = s, *off = o;
      return 0;
    }
    v += s, o += (size_t)s * (size_t)s;
  }
  return -1;
}

mbs_status mbs_qcp_solve(mbs_workspace *ws, int ns, const int *sidx, const double *chat0,
                         const double *gE, double *lam_s, double *w) {
  struct mbs_qcp *q = ws->qcp;
  const mbs_rows *r = ws->rows;
  const int nv = ws->nv, paper = ws->settings.formulation == MBS_PAPER;
  const double zeta = ws->settings.zeta > 0 ? ws->settings.zeta : 1.0 / ws->h;
  int nu = 0, nb = 0;
  for (int s = 0; s < ns; s++) {
    q->uidx[s] = ws->free_row[s] ? -1 : nu++;
    q->bidx[s] = ws->free_row[s] ? nb++ : -1;
  }
  const int n = ns + nv, p = nv + (paper ? nb : 0), l = paper ? 2 * nu : nu;
  transpose_rows(ws, ns, sidx);
  int nP = 0, nA = 0, nG = 0;
  // λ columns
  for (int s = 0; s < ns; s++) {
    int i = ws->act[sidx[s]];
    double C = 1.0 / ws->D[sidx[s]];
    q->Pp[s] = nP, q->Ap[s] = nA, q->Gp[s] = nG;
    if (!paper) q->Pi[nP] = s, q->Px[nP++] = C;
    else if (q->uidx[s] >= 0) q->Pi[nP] = s, q->Px[nP++] = zeta;
    nA += lambda_column(r, i, q->Ai + nA, q->Ax + nA, -1.0);
    if (paper && q->bidx[s] >= 0) q->Ai[nA] = nv + q->bidx[s], q->Ax[nA++] = C;
    if (q->uidx[s] >= 0) {
      q->Gi[nG] = q->uidx[s], q->Gx[nG++] = -1;
      if (paper) q->Gi[nG] = nu + q->uidx[s], q->Gx[nG++] = -C;
    }
    q->c[s] = paper ? 0 : -chat0[s];
  }
  // w columns: M's block column, then G_Bᵀ (equalities) and −G_Uᵀ (paper cone rows)
  for (int j = 0; j < nv; j++) {
    int col = ns + j, b0 = 0, bs = 0;
    size_t off = 0;
    q->Pp[col] = nP, q->Ap[col] = nA, q->Gp[col] = nG;
    if (mass_block_of(ws, j, &b0, &bs, &off)) return MBS_BAD_ROW;  // unreachable: validated
    for (int a = 0; a < bs; a++) {
      double mij = ws->mass_raw[off + (size_t)(a * bs + (j - b0))];
      if (!paper && b0 + a <= j) q->Pi[nP] = ns + b0 + a, q->Px[nP++] = mij;
      q->Ai[nA] = b0 + a, q->Ax[nA++] = mij;
    }
    if (paper) {
      for (int k = q->Tp[j]; k < q->Tp[j + 1]; k++)
        if (q->bidx[q->Ti[k]] >= 0) q->Ai[nA] = nv + q->bidx[q->Ti[k]], q->Ax[nA++] = q->Tx[k];
      for (int k = q->Tp[j]; k < q->Tp[j + 1]; k++)
        if (q->uidx[q->Ti[k]] >= 0) q->Gi[nG] = nu + q->uidx[q->Ti[k]], q->Gx[nG++] = -q->Tx[k];
    }
    q->c[col] = 0;
  }
  q->Pp[n] = nP, q->Ap[n] = nA, q->Gp[n] = nG;
  for (int j = 0; j < nv; j++) q->b[j] = gE[j];
  for (int s = 0; paper && s < ns; s++)
    if (q->bidx[s] >= 0) q->b[nv + q->bidx[s]] = chat0[s];
  for (int k = 0; k < l; k++) q->h[k] = 0;
  for (int s = 0; paper && s < ns; s++)
    if (q->uidx[s] >= 0) q->h[nu + q->uidx[s]] = -chat0[s];

  // same pattern as the workspace holds → numeric update; otherwise a new setup (allocates)
  int same = q->qws && q->n == n && q->p == p && q->l == l &&
             !memcmp(q->Pp, q->Pp0, sizeof(int) * (size_t)(n + 1)) &&
             !memcmp(q->Ap, q->Ap0, sizeof(int) * (size_t)(n + 1)) &&
             !memcmp(q->Gp, q->Gp0, sizeof(int) * (size_t)(n + 1)) &&
             !memcmp(q->Pi, q->Pi0, sizeof(int) * (size_t)nP) &&
             !memcmp(q->Ai, q->Ai0, sizeof(int) * (size_t)nA) &&
             !memcmp(q->Gi, q->Gi0, sizeof(int) * (size_t)nG);
  qcp_error err;
  if (same) {
    if (qcp_update(q->qws, q->Px, q->Ax, q->Gx, q->c, q->b, q->h, &err)) return MBS_SOLVER_FAILED;
  } else {
    qcp_workspace_free(q->qws);
    q->qws = NULL;
    qcp_problem prob = {.n = n, .p = p, .l = l, .nsoc = 0, .q = NULL,
                        .P = {n, n, q->Pp, q->Pi, q->Px},
                        .A = {p, n, q->Ap, q->Ai, q->Ax},
                        .G = {l, n, q->Gp, q->Gi, q->Gx},
                        .c = q->c, .b = q->b, .h = q->h};
    if (qcp_setup(&q->qws, &prob, NULL, &err)) return MBS_SOLVER_FAILED;
    q->n = n, q->p = p, q->l = l;
    memcpy(q->Pp0, q->Pp, sizeof(int) * (size_t)(n + 1));
    memcpy(q->Ap0, q->Ap, sizeof(int) * (size_t)(n + 1));
    memcpy(q->Gp0, q->Gp, sizeof(int) * (size_t)(n + 1));
    memcpy(q->Pi0, q->Pi, sizeof(int) * (size_t)nP);
    memcpy(q->Ai0, q->Ai, sizeof(int) * (size_t)nA);
    memcpy(q->Gi0, q->Gi, sizeof(int) * (size_t)nG);
  }
  if (qcp_solve(q->qws, QCP_START_COLD, NULL, NULL, NULL, NULL, &err)) return MBS_SOLVER_FAILED;
  const qcp_info *qi = qcp_info_get(q->qws);
  ws->info.iterations += qi->iterations;
  const double *x = qcp_solution_x(q->qws);
  for (int s = 0; s < ns; s++) lam_s[s] = (q->uidx[s] >= 0 && x[s] < 0) ? 0 : x[s];
  for (int j = 0; j < nv; j++) w[j] = x[ns + j];
  switch (qi->status) {
  case QCP_SOLVED: return MBS_OK;
  case QCP_SOLVED_INACCURATE: return MBS_INACCURATE;
  case QCP_MAX_ITERATIONS: return MBS_MAX_ITERATIONS;
  default: return MBS_SOLVER_FAILED;
  }
}

#else  // no qcp in this build

int mbs_qcp_create(mbs_workspace *ws) {
  ws->qcp = NULL;
  return 0;
}
void mbs_qcp_free(mbs_workspace *ws) { (void)ws; }
mbs_status mbs_qcp_solve(mbs_workspace *ws, int ns, const int *sidx, const double *chat0,
                         const double *gE, double *lam_s, double *w) {
  (void)ws, (void)ns, (void)sidx, (void)chat0, (void)gE, (void)lam_s, (void)w;
  return MBS_UNSUPPORTED;
}

#endif
