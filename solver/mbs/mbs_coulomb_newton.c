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
// symmetric quasidefinite LDLᵀ (qcp_qd) does not apply: it is solved by KLU (sparse LU with
// BTF: the independent contact groups of a pile become separate blocks) — or, for a pattern whose
// factor pivots off the diagonal, with w eliminated through M's blocks: the reduced matrix
// S = A + B (C + G M⁻¹ G_Sᵀ) on the rows alone (cn_assemble); the symbolic analysis is kept
// while the pattern holds and the numeric factor is refactored in place.
// Globalisation: Armijo backtracking on θ = ½‖F‖² (θ' = −‖F‖² along the Newton direction), per
// island of independent contacts (cn_newton), and when the plain iteration stalls a compliance
// continuation (cn_homotopy) then a proximal-point outer loop (cn_attempt), over a ladder of
// scales (mbs_cn_solve). Started from the relaxed solution, or from the last solve's forces
// (mbs_cn_quick: a few plain iterations, no interior point): most steps take 0–3 iterations.
#include "common/sc_work.h"
#include "mbs_internal.h"
#include "mdl/mdl_dense.h"

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
  // the linear system factored: reduced S (ns × ns, CSR: KLU holds Sᵀ) or the full J (CSC)
  int reduced, schur_ok, oom, Mn, *Mp, *Mi, red0, cap_0;
  double *Mx;
  mbs_cn_problem prob;  // the problem and workspace of the last cn_assemble (for the solve)
  const mbs_workspace *pws;
  // the reduced system S = A + B (C + W), W = G M⁻¹ G_Sᵀ on S's pattern; rb / br: per row its
  // mass blocks, per block its G_S rows (CSR); gl, glr, gr: one block's rows (cn_schur_delassus)
  int nblk, *Sp, *Si, *rbp, *rbi, *brp, *bri, *bmark, *colpos, *glr;
  double *Sx, *Wx, *As, *Bs, *Cs, *yv, *rz, *gl, *gr;
  int cap_Sp, cap_S, cap_Sx, cap_Wx, cap_rbp, cap_rbi, cap_brp, cap_bri, cap_bmark, cap_colpos,
      cap_gl, cap_glr, cap_gr;
  int have_sig, cap_sig;  // the inputs W was formed from (cn_schur_same)
  // the pattern of J whose AMD factor filled in (solved through S while it holds)
  int can_reduce, jblown, nb0, nzb0, *Jpb, *Jib, cap_pb, cap_ib;
  unsigned char *sig;
#ifdef MBS_HAVE_KLU
  klu_common common;
  klu_symbolic *sym;
  klu_numeric *num;
  double num_flops;  // KLU's operation count of a factor with num's pivots and pattern
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
  cn->Bs = calloc(c3, sizeof(double)), cn->Cs = calloc((size_t)cap, sizeof(double));
  cn->yv = calloc((size_t)nv + 1, sizeof(double)), cn->rz = calloc(n1, sizeof(double));
  cn->As = calloc(c3, sizeof(double));
  cn->cap_0 = cn->cap_J;
  int **iv[] = {&cn->isl, &cn->uf, &cn->lab, &cn->state, &cn->kinks};
  for (size_t k = 0; k < sizeof iv / sizeof *iv; k++) *iv[k] = calloc(n1, sizeof(int));
  double **dv[] = {&cn->th0, &cn->th1, &cn->tk, &cn->fk};
  for (size_t k = 0; k < sizeof dv / sizeof *dv; k++) *dv[k] = calloc(n1, sizeof(double));
  int ok = cn->Jp && cn->Jp0 && cn->Ji && cn->Ji0 && cn->Jx && cn->rho && cn->rr && cn->gv &&
           cn->lk && cn->Aloc && cn->Bloc && cn->mark && cn->As && cn->Bs && cn->Cs && cn->yv &&
           cn->rz;
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
  free(cn->As), free(cn->Bs), free(cn->Cs), free(cn->yv), free(cn->rz), free(cn->Sp), free(cn->Si),
      free(cn->Sx), free(cn->Wx);
  free(cn->rbp), free(cn->rbi), free(cn->brp), free(cn->bri), free(cn->bmark), free(cn->colpos);
  free(cn->gl), free(cn->glr), free(cn->gr), free(cn->sig), free(cn->Jpb), free(cn->Jib);
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

