// SPDX-License-Identifier: MIT
// The general step through the sparse conic solver qcp (SPEC §1.2–1.3, §3; paper A eqs. 83–85,
// 99–108, 109–120, 124 and Appendix A), in lifted form: bilateral, unilateral and frictional
// contact rows (2-D: one tangent, |λ_r| ≤ μλ_n as a Q²; 3-D: two tangents, one Q³) together.
//
// Variables x = (λ_S, w[, β]): the ns compliant active rows' forces, w = M⁻¹Gᵀλ [m/s²] kept as a
// variable so no W = G M⁻¹ Gᵀ is formed (SPEC §1.2 "solve it sparse"), and (paper only) one β
// per cone tangent. With g_E = G_Eᵀ λ_E the explicit rows' (D = 0) force and ĉ0 the compliance-form
// targets without their coupling (mbs_step.c), r̂_i = λ_i/D_i + G_i w − ĉ0_i is row i's scaled
// residual r_i/D_i (r = λ − λ^tgt, SPEC §1.2), and always
//   equality   M w − G_Sᵀ λ_S = g_E                                   (nv rows).
// The friction cone of contact c, ‖λ_t‖ ≤ μ λ_n, is the second-order cone (μλ_n, λ_r[, λ_s]) ∈ Q,
// i.e. G = −diag(μ, 1[, 1]) on the contact's λ, h = 0. A contact with μ = 0 has no cone interior:
// its normal becomes an orthant row λ_n ≥ 0 and its tangents are decoupled variables set to 0
// exactly (λ_t = 0, SPEC §3 / qcp README).
// relaxed:  min ½ λᵀCλ + ½ wᵀMw − ĉ0ᵀλ  s.t.  λ_U ≥ 0, cones
//   Eliminating w gives ½λᵀ(C + W)λ − ĉᵀλ (ĉ = ĉ0 − W_SE λ_E); its gradient is ρ = r̂, so the KKT
//   conditions are r̂_B = 0, 0 ≤ λ_U ⊥ r̂_U ≥ 0, and per contact λ_c ∈ F_c, ρ_c ∈ F_c* =
//   {ρ_n ≥ μ‖ρ_t‖}, λ_cᵀρ_c = 0: maximum dissipation with the "gliding" normal residual
//   ρ_n = μ‖ρ_t‖ > 0 when sliding (Anitescu's relaxation).
// coulomb:  the De Saxcé fixed point on relaxed: with s_c = μ_c‖ρ_t,c‖ of the previous iterate,
//   re-solve with ĉ_n,c ← ĉ0_n,c − s_c. Its gradient is ρ' = ρ + s e_n, so at a fixed point the
//   dual-cone complementarity holds for (ρ_n + μ‖ρ_t‖, ρ_t): the De Saxcé bipotential form of
//   Coulomb's law, ρ_n = 0 while sliding (no gliding) and ρ_t = 0 while sticking. Each re-solve
//   changes only c (qcp_update) and starts warm from the previous solution.
// paper:    min ζ/2 (‖λ_U‖² + ‖λ_N‖²) + ½ (‖λ_T‖² + ‖β‖²)            (eq. 124, ζ = 1/h)
//           s.t. r̂_B = 0 (C_B λ_B + G_B w = ĉ0_B), λ_U ≥ 0, r̂_U ≥ 0, r̂_N ≥ 0, cones,
//                C_T λ_T + G_T w − β/D_T = ĉ0_T     (eqs. 118–119: λ_t = λ_t^tgt + β, β in N;
//                the variable is β̂ = β/D_T, see the β columns)
//   (row-scaled by 1/D; K_s in eq. 146 and the bilateral bias in eqs. 159/190 as SPEC §1.2; the
//   λ_sᵀλ_s/2 term eq. 176 drops is kept, as Hessian 180 has it).
// qcp's standard form is min ½xᵀPx + cᵀx s.t. Ax = b, Gx + s = h, s ∈ R₊^l × Q^{q1} × …; the G
// rows are numbered orthant λ_U ≥ 0, then the paper residual rows, then the cones. The structure
// is rebuilt every step into preallocated arrays and compared with the one qcp was set up with:
// qcp_setup (which allocates) runs only when the pattern (the active row/contact set) changes,
// qcp_update otherwise.
#include "mbs_internal.h"

#ifdef MBS_HAVE_QCP

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qcp/qcp.h"
#include "qcp/qcp_arena.h"
#include "qcp/qcp_qd.h"

#include "mbs_qcp_internal.h"

static void *zalloc(size_t n, size_t size) { return calloc(n ? n : 1, size); }

