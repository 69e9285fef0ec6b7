// SPDX-License-Identifier: MIT
// Exact Coulomb friction for paper A's step by a semismooth Newton method (SPEC §1.6), on the
// conic path's compact rows in lifted form (mbs_qcp.c): unknowns x = (λ_S, w), the row forces and
// w = M⁻¹Gᵀλ, with the per-row scaled residual ρ_s = λ_s/D_s + G_s w − ĉ0_s (SPEC §1.2, §1.3).
//
// Equations F(x) = 0 (Alart & Curnier 1991, the "AC" function of Acary, Brémond & Huber 2018,
// §3.3), each row in newtons:
//   momentum (nv rows)   E = M w − G_Sᵀ λ_S − g_E                       (linear, eq. of §1.2)
//   bilateral            F_s = r_s ρ_s
//   unilateral           F_s = λ_s − max(0, λ_s − r_s ρ_s)               (natural map of
//                        0 ≤ λ ⊥ ρ ≥ 0; frictionless normals too)
//   μ = 0 tangent        F_s = λ_s
//   contact (n, t)       a = λ_n − r_n ρ_n,  z = λ_t − r_t ρ_t,  R = μ max(0, a)
//                        F_n = λ_n − max(0, a)
//                        F_t = λ_t − P_{B(R)}(z)   (projection on the disc of radius R)
// Its zeros are exactly Coulomb's law with the normal complementarity 0 ≤ λ_n ⊥ ρ_n ≥ 0 (no
// gliding), ‖λ_t‖ ≤ μλ_n, ρ_t = 0 while sticking and λ_t = −μλ_n ρ_t/‖ρ_t‖ while sliding — the
// same solutions as the De Saxcé fixed point of §1.3. r_s > 0 are scales [kg], 1/(C + W)_ss with
// W's diagonal taken with M's diagonal: any r > 0 gives the same zeros; these balance the
// augmented variables (r_n for the normal and the disc, r_t for the tangents' z).
//
// Generalized Jacobian (one element of Clarke's, as Alart–Curnier's): per group (a contact's
// rows, or a single row) dF_g = A_g dλ_g + B_g dρ_g with dρ = C dλ + G dw:
//   open (a ≤ 0):            A = I, B = 0
//   closed, stick (‖z‖ ≤ R): F = r ρ: A = 0, B = diag(r_n, r_t)
//   closed, slide:           F_n = r_n ρ_n, and with ẑ = z/‖z‖, α = R/‖z‖ < 1, Π = I − ẑẑᵀ,
//                            dF_t = (I − αΠ) dλ_t − μẑ dλ_n + μ r_n ẑ dρ_n + α r_t Π dρ_t
// The Newton matrix J = [A + B C, B G; −G_Sᵀ, M] is sparse (a contact's rows couple only its own
// λ and its bodies' w) but not symmetric (sliding friction is not associated), so the harness's
// symmetric quasidefinite LDLᵀ (qcp_qd) does not apply: it is factored by KLU (sparse LU with
// BTF: the independent contact groups of a pile become separate blocks); the symbolic analysis
// is kept while the pattern holds and the numeric factor is refactored in place.
// Globalisation: Armijo backtracking on θ = ½‖F‖² (θ' = −‖F‖² along the Newton direction), per
// island of independent contacts (cn_newton), and when the plain iteration stalls a compliance
// continuation (cn_homotopy) then a proximal-point outer loop (cn_attempt), over a ladder of
// scales (mbs_cn_solve). Started from the relaxed solution, or from the last solve's forces
// (mbs_cn_quick: a few plain iterations, no interior point): most steps take 0–3 iterations.
#include "mbs_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef MBS_HAVE_KLU
#include <klu.h>
#endif
struct mbs_cn {
  int cap_n, cap_J;
  int *Jp, *Ji, *Jp0, *Ji0, n0, nz0;  // Newton matrix (CSC) and the pattern analysed
  double *Jx;
  double *F, *Ft, *d, *xt, *xs, *xb, *rho, *rr, *gv;  // residuals, direction, trial point, scratch
  double *xk;           // the continuation's last stage solution (cn_homotopy)
  double *Aloc, *Bloc;  // per compact row: its row of the group's A, B (3)
  int *mark;
  int stamp;
  double nu, *lk;  // proximal weight ν and centre λ_k (ν = 0: the original equations)
  double k;        // the scales' factor (cn_scales: r_s = k/W_ss)
  // islands: independent groups of rows and velocities (no row couples two), each with its own
  // line search; per node (ns + nv) its island, per island its merit, step, state, stalls
  int nisl, *isl, *uf, *lab, *state, *kinks;
  double *th0, *th1, *tk, *fk;
#ifdef MBS_HAVE_KLU
  klu_common common;
  klu_symbolic *sym;
  klu_numeric *num;
#endif
};