// grow-only buffers (no allocation once the problems' sizes are reached); 0 or −1 out of memory
static int cn_grow_raw(void **buf, int *cap, int n, size_t sz) {
  if (n <= *cap) return 0;
  const int want = n + n / 2 + 16;
  void *b = realloc(*buf, (size_t)want * sz);
  if (!b) return -1;
  *buf = b, *cap = want;
  return 0;
}
static int cn_grow_int(int **buf, int *cap, int n) {
  void *b = *buf;
  const int rc = cn_grow_raw(&b, cap, n, sizeof(int));
  *buf = b;
  return rc;
}
static int cn_grow_dbl(double **buf, int *cap, int n) {
  void *b = *buf;
  const int rc = cn_grow_raw(&b, cap, n, sizeof(double));
  *buf = b;
  return rc;
}

// copies bytes of src into the signature at *at, clearing *same if they differ; 0 or −1
static int cn_sig(mbs_cn *cn, const void *src, size_t bytes, size_t *at, int *same) {
  void *b = cn->sig;
  const int rc = cn_grow_raw(&b, &cn->cap_sig, (int)(*at + bytes), 1);
  cn->sig = b;
  if (rc) return -1;
  unsigned char *dst = cn->sig + *at;
  if (*same && memcmp(dst, src, bytes)) *same = 0;
  if (bytes) memcpy(dst, src, bytes);
  *at += bytes;
  return 0;
}

// 1 if the reduced system's inputs (G, G_S, M, the row groups) are those of the last
// cn_schur_setup, 0 if not, −1 out of memory
static int cn_schur_same(const mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p) {
  const int ns = p->ns, nv = p->nv, dims[2] = {ns, nv};
  int same = cn->have_sig;
  size_t at = 0;
  const int nG = p->Tp[nv], nA = p->Ap[ns];
  int rc = cn_sig(cn, dims, sizeof dims, &at, &same);
  rc = rc || cn_sig(cn, p->Tp, sizeof(int) * (size_t)(nv + 1), &at, &same);
  rc = rc || cn_sig(cn, p->Ti, sizeof(int) * (size_t)nG, &at, &same);
  rc = rc || cn_sig(cn, p->Tx, sizeof(double) * (size_t)nG, &at, &same);
  rc = rc || cn_sig(cn, p->Ap, sizeof(int) * (size_t)(ns + 1), &at, &same);
  rc = rc || cn_sig(cn, p->Ai, sizeof(int) * (size_t)nA, &at, &same);
  rc = rc || cn_sig(cn, p->Ax, sizeof(double) * (size_t)nA, &at, &same);
  rc = rc || cn_sig(cn, p->role, sizeof(int) * (size_t)ns, &at, &same);
  rc = rc || cn_sig(cn, p->tn, sizeof(int) * (size_t)ns, &at, &same);
  rc = rc || cn_sig(cn, ws->mass_raw, sizeof(double) * ws->mass_entries, &at, &same);
  cn->have_sig = !rc;
  return rc ? -1 : same;
}

// a CSR list built in two passes over its (row, value) pairs: counts (pass 0), then entries
static void csr_begin(int pass, int *ptr, int n) {
  for (int r = 0; r <= n && !pass; r++) ptr[r] = 0;
}
static void csr_put(int pass, int *ptr, int *idx, int r, int v) {
  if (pass)
    idx[ptr[r]++] = v;
  else
    ptr[r + 1]++;
}
static void csr_end(int pass, int *ptr, int n) {
  if (!pass)
    for (int r = 0; r < n; r++) ptr[r + 1] += ptr[r];
  else
    for (int r = n; r >= 0; r--) ptr[r] = r ? ptr[r - 1] : 0;
}