int mbs_qcp_create(mbs_workspace *ws) {
  struct mbs_qcp *q = calloc(1, sizeof *q);
  if (!q) return -1;
  ws->qcp = q;
  const int nv = ws->nv, cap = ws->cap > 0 ? ws->cap : 1, me = (int)ws->mass_entries;
  const int nnz = ws->model->max_nnz;
  // λ (cap), w (nv), β (≤ cap); equalities: mass rows + bilateral/tangent targets; cone rows:
  // ≤ 2 per compact row (orthant or cone, plus a paper residual row)
  q->cap_n = 2 * cap + nv, q->cap_p = nv + cap, q->cap_l = 2 * cap;
  q->cap_P = 2 * cap + me, q->cap_A = 2 * nnz + 2 * cap + me, q->cap_G = 2 * cap + nnz;
  size_t n1 = (size_t)q->cap_n + 1;
  int **iarr[] = {&q->Pp, &q->Pp0, &q->Ap, &q->Ap0, &q->Gp, &q->Gp0};
  for (size_t k = 0; k < sizeof iarr / sizeof *iarr; k++) *iarr[k] = zalloc(n1, sizeof(int));
  q->Pi = zalloc((size_t)q->cap_P, sizeof(int)), q->Pi0 = zalloc((size_t)q->cap_P, sizeof(int));
  q->Ai = zalloc((size_t)q->cap_A, sizeof(int)), q->Ai0 = zalloc((size_t)q->cap_A, sizeof(int));
  q->Gi = zalloc((size_t)q->cap_G, sizeof(int)), q->Gi0 = zalloc((size_t)q->cap_G, sizeof(int));
  q->Px = zalloc((size_t)q->cap_P, sizeof(double));
  q->Ax = zalloc((size_t)q->cap_A, sizeof(double));
  q->Gx = zalloc((size_t)q->cap_G, sizeof(double));
  q->c = zalloc((size_t)q->cap_n, sizeof(double));
  q->b = zalloc((size_t)q->cap_p, sizeof(double));
  q->h = zalloc((size_t)q->cap_l, sizeof(double));
  q->wx = zalloc((size_t)q->cap_n, sizeof(double));
  q->x0 = zalloc((size_t)q->cap_n, sizeof(double));
  q->wy = zalloc((size_t)q->cap_p, sizeof(double));
  q->ws_ = zalloc((size_t)q->cap_l, sizeof(double));
  q->wz = zalloc((size_t)q->cap_l, sizeof(double));
  q->Tp = zalloc((size_t)nv + 1, sizeof(int));
  q->cnt = zalloc((size_t)nv + 1, sizeof(int));
  q->Ti = zalloc((size_t)nnz, sizeof(int));
  q->Tx = zalloc((size_t)nnz, sizeof(double));
  int **carr[] = {&q->role, &q->ntan, &q->tan1, &q->tan2, &q->tn,   &q->oidx, &q->ridx,
                  &q->eidx, &q->cidx, &q->bcol, &q->cmap, &q->qdim, &q->qdim0};
  for (size_t k = 0; k < sizeof carr / sizeof *carr; k++)
    *carr[k] = zalloc((size_t)cap, sizeof(int));
  q->shift = zalloc((size_t)cap, sizeof(double));
  q->shift0 = zalloc((size_t)cap, sizeof(double));
  q->lam_row = zalloc((size_t)cap, sizeof(double));
  q->row_stamp = zalloc((size_t)cap, sizeof(long));
  q->w_last = zalloc((size_t)nv, sizeof(double));
  q->stamp = 1;  // no row carries it yet
  q->kbuild = -1;
  if (!(q->cn = mbs_cn_create(ws))) return -1;
  for (size_t k = 0; k < sizeof iarr / sizeof *iarr; k++)
    if (!*iarr[k]) return -1;
  for (size_t k = 0; k < sizeof carr / sizeof *carr; k++)
    if (!*carr[k]) return -1;
  if (!q->Pi || !q->Pi0 || !q->Ai || !q->Ai0 || !q->Gi || !q->Gi0 || !q->Px || !q->Ax || !q->Gx ||
      !q->c || !q->b || !q->h || !q->wx || !q->x0 || !q->wy || !q->ws_ || !q->wz || !q->Tp ||
      !q->cnt || !q->Ti || !q->Tx || !q->shift || !q->shift0 || !q->lam_row || !q->row_stamp ||
      !q->w_last)
    return -1;
  for (int k = 0; k < cap; k++) q->cmap[k] = -1;
  // the arena sized for the largest conic problem the capacities allow: measured, a pattern needs
  // 16–67 bytes per unit of n + p + l + nnz(P, A, G) capacity (stack N = 10 … 1000, walled pile,
  // foundation up to 10 000 rows; the KKT factor's fill included), 89 on the tiny incline; 96
  // per unit and 64 KiB more means no pattern of these models calls malloc, a larger one grows it
  const size_t units = (size_t)q->cap_n + (size_t)q->cap_p + (size_t)q->cap_l + (size_t)q->cap_P +
                       (size_t)q->cap_A + (size_t)q->cap_G;
  qcp_arena_init(&q->arena);
  if (qcp_arena_reserve(&q->arena, 65536 + 96 * units)) return -1;
  return 0;
}

void mbs_qcp_free(mbs_workspace *ws) {
  struct mbs_qcp *q = ws->qcp;
  if (!q) return;
  qcp_workspace_free(q->qws);
  mbs_cn_free(q->cn);
  mbs_predict_release(q);
  qcp_arena_free(&q->arena);
  free(q->Pp), free(q->Pp0), free(q->Ap), free(q->Ap0), free(q->Gp), free(q->Gp0);
  free(q->Pi), free(q->Pi0), free(q->Ai), free(q->Ai0), free(q->Gi), free(q->Gi0);
  free(q->Px), free(q->Ax), free(q->Gx), free(q->c), free(q->b), free(q->h);
  free(q->wx), free(q->wy), free(q->ws_), free(q->wz), free(q->x0);
  free(q->Tp), free(q->cnt), free(q->Ti), free(q->Tx);
  free(q->role), free(q->ntan), free(q->tan1), free(q->tan2), free(q->tn), free(q->oidx);
  free(q->ridx), free(q->eidx), free(q->cidx), free(q->bcol), free(q->cmap), free(q->qdim);
  free(q->qdim0), free(q->shift), free(q->shift0), free(q->lam_row), free(q->row_stamp);
  free(q->w_last);
  free(q);
  ws->qcp = NULL;
}