mbs_cn *mbs_cn_create(const mbs_workspace *ws) {
  mbs_cn *cn = calloc(1, sizeof *cn);
  if (!cn) return NULL;
  const int cap = ws->cap > 0 ? ws->cap : 1, nv = ws->nv;
  const int nnz = ws->model->max_nnz > 0 ? ws->model->max_nnz : 1;
  cn->cap_n = cap + nv;
  cn->cap_J = 9 * cap + 4 * nnz + (int)ws->mass_entries + 16;
  const size_t n1 = (size_t)cn->cap_n + 1, nJ = (size_t)cn->cap_J, c3 = 3 * (size_t)cap;
  cn->Jp = calloc(n1, sizeof(int)), cn->Jp0 = calloc(n1, sizeof(int));
  cn->Ji = calloc(nJ, sizeof(int)), cn->Ji0 = calloc(nJ, sizeof(int));
  cn->Jx = calloc(nJ, sizeof(double));
  double **d[] = {&cn->F, &cn->Ft, &cn->d, &cn->xt, &cn->xs, &cn->xb, &cn->xk};
  for (size_t k = 0; k < sizeof d / sizeof *d; k++) *d[k] = calloc(n1, sizeof(double));
  cn->rho = calloc((size_t)cap, sizeof(double)), cn->rr = calloc((size_t)cap, sizeof(double));
  cn->gv = calloc((size_t)cap, sizeof(double)), cn->lk = calloc((size_t)cap, sizeof(double));
  cn->Aloc = calloc(c3, sizeof(double)), cn->Bloc = calloc(c3, sizeof(double));
  cn->mark = calloc((size_t)cap, sizeof(int));
  int **iv[] = {&cn->isl, &cn->uf, &cn->lab, &cn->state, &cn->kinks};
  for (size_t k = 0; k < sizeof iv / sizeof *iv; k++) *iv[k] = calloc(n1, sizeof(int));
  double **dv[] = {&cn->th0, &cn->th1, &cn->tk, &cn->fk};
  for (size_t k = 0; k < sizeof dv / sizeof *dv; k++) *dv[k] = calloc(n1, sizeof(double));
  int ok = cn->Jp && cn->Jp0 && cn->Ji && cn->Ji0 && cn->Jx && cn->rho && cn->rr && cn->gv &&
           cn->lk && cn->Aloc && cn->Bloc && cn->mark;
  for (size_t k = 0; k < sizeof iv / sizeof *iv; k++) ok = ok && *iv[k];
  for (size_t k = 0; k < sizeof dv / sizeof *dv; k++) ok = ok && *dv[k];
  for (size_t k = 0; k < sizeof d / sizeof *d; k++) ok = ok && *d[k];
#ifdef MBS_HAVE_KLU
  klu_defaults(&cn->common);
#endif
  if (!ok) return mbs_cn_free(cn), NULL;
  return cn;
}

void mbs_cn_free(mbs_cn *cn) {
  if (!cn) return;
#ifdef MBS_HAVE_KLU
  if (cn->num) klu_free_numeric(&cn->num, &cn->common);
  if (cn->sym) klu_free_symbolic(&cn->sym, &cn->common);
#endif
  free(cn->Jp), free(cn->Jp0), free(cn->Ji), free(cn->Ji0), free(cn->Jx);
  free(cn->F), free(cn->Ft), free(cn->d), free(cn->xt), free(cn->xs), free(cn->xb), free(cn->xk);
  free(cn->rho), free(cn->rr), free(cn->gv), free(cn->lk), free(cn->Aloc), free(cn->Bloc),
      free(cn->mark);
  free(cn->isl), free(cn->uf), free(cn->lab), free(cn->state), free(cn->kinks);
  free(cn->th0), free(cn->th1), free(cn->tk), free(cn->fk);
  free(cn);
}

// the group of row s: its members (the leader first: a contact's normal, then its tangents) and
// s's position among them; returns the member count
static int cn_group(const mbs_cn_problem *p, int s, int *mem, int *pos) {
  const int lead = p->role[s] == MBS_ROLE_TANGENT ? p->tn[s] : s;
  int g = 1;
  mem[0] = lead;
  if (p->role[lead] == MBS_ROLE_NORMAL) {
    mem[g++] = p->tan1[lead];
    if (p->ntan[lead] > 1) mem[g++] = p->tan2[lead];
  }
  for (int k = 0; k < g; k++)
    if (mem[k] == s) *pos = k;
  return g;
}

// per-row scale r_s = k/(1/D_s + Σ_j G_sj²/M_jj) [kg] (the normal's for a contact's normal
// equation and the disc's radius, the tangents' own for their augmented z = λ_t − r_t ρ_t)
static void cn_scales(const mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p, double k) {
  for (int s = 0; s < p->ns; s++) cn->rr[s] = 0;
  for (int j = 0; j < p->nv; j++) {
    const int blk = ws->col_block[j], a = j - ws->blk_v0[blk], bs = ws->blk_size[blk];
    const double mjj = ws->mass_raw[ws->blk_off[blk] + (size_t)(a * bs + a)];
    for (int t = p->Tp[j]; t < p->Tp[j + 1]; t++)
      cn->rr[p->Ti[t]] += p->Tx[t] * p->Tx[t] / (mjj > 0 ? mjj : 1);
  }
  for (int s = 0; s < p->ns; s++) cn->rr[s] = k / (1.0 / ws->D[p->sidx[s]] + cn->rr[s]);
  cn->k = k;
}