// CSR lists of the reduced system's structure: per row its mass blocks through G (rb), per
// block the rows whose G_S column enters it (br); 0 or −1 out of memory
static int cn_schur_lists(const mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p) {
  const int ns = p->ns, nv = p->nv, nb = cn->nblk, nG = p->Tp[nv], nA = p->Ap[ns];
  if (cn_grow_int(&cn->rbp, &cn->cap_rbp, ns + 1) || cn_grow_int(&cn->rbi, &cn->cap_rbi, nG) ||
      cn_grow_int(&cn->brp, &cn->cap_brp, nb + 1) || cn_grow_int(&cn->bri, &cn->cap_bri, nA) ||
      cn_grow_int(&cn->bmark, &cn->cap_bmark, nb > ns ? nb : ns))
    return -1;
  int *mk = cn->bmark;
  for (int pass = 0; pass < 2; pass++) {  // counts, then entries
    csr_begin(pass, cn->rbp, ns);
    for (int s = 0; s < ns; s++) mk[s] = -1;
    for (int b = 0; b < nb; b++)
      for (int j = ws->blk_v0[b]; j < ws->blk_v0[b] + ws->blk_size[b]; j++)
        for (int t = p->Tp[j]; t < p->Tp[j + 1]; t++)
          if (mk[p->Ti[t]] != b) mk[p->Ti[t]] = b, csr_put(pass, cn->rbp, cn->rbi, p->Ti[t], b);
    csr_end(pass, cn->rbp, ns);
  }
  for (int pass = 0; pass < 2; pass++) {
    csr_begin(pass, cn->brp, nb);
    for (int b = 0; b < nb; b++) mk[b] = -1;
    for (int t = 0; t < ns; t++)
      for (int k = p->Ap[t]; k < p->Ap[t + 1]; k++) {
        const int b = p->Ai[k] < nv ? ws->col_block[p->Ai[k]] : -1;
        if (b >= 0 && mk[b] != t) mk[b] = t, csr_put(pass, cn->brp, cn->bri, b, t);
      }
    csr_end(pass, cn->brp, nb);
  }
  return 0;
}

// the pattern of S (CSR: row s, columns t), each row its group's members first (column mem[k] at
// position k) then every row coupled to a member through a mass block; the rows of one group
// share the pattern entry by entry. 0, 1 when it would exceed lim entries (S denser than J: the
// full system is solved instead), −1 out of memory
static int cn_schur_pattern(mbs_cn *cn, const mbs_cn_problem *p, long lim) {
  const int ns = p->ns;
  int mem[3], pos = 0, nz = 0;
  if (cn_grow_int(&cn->Sp, &cn->cap_Sp, ns + 1)) return -1;
  for (int s = 0; s < ns; s++) {
    cn->Sp[s] = nz;
    const int g = cn_group(p, s, mem, &pos);
    cn->stamp++;
    for (int k = 0; k < g; k++) {
      if (cn_grow_int(&cn->Si, &cn->cap_S, nz + 1)) return -1;
      cn->mark[mem[k]] = cn->stamp, cn->Si[nz++] = mem[k];
    }
    for (int k = 0; k < g; k++)
      for (int e = cn->rbp[mem[k]]; e < cn->rbp[mem[k] + 1]; e++) {
        const int b = cn->rbi[e];
        for (int f = cn->brp[b]; f < cn->brp[b + 1]; f++) {
          const int t = cn->bri[f];
          if (cn->mark[t] == cn->stamp) continue;
          if (nz >= lim) return 1;
          if (cn_grow_int(&cn->Si, &cn->cap_S, nz + 1)) return -1;
          cn->mark[t] = cn->stamp, cn->Si[nz++] = t;
        }
      }
  }
  cn->Sp[ns] = nz;
  if (cn_grow_dbl(&cn->Sx, &cn->cap_Sx, nz) || cn_grow_dbl(&cn->Wx, &cn->cap_Wx, nz)) return -1;
  return 0;
}