// transpose of the compliant active rows' Jacobian: column j → (s, G_s,j), duplicates merged
static void transpose_rows(mbs_workspace *ws, int ns, const int *sidx) {
  struct mbs_qcp *q = ws->qcp;
  const mdl_rows *r = ws->rows;
  const int nv = ws->nv;
  for (int j = 0; j <= nv; j++) q->cnt[j] = 0;
  for (int s = 0; s < ns; s++) {
    int i = ws->act[sidx[s]];
    for (int k = r->start[i]; k < r->start[i + 1]; k++) q->cnt[r->col[k]]++;
  }
  q->Tp[0] = 0;
  for (int j = 0; j < nv; j++) q->Tp[j + 1] = q->Tp[j] + q->cnt[j], q->cnt[j] = q->Tp[j];
  int merged = 0;
  for (int s = 0; s < ns; s++) {
    int i = ws->act[sidx[s]];
    for (int k = r->start[i]; k < r->start[i + 1]; k++) {
      int j = r->col[k], at = q->cnt[j];
      if (at > q->Tp[j] && q->Ti[at - 1] == s) {  // same row, same column: merge
        q->Tx[at - 1] += r->val[k], merged = 1;
        continue;
      }
      q->Ti[at] = s, q->Tx[at] = r->val[k], q->cnt[j]++;
    }
  }
  if (!merged) return;  // every column full: nothing to compact
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
static int lambda_column(const mdl_rows *r, int i, int *idx, double *val, double scale) {
  int n = 0;
  for (int k = r->start[i]; k < r->start[i + 1]; k++) {
    int c = r->col[k], pos = n;
    double v = scale * r->val[k];
    while (pos > 0 && idx[pos - 1] > c) pos--;
    if (pos > 0 && idx[pos - 1] == c) {  // a duplicate (the list is sorted): merge
      val[pos - 1] += v;
      continue;
    }
    for (int a = n; a > pos; a--) idx[a] = idx[a - 1], val[a] = val[a - 1];
    idx[pos] = c, val[pos] = v, n++;
  }
  return n;
}

// 1 if contact c has an active normal row without compliance (K = B = 0: an explicit row, not
// in the conic problem); its tangents are then off (no normal force law, no friction). O(na), on
// this rare path only.
static int explicit_normal(const mbs_workspace *ws, int c) {
  const mdl_rows *r = ws->rows;
  for (int a = 0; a < ws->na; a++) {
    int i = ws->act[a];
    if (r->kind[i] == MDL_ROW_NORMAL && r->contact[i] == c && ws->D[a] == 0) return 1;
  }
  return 0;
}

// classifies the compact rows: bilateral (free), unilateral-like (λ ≥ 0: unilateral rows and the
// normals of frictionless contacts), cone normals/tangents, and the tangents of μ = 0 contacts
// (off: λ_t = 0 exactly). Fills role, ntan, tan1/tan2 (cone normal → its tangents) and the contact
// count; returns MBS_BAD_ROW for a contact index out of range or a contact with > 2 tangents.
static mbs_status classify(mbs_workspace *ws, int ns, const int *sidx, int *ncone) {
  struct mbs_qcp *q = ws->qcp;
  const mdl_rows *r = ws->rows;
  *ncone = 0;
  mbs_status st = MBS_OK;
  for (int s = 0; s < ns; s++) {
    int i = ws->act[sidx[s]];
    q->role[s] = r->kind[i] == MDL_ROW_BILATERAL ? ROLE_FREE : ROLE_UNI;
    q->ntan[s] = 0, q->tn[s] = -1;
    if (r->kind[i] == MDL_ROW_NORMAL && r->contact[i] >= 0) {  // no contact index: frictionless
      if (r->contact[i] >= ws->cap)
        st = MBS_BAD_ROW;  // the map is reset below either way
      else
        q->cmap[r->contact[i]] = s;
    }
  }
  for (int s = 0; st == MBS_OK && s < ns; s++) {
    int i = ws->act[sidx[s]];
    if (r->kind[i] != MDL_ROW_TANGENT) continue;
    int c = r->contact[i], sn = c >= 0 && c < ws->cap ? q->cmap[c] : -1;
    if (sn < 0 && c >= 0 && explicit_normal(ws, c)) continue;  // tn = −1: off below
    if (sn < 0 || q->ntan[sn] >= 2) {
      st = MBS_BAD_ROW;
      break;
    }
    q->tn[s] = sn;
    (q->ntan[sn]++ ? q->tan2 : q->tan1)[sn] = s;
  }
  for (int s = 0; s < ns; s++) {  // reset the contact map for the next step
    int i = ws->act[sidx[s]];
    if (r->kind[i] == MDL_ROW_NORMAL && r->contact[i] >= 0 && r->contact[i] < ws->cap)
      q->cmap[r->contact[i]] = -1;
  }
  if (st != MBS_OK) return st;
  for (int s = 0; s < ns; s++) {
    int i = ws->act[sidx[s]];
    if (r->kind[i] == MDL_ROW_NORMAL && q->ntan[s] > 0 && r->mu[i] > 0)
      q->role[s] = ROLE_NORMAL, (*ncone)++;
    if (r->kind[i] == MDL_ROW_TANGENT)
      q->role[s] = q->tn[s] >= 0 && r->mu[ws->act[sidx[q->tn[s]]]] > 0 ? ROLE_TANGENT : ROLE_OFF;
  }
  return MBS_OK;
}

// builds the conic problem's pattern and values for targets chat (compact); see the header
// (about 100 lines: one CSC assembly of P, A and G, column by column in qcp's variable order; the
// column loops share the running nonzero counters)
static mbs_status build(mbs_workspace *ws, int ns, const int *sidx, const double *chat,
                        const double *gE, int ncone) {
  struct mbs_qcp *q = ws->qcp;
  const mdl_rows *r = ws->rows;
  const int nv = ws->nv, paper = ws->settings.formulation == MBS_PAPER;
  const double zeta = ws->settings.zeta > 0 ? ws->settings.zeta : 1.0 / ws->h;
  // numbering: orthant rows λ ≥ 0 (uni), then paper residual rows (uni + cone normals), then the
  // cones; equality rows: nv mass rows, then (paper) bilateral and tangent target rows
  int nu = 0, nr = 0, ne = 0, nbeta = 0, mc = 0;
  for (int s = 0; s < ns; s++) {
    int role = q->role[s];
    q->oidx[s] = role == ROLE_UNI ? nu++ : -1;
    q->ridx[s] = paper && (role == ROLE_UNI || role == ROLE_NORMAL) ? nr++ : -1;
    q->eidx[s] = paper && (role == ROLE_FREE || role == ROLE_TANGENT) ? ne++ : -1;
    q->bcol[s] = paper && role == ROLE_TANGENT ? nbeta++ : -1;
  }
  const int l = nu + nr;
  for (int s = 0; s < ns; s++) q->cidx[s] = -1;
  int k = 0;
  for (int s = 0; s < ns; s++) {
    if (q->role[s] != ROLE_NORMAL) continue;
    q->qdim[k++] = 1 + q->ntan[s];
    q->cidx[s] = l + mc;
    q->cidx[q->tan1[s]] = l + mc + 1;
    if (q->ntan[s] > 1) q->cidx[q->tan2[s]] = l + mc + 2;
    mc += 1 + q->ntan[s];
  }
  const int n = ns + nv + nbeta, p = nv + ne, m = l + mc;
  transpose_rows(ws, ns, sidx);
  int nP = 0, nA = 0, nG = 0;
  // λ columns
  for (int s = 0; s < ns; s++) {
    int i = ws->act[sidx[s]], role = q->role[s];
    double C = 1.0 / ws->D[sidx[s]];
    q->Pp[s] = nP, q->Ap[s] = nA, q->Gp[s] = nG;
    // objective diagonal: relaxed C; paper ζ (λ_u, λ_n), 0 (λ_b), 1 (λ_t, in newtons); an off
    // tangent is a decoupled variable with ½λ² (solution 0, set exactly after the solve)
    double pdiag = role == ROLE_OFF                          ? 1
                   : !paper                                  ? C
                   : role == ROLE_UNI || role == ROLE_NORMAL ? zeta
                   : role == ROLE_FREE                       ? 0
                                                             : 1;
    if (pdiag != 0) q->Pi[nP] = s, q->Px[nP++] = pdiag;
    if (role != ROLE_OFF) nA += lambda_column(r, i, q->Ai + nA, q->Ax + nA, -1.0);
    if (q->eidx[s] >= 0) q->Ai[nA] = nv + q->eidx[s], q->Ax[nA++] = C;
    if (q->oidx[s] >= 0) q->Gi[nG] = q->oidx[s], q->Gx[nG++] = -1;
    if (q->ridx[s] >= 0) q->Gi[nG] = nu + q->ridx[s], q->Gx[nG++] = -C;
    if (q->cidx[s] >= 0)
      q->Gi[nG] = q->cidx[s], q->Gx[nG++] = role == ROLE_NORMAL ? -r->mu[i] : -1.0;
    q->c[s] = paper || role == ROLE_OFF ? 0 : -chat[s];
  }
  // w columns: M's block column, then (paper) G_Eᵀ on the target equalities and −G_Rᵀ on the
  // residual rows
  for (int j = 0; j < nv; j++) {
    // the mass block holding velocity j (O(1) from the workspace's block map)
    const int col = ns + j, blk = ws->col_block[j], b0 = ws->blk_v0[blk], bs = ws->blk_size[blk];
    const size_t off = ws->blk_off[blk];
    q->Pp[col] = nP, q->Ap[col] = nA, q->Gp[col] = nG;
    for (int a = 0; a < bs; a++) {
      double mij = ws->mass_raw[off + (size_t)(a * bs + (j - b0))];
      if (!paper && b0 + a <= j) q->Pi[nP] = ns + b0 + a, q->Px[nP++] = mij;
      q->Ai[nA] = b0 + a, q->Ax[nA++] = mij;
    }
    if (paper) {
      for (int t = q->Tp[j]; t < q->Tp[j + 1]; t++)
        if (q->eidx[q->Ti[t]] >= 0) q->Ai[nA] = nv + q->eidx[q->Ti[t]], q->Ax[nA++] = q->Tx[t];
      for (int t = q->Tp[j]; t < q->Tp[j + 1]; t++)
        if (q->ridx[q->Ti[t]] >= 0) q->Gi[nG] = nu + q->ridx[q->Ti[t]], q->Gx[nG++] = -q->Tx[t];
    }
    q->c[col] = 0;
  }
  // β columns (paper, one per cone tangent), scaled like the rows: β̂ = β/D_t [m/s²] with
  // C_t λ_t + G_t w − β̂ = ĉ_t and the objective's ½β² = ½ D_t² β̂² (β in newtons: with β itself
  // as the variable its 1/D_t = 1e-6 coefficients stall qcp's primal residual at ~1e-9)
  for (int s = 0; s < ns; s++) {
    if (q->bcol[s] < 0) continue;
    int col = ns + nv + q->bcol[s];
    double Dt = ws->D[sidx[s]];
    q->Pp[col] = nP, q->Ap[col] = nA, q->Gp[col] = nG;
    q->Pi[nP] = col, q->Px[nP++] = Dt * Dt;
    q->Ai[nA] = nv + q->eidx[s], q->Ax[nA++] = -1.0;
    q->c[col] = 0;
  }
  q->Pp[n] = nP, q->Ap[n] = nA, q->Gp[n] = nG;
  // paper: the objective rescaled so that its largest weight is 1e4 (the same minimiser). As
  // written, D_t² ≈ 1e12 (β) beside ζ ≈ 100 and 1 (λ) stalls qcp's cold start far from feasibility;
  // measured on the incline box, largest weights 1e4 … 1e6 give every step `solved` at 1e-11 with
  // the same trajectory to 8 digits, 1 leaves some steps inaccurate.
  if (paper) {
    double pmax = 0;
    for (int e = 0; e < nP; e++) pmax = fmax(pmax, q->Px[e]);
    for (int e = 0; pmax > 0 && e < nP; e++) q->Px[e] *= 1e4 / pmax;
  }
  for (int j = 0; j < nv; j++) q->b[j] = gE[j];
  for (int s = 0; s < ns; s++)
    if (q->eidx[s] >= 0) q->b[nv + q->eidx[s]] = chat[s];
  for (int t = 0; t < m; t++) q->h[t] = 0;
  for (int s = 0; s < ns; s++)
    if (q->ridx[s] >= 0) q->h[nu + q->ridx[s]] = -chat[s];
  q->nn = n, q->np = p, q->nl = l, q->nsoc = ncone, q->nP = nP, q->nA = nA, q->nG = nG;
  q->nlam = ns;
  return MBS_OK;
}

// A new pattern (the active row/contact set changed) resets the arena and sets up the
// prediction's system; qcp's own workspace (ordering and symbolic analysis of the interior-point
// KKT system) is set up only when an interior-point solve needs it (flush_update): a predicted
// step never does. Same pattern: the values reach qcp then too.
static mbs_status load(mbs_workspace *ws) {
  struct mbs_qcp *q = ws->qcp;
  const int n = q->nn, p = q->np, l = q->nl, nsoc = q->nsoc;
  int same = q->have_pattern && q->n == n && q->p == p && q->l == l && q->nsoc0 == nsoc &&
             !memcmp(q->qdim, q->qdim0, sizeof(int) * (size_t)nsoc) &&
             !memcmp(q->Pp, q->Pp0, sizeof(int) * (size_t)(n + 1)) &&
             !memcmp(q->Ap, q->Ap0, sizeof(int) * (size_t)(n + 1)) &&
             !memcmp(q->Gp, q->Gp0, sizeof(int) * (size_t)(n + 1)) &&
             !memcmp(q->Pi, q->Pi0, sizeof(int) * (size_t)q->nP) &&
             !memcmp(q->Ai, q->Ai0, sizeof(int) * (size_t)q->nA) &&
             !memcmp(q->Gi, q->Gi0, sizeof(int) * (size_t)q->nG);
  q->same = same;
  q->pending = 1;           // passed to qws only if an interior-point solve runs (flush_update): a
  if (same) return MBS_OK;  // predicted step skips qcp's update and its rescaling
  q->have_warm = 0, q->have_shift = 0;
  ws->info.pattern_setups++;
  qcp_workspace_free(q->qws);
  q->qws = NULL;
  mbs_predict_release(q);
  qcp_arena_reset(&q->arena);  // a failed growth is not fatal: the setup then spills to malloc
  int m = l;
  for (int k = 0; k < nsoc; k++) m += q->qdim[k];
  q->n = n, q->p = p, q->l = l, q->nsoc0 = nsoc, q->m = m;
  q->have_pattern = 1;
  memcpy(q->qdim0, q->qdim, sizeof(int) * (size_t)nsoc);
  memcpy(q->Pp0, q->Pp, sizeof(int) * (size_t)(n + 1));
  memcpy(q->Ap0, q->Ap, sizeof(int) * (size_t)(n + 1));
  memcpy(q->Gp0, q->Gp, sizeof(int) * (size_t)(n + 1));
  memcpy(q->Pi0, q->Pi, sizeof(int) * (size_t)q->nP);
  memcpy(q->Ai0, q->Ai, sizeof(int) * (size_t)q->nA);
  memcpy(q->Gi0, q->Gi, sizeof(int) * (size_t)q->nG);
  // the prediction's system for the new pattern (none: never a stale one from the last pattern)
  if (mbs_predict_applies(ws) && mbs_predict_setup(q)) q->kn = 0;
  return MBS_OK;
}

// qcp's workspace for the held pattern with this step's values: set up (first interior-point
// solve of the pattern) or updated (deferred by load until a solve needs it); 0 or −1
static int flush_update(const mbs_workspace *ws) {
  struct mbs_qcp *q = ws->qcp;
  if (!q->pending) return 0;
  qcp_error err;
  q->pending = 0;
  if (q->qws) return qcp_update(q->qws, q->Px, q->Ax, q->Gx, q->c, q->b, q->h, &err);
  qcp_problem prob = {.n = q->n,
                      .p = q->p,
                      .l = q->l,
                      .nsoc = q->nsoc0,
                      .q = q->nsoc0 ? q->qdim0 : NULL,
                      .P = {q->n, q->n, q->Pp0, q->Pi0, q->Px},
                      .A = {q->p, q->n, q->Ap0, q->Ai0, q->Ax},
                      .G = {q->m, q->n, q->Gp0, q->Gi0, q->Gx},
                      .c = q->c,
                      .b = q->b,
                      .h = q->h};
  qcp_settings set = qcp_settings_contact();
  if (ws->settings.qcp_eps > 0) set.eps_abs = set.eps_rel = ws->settings.qcp_eps;
  set.allocator = qcp_arena_allocator(&q->arena);
  return qcp_setup(&q->qws, &prob, &set, &err) ? -1 : 0;
}

const struct qcp_problem *mbs_qcp_problem(const mbs_workspace *ws) {
  if (!ws->qcp || !ws->qcp->have_pattern) return NULL;
  // logically const: the last step's problem is reported even when its setup or update was
  // deferred
  if (flush_update(ws)) return NULL;
  return qcp_problem_get(ws->qcp->qws);
}

// paper A's feasible start (Appendix A, last paragraph) into q->x0: λ_u = λ_n = L, λ_t = λ_b = 0,
// w = M⁻¹(g_E + G_Sᵀλ), β̂ from the tangent targets; L doubles from the largest target force
// until the paper's residual rows C λ + G w ≥ ĉ hold strictly (the orthant rows and the cones are
// interior for any L > 0). Returns 0, or −1 if no L up to 2⁶⁰ times the start works.
static int feasible_point(mbs_workspace *ws, int ns, const int *sidx, const double *chat) {
  struct mbs_qcp *q = ws->qcp;
  const mdl_rows *r = ws->rows;
  const int nv = ws->nv;
  double L = 1;
  for (int s = 0; s < ns; s++) L = fmax(L, fabs(chat[s]) * ws->D[sidx[s]]);
  for (int tries = 0; tries < 60; tries++, L *= 2) {
    double *x = q->x0, *w = q->x0 + ns;
    for (int s = 0; s < ns; s++) x[s] = q->role[s] == ROLE_UNI || q->role[s] == ROLE_NORMAL ? L : 0;
    for (int j = 0; j < nv; j++) w[j] = 0;
    for (int s = 0; s < ns; s++) {
      const int i = ws->act[sidx[s]];
      for (int k = r->start[i]; k < r->start[i + 1]; k++) w[r->col[k]] += r->val[k] * x[s];
    }
    for (int j = 0; j < nv; j++) w[j] += ws->gE[j];
    mdl_eval_mass_solve(ws->ev, w);
    int ok = 1;
    for (int s = 0; s < ns; s++) {
      const double rh = x[s] / ws->D[sidx[s]] + mdl_eval_row_dot(r, ws->act[sidx[s]], w) - chat[s];
      if (q->ridx[s] >= 0 && !(rh > 1e-12 * (1 + fabs(chat[s])))) ok = 0;
      if (q->bcol[s] >= 0) x[ns + nv + q->bcol[s]] = rh;  // β̂ = C_t λ_t + G_t w − ĉ_t
    }
    if (ok) return 0;
  }
  return -1;
}

// qcp's solution into the warm-start store (wx, ws_, wz, wy)
static void save_solution(struct mbs_qcp *q) {
  memcpy(q->wx, qcp_solution_x(q->qws), sizeof(double) * (size_t)q->n);
  memcpy(q->ws_, qcp_solution_s(q->qws), sizeof(double) * (size_t)q->m);
  memcpy(q->wz, qcp_solution_z(q->qws), sizeof(double) * (size_t)q->m);
  if (q->p) memcpy(q->wy, qcp_solution_y(q->qws), sizeof(double) * (size_t)q->p);
}

// one interior-point solve: warm from the stored iterate or from x0 (feasible) if asked (falling
// back to cold when that start fails), then the solution is kept as the next warm start
enum { SOLVE_COLD, SOLVE_WARM, SOLVE_FEASIBLE, SOLVE_ROWS };
static mbs_status solve_once(mbs_workspace *ws, int start) {
  struct mbs_qcp *q = ws->qcp;
  qcp_error err;
  int rc = 1;
  if (start == SOLVE_WARM && q->have_warm)
    rc = qcp_solve(q->qws, QCP_START_WARM, q->wx, q->ws_, q->wy, q->wz, &err);
  else if (start == SOLVE_FEASIBLE)
    rc = qcp_solve(q->qws, QCP_START_FEASIBLE, q->x0, NULL, NULL, NULL, &err);
  else if (start == SOLVE_ROWS)  // x only: qcp pushes s = h − Gx inside and centres z
    rc = qcp_solve(q->qws, QCP_START_WARM, q->x0, NULL, NULL, NULL, &err);
  const qcp_info *qi = qcp_info_get(q->qws);
  if (!rc) ws->info.iterations += qi->iterations;
  // a warm start that ends inaccurate keeps its point while a cold start is tried: an iterate
  // carried over from another step can sit near the boundary where the central path is lost
  const int warm_inaccurate = !rc && qi->status == QCP_SOLVED_INACCURATE;
  if (warm_inaccurate) save_solution(q);
  if (rc || qi->status != QCP_SOLVED) {
    if (qcp_solve(q->qws, QCP_START_COLD, NULL, NULL, NULL, NULL, &err)) return MBS_SOLVER_FAILED;
    ws->info.iterations += qi->iterations;
  }
  qcp_status status = qi->status;
  if (warm_inaccurate && status != QCP_SOLVED)
    status = QCP_SOLVED_INACCURATE;  // the warm point stands
  else
    save_solution(q);
  q->have_warm = 1;
  switch (status) {
    case QCP_SOLVED:
      return MBS_OK;
    case QCP_SOLVED_INACCURATE:
      return MBS_INACCURATE;
    case QCP_MAX_ITERATIONS:
    case QCP_STALLED:  // ended early without progress: as the iteration limit
    case QCP_TIME_LIMIT:
      return MBS_MAX_ITERATIONS;
    default:
      return MBS_SOLVER_FAILED;
  }
}

// extracts λ_S (compact) and w from qcp's x
static void extract(mbs_workspace *ws, int ns, double *lam_s, double *w) {
  struct mbs_qcp *q = ws->qcp;
  const double *x = q->wx;
  for (int s = 0; s < ns; s++) {
    int role = q->role[s];
    lam_s[s] = role == ROLE_OFF ? 0 : (role == ROLE_UNI && x[s] < 0) ? 0 : x[s];
  }
  for (int j = 0; j < ws->nv; j++) w[j] = x[ns + j];
}

// De Saxcé shifts s_c = μ_c ‖ρ_t,c‖ of the cone contacts from the iterate (λ_S, w) and the
// unshifted targets ĉ0, written to the normal rows' slots of shift; returns max_c s_c
static double coulomb_shift(mbs_workspace *ws, int ns, const int *sidx, const double *chat0,
                            const double *lam_s, const double *w, double *shift) {
  struct mbs_qcp *q = ws->qcp;
  const mdl_rows *r = ws->rows;
  double smax = 0;
  for (int s = 0; s < ns; s++) {
    if (q->role[s] != ROLE_NORMAL) continue;
    double rr = 0;
    for (int k = 0; k < q->ntan[s]; k++) {
      int t = k ? q->tan2[s] : q->tan1[s];
      double rho = lam_s[t] / ws->D[sidx[t]] + mdl_eval_row_dot(r, ws->act[sidx[t]], w) - chat0[t];
      rr += rho * rho;
    }
    shift[s] = r->mu[ws->act[sidx[s]]] * sqrt(rr);
    smax = fmax(smax, shift[s]);
  }
  return smax;
}

// De Saxcé fixed point (SPEC §1.3): re-solve relaxed with ĉ_n lowered by s = μ‖ρ_t‖ until the
// shifts stop changing (relative fp_tol), warm-starting each solve from the previous one. The
// first solve (status st, iterate λ_S, w) used the shifts in q->shift if warm_shift, else none;
// at most max_solves solves, that one included.
static mbs_status coulomb_fixed_point(mbs_workspace *ws, int ns, const int *sidx,
                                      const double *chat0, double *lam_s, double *w, int warm_shift,
                                      mbs_status st, int max_solves) {
  struct mbs_qcp *q = ws->qcp;
  double *shift = q->shift, *shift0 = q->shift0, cscale = 0;
  for (int s = 0; s < ns; s++) {
    if (!warm_shift) shift[s] = 0;
    if (q->role[s] == ROLE_NORMAL || q->role[s] == ROLE_TANGENT) {
      int n = q->role[s] == ROLE_NORMAL ? s : q->tn[s];
      cscale = fmax(cscale, ws->rows->mu[ws->act[sidx[n]]] * fabs(chat0[s]));
    }
  }
  q->have_shift = 0;
  // it counts the relaxed solves done; the shifts computed from solve it are compared with those
  // solve it used, and at most fp_max_iter solves are made
  mbs_status fst = MBS_MAX_ITERATIONS;
  for (int it = 1;; it++) {
    memcpy(shift0, shift, sizeof(double) * (size_t)ns);
    double smax = coulomb_shift(ws, ns, sidx, chat0, lam_s, w, shift), ds = 0;
    for (int s = 0; s < ns; s++) ds = fmax(ds, fabs(shift[s] - shift0[s]));
    // the shifts' scale: the largest shift, or μ‖ĉ0‖ of the contacts (the size of ρ's rounding
    // noise for sticking contacts, where s = 0 in exact arithmetic)
    const double scale = fmax(smax, cscale);
    ws->info.fp_change = scale > 0 ? ds / scale : ds;
    if ((it > 1 || warm_shift) && ds <= ws->settings.fp_tol * scale) {
      fst = MBS_OK;
      break;
    }
    if (it == 1 && smax == 0 && !warm_shift) {  // nothing slides: relaxed is already Coulomb
      fst = MBS_OK;
      break;
    }
    if (it >= max_solves) break;  // budget spent: keep the last iterate
    for (int s = 0; s < ns; s++)
      if (q->role[s] == ROLE_NORMAL) q->c[s] = -(chat0[s] - shift[s]);
    qcp_error err;
    if (qcp_update(q->qws, NULL, NULL, NULL, q->c, NULL, NULL, &err)) return MBS_SOLVER_FAILED;
    st = solve_once(ws, SOLVE_WARM);
    if (st == MBS_SOLVER_FAILED) return st;
    extract(ws, ns, lam_s, w);
    ws->info.fp_iterations = it + 1;
  }
  q->have_shift = fst == MBS_OK;
  // worst of the last solve's status and the fixed point's: an unconverged fixed point is
  // reported as max-iterations even when its last solve was only inaccurate
  if (fst != MBS_OK && (st == MBS_OK || st == MBS_INACCURATE)) st = MBS_MAX_ITERATIONS;
  return st;
}

// exact Coulomb by semismooth Newton (SPEC §1.6) from the solve's iterate (λ_S, w); the result
// goes back to q->wx (the next step's prediction and warm start read it) and its shifts
// μ‖ρ_t‖ to q->shift (the next step's first solve, as the fixed point's)
static mbs_cn_problem newton_problem(const mbs_workspace *ws, int ns, const int *sidx,
                                     const double *chat0) {
  const struct mbs_qcp *q = ws->qcp;
  return (mbs_cn_problem){.ns = ns,
                          .nv = ws->nv,
                          .sidx = sidx,
                          .role = q->role,
                          .tn = q->tn,
                          .tan1 = q->tan1,
                          .tan2 = q->tan2,
                          .ntan = q->ntan,
                          .chat0 = chat0,
                          .Ap = q->Ap,
                          .Ai = q->Ai,
                          .Ax = q->Ax,
                          .b = q->b,
                          .Tp = q->Tp,
                          .Ti = q->Ti,
                          .Tx = q->Tx};
}

// the Newton result x = (λ_S, w) taken: into lam_s, w and q->wx (the next step's prediction and
// warm start read it)
static void newton_take(mbs_workspace *ws, int ns, const double *x, double *lam_s, double *w) {
  struct mbs_qcp *q = ws->qcp;
  const int nv = ws->nv;
  memcpy(lam_s, x, sizeof(double) * (size_t)ns);
  memcpy(w, x + ns, sizeof(double) * (size_t)nv);
  for (int s = 0; s < ns; s++) lam_s[s] = q->role[s] == ROLE_OFF ? 0 : lam_s[s];
  memcpy(q->wx, lam_s, sizeof(double) * (size_t)ns);
  memcpy(q->wx + ns, w, sizeof(double) * (size_t)nv);
}

static mbs_status coulomb_newton(mbs_workspace *ws, int ns, const int *sidx, const double *chat0,
                                 double *lam_s, double *w, mbs_status st, int rungs, double *res) {
  struct mbs_qcp *q = ws->qcp;
  const mbs_cn_problem p = newton_problem(ws, ns, sidx, chat0);
  double *x = q->x0;  // (λ_S, w): the feasible start's buffer, free here
  memcpy(x, lam_s, sizeof(double) * (size_t)ns);
  memcpy(x + ns, w, sizeof(double) * (size_t)ws->nv);
  int it = 0;
  mbs_status nst = mbs_cn_solve(ws, q->cn, &p, x, rungs, &it, res);
  ws->info.newton_iterations += it;
  q->have_shift = 0;
  if (nst == MBS_SOLVER_FAILED || nst == MBS_NONFINITE) return nst;
  newton_take(ws, ns, x, lam_s, w);
  if (nst == MBS_OK) {
    coulomb_shift(ws, ns, sidx, chat0, lam_s, w, q->shift);
    q->have_shift = 1;
    return MBS_OK;
  }
  return st == MBS_SOLVER_FAILED ? st : MBS_MAX_ITERATIONS;
}

// a warm start for a new pattern from the last solve by model row (q->x0): λ of the rows that
// took part (0 for rows new to this solve: qcp pushes the slacks inside), the last w, β̂ = 0
static void row_warm_point(mbs_workspace *ws, int ns, const int *sidx) {
  struct mbs_qcp *q = ws->qcp;
  for (int s = 0; s < ns; s++) {
    const int i = ws->act[sidx[s]];
    q->x0[s] = q->row_stamp[i] == q->stamp && q->role[s] != ROLE_OFF ? q->lam_row[i] : 0;
  }
  memcpy(q->x0 + ns, q->w_last, sizeof(double) * (size_t)ws->nv);
  for (int k = ns + ws->nv; k < q->nn; k++) q->x0[k] = 0;
}

// exact Coulomb by Newton straight from the last solve's forces (the previous pass of this step,
// or the last step; rows new to the solve start at 0), no interior point: while contacts slide
// or the pattern changes (a landing) the last solution is closer than the relaxed one. A few
// iterations only; 1 if taken. The conic solver's stored iterate no longer matches, so its next
// solve starts from the rows (row_warm_point) instead of warm.
static int coulomb_quick(mbs_workspace *ws, int ns, const int *sidx, const double *chat0, int ncone,
                         double *lam_s, double *w) {
  enum { QUICK_MAX = 10 };
  struct mbs_qcp *q = ws->qcp;
  if (ws->settings.formulation != MBS_COULOMB || ncone == 0 ||
      ws->settings.coulomb_solver != MBS_COULOMB_NEWTON || ws->settings.start != MBS_START_WARM ||
      q->stamp <= 1)
    return 0;
  row_warm_point(ws, ns, sidx);
  const mbs_cn_problem p = newton_problem(ws, ns, sidx, chat0);
  int it = 0;
  double res = INFINITY;
  const mbs_status st = mbs_cn_quick(ws, q->cn, &p, q->x0, QUICK_MAX, &it, &res);
  ws->info.newton_iterations += it;
  if (st != MBS_OK) return 0;
  newton_take(ws, ns, q->x0, lam_s, w);
  ws->info.coulomb_residual = res;
  ws->info.fp_iterations = 0;
  coulomb_shift(ws, ns, sidx, chat0, lam_s, w, q->shift);
  q->have_shift = 1, q->have_warm = 0;
  return 1;
}

// the interior-point path: qcp from the chosen start, then (coulomb) the fixed point
static mbs_status interior_point_solve(mbs_workspace *ws, int ns, const int *sidx,
                                       const double *chat0, int ncone, double *lam_s, double *w) {
  struct mbs_qcp *q = ws->qcp;
  if (flush_update(ws)) return MBS_SOLVER_FAILED;
  int start = SOLVE_COLD;
  const int warm = ws->settings.start == MBS_START_WARM && q->same && q->have_warm;
  if (warm) start = SOLVE_WARM;
  if (ws->settings.start == MBS_START_WARM && !warm && q->stamp > 1) {
    row_warm_point(ws, ns, sidx);
    start = SOLVE_ROWS;
  }
  if (ws->settings.start == MBS_START_FEASIBLE && !feasible_point(ws, ns, sidx, chat0))
    start = SOLVE_FEASIBLE;
  // coulomb, warm: the fixed point starts from the last step's converged shifts (same pattern,
  // so the same contacts in the same compact rows) instead of from relaxed's s = 0; at rest they
  // barely change, and the first solve already satisfies the fixed point's test
  const int warm_shift = warm && q->have_shift && ws->settings.formulation == MBS_COULOMB;
  if (warm_shift) {
    for (int s = 0; s < ns; s++)
      if (q->role[s] == ROLE_NORMAL) q->c[s] = -(chat0[s] - q->shift[s]);
    qcp_error err;
    if (qcp_update(q->qws, NULL, NULL, NULL, q->c, NULL, NULL, &err)) return MBS_SOLVER_FAILED;
  }
  if (coulomb_quick(ws, ns, sidx, chat0, ncone, lam_s, w)) return MBS_OK;
  mbs_status st = solve_once(ws, start);
  if (st == MBS_SOLVER_FAILED) return st;
  extract(ws, ns, lam_s, w);
  ws->info.fp_iterations = 1;
  if (ws->settings.formulation != MBS_COULOMB || ncone == 0) return st;
  if (ws->settings.coulomb_solver == MBS_COULOMB_NEWTON) {
    // the residual of the solve the pass ends with (a speculative re-solve replaces an earlier
    // pass's: the step takes the last)
    double res = INFINITY;
    mbs_status nst = coulomb_newton(ws, ns, sidx, chat0, lam_s, w, st, 1, &res);
    // Newton stalled: first one step of the fixed point (a conic solve at the shifts of its
    // best iterate: a start independent of the relaxed one, carrying the sliding contacts'
    // friction) and Newton's whole ladder from there; then the fixed point to its end and the
    // ladder again (rare)
    const int solves[] = {2, ws->settings.fp_max_iter};
    for (int k = 0; k < 2 && nst == MBS_MAX_ITERATIONS; k++) {
      const mbs_status fst = coulomb_fixed_point(ws, ns, sidx, chat0, lam_s, w, 0, st, solves[k]);
      nst = fst == MBS_SOLVER_FAILED ? fst
                                     : coulomb_newton(ws, ns, sidx, chat0, lam_s, w, fst, 0, &res);
    }
    ws->info.coulomb_residual = res;
    // a singular Newton matrix (or no sparse LU in this build) leaves the fixed point alone
    if (nst != MBS_SOLVER_FAILED) return nst;
  }
  return coulomb_fixed_point(ws, ns, sidx, chat0, lam_s, w, warm_shift, st,
                             ws->settings.fp_max_iter);
}

// a re-solve of the last built rows whose stiffnesses changed (ws->rows_kept): relaxed and
// coulomb hold D only in the λ columns' diagonal C = 1/D of P and in the targets c = −ĉ0, so only
// those are rewritten (the pattern, A, G, b and h stand; build would write the same values)
static void rebuild_stiffness(mbs_workspace *ws, int ns, const int *sidx, const double *chat) {
  struct mbs_qcp *q = ws->qcp;
  for (int s = 0; s < ns; s++) {
    const int off = q->role[s] == ROLE_OFF;
    q->Px[q->Pp[s]] = off ? 1 : 1.0 / ws->D[sidx[s]];
    q->c[s] = off ? 0 : -chat[s];
  }
}

mbs_status mbs_qcp_solve(mbs_workspace *ws, int ns, const int *sidx, const double *chat0,
                         const double *gE, double *lam_s, double *w) {
  struct mbs_qcp *q = ws->qcp;
  int ncone = q->ncone;
  mbs_status st = MBS_OK;
  if (ws->rows_kept && q->have_pattern && q->nlam == ns && ws->settings.formulation != MBS_PAPER) {
    rebuild_stiffness(ws, ns, sidx, chat0);
    q->same = 1, q->pending = 1;  // the pattern loaded with the last build (load's same path)
  } else {
    if ((st = classify(ws, ns, sidx, &ncone)) != MBS_OK) return st;
    if ((st = build(ws, ns, sidx, chat0, gE, ncone)) != MBS_OK) return st;
    q->build_id++;
    if ((st = load(ws)) != MBS_OK) return st;
    q->ncone = ncone;
  }
  ws->info.contacts = ncone;
  ws->qcp_used = 1;
  ws->info.coulomb_residual = 0;  // the last solve's (SPEC §1.6; 0 when relaxed or frictionless)
  const int predicted = mbs_predict_solve(ws, ns, sidx, chat0, lam_s, w);
  if (predicted) {
    ws->info.predicted++, ws->info.predicted_sliding += predicted == 2;
    ws->info.fp_iterations = 1;
    q->have_shift = 0;  // the next fixed point (if any) starts from s = 0
    st = MBS_OK;
  } else {
    st = interior_point_solve(ws, ns, sidx, chat0, ncone, lam_s, w);
  }
  if (st != MBS_SOLVER_FAILED) mbs_predict_record(ws, ns, sidx);
  // the residual of the forces taken, measured alike for a prediction, the fixed point and Newton
  if (ws->settings.formulation == MBS_COULOMB && ncone > 0 && st != MBS_SOLVER_FAILED) {
    const mbs_cn_problem p = newton_problem(ws, ns, sidx, chat0);
    ws->info.coulomb_residual = mbs_cn_residual(ws, q->cn, &p, lam_s, w);
  }
  return st;
}

#else  // no qcp in this build

int mbs_qcp_create(mbs_workspace *ws) {
  ws->qcp = NULL;
  return 0;
}
void mbs_qcp_free(mbs_workspace *ws) { (void)ws; }
const struct qcp_problem *mbs_qcp_problem(const mbs_workspace *ws) {
  (void)ws;
  return NULL;
}
mbs_status mbs_qcp_solve(mbs_workspace *ws, int ns, const int *sidx, const double *chat0,
                         const double *gE, double *lam_s, double *w) {
  (void)ws, (void)ns, (void)sidx, (void)chat0, (void)gE, (void)lam_s, (void)w;
  return MBS_UNSUPPORTED;
}

#endif