// F, A_g, B_g of a contact group (leader n = mem[0], g members) at λ, ρ
static void cn_contact(mbs_cn *cn, const int *mem, int g, double mu, const double *lam, double *F) {
  const int n = mem[0];
  const double r = cn->rr[n], rt = g > 1 ? cn->rr[mem[1]] : r, a = lam[n] - r * cn->rho[n];
  double z[2] = {0, 0}, zn = 0;
  for (int k = 1; k < g; k++)
    z[k - 1] = lam[mem[k]] - rt * cn->rho[mem[k]], zn += z[k - 1] * z[k - 1];
  zn = sqrt(zn);
  const double R = mu * fmax(0.0, a);
  for (int k = 0; k < g; k++)
    for (int c = 0; c < 3; c++) cn->Aloc[3 * mem[k] + c] = cn->Bloc[3 * mem[k] + c] = 0;
  if (a <= 0) {  // open: λ = 0
    for (int k = 0; k < g; k++) F[mem[k]] = lam[mem[k]], cn->Aloc[3 * mem[k] + k] = 1;
    return;
  }
  F[n] = r * cn->rho[n], cn->Bloc[3 * n] = r;
  if (zn <= R) {  // stick: ρ = 0
    for (int k = 1; k < g; k++) F[mem[k]] = rt * cn->rho[mem[k]], cn->Bloc[3 * mem[k] + k] = rt;
    return;
  }
  const double alpha = R / zn, zh[2] = {z[0] / zn, z[1] / zn};
  for (int k = 1; k < g; k++) {
    const int t = mem[k];
    F[t] = lam[t] - R * zh[k - 1];
    cn->Aloc[3 * t] = -mu * zh[k - 1], cn->Bloc[3 * t] = mu * r * zh[k - 1];
    for (int c = 1; c < g; c++) {
      const double pi = (k == c) - zh[k - 1] * zh[c - 1];  // Π = I − ẑẑᵀ
      cn->Aloc[3 * t + c] = (k == c) - alpha * pi;
      cn->Bloc[3 * t + c] = alpha * rt * pi;
    }
  }
}

// F(x) (ns row equations, then the nv momentum rows) and, as a side effect, every group's A, B;
// returns θ = ½‖F‖²
static double cn_eval(const mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p, const double *x,
                      double *F) {
  const int ns = p->ns, nv = p->nv;
  const mdl_rows *rw = ws->rows;
  const double *lam = x, *w = x + ns;
  for (int s = 0; s < ns; s++) {
    const int a = p->sidx[s];
    cn->rho[s] = lam[s] / ws->D[a] + mdl_eval_row_dot(rw, ws->act[a], w) - p->chat0[s];
    if (cn->nu > 0) cn->rho[s] += cn->nu / cn->rr[s] * (lam[s] - cn->lk[s]);
  }
  for (int s = 0; s < ns; s++) {
    const int role = p->role[s];
    double *A = cn->Aloc + 3 * s, *B = cn->Bloc + 3 * s;
    if (role == MBS_ROLE_TANGENT) continue;  // with its normal
    if (role == MBS_ROLE_NORMAL) {
      int mem[3], pos = 0, g = cn_group(p, s, mem, &pos);
      cn_contact(cn, mem, g, rw->mu[ws->act[p->sidx[s]]], lam, F);
      continue;
    }
    A[0] = A[1] = A[2] = B[0] = B[1] = B[2] = 0;
    const double r = cn->rr[s];
    if (role == MBS_ROLE_FREE || (role == MBS_ROLE_UNI && lam[s] - r * cn->rho[s] > 0))
      F[s] = r * cn->rho[s], B[0] = r;
    else
      F[s] = lam[s], A[0] = 1;
  }
  for (int j = 0; j < nv; j++) F[ns + j] = -p->b[j];
  for (int c = 0; c < ns + nv; c++)
    for (int k = p->Ap[c]; k < p->Ap[c + 1]; k++) F[ns + p->Ai[k]] += p->Ax[k] * x[c];
  double th = 0;
  for (int i = 0; i < ns + nv; i++) th += F[i] * F[i];
  return 0.5 * th;
}

// the Newton matrix J (CSC, n = ns + nv) from the groups' A, B; rows unsorted within a column
// (KLU accepts that), no duplicates
static void cn_assemble(const mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p) {
  const int ns = p->ns, nv = p->nv;
  int nz = 0, mem[3], pos = 0;
  for (int s = 0; s < ns; s++) {
    cn->Jp[s] = nz;
    const int g = cn_group(p, s, mem, &pos);
    const double C = 1.0 / ws->D[p->sidx[s]] + cn->nu / cn->rr[s];  // (prox: + σ_s)
    for (int k = 0; k < g; k++) {
      const int m = mem[k];
      cn->Ji[nz] = m, cn->Jx[nz++] = cn->Aloc[3 * m + pos] + cn->Bloc[3 * m + pos] * C;
    }
    for (int k = p->Ap[s]; k < p->Ap[s + 1]; k++)
      cn->Ji[nz] = ns + p->Ai[k], cn->Jx[nz++] = p->Ax[k];
  }
  for (int j = 0; j < nv; j++) {
    const int col = ns + j;
    cn->Jp[col] = nz;
    cn->stamp++;
    for (int t = p->Tp[j]; t < p->Tp[j + 1]; t++) cn->gv[p->Ti[t]] = p->Tx[t];
    for (int t = p->Tp[j]; t < p->Tp[j + 1]; t++) {
      const int s = p->Ti[t], lead = p->role[s] == MBS_ROLE_TANGENT ? p->tn[s] : s;
      if (cn->mark[lead] == cn->stamp) continue;
      cn->mark[lead] = cn->stamp;
      const int g = cn_group(p, s, mem, &pos);
      for (int k = 0; k < g; k++) {
        const int m = mem[k];
        double v = 0;
        for (int c = 0; c < g; c++) v += cn->Bloc[3 * m + c] * cn->gv[mem[c]];
        cn->Ji[nz] = m, cn->Jx[nz++] = v;
      }
    }
    for (int t = p->Tp[j]; t < p->Tp[j + 1]; t++) cn->gv[p->Ti[t]] = 0;
    for (int k = p->Ap[col]; k < p->Ap[col + 1]; k++)
      cn->Ji[nz] = ns + p->Ai[k], cn->Jx[nz++] = p->Ax[k];
  }
  cn->Jp[ns + nv] = nz;
}