// W = G M⁻¹ G_Sᵀ on S's pattern (Wx), block by block: per block b the rows c of G entering it,
// y_c = M_b⁻¹ G_cbᵀ, and W_ct += G_S,tb · y_c for the rows t of G_S entering it. 0 or −1
static int cn_schur_delassus(const mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p) {
  const int ns = p->ns;
  for (int k = 0; k < cn->Sp[ns]; k++) cn->Wx[k] = 0;
  if (cn_grow_int(&cn->colpos, &cn->cap_colpos, ns)) return -1;
  int *loc = cn->bmark;  // row → its index among the block's rows (−1: none yet)
  for (int s = 0; s < ns; s++) loc[s] = -1;
  for (int b = 0; b < cn->nblk; b++) {
    const int b0 = ws->blk_v0[b], bs = ws->blk_size[b];
    int nl = 0;
    for (int j = b0; j < b0 + bs; j++)  // the rows of G in block b: dense G_cb into gl
      for (int t = p->Tp[j]; t < p->Tp[j + 1]; t++) {
        const int c = p->Ti[t];
        if (loc[c] < 0) {
          if (cn_grow_dbl(&cn->gl, &cn->cap_gl, (nl + 1) * bs) ||
              cn_grow_int(&cn->glr, &cn->cap_glr, nl + 1))
            return -1;
          for (int a = 0; a < bs; a++) cn->gl[nl * bs + a] = 0;
          cn->glr[nl] = c, loc[c] = nl++;
        }
        cn->gl[loc[c] * bs + (j - b0)] += p->Tx[t];
      }
    const int nr = cn->brp[b + 1] - cn->brp[b];  // the rows of G_S in block b: dense into gr
    if (cn_grow_dbl(&cn->gr, &cn->cap_gr, nr * bs)) return -1;
    for (int f = 0; f < nr; f++) {
      const int t = cn->bri[cn->brp[b] + f];
      double *g = cn->gr + f * bs;
      for (int a = 0; a < bs; a++) g[a] = 0;
      for (int k = p->Ap[t]; k < p->Ap[t + 1]; k++)
        if (p->Ai[k] >= b0 && p->Ai[k] < b0 + bs) g[p->Ai[k] - b0] -= p->Ax[k];  // Ax = −G_S
    }
    for (int l = 0; l < nl; l++) {
      const int c = cn->glr[l];
      double *y = cn->gl + l * bs;
      mdl_chol_solve(ws->mass + ws->blk_off[b], bs, bs, y);
      for (int k = cn->Sp[c]; k < cn->Sp[c + 1]; k++) cn->colpos[cn->Si[k]] = k;
      for (int f = 0; f < nr; f++) {
        double v = 0;
        for (int a = 0; a < bs; a++) v += cn->gr[f * bs + a] * y[a];
        cn->Wx[cn->colpos[cn->bri[cn->brp[b] + f]]] += v;
      }
      loc[c] = -1;
    }
  }
  return 0;
}

// S = A + B (C + W) row by row from the groups' A, B (the Newton matrix with w eliminated); the
// B used is kept for the right-hand side's reduction (cn_schur_solve)
static void cn_schur_assemble(const mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p) {
  const int ns = p->ns;
  int mem[3], pos = 0;
  memcpy(cn->Bs, cn->Bloc, sizeof(double) * 3 * (size_t)ns);
  memcpy(cn->As, cn->Aloc, sizeof(double) * 3 * (size_t)ns);
  for (int s = 0; s < ns; s++) cn->Cs[s] = 1.0 / ws->D[p->sidx[s]] + cn->nu / cn->rr[s];
  for (int s = 0; s < ns; s++) {
    const int g = cn_group(p, s, mem, &pos), k0 = cn->Sp[s], len = cn->Sp[s + 1] - k0;
    double *x = cn->Sx + k0;
    for (int q = 0; q < len; q++) x[q] = 0;
    for (int c = 0; c < g; c++) {
      const double bsc = cn->Bloc[3 * s + c];
      if (bsc == 0) continue;
      const double *wr = cn->Wx + cn->Sp[mem[c]];
      for (int q = 0; q < len; q++) x[q] += bsc * wr[q];
    }
    for (int c = 0; c < g; c++) x[c] += cn->Aloc[3 * s + c] + cn->Bloc[3 * s + c] * cn->Cs[mem[c]];
  }
}