#ifdef MBS_HAVE_KLU
// the symbolic analysis of J's pattern with the ordering in cn->common; 0 or −1
static int cn_analyze(mbs_cn *cn, int n) {
  if (cn->num) klu_free_numeric(&cn->num, &cn->common);
  if (cn->sym) klu_free_symbolic(&cn->sym, &cn->common);
  cn->sym = klu_analyze(n, cn->Jp, cn->Ji, &cn->common);
  return cn->sym ? 0 : -1;
}

// a fresh numeric factor; 0 or −1. A sticking row's diagonal (r/D) is tiny beside its G
// entries, so the factor may pivot off the diagonal, and AMD's symmetric order then fills in far
// beyond its estimate (measured on a pile of 200: L + U 4.7e5 entries against 1.2e5 estimated,
// 2.3e5 with COLAMD, 4–5× less CPU per Newton step; on a column AMD's order stands and is
// cheaper): when the fill exceeds twice AMD's estimate the pattern is analysed again with COLAMD
static int cn_factor(mbs_cn *cn, int n) {
  for (;;) {
    cn->num = klu_factor(cn->Jp, cn->Ji, cn->Jx, cn->sym, &cn->common);
    if (!cn->num || cn->common.status != KLU_OK) {
      if (cn->num) klu_free_numeric(&cn->num, &cn->common);
      return -1;
    }
    const double fill = (double)cn->num->lnz + (double)cn->num->unz;
    if (cn->common.ordering != 0 || !(fill > 2 * (cn->sym->lnz + cn->sym->unz))) return 0;
    cn->common.ordering = 1;
    if (cn_analyze(cn, n)) return -1;
  }
}

// d ← J⁻¹ d; 0 on success. The symbolic analysis stands while the pattern does; the numeric
// factor is refactored in place (no allocation) unless that fails or is badly conditioned
static int cn_factor_solve(mbs_cn *cn, int n, double *d) {
  const int nz = cn->Jp[n];
  int same = cn->sym && cn->n0 == n && cn->nz0 == nz &&
             !memcmp(cn->Jp, cn->Jp0, sizeof(int) * (size_t)(n + 1)) &&
             !memcmp(cn->Ji, cn->Ji0, sizeof(int) * (size_t)nz);
  if (!same) {
    cn->common.ordering = 0;  // AMD on J + Jᵀ first (cn_factor)
    if (cn_analyze(cn, n)) return -1;
    memcpy(cn->Jp0, cn->Jp, sizeof(int) * (size_t)(n + 1));
    memcpy(cn->Ji0, cn->Ji, sizeof(int) * (size_t)nz);
    cn->n0 = n, cn->nz0 = nz;
  }
  int fresh = !cn->num;
  if (!fresh) {
    // pivots chosen for an earlier matrix: keep them while they stay sound
    fresh = !klu_refactor(cn->Jp, cn->Ji, cn->Jx, cn->sym, cn->num, &cn->common) ||
            cn->common.status != KLU_OK || !klu_rcond(cn->sym, cn->num, &cn->common) ||
            !(cn->common.rcond > 1e-12);
    if (fresh) klu_free_numeric(&cn->num, &cn->common);
  }
  if (fresh && cn_factor(cn, n)) return -1;
  return klu_solve(cn->sym, cn->num, n, 1, d, &cn->common) ? 0 : -1;
}
#else
static int cn_factor_solve(mbs_cn *cn, int n, double *d) {
  (void)cn, (void)n, (void)d;
  return -1;
}
#endif

// the step's force scale max(‖λ‖∞, max |ĉ0_s|/(C + W)_ss, ‖g_E‖∞) (1 if all vanish): the unit
// scales' r|ĉ0|, whatever the scales' factor k, so that every rung and the measure of
// mbs_cn_residual test against the same force
static double cn_scale(const mbs_cn *cn, const mbs_cn_problem *p, const double *x) {
  double scale = 0;
  for (int s = 0; s < p->ns; s++)
    scale = fmax(scale, fmax(fabs(x[s]), cn->rr[s] / cn->k * fabs(p->chat0[s])));
  for (int j = 0; j < p->nv; j++) scale = fmax(scale, fabs(p->b[j]));
  return scale > 0 ? scale : 1;
}

// ‖F‖∞ relative to the step's force scale
static double cn_residual(const mbs_cn *cn, const mbs_cn_problem *p, const double *x,
                          const double *F) {
  double fmaxv = 0;
  for (int i = 0; i < p->ns + p->nv; i++) fmaxv = fmax(fmaxv, fabs(F[i]));
  return fmaxv / cn_scale(cn, p, x);
}

static int uf_find(int *uf, int i) {
  while (uf[i] != i) uf[i] = uf[uf[i]], i = uf[i];
  return i;
}

// the problem's islands: rows and velocities joined through G and M's blocks (union–find);
// cn->isl[i] of node i (rows, then velocities), cn->nisl of them
static void cn_islands(const mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p) {
  const int ns = p->ns, n = ns + p->nv;
  int *uf = cn->uf;
  for (int i = 0; i < n; i++) uf[i] = i, cn->lab[i] = -1;
  for (int j = 0; j < p->nv; j++) {
    uf[uf_find(uf, ns + j)] = uf_find(uf, ns + ws->blk_v0[ws->col_block[j]]);
    for (int t = p->Tp[j]; t < p->Tp[j + 1]; t++) uf[uf_find(uf, ns + j)] = uf_find(uf, p->Ti[t]);
  }
  for (int s = 0; s < ns; s++)
    if (p->role[s] == MBS_ROLE_TANGENT) uf[uf_find(uf, s)] = uf_find(uf, p->tn[s]);
  cn->nisl = 0;
  for (int i = 0; i < n; i++) {
    const int r = uf_find(uf, i);
    if (cn->lab[r] < 0) cn->lab[r] = cn->nisl++;
    cn->isl[i] = cn->lab[r];
  }
}

// smallest root in (lo, hi] of c2 t² + c1 t + c0 (INFINITY if none)
static double root_first(double c2, double c1, double c0, double lo) {
  double r[2] = {INFINITY, INFINITY};
  if (fabs(c2) < 1e-300 * (fabs(c1) + fabs(c0))) {
    if (c1 != 0) r[0] = -c0 / c1;
  } else {
    const double disc = c1 * c1 - 4 * c2 * c0;
    if (disc >= 0) {
      const double q = -0.5 * (c1 + copysign(sqrt(disc), c1));
      r[0] = q / c2, r[1] = q != 0 ? c0 / q : INFINITY;
    }
  }
  double t = INFINITY;
  for (int k = 0; k < 2; k++)
    if (r[k] > lo && r[k] < t) t = r[k];
  return t;
}

// per island, the first t > tiny at which a row group changes regime (open / stick / slide)
// along x + t d, into cn->fk (INFINITY: none)
static void cn_first_kinks(const mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p,
                           const double *x, const double *d) {
  const int ns = p->ns;
  const mdl_rows *rw = ws->rows;
  const double tiny = 1e-12;
  double *r0 = cn->gv, *r1 = cn->Ft;  // ρ(x) and dρ (Ft is free here: rewritten by the search)
  for (int s = 0; s < ns; s++) {
    const int a = p->sidx[s];
    r0[s] = x[s] / ws->D[a] + mdl_eval_row_dot(rw, ws->act[a], x + ns) - p->chat0[s];
    r1[s] = d[s] / ws->D[a] + mdl_eval_row_dot(rw, ws->act[a], d + ns);
    if (cn->nu > 0)
      r0[s] += cn->nu / cn->rr[s] * (x[s] - cn->lk[s]), r1[s] += cn->nu / cn->rr[s] * d[s];
  }
  for (int k = 0; k < cn->nisl; k++) cn->fk[k] = INFINITY;
  for (int s = 0; s < ns; s++) {
    const int role = p->role[s];
    if (role != MBS_ROLE_NORMAL && role != MBS_ROLE_UNI) continue;
    const double r = cn->rr[s], a0 = x[s] - r * r0[s], da = d[s] - r * r1[s];
    double t = root_first(0, da, a0, tiny);
    if (role == MBS_ROLE_NORMAL && p->ntan[s] > 0) {
      const double mu = rw->mu[ws->act[p->sidx[s]]], rt = cn->rr[p->tan1[s]];
      double zz = 0, zd = 0, dd = 0;
      for (int k = 0; k < p->ntan[s]; k++) {
        const int tr = k ? p->tan2[s] : p->tan1[s];
        const double z0 = x[tr] - rt * r0[tr], dz = d[tr] - rt * r1[tr];
        zz += z0 * z0, zd += z0 * dz, dd += dz * dz;
      }
      // ‖z(t)‖² = (μ a(t))², counted only where a(t) > 0
      const double tq = root_first(dd - mu * mu * da * da, 2 * (zd - mu * mu * a0 * da),
                                   zz - mu * mu * a0 * a0, tiny);
      if (tq < t && a0 + tq * da > 0) t = tq;
    }
    const int k = cn->isl[s];
    if (t < cn->fk[k]) cn->fk[k] = t;
  }
  for (int s = 0; s < ns; s++) r0[s] = 0;  // gv is kept zero between uses
}