// the full Newton matrix J (CSC, n = ns + nv) from the groups' A, B; rows unsorted within a
// column (KLU accepts that), no duplicates
static void cn_assemble_full(const mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p) {
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

static int cn_reduced_always;  // tests only (mbs_cn_reduced_hook)

void mbs_cn_reduced_hook(int always) { cn_reduced_always = always; }

// S on the current A, B as the system to factor (cn->reduced) when M is block diagonal and S is
// not denser than J (cn_schur_pattern); W = G M⁻¹ G_Sᵀ is formed once per problem
// (cn_schur_same). 0, or −1 out of memory
static int cn_use_reduced(const mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p) {
  const int same = cn_schur_same(ws, cn, p);
  if (same < 0) return cn->oom = 1, -1;
  if (!same) {
    cn->nblk = ws->model->nblocks;
    const long nzJ = 9L * p->ns + 2L * p->Ap[p->ns] + 2L * p->Tp[p->nv];
    const int rc = cn_schur_lists(ws, cn, p) ? -1 : cn_schur_pattern(cn, p, nzJ);
    if (rc < 0 || (rc == 0 && cn_schur_delassus(ws, cn, p)))
      return cn->oom = 1, cn->have_sig = 0, -1;
    cn->schur_ok = rc == 0;
  }
  if (!cn->schur_ok) return 0;
  cn_schur_assemble(ws, cn, p);
  cn->reduced = 1, cn->Mn = p->ns, cn->Mp = cn->Sp, cn->Mi = cn->Si, cn->Mx = cn->Sx;
  return 0;
}

// 1 if J's pattern is the one whose AMD factor filled in (cn->jblown, cn_factor_solve)
static int cn_blown(const mbs_cn *cn, int n) {
  const int nz = cn->Jp[n];
  return cn->jblown && cn->nb0 == n && cn->nzb0 == nz &&
         !memcmp(cn->Jp, cn->Jpb, sizeof(int) * (size_t)(n + 1)) &&
         !memcmp(cn->Ji, cn->Jib, sizeof(int) * (size_t)nz);
}

// the Newton system of the current A, B: the full J, or the reduced S (w eliminated through M's
// blocks, S = A + B (C + W)) for a pattern of J whose factor pivoted off the diagonal. A sticking
// row of J has the tiny diagonal r/D beside its G entries, so the factor may pivot off the
// diagonal and AMD's order fill in (cn_factor), while S's sticking row r(C + W)_s· has the
// diagonal r(C + W)_ss = k and AMD's order stands. Measured on the pile of 200 (the corpus state
// t = 1.52, 212 iterations): L + U 2.2e5 → 9.6e4 entries, 5.0e6 flops per factor instead of
// 1.5e7, one fresh factor (pivoting) instead of 10, the same iterations. Where J's factor does
// not fill in, J is no dearer than S (the pile of 50 over 3 s: L + U 2.6e4 against 2.8e4), so
// J stays the first choice
static void cn_assemble(const mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p) {
  const int n = p->ns + p->nv;
  cn->prob = *p, cn->pws = ws, cn->reduced = 0, cn->oom = 0;
  cn->can_reduce = ws->model->nblocks > 0 && p->ns > 0;  // (nblocks = 0: M one dense block)
  cn_assemble_full(ws, cn, p);
  cn->Mn = n, cn->Mp = cn->Jp, cn->Mi = cn->Ji, cn->Mx = cn->Jx;
  if (cn->can_reduce && (cn_reduced_always || cn_blown(cn, n))) cn_use_reduced(ws, cn, p);
}

#ifdef MBS_HAVE_KLU
// the symbolic analysis of the matrix's pattern with the ordering in cn->common; 0 or −1
static int cn_analyze(mbs_cn *cn) {
  if (cn->num) klu_free_numeric(&cn->num, &cn->common);
  if (cn->sym) klu_free_symbolic(&cn->sym, &cn->common);
  cn->sym = klu_analyze(cn->Mn, cn->Mp, cn->Mi, &cn->common);
  return cn->sym ? 0 : -1;
}

// the operation counts (sc_work.h) of a numeric LU from KLU (the flops it reports for it, a pass
// over L and U: taken once per fresh factor, a refactor keeping its pivots and pattern) and of a
// solve with it (2 per entry of L and U)
static void cn_count_factor(mbs_cn *cn, int fresh) {
  if (fresh) cn->num_flops = klu_flops(cn->sym, cn->num, &cn->common) ? cn->common.flops : 0;
  sc_work_add_factor(cn->num_flops);
}
static void cn_count_solve(const mbs_cn *cn) {
  sc_work_add(2 * ((double)cn->num->lnz + (double)cn->num->unz));
}

// a fresh numeric factor; 0 or −1. A sticking row's diagonal (r/D) in J is tiny beside its G
// entries, so the factor may pivot off the diagonal, and AMD's symmetric order then fills in far
// beyond its estimate (measured on a pile of 200: L + U 4.7e5 entries against 1.2e5 estimated,
// 2.3e5 with COLAMD, 4–5× less CPU per Newton step; on a column AMD's order stands and is
// cheaper): when the fill exceeds twice AMD's estimate the pattern is analysed again with COLAMD,
// or 1 is returned when the reduced system may be taken instead (may_reduce)
static int cn_factor(mbs_cn *cn, int may_reduce) {
  for (;;) {
    cn->num = klu_factor(cn->Mp, cn->Mi, cn->Mx, cn->sym, &cn->common);
    if (!cn->num || cn->common.status != KLU_OK) {
      if (cn->num) klu_free_numeric(&cn->num, &cn->common);
      return -1;
    }
    cn_count_factor(cn, 1);
    const double fill = (double)cn->num->lnz + (double)cn->num->unz;
    if (cn->common.ordering != 0 || !(fill > 2 * (cn->sym->lnz + cn->sym->unz))) return 0;
    if (may_reduce) return klu_free_numeric(&cn->num, &cn->common), 1;
    cn->common.ordering = 1;
    if (cn_analyze(cn)) return -1;
  }
}

// one reduced solve: with d = (f1, f2), S dλ = f1 − B G M⁻¹ f2 (KLU holds Sᵀ: S's rows are
// its columns, so the transposed solve), then dw = M⁻¹ (f2 + G_Sᵀ dλ)
static int cn_schur_apply(mbs_cn *cn, double *d) {
  const mbs_cn_problem *p = &cn->prob;
  const mbs_workspace *ws = cn->pws;
  const int ns = p->ns, nv = p->nv;
  double *gy = cn->gv, *v = cn->yv;  // gv: scratch kept zero between uses
  memcpy(v, d + ns, sizeof(double) * (size_t)nv);
  mdl_eval_mass_solve(ws->ev, v);
  for (int j = 0; j < nv; j++)
    for (int t = p->Tp[j]; t < p->Tp[j + 1]; t++) gy[p->Ti[t]] += p->Tx[t] * v[j];
  int mem[3], pos = 0;
  for (int s = 0; s < ns; s++) {
    const int g = cn_group(p, s, mem, &pos);
    for (int c = 0; c < g; c++) d[s] -= cn->Bs[3 * s + c] * gy[mem[c]];
  }
  for (int s = 0; s < ns; s++) gy[s] = 0;
  if (!klu_tsolve(cn->sym, cn->num, ns, 1, d, &cn->common)) return -1;
  cn_count_solve(cn);
  for (int t = 0; t < ns; t++)
    for (int k = p->Ap[t]; k < p->Ap[t + 1]; k++)
      if (p->Ai[k] < nv) d[ns + p->Ai[k]] -= p->Ax[k] * d[t];  // + G_Sᵀ dλ (Ax = −G_S)
  mdl_eval_mass_solve(ws->ev, d + ns);
  return 0;
}

// r ← r − J d with J = [A + B C, B G; −G_Sᵀ, M] as cn_assemble_full forms it (the A, B, C the
// reduced matrix was formed with)
static void cn_schur_residual(mbs_cn *cn, const double *d, double *r) {
  const mbs_cn_problem *p = &cn->prob;
  const int ns = p->ns, nv = p->nv;
  double *gd = cn->gv;  // G dw (gv kept zero between uses)
  for (int j = 0; j < nv; j++)
    for (int t = p->Tp[j]; t < p->Tp[j + 1]; t++) gd[p->Ti[t]] += p->Tx[t] * d[ns + j];
  int mem[3], pos = 0;
  for (int s = 0; s < ns; s++) {
    const int g = cn_group(p, s, mem, &pos);
    for (int c = 0; c < g; c++) {
      const int m = mem[c];
      r[s] -= cn->As[3 * s + c] * d[m] + cn->Bs[3 * s + c] * (cn->Cs[m] * d[m] + gd[m]);
    }
  }
  for (int s = 0; s < ns; s++) gd[s] = 0;
  for (int c = 0; c < ns + nv; c++)
    for (int k = p->Ap[c]; k < p->Ap[c + 1]; k++) r[ns + p->Ai[k]] -= p->Ax[k] * d[c];
}

// J d = rhs (in d) through S, with one step of iterative refinement on J's residual when that
// exceeds 1e-10 of the right-hand side (Newton's own tolerance): S is formed from W's entries
// (≈ the contacts' Delassus scale) where J holds G and M, and the solve's residual relative to the
// right-hand side was up to 5× that of J's own LU without it (measured on the pile of 200, corpus
// state t = 1.52: 1.7e-7 against 3.3e-8; 1.2e-10 after the step, the componentwise backward
// error 4e-16). Conditional: on the pile of 50 (3 s) the second solve cost 10 % of the CPU
static int cn_schur_solve(mbs_cn *cn, double *d) {
  const int n = cn->prob.ns + cn->prob.nv;
  double bmax = 0, rmax = 0;
  for (int i = 0; i < n; i++) bmax = fmax(bmax, fabs(d[i]));
  memcpy(cn->rz, d, sizeof(double) * (size_t)n);
  if (cn_schur_apply(cn, d)) return -1;
  cn_schur_residual(cn, d, cn->rz);
  for (int i = 0; i < n; i++) rmax = fmax(rmax, fabs(cn->rz[i]));
  if (rmax <= 1e-10 * bmax) return 0;
  if (cn_schur_apply(cn, cn->rz)) return -1;
  for (int i = 0; i < n; i++) d[i] += cn->rz[i];
  return 0;
}

static int cn_factor_solve(mbs_cn *cn, int n, double *d);

// J's AMD factor filled in: its pattern is remembered and solved through S from now on (or, S
// denser than J, analysed again with COLAMD); then as cn_factor_solve
static int cn_factor_reduce(mbs_cn *cn, int n, double *d) {
  const int nz = cn->Jp[n];
  if (cn_use_reduced(cn->pws, cn, &cn->prob)) return -1;
  if (cn->reduced) {
    if (cn_grow_int(&cn->Jpb, &cn->cap_pb, n + 1) || cn_grow_int(&cn->Jib, &cn->cap_ib, nz))
      return -1;
    memcpy(cn->Jpb, cn->Jp, sizeof(int) * (size_t)(n + 1));
    memcpy(cn->Jib, cn->Ji, sizeof(int) * (size_t)nz);
    cn->jblown = 1, cn->nb0 = n, cn->nzb0 = nz;
    return cn_factor_solve(cn, n, d);
  }
  cn->common.ordering = 1;
  if (cn_analyze(cn) || cn_factor(cn, 0)) return -1;
  cn_count_solve(cn);
  return klu_solve(cn->sym, cn->num, n, 1, d, &cn->common) ? 0 : -1;
}

// d ← J⁻¹ d (the full x = (λ_S, w)); 0 on success. The symbolic analysis stands while the
// pattern does; the numeric factor is refactored in place (no allocation) unless that fails or
// is badly conditioned
static int cn_factor_solve(mbs_cn *cn, int n, double *d) {
  if (cn->oom) return -1;
  const int mn = cn->Mn, nz = cn->Mp[mn];
  if (cn_grow_int(&cn->Ji0, &cn->cap_0, nz)) return -1;
  int same = cn->sym && cn->n0 == mn && cn->nz0 == nz && cn->red0 == cn->reduced &&
             !memcmp(cn->Mp, cn->Jp0, sizeof(int) * (size_t)(mn + 1)) &&
             !memcmp(cn->Mi, cn->Ji0, sizeof(int) * (size_t)nz);
  if (!same) {
    cn->common.ordering = 0;  // AMD on the pattern + its transpose first (cn_factor)
    if (cn_analyze(cn)) return -1;
    memcpy(cn->Jp0, cn->Mp, sizeof(int) * (size_t)(mn + 1));
    memcpy(cn->Ji0, cn->Mi, sizeof(int) * (size_t)nz);
    cn->n0 = mn, cn->nz0 = nz, cn->red0 = cn->reduced;
  }
  int fresh = !cn->num;
  if (!fresh) {
    // pivots chosen for an earlier matrix: keep them while they stay sound
    fresh = !klu_refactor(cn->Mp, cn->Mi, cn->Mx, cn->sym, cn->num, &cn->common) ||
            cn->common.status != KLU_OK || !klu_rcond(cn->sym, cn->num, &cn->common) ||
            !(cn->common.rcond > 1e-12);
    if (fresh)
      klu_free_numeric(&cn->num, &cn->common);
    else
      cn_count_factor(cn, 0);
  }
  const int rc = fresh ? cn_factor(cn, !cn->reduced && cn->can_reduce) : 0;
  if (rc == 1) return cn_factor_reduce(cn, n, d);
  if (rc < 0) return -1;
  int ok;
  if (cn->reduced)
    ok = !cn_schur_solve(cn, d);
  else
    ok = klu_solve(cn->sym, cn->num, n, 1, d, &cn->common);
  if (ok && !cn->reduced) cn_count_solve(cn);
  return ok ? 0 : -1;
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
// The loop ends (not converged) when its residual has not halved over STALL_ITS iterations: on
// the landing pile's hard steps it then cycles — at a small ν the inner solves converge but the
// outer residual rises each outer iteration (the proximal map of a non-monotone problem), at the
// next smaller ν the inner solve fails, and ν goes back up — for the rest of the rung's budget,
// which the next start (mbs_qcp.c: a conic solve at the best iterate's shifts) or rung uses
// better. rc as cn_newton.
static int cn_attempt(mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p, double *x, double tol,
                      int homotopy, int *budget, double *residual) {
  enum { PLAIN_MAX = 12, INNER_MAX = 12, FLOOR_HOLD = 4, STALL_ITS = 50 };
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
  double nu = 1, nu_floor = 0, ref = *residual;
  int held = 0, mark = *budget;
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
    if (*residual <= 0.5 * ref) ref = *residual, mark = *budget;
    if (mark - *budget > STALL_ITS) return 0;  // cycling: the next start or rung instead
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
// The caller may stop after the first rungs (mbs_qcp.c: the first rung from the relaxed start,
// then the whole ladder from a conic solve at the best iterate's shifts).
static const double cn_ladder[] = {10, 3, 30, 10, 1};
static const int cn_ladder_homotopy[] = {0, 0, 0, 1, 0};

static mbs_cn_start_fn cn_start_fn;
static void *cn_start_ctx;

void mbs_cn_start_hook(mbs_cn_start_fn fn, void *ctx) { cn_start_fn = fn, cn_start_ctx = ctx; }

mbs_status mbs_cn_solve(mbs_workspace *ws, mbs_cn *cn, const mbs_cn_problem *p, double *x,
                        int rungs, int *iterations, double *residual) {
  enum { NSCALES = sizeof cn_ladder / sizeof *cn_ladder };
  const int nr = rungs > 0 && rungs < NSCALES ? rungs : NSCALES;
  const int n = p->ns + p->nv, per = 4 * ws->settings.fp_max_iter;
  const double tol = ws->settings.fp_tol;
  if (cn_start_fn) cn_start_fn(cn_start_ctx, p->ns, p->nv, x);
  memcpy(cn->xs, x, sizeof(double) * (size_t)n);
  cn_islands(ws, cn, p);
  double best = INFINITY;
  int rc = 0;
  *iterations = 0;
  for (int k = 0; k < nr && rc == 0; k++) {
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