enum { ISL_PENDING, ISL_ACCEPTED, ISL_FAILED, ISL_IDLE };

// per island: θ_k = ½‖F_k‖² into th, the largest |F_i| into fk (when given)
static void cn_island_merit(const mbs_cn *cn, int n, const double *F, double *th, double *fk) {
  for (int k = 0; k < cn->nisl; k++) th[k] = 0;
  if (fk)
    for (int k = 0; k < cn->nisl; k++) fk[k] = 0;
  for (int i = 0; i < n; i++) {
    const int k = cn->isl[i];
    th[k] += 0.5 * F[i] * F[i];
    if (fk) fk[k] = fmax(fk[k], fabs(F[i]));
  }
}

// Semismooth Newton on the (proximal) equations from x, at most *budget iterations (spent ones
// subtracted), until the residual relative to the force scale is ≤ tol: 1 converged, 0 not
// (budget spent, or every unconverged island without descent), −1 the Newton matrix is singular.
// The line search is per island: the equations of two islands share no unknown, so the Newton
// direction (one sparse solve for all) splits into independent ones and each island takes its own
// Armijo step θ_k(x + t d) ≤ (1 − 2σt) θ_k(x) on its own θ_k = ½‖F_k‖² — a contact between stick
// and slip in one group of spheres no longer holds back the step of every other. Where an
// island's search finds no decrease, x sits next to a kink of F (a contact between stick and
// slip, open and closed) and the Jacobian's element points out of the piece d enters: that island
// stays at x and retries with the Jacobian of that piece, taken just past the first kink along d
// (cn_first_kinks; measured on the pile: the kink is often 1e-4…1e-2 of the step away, where a
// fixed 1e-9 step stays in the old piece); after KINK_RETRIES such failures in a row it stops
// moving while the others go on.
static int cn_newton(mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p, double *x, double tol,
                     int *budget, double *residual) {
  const int n = p->ns + p->nv, K = cn->nisl;
  const double sigma = 1e-4, kink_step = 1e-9;
  enum { LINE_SEARCH_MAX = 30, KINK_RETRIES = 2 };
  cn_eval(ws, cn, p, x, cn->F);
  for (int k = 0; k < K; k++) cn->kinks[k] = 0;
  for (;;) {
    *residual = cn_residual(cn, p, x, cn->F);
    if (!isfinite(*residual)) return 0;
    if (*residual <= tol) return 1;
    if (*budget <= 0) return 0;
    const double ftol = tol * cn_scale(cn, p, x);
    cn_island_merit(cn, n, cn->F, cn->th0, cn->fk);
    int pending = 0;
    for (int k = 0; k < K; k++) {
      const int go = cn->fk[k] > ftol && cn->kinks[k] <= KINK_RETRIES;
      cn->state[k] = go ? ISL_PENDING : ISL_IDLE, cn->tk[k] = go, pending += go;
    }
    if (!pending) return 0;  // every unconverged island stalled
    --*budget;
    cn_assemble(ws, cn, p);
    for (int i = 0; i < n; i++) cn->d[i] = -cn->F[i];
    if (cn_factor_solve(cn, n, cn->d)) return -1;
    int failed = 0;
    for (int ls = 0; pending; ls++) {
      for (int i = 0; i < n; i++) cn->xt[i] = x[i] + cn->tk[cn->isl[i]] * cn->d[i];
      cn_eval(ws, cn, p, cn->xt, cn->Ft);
      cn_island_merit(cn, n, cn->Ft, cn->th1, NULL);
      pending = 0;
      for (int k = 0; k < K; k++) {
        if (cn->state[k] != ISL_PENDING) continue;
        if (cn->th1[k] <= (1 - 2 * sigma * cn->tk[k]) * cn->th0[k]) {
          cn->state[k] = ISL_ACCEPTED, cn->kinks[k] = 0;
        } else if (ls + 1 == LINE_SEARCH_MAX) {
          cn->state[k] = ISL_FAILED, cn->tk[k] = 0, cn->kinks[k]++, failed++;
        } else {
          cn->tk[k] *= 0.5, pending++;
        }
      }
    }
    if (failed) {
      // the failed islands stay at x with F(x), their A, B taken just past the first kink
      cn_first_kinks(ws, cn, p, x, cn->d);
      for (int k = 0; k < K; k++)
        if (cn->state[k] == ISL_FAILED)
          cn->th1[k] = isfinite(cn->fk[k]) ? fmin(1, 1.01 * cn->fk[k]) : kink_step;
      for (int i = 0; i < n; i++) {
        const int k = cn->isl[i];
        cn->xt[i] = x[i] + (cn->state[k] == ISL_FAILED ? cn->th1[k] : cn->tk[k]) * cn->d[i];
      }
      cn_eval(ws, cn, p, cn->xt, cn->Ft);
      for (int i = 0; i < n; i++)
        if (cn->state[cn->isl[i]] == ISL_FAILED) cn->xt[i] = x[i], cn->Ft[i] = cn->F[i];
    }
    memcpy(x, cn->xt, sizeof(double) * (size_t)n);
    memcpy(cn->F, cn->Ft, sizeof(double) * (size_t)n);
  }
}

// Compliance continuation from x where plain Newton stalled: every row's compliance raised by
// σ_s = ν/r_s (the proximal term of cn_attempt centred at λ = 0 instead of the last iterate),
// first σ_s = 0.01 W_ss (W_ss the row's Delassus diagonal, whatever the scale factor k), then
// tenfold less per stage down to the original equations (ν = 0), each stage's Newton started
// from the last stage's solution. The first stage's problem is far better conditioned than the
// original (near-rigid redundant contacts — a sticking loop of spheres — make the original
// Newton matrix's condition ~1e9 and the stall point's Newton direction a force redistribution
// far beyond the iterate's kinks) and its Newton converges to the same point from the starts
// measured (the continuation then takes the same path: the solve no longer depends on them). A
// stage that fails is retried from the last stage's solution with a smaller reduction (√ of the
// last factor); past a factor of 0.7 the continuation gives up at that solution and the proximal
// loop goes on from it. rc as cn_newton.
static int cn_homotopy(mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p, double *x,
                       double tol, int *budget, double *residual) {
  enum { STAGE_MAX = 20 };
  const int n = p->ns + p->nv;
  memcpy(cn->xk, x, sizeof(double) * (size_t)n);
  for (int s = 0; s < p->ns; s++) cn->lk[s] = 0;
  double nu = 0.01 * cn->k, nu_ok = INFINITY, fac = 0.1;  // σ_s = 0.01 W_ss first
  int rc = 0;
  while (*budget > 0) {
    cn->nu = nu;
    int stage = STAGE_MAX < *budget ? STAGE_MAX : *budget, rest = *budget - stage;
    double rin = 0;
    rc = cn_newton(ws, cn, p, x, nu > 0 ? 1e-3 * tol : tol, &stage, &rin);
    *budget = stage + rest;
    cn->nu = 0;
    if (rc < 0) return -1;
    if (rc == 1 && nu == 0) break;
    if (rc == 1) {
      memcpy(cn->xk, x, sizeof(double) * (size_t)n);
      nu_ok = nu, nu = nu > 1e-9 * cn->k ? fac * nu : 0;
      continue;
    }
    memcpy(x, cn->xk, sizeof(double) * (size_t)n);  // back to the last stage's solution
    fac = sqrt(fac);
    if (!isfinite(nu_ok) || fac > 0.7) break;
    nu = nu_ok * fac;
  }
  cn_eval(ws, cn, p, x, cn->F);
  *residual = cn_residual(cn, p, x, cn->F);
  return *residual <= tol;
}

// Newton alone first (most steps: 0–3 iterations from the relaxed solution). If it stalls — the
// merit has non-solution stationary points where contacts sit between stick and slip — (with
// homotopy) the compliance continuation (cn_homotopy, at most half the remaining budget), then
// from where that ends a proximal-point outer loop (as Siconos's PROX around its Newton; Acary,
// Brémond & Huber 2018) solves a sequence of better-conditioned problems: ρ + σ(λ − λ_k) in place
// of ρ, with σ_s = ν / r_s, centred at the last iterate λ_k; each is strongly monotone for ν large
// enough, and its solution is the original one when λ = λ_k. ν shrinks while the inner solves
// converge fast and never returns to a weight whose inner solve failed; the outer loop ends on the
// original equations' residual. Each inner solve is inexact (Rockafellar 1976: the proximal point
// converges with inner errors that shrink with the outer residual): it stops at INNER_FRACTION of
// the outer residual it started from. Measured on the corpus (tests/sim/data, own and perturbed
// starts): at 1e-3 the inner solves of a slow outer loop (the pile of 50 at its defaults, rolling
// cones sliding) took 7–12 iterations each for the same outer progress as 2–3 at 0.1; Newton
// iterations per state 114.0 / 78.7 (own / perturbed) at 1e-3, 68.5 / 75.7 at 0.1, 68.9 at 0.3.
// rc as cn_newton.
static int cn_attempt(mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p, double *x, double tol,
                      int homotopy, int *budget, double *residual) {
  enum { PLAIN_MAX = 12, INNER_MAX = 12, FLOOR_HOLD = 4 };
  const double INNER_FRACTION = 0.1;
  cn->nu = 0;
  int plain = PLAIN_MAX < *budget ? PLAIN_MAX : *budget, spare = *budget - plain;
  int rc = cn_newton(ws, cn, p, x, tol, &plain, residual);
  *budget = plain + spare;
  if (rc == 0 && *budget > 0 && homotopy) {
    int half = *budget / 2, other = *budget - half;
    rc = cn_homotopy(ws, cn, p, x, tol, &half, residual);
    *budget = half + other;
  }
  double nu = 1, nu_floor = 0;
  int held = 0;
  while (rc == 0 && *budget > 0) {
    memcpy(cn->lk, x, sizeof(double) * (size_t)p->ns);
    cn->nu = nu;
    const int before = *budget;
    int inner = INNER_MAX < *budget ? INNER_MAX : *budget, rest = *budget - inner;
    double rin = 0;
    const int irc = cn_newton(ws, cn, p, x, fmax(tol, INNER_FRACTION * *residual), &inner, &rin);
    *budget = inner + rest;
    cn->nu = 0;
    if (irc < 0) return -1;
    cn_eval(ws, cn, p, x, cn->F);
    *residual = cn_residual(cn, p, x, cn->F);
    if (*residual <= tol) return 1;
    // a weight whose inner solve failed is tried again only after FLOOR_HOLD fast outer
    // iterations above it (closer to the solution its inner solve may converge)
    if (irc == 1 && before - *budget <= 3) {
      if (nu * 0.1 <= nu_floor && ++held >= FLOOR_HOLD) nu_floor *= 0.1, held = 0;
      nu = nu * 0.1 <= nu_floor ? nu : nu * 0.1 < 1e-6 ? 0 : nu * 0.1;
    } else if (irc == 0) {
      nu_floor = nu, held = 0, nu = nu > 0 ? fmin(10 * nu, 1e6) : 1e-6;
    }
  }
  return rc;
}

// The scales r only shape the merit's landscape (the zeros are the same); a step that stalls
// with one is tried again from the start with the next. Measured on the landing pile's hard steps
// (tests/sim/data: N = 30, 50 and 200): the scale that converges differs from step to step — at
// N = 200 the stalls sit on contacts between stick and slip whose slip r_t ρ_t is small against
// λ_t, which a larger r resolves, while other steps need the smaller — so the ladder starts at 10×
// the Delassus diagonal's inverse and goes to 3×, 30×, 1×. Before the last it repeats 10× with
// the compliance continuation (cn_homotopy) between the plain iteration and the proximal loop:
// where the scales stall, it reaches the solution independently of the start (measured on the
// corpus of N = 30 and 50 from the step's own relaxed start, another conic solver's and randomly
// perturbed ones: all converged, at most 757 Newton iterations per step, against up to 3216 and
// not converged with the scales alone). Not earlier: it only adds where the scales fail (as the
// second rung it cost the pile of 50 about 8% more CPU per step, on steps the 3× rung solves at
// once, and the pile of 200's hardest steps 200–800 iterations more; as the first it slowed steps
// the plain iteration and the proximal loop solve: one by 1605 iterations against 90). Each rung
// has 4·fp_max_iter Newton iterations (the proximal loop's linear phase may need 100–200 on the
// hardest landing steps). The best iterate (lowest residual) is returned when none converges.
static const double cn_ladder[] = {10, 3, 30, 10, 1};
static const int cn_ladder_homotopy[] = {0, 0, 0, 1, 0};

static mbs_cn_start_fn cn_start_fn;
static void *cn_start_ctx;

void mbs_cn_start_hook(mbs_cn_start_fn fn, void *ctx) { cn_start_fn = fn, cn_start_ctx = ctx; }

mbs_status mbs_cn_solve(mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p, double *x,
                        int *iterations, double *residual) {
  enum { NSCALES = sizeof cn_ladder / sizeof *cn_ladder };
  const int n = p->ns + p->nv, per = 4 * ws->settings.fp_max_iter;
  const double tol = ws->settings.fp_tol;
  if (cn_start_fn) cn_start_fn(cn_start_ctx, p->ns, p->nv, x);
  memcpy(cn->xs, x, sizeof(double) * (size_t)n);
  cn_islands(ws, cn, p);
  double best = INFINITY;
  int rc = 0;
  *iterations = 0;
  for (int k = 0; k < NSCALES && rc == 0; k++) {
    if (k) memcpy(x, cn->xs, sizeof(double) * (size_t)n);
    cn_scales(ws, cn, p, cn_ladder[k]);
    int budget = per;
    double res = INFINITY;
    rc = cn_attempt(ws, cn, p, x, tol, cn_ladder_homotopy[k], &budget, &res);
    *iterations += per - budget;
    if (rc != 0 || res < best) {
      best = res;
      memcpy(cn->xb, x, sizeof(double) * (size_t)n);
    }
  }
  memcpy(x, cn->xb, sizeof(double) * (size_t)n);
  *residual = best;
  if (!isfinite(*residual)) return MBS_NONFINITE;
  return rc > 0 ? MBS_OK : rc < 0 ? MBS_SOLVER_FAILED : MBS_MAX_ITERATIONS;
}

double mbs_cn_residual(const mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p,
                       const double *lam, const double *w) {
  const int ns = p->ns, nv = p->nv;
  memcpy(cn->xt, lam, sizeof(double) * (size_t)ns);
  memcpy(cn->xt + ns, w, sizeof(double) * (size_t)nv);
  cn_scales(ws, cn, p, 1);
  cn->nu = 0;
  cn_eval(ws, cn, p, cn->xt, cn->Ft);
  return cn_residual(cn, p, cn->xt, cn->Ft);
}

mbs_status mbs_cn_quick(mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p, double *x,
                        int max_it, int *iterations, double *residual) {
  cn_islands(ws, cn, p);
  cn_scales(ws, cn, p, 3);  // near a solution every scale converges; 3× as the ladder had first
  cn->nu = 0;
  int budget = max_it;
  const int rc = cn_newton(ws, cn, p, x, ws->settings.fp_tol, &budget, residual);
  *iterations = max_it - budget;
  return rc > 0 ? MBS_OK : rc < 0 ? MBS_SOLVER_FAILED : MBS_MAX_ITERATIONS;
}
