// SPDX-License-Identifier: MIT
// The quasidefinite KKT system of the interior-point method: pattern, AMD ordering, assembly,
// factorisation and solves with iterative refinement.
//
// Derivation. Eliminating ds from the linearised optimality conditions
//   P dx + Aᵀdy + Gᵀdz = bx,  A dx = by,  G dx + ds = bz,  λ∘(W dz + W⁻¹ds) = bs
// (W the NT scaling, λ = Wz = W⁻¹s) gives ds = W(λ⋄bs − W dz) and the symmetric system
//   [P Aᵀ Gᵀ; A 0 0; G 0 −W²] [dx; dy; dz] = [bx; by; bz − W(λ⋄bs)].
// With a static δ > 0 added as [+δI; −δI; −δI] it is quasidefinite, so a fill-reducing symmetric
// ordering chosen once (AMD on the pattern, which never changes: the W² blocks are dense per cone)
// gives a stable LDLᵀ for every iterate (Vanderbei 1995). The δ perturbation and the dynamic pivot
// fixes are removed by iterative refinement against the matrix without δ (Wright, Primal-Dual
// Interior-Point Methods, 1997, ch. 11; the same scheme as OSQP/QOCO/Clarabel) — or, in the
// proximal Newton solves (qcp_kkt_solve_prox), δ is kept as part of the method and only the
// share of its error that the caller cannot accept is refined away.
#include <amd.h>
#include <math.h>
#include <string.h>

#include "qcp_internal.h"

// A dense trailing block of L this large is factored through its Schur complement and the blocked
// dense kernel (qcp_ldl_factor_tail); S costs (N − k0)² doubles, twice the block's share of L.
// Below it the scalar rows cost little, and the contact problems stay on them (the pile of
// tests/sim reaches tails of 162 and its settling is sensitive to rounding; bench qcp's are ≤ 5),
// while the Maros–Mészáros CVXQP*_M (231–263) and _L (1636–2003) take the dense path.
#define QCP_DENSE_TAIL_MIN 200

#define ALLOC(ptr, count)                                                    \
  do {                                                                       \
    if (!((ptr) = qcp_calloc(al, (size_t)(count), sizeof *(ptr)))) goto oom; \
  } while (0)
// for arrays that setup writes in full before anything reads them: no zeroing pass
#define UNINIT(ptr, count)                                                         \
  do {                                                                             \
    if (!((ptr) = qcp_alloc_uninit(al, (size_t)(count), sizeof *(ptr)))) goto oom; \
  } while (0)

void qcp_kkt_free(qcp_kkt *kkt, const qcp_allocator *al) {
  void *ptrs[] = {kkt->perm,   kkt->pinv,      kkt->Kp,         kkt->Ki,    kkt->Kx,   kkt->mapP,
                  kkt->mapA,   kkt->mapG,      kkt->mapW,       kkt->mapD,  kkt->sign, kkt->etree,
                  kkt->Lnz,    kkt->Lp,        kkt->Li,         kkt->Lx,    kkt->D,    kkt->Dinv,
                  kkt->iwork,  kkt->fwork,     kkt->rhs,        kkt->sol,   kkt->res,  kkt->cor,
                  kkt->tail_S, kkt->tail_work, kkt->tail_iwork, kkt->resld, kkt->Rp,   kkt->Rj};
  for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++) qcp_release(al, ptrs[i]);
  memset(kkt, 0, sizeof *kkt);
}

// AMD sets rows of high degree aside and orders them last (its dense rows: degree above
// max(16, 10·√N)). A variable's bound row (a singleton row of G: one neighbour, its x) is then
// indistinguishable from that variable in the graph AMD orders, and it may come after it: the
// bound row's column of L then takes every later neighbour of x (the dense rows: PRIMALC2's 7,
// HUESTIS's 2) and x's column takes the bound row. Eliminated just before its neighbour, a node
// with one neighbour takes no fill and adds none (its pivot only updates the neighbour's
// diagonal), and every other column of L is unchanged: so such nodes are moved there. Each node
// moved takes its neighbour's later neighbours out of L (PRIMALC2: 229 bound rows × 7 dense
// rows, nnz(L) 3470 → 1867; HUESTIS 50001 → 30001); an ordering without such nodes is left as
// AMD gave it. deg and nbr are N-long scratch; returns 0, or -1 when the scratch cannot be
// allocated.
static int leaves_before_neighbours(int N, const int *Up, const int *Ui, int *perm, int *deg,
                                    int *nbr, const qcp_allocator *al) {
  for (int i = 0; i < N; i++) deg[i] = 0;
  for (int j = 0; j < N; j++)
    for (int k = Up[j]; k < Up[j + 1]; k++) {
      const int i = Ui[k];
      if (i == j) continue;
      deg[i]++, deg[j]++, nbr[i] = j, nbr[j] = i;  // a repeated entry counts twice: not moved
    }
  int *pos = NULL, *head = NULL, *link = NULL;
  if (!(pos = qcp_alloc_uninit(al, 3 * (size_t)N, sizeof *pos))) return -1;
  head = pos + N, link = pos + 2 * (size_t)N;
  for (int i = 0; i < N; i++) pos[perm[i]] = i, head[i] = -1;
  int moved = 0;
  // each neighbour's list of nodes to place before it, in AMD's order (built from the back)
  for (int i = N - 1; i >= 0; i--) {
    const int v = perm[i];
    if (deg[v] != 1 || deg[nbr[v]] == 1 || pos[nbr[v]] > i) continue;
    link[v] = head[nbr[v]], head[nbr[v]] = v;
    deg[v] = -1;  // marked as moved
    moved++;
  }
  if (moved > 0) {
    int *order = pos;  // pos is no longer read
    int out = 0;
    for (int i = 0; i < N; i++) {
      const int v = perm[i];
      if (deg[v] == -1) continue;
      for (int l = head[v]; l >= 0; l = link[l]) order[out++] = l;
      order[out++] = v;
    }
    memcpy(perm, order, (size_t)N * sizeof *perm);
  }
  qcp_release(al, pos);
  return 0;
}

// The symbolic phase in one pass (long on purpose: one allocation sequence with one cleanup
// path): the upper-triangular pattern column by column, AMD, the permuted pattern and the value
// maps, the elimination tree and the column counts of L. Called once per pattern.
int qcp_kkt_setup(qcp_kkt *kkt, const qcp_problem *prob, const qcp_cones *K,
                  const qcp_allocator *al, qcp_error *err) {
  int n = prob->n, p = prob->p, m = K->m, N = n + p + m;
  int nnzP = prob->P.colptr[n];
  int nnzA = p > 0 ? prob->A.colptr[n] : 0;
  int nnzG = prob->G.colptr[n];
  int nW = K->l;
  for (int k = 0; k < K->nsoc; k++) nW += K->q[k] * (K->q[k] + 1) / 2;
  int *cnt = NULL, *Up = NULL, *Ui = NULL, *Kmap = NULL, *next = NULL;
  int rc = QCP_ERR_ALLOC;
  long lnz_amd = 0;  // AMD's count of nnz(L): the room for the reaches listed with the tree
  memset(kkt, 0, sizeof *kkt);
  kkt->n = n;
  kkt->p = p;
  kkt->m = m;
  kkt->N = N;
  kkt->nW = nW;

  // ---- unpermuted upper-triangular pattern, column by column ----
  ALLOC(cnt, N);
  for (int j = 0; j < n; j++) {
    int beg = prob->P.colptr[j], end = prob->P.colptr[j + 1];
    cnt[j] = end - beg + ((end == beg || prob->P.rowind[end - 1] != j) ? 1 : 0);
  }
  for (int k = 0; k < nnzA; k++) cnt[n + prob->A.rowind[k]]++;
  for (int k = 0; k < nnzG; k++) cnt[n + p + prob->G.rowind[k]]++;
  for (int i = 0; i < p; i++) cnt[n + i]++;
  for (int r = 0; r < K->l; r++) cnt[n + p + r]++;
  for (int k = 0; k < K->nsoc; k++)
    for (int b = 0; b < K->q[k]; b++) cnt[n + p + K->off[k] + b] += b + 1;
  UNINIT(Up, N + 1);
  Up[0] = 0;
  for (int j = 0; j < N; j++) Up[j + 1] = Up[j] + cnt[j];
  long nnzK = Up[N];
  // the pattern, the maps and the symbolic arrays below are written in full before they are read
  UNINIT(Ui, nnzK);
  UNINIT(next, N);
  UNINIT(kkt->mapP, nnzP);
  UNINIT(kkt->mapA, nnzA);
  UNINIT(kkt->mapG, nnzG);
  UNINIT(kkt->mapW, nW);
  UNINIT(kkt->mapD, N);
  memcpy(next, Up, (size_t)N * sizeof *next);
  // P columns (diagonal added if missing); unpermuted indices stored in the maps for now
  for (int j = 0; j < n; j++) {
    int beg = prob->P.colptr[j], end = prob->P.colptr[j + 1];
    for (int k = beg; k < end; k++) {
      kkt->mapP[k] = next[j];
      Ui[next[j]++] = prob->P.rowind[k];
    }
    if (end > beg && prob->P.rowind[end - 1] == j) {
      kkt->mapD[j] = next[j] - 1;
    } else {
      kkt->mapD[j] = next[j];
      Ui[next[j]++] = j;
    }
  }
  // Aᵀ and Gᵀ: looping over columns of A, G in order keeps the rows of K sorted
  for (int j = 0; j < n; j++) {
    for (int k = (p > 0 ? prob->A.colptr[j] : 0); k < (p > 0 ? prob->A.colptr[j + 1] : 0); k++) {
      int col = n + prob->A.rowind[k];
      kkt->mapA[k] = next[col];
      Ui[next[col]++] = j;
    }
    for (int k = prob->G.colptr[j]; k < prob->G.colptr[j + 1]; k++) {
      int col = n + p + prob->G.rowind[k];
      kkt->mapG[k] = next[col];
      Ui[next[col]++] = j;
    }
  }
  for (int i = 0; i < p; i++) {
    kkt->mapD[n + i] = next[n + i];
    Ui[next[n + i]++] = n + i;
  }
  int t = 0;
  for (int r = 0; r < K->l; r++) {
    int col = n + p + r;
    kkt->mapD[col] = next[col];
    kkt->mapW[t++] = next[col];
    Ui[next[col]++] = col;
  }
  for (int k = 0; k < K->nsoc; k++) {
    int o = n + p + K->off[k];
    for (int b = 0; b < K->q[k]; b++) {
      for (int a = 0; a <= b; a++) {
        if (a == b) kkt->mapD[o + b] = next[o + b];
        kkt->mapW[t++] = next[o + b];
        Ui[next[o + b]++] = o + a;
      }
    }
  }

  // ---- AMD ordering on the pattern (upper triangle: AMD uses A + Aᵀ) ----
  UNINIT(kkt->perm, N);
  UNINIT(kkt->pinv, N);
  {
    int st = qcp_amd_order(N, Up, Ui, kkt->perm, al, &lnz_amd);
    if (st != AMD_OK) {
      rc = qcp_fail(err, st == AMD_OUT_OF_MEMORY ? QCP_ERR_ALLOC : QCP_ERR_ORDERING,
                    "AMD ordering of the %dx%d KKT matrix failed (status %d)", N, N, st);
      goto fail;
    }
  }
  if (leaves_before_neighbours(N, Up, Ui, kkt->perm, cnt, next, al)) goto oom;
  for (int i = 0; i < N; i++) kkt->pinv[kkt->perm[i]] = i;

  // ---- permuted upper triangle and the map unpermuted entry → permuted entry ----
  UNINIT(kkt->Kp, N + 1);
  kkt->Kp[0] = 0;
  UNINIT(kkt->Ki, nnzK);
  UNINIT(kkt->Kx, nnzK);  // qcp_kkt_fill zeroes it before any use (each solve starts with it)
  UNINIT(Kmap, nnzK);
  memset(cnt, 0, (size_t)N * sizeof *cnt);
  for (int j = 0; j < N; j++)
    for (int k = Up[j]; k < Up[j + 1]; k++) {
      int a = kkt->pinv[Ui[k]], b = kkt->pinv[j];
      cnt[a > b ? a : b]++;
    }
  for (int j = 0; j < N; j++) kkt->Kp[j + 1] = kkt->Kp[j] + cnt[j];
  memcpy(next, kkt->Kp, (size_t)N * sizeof *next);
  for (int j = 0; j < N; j++)
    for (int k = Up[j]; k < Up[j + 1]; k++) {
      int a = kkt->pinv[Ui[k]], b = kkt->pinv[j];
      int col = a > b ? a : b, row = a > b ? b : a;
      Kmap[k] = next[col];
      kkt->Ki[next[col]++] = row;
    }
  for (int k = 0; k < nnzP; k++) kkt->mapP[k] = Kmap[kkt->mapP[k]];
  for (int k = 0; k < nnzA; k++) kkt->mapA[k] = Kmap[kkt->mapA[k]];
  for (int k = 0; k < nnzG; k++) kkt->mapG[k] = Kmap[kkt->mapG[k]];
  for (int k = 0; k < nW; k++) kkt->mapW[k] = Kmap[kkt->mapW[k]];
  for (int k = 0; k < N; k++) kkt->mapD[k] = Kmap[kkt->mapD[k]];
  kkt->diag_once = 1;
  for (int j = 0; j < N && kkt->diag_once; j++) {
    int on_diag = 0;
    for (int k = kkt->Kp[j]; k < kkt->Kp[j + 1]; k++) on_diag += kkt->Ki[k] == j;
    const int d = kkt->mapD[kkt->perm[j]];
    kkt->diag_once = on_diag == 1 && d >= kkt->Kp[j] && d < kkt->Kp[j + 1] && kkt->Ki[d] == j;
  }
  UNINIT(kkt->sign, N);
  for (int i = 0; i < N; i++) kkt->sign[kkt->pinv[i]] = (signed char)(i < n ? 1 : -1);

  // ---- symbolic factorisation ----
  UNINIT(kkt->etree, N);
  UNINIT(kkt->Lnz, N);
  UNINIT(kkt->Lp, N + 1);
  kkt->Lp[0] = 0;
  ALLOC(kkt->iwork, 3 * (size_t)N);
  // the elimination tree's climbs are the rows' reaches: listed in the same pass while they fit
  // in AMD's count (an upper bound, so they all do unless it misses; then they are listed below)
  const long cap = lnz_amd < 2000000000L - N ? lnz_amd + N : 2000000000L;
  int listed = 0;
  UNINIT(kkt->Rp, N + 1);
  UNINIT(kkt->Rj, cap + 1);
  long nnzL = qcp_ldl_etree_reach(N, kkt->Kp, kkt->Ki, kkt->iwork, kkt->Lnz, kkt->etree, kkt->Rp,
                                  kkt->Rj, cap, &listed);
  if (nnzL < 0 || nnzL > 2000000000L) {
    rc = qcp_fail(err, QCP_ERR_INPUT, "KKT factor of size %ld unusable", nnzL);
    goto fail;
  }
  for (int j = 0; j < N; j++) kkt->Lp[j + 1] = kkt->Lp[j] + kkt->Lnz[j];
  ALLOC(kkt->Li, nnzL);
  ALLOC(kkt->Lx, nnzL);
  ALLOC(kkt->D, N);
  ALLOC(kkt->Dinv, N);
  ALLOC(kkt->fwork, N);
  ALLOC(kkt->rhs, N);
  ALLOC(kkt->sol, N);
  ALLOC(kkt->res, N);
  ALLOC(kkt->cor, N);
  // written in full before each read (kkt_residual)
  if (!(kkt->resld = qcp_alloc_uninit(al, (size_t)N, sizeof *kkt->resld))) goto oom;
  kkt->tail_k0 = qcp_ldl_dense_tail(N, kkt->Lnz);
  if (N - kkt->tail_k0 < QCP_DENSE_TAIL_MIN) {
    kkt->tail_k0 = N;
  } else {
    const int nt = N - kkt->tail_k0;
    ALLOC(kkt->tail_S, (size_t)nt * (size_t)nt);
    ALLOC(kkt->tail_work, qcp_ldl_tail_fwork(N, nt));
    ALLOC(kkt->tail_iwork, qcp_ldl_tail_iwork(N, nt));
  }
  {  // the scalar factor reads the reaches of the rows above a dense tail (k1)
    const int k1 = kkt->tail_k0;
    int *Rj = NULL;
    if (listed < k1) {  // not all listed: counted (nnz(L) without a tail) and listed again
      const long nreach =
          k1 == N ? nnzL
                  : qcp_ldl_reach_order(k1, kkt->Kp, kkt->Ki, kkt->etree, kkt->iwork, NULL, NULL);
      UNINIT(Rj, nreach + 1);
      qcp_ldl_reach_order(k1, kkt->Kp, kkt->Ki, kkt->etree, kkt->iwork, kkt->Rp, Rj);
    } else if (k1 < N) {  // a dense tail's rows are not read: only the rows above it kept
      UNINIT(Rj, (long)kkt->Rp[k1] + 1);
      memcpy(Rj, kkt->Rj, (size_t)kkt->Rp[k1] * sizeof *Rj);
    }
    if (Rj) qcp_release(al, kkt->Rj), kkt->Rj = Rj;
  }
  kkt->nnzK = nnzK;
  kkt->nnzL = nnzL;
  rc = QCP_OK;
  goto done;
oom:
  rc = qcp_fail(err, QCP_ERR_ALLOC, "out of memory building the %dx%d KKT system", N, N);
fail:
  qcp_kkt_free(kkt, al);
done:
  qcp_release(al, cnt);
  qcp_release(al, Up);
  qcp_release(al, Ui);
  qcp_release(al, Kmap);
  qcp_release(al, next);
  return rc;
}

void qcp_kkt_fill(qcp_kkt *kkt, const qcp_problem *prob, const qcp_cones *K, double delta) {
  int n = kkt->n, p = kkt->p;
  memset(kkt->Kx, 0, (size_t)kkt->nnzK * sizeof *kkt->Kx);
  for (int k = 0; k < prob->P.colptr[n]; k++) kkt->Kx[kkt->mapP[k]] += prob->P.values[k];
  if (p > 0)
    for (int k = 0; k < prob->A.colptr[n]; k++) kkt->Kx[kkt->mapA[k]] += prob->A.values[k];
  for (int k = 0; k < prob->G.colptr[n]; k++) kkt->Kx[kkt->mapG[k]] += prob->G.values[k];
  for (int i = 0; i < n; i++) kkt->Kx[kkt->mapD[i]] += delta;
  for (int i = 0; i < p; i++) kkt->Kx[kkt->mapD[n + i]] -= delta;
  kkt->delta = delta;
  qcp_kkt_set_w(kkt, K, NULL, 1.0);
}

void qcp_kkt_set_delta(qcp_kkt *kkt, double delta) {
  double d = delta - kkt->delta;
  kkt->prox_kept = 0;
  for (int i = 0; i < kkt->n; i++) kkt->Kx[kkt->mapD[i]] += d;
  for (int i = 0; i < kkt->p; i++) kkt->Kx[kkt->mapD[kkt->n + i]] -= d;
  kkt->delta = delta;
}

void qcp_kkt_set_w(qcp_kkt *kkt, const qcp_cones *K, const qcp_nt *nt, double rho) {
  double d = kkt->delta;
  kkt->prox_kept = 0;
  int t = 0;
  for (int r = 0; r < K->l; r++) {
    double w2 = nt ? nt->w[r] * nt->w[r] : rho;
    kkt->Kx[kkt->mapW[t++]] = -w2 - d;
  }
  for (int k = 0; k < K->nsoc; k++) {
    int o = K->off[k], q = K->q[k];
    const double *w = nt ? nt->w + o : NULL;
    double e2 = nt ? nt->eta[k] * nt->eta[k] : 1.0;
    // W² = η²(2 w̄w̄ᵀ − J), upper triangle column by column
    for (int b = 0; b < q; b++) {
      for (int a = 0; a <= b; a++) {
        double v;
        if (w) {
          v = 2.0 * w[a] * w[b];
          if (a == b) v += (a == 0) ? -1.0 : 1.0;
          v *= e2;
        } else {
          v = (a == b) ? rho : 0.0;
        }
        kkt->Kx[kkt->mapW[t++]] = -v - (a == b ? d : 0.0);
      }
    }
  }
}

static int kkt_factor(qcp_kkt *kkt, double eps, double dyn_delta) {
  if (kkt->tail_k0 < kkt->N)
    return qcp_ldl_factor_tail(kkt->tail_k0, kkt->N, kkt->Kp, kkt->Ki, kkt->Kx, kkt->Lp, kkt->Li,
                               kkt->Lx, kkt->D, kkt->Dinv, kkt->etree, kkt->sign, eps, dyn_delta,
                               kkt->iwork, kkt->fwork, kkt->tail_S, kkt->tail_iwork, kkt->tail_work,
                               kkt->Rp, kkt->Rj);
  return qcp_ldl_factor_ordered(kkt->N, kkt->Kp, kkt->Ki, kkt->Kx, kkt->Lp, kkt->Li, kkt->Lx,
                                kkt->D, kkt->Dinv, kkt->Rp, kkt->Rj, kkt->sign, eps, dyn_delta,
                                kkt->iwork, kkt->fwork);
}

int qcp_kkt_factor(qcp_kkt *kkt, double eps, double dyn_delta) {
  kkt->prox_kept = 0;
  kkt->dyn_pivots = kkt_factor(kkt, eps, dyn_delta);
  return kkt->dyn_pivots;
}

// ‖res‖∞, and its x rows' and other rows' parts in kkt->res_d, kkt->res_p (one pass; a NaN makes
// all three NaN). With x, res = δ·S·x is formed in the same pass (the proximal error).
static double residual_norms(qcp_kkt *kkt, double *res, const double *x) {
  double rd = 0.0, rp = 0.0;
  int nan = 0;
  // the blocks' maxima without a branch on the sign: in the permuted order x rows and the other
  // rows alternate irregularly, which a branch on the sign cannot predict
  for (int i = 0; i < kkt->N; i++) {
    if (x) res[i] = kkt->delta * kkt->sign[i] * x[i];
    const double a = fabs(res[i]);
    nan |= a != a;
    const int xrow = kkt->sign[i] > 0;
    const double ad = xrow ? a : 0.0, ap = xrow ? 0.0 : a;
    rd = ad > rd ? ad : rd;
    rp = ap > rp ? ap : rp;
  }
  kkt->res_d = nan ? NAN : rd;
  kkt->res_p = nan ? NAN : rp;
  return nan ? NAN : (rd > rp ? rd : rp);
}

// res = rhs − (K − δS) x in permuted order, S the sign diagonal (rhs − K x when against_reg:
// the proximal solves); returns ‖res‖∞. With acc (N long doubles) every sum is accumulated in
// long double and rounded once into res. With dx, x += dx first (in the same pass).
static double kkt_residual_step(qcp_kkt *kkt, const double *rhs, double *x, const double *dx,
                                double *res, long double *acc) {
  int N = kkt->N;
  const double delta = kkt->against_reg ? 0.0 : kkt->delta;
  if (acc) {
    if (dx)
      for (int i = 0; i < N; i++) x[i] += dx[i];
    for (int i = 0; i < N; i++) acc[i] = rhs[i] + (long double)delta * kkt->sign[i] * x[i];
    for (int j = 0; j < N; j++) {
      long double xj = x[j], sum = 0.0L;
      for (int k = kkt->Kp[j]; k < kkt->Kp[j + 1]; k++) {
        int i = kkt->Ki[k];
        acc[i] -= kkt->Kx[k] * xj;
        if (i != j) sum += (long double)kkt->Kx[k] * x[i];
      }
      acc[j] -= sum;
    }
    for (int i = 0; i < N; i++) res[i] = (double)acc[i];
    return residual_norms(kkt, res, NULL);
  }
  if (dx)
    for (int i = 0; i < N; i++) res[i] = rhs[i] + delta * kkt->sign[i] * (x[i] += dx[i]);
  else
    for (int i = 0; i < N; i++) res[i] = rhs[i] + delta * kkt->sign[i] * x[i];
  const int *Kp = kkt->Kp, *Ki = kkt->Ki;
  const double *Kx = kkt->Kx;
  if (kkt->diag_once) {
    // the column's entries above and below its diagonal in two branch-free loops, the diagonal
    // in between: the same operations in the same order as the loop below (the same bits); a
    // test per entry mispredicts at each column's diagonal, and the columns have few entries
    for (int j = 0; j < N; j++) {
      const double xj = x[j];
      const int d = kkt->mapD[kkt->perm[j]];
      double sum = 0.0;
      for (int k = Kp[j]; k < d; k++) {
        const int i = Ki[k];
        const double v = Kx[k];
        res[i] -= v * xj;
        sum += v * x[i];
      }
      res[j] -= Kx[d] * xj;
      for (int k = d + 1; k < Kp[j + 1]; k++) {
        const int i = Ki[k];
        const double v = Kx[k];
        res[i] -= v * xj;
        sum += v * x[i];
      }
      res[j] -= sum;
    }
    return residual_norms(kkt, res, NULL);
  }
  for (int j = 0; j < N; j++) {
    double xj = x[j], sum = 0.0;
    for (int k = Kp[j]; k < Kp[j + 1]; k++) {
      int i = Ki[k];
      double v = Kx[k];
      res[i] -= v * xj;
      if (i != j) sum += v * x[i];
    }
    res[j] -= sum;
  }
  return residual_norms(kkt, res, NULL);
}

static double kkt_residual(qcp_kkt *kkt, const double *rhs, double *x, double *res,
                           long double *acc) {
  return kkt_residual_step(kkt, rhs, x, NULL, res, acc);
}

double qcp_kkt_residual(qcp_kkt *kkt, const double *rhs, double *x, double *res, int accurate) {
  return kkt_residual(kkt, rhs, x, res, accurate ? kkt->resld : NULL);
}

// 1 if the last residual meets the caller's block limits (lim_d on the x rows, lim_p on the others)
static int within_limits(const qcp_kkt *kkt) {
  return (kkt->lim_d > 0.0 || kkt->lim_p > 0.0) && kkt->res_d <= kkt->lim_d &&
         kkt->res_p <= kkt->lim_p;
}

// iterative refinement of x (permuted order) against b from its residual r, ‖r‖∞ = nr;
// kkt->met_limits says whether it ended within the caller's block limits
static double refine(qcp_kkt *kkt, const double *b, double *x, double nr, int max_refine,
                     double lim, long double *acc) {
  int N = kkt->N;
  kkt->met_limits = 0;
  for (int it = 0; it < max_refine && nr > lim; it++) {
    if ((kkt->met_limits = within_limits(kkt))) break;
    // the residual is solved in place into the correction, and the new residual taken into the
    // other buffer (the two swap roles: no copy)
    double *dxv = kkt->res, *r = kkt->cor;
    kkt->res = r, kkt->cor = dxv;
    kkt->refines++;
    qcp_ldl_solve(N, kkt->Lp, kkt->Li, kkt->Lx, kkt->Dinv, dxv);
    double nr_new = kkt_residual_step(kkt, b, x, dxv, r, acc);
    // a correction that does not help is undone (singular K, e.g. redundant rows)
    if (!(nr_new < nr)) {
      for (int i = 0; i < N; i++) x[i] -= dxv[i];
      kkt->prox_kept = 0;  // r is the undone correction's residual, not x's
      break;
    }
    nr = nr_new;
  }
  return nr;
}

// b = rhs permuted and x = the factor's solution of it (kkt->rhs, kkt->sol), ‖b‖∞ in rhs_norm
static void solve_factored(qcp_kkt *kkt, const double *rhs) {
  int N = kkt->N;
  kkt->prox_kept = 0;
  double *b = kkt->rhs, *x = kkt->sol, nb = 0.0;
  int nan = 0;
  for (int i = 0; i < N; i++) {  // permuted, copied and its norm taken in one pass
    const double bi = rhs[kkt->perm[i]], a = fabs(bi);
    b[i] = x[i] = bi;
    nb = a > nb ? a : nb;  // as qcp_vec_norm_inf: a NaN makes the norm NaN
    nan |= a != a;
  }
  kkt->rhs_norm = nan ? NAN : nb;
  kkt->solves++;
  qcp_ldl_solve(N, kkt->Lp, kkt->Li, kkt->Lx, kkt->Dinv, x);
}

static double kkt_solve(qcp_kkt *kkt, const double *rhs, double *sol, int max_refine, double tol,
                        long double *acc) {
  int N = kkt->N;
  double *b = kkt->rhs, *x = kkt->sol;
  solve_factored(kkt, rhs);
  double nr = kkt_residual(kkt, b, x, kkt->res, acc);
  nr = refine(kkt, b, x, nr, max_refine, tol * (1.0 + kkt->rhs_norm), acc);
  for (int i = 0; i < N; i++) sol[kkt->perm[i]] = x[i];
  return nr;
}

double qcp_kkt_solve(qcp_kkt *kkt, const double *rhs, double *sol, int max_refine, double tol) {
  return kkt_solve(kkt, rhs, sol, max_refine, tol, NULL);
}

double qcp_kkt_solve_accurate(qcp_kkt *kkt, const double *rhs, double *sol, int max_refine,
                              double tol) {
  return kkt_solve(kkt, rhs, sol, max_refine, tol, kkt->resld);
}

double qcp_kkt_refine_from(qcp_kkt *kkt, const double *rhs, const double *guess, double *sol,
                           int max_refine, double tol) {
  int N = kkt->N;
  double *b = kkt->rhs, *x = kkt->sol;
  kkt->prox_kept = 0;
  for (int i = 0; i < N; i++) b[i] = rhs[kkt->perm[i]], x[i] = guess[kkt->perm[i]];
  kkt->rhs_norm = qcp_vec_norm_inf(b, N);
  double nr = kkt_residual(kkt, b, x, kkt->res, kkt->resld);
  nr = refine(kkt, b, x, nr, max_refine, tol * (1.0 + kkt->rhs_norm), kkt->resld);
  for (int i = 0; i < N; i++) sol[kkt->perm[i]] = x[i];
  return nr;
}

// The proximal solve from the last one with the same K_reg (kkt->rhs, sol, res: its right-hand
// side b₀, refined solution x₀ and residual r₀ against K): x = x₀ + Δ with Δ = K_reg⁻¹(b − b₀),
// whose residual against K is r₀ + δ·S·Δ (K = K_reg − δS) — the refinement x₀ received is kept,
// and only the difference's proximal error is new: for a centrality correction (a change of
// the complementarity rows it corrects) that is its own share of the step, not the whole of it.
static void solve_from_kept(qcp_kkt *kkt, const double *rhs) {
  int N = kkt->N;
  double *b = kkt->rhs, *x = kkt->sol, *r = kkt->res, *db = kkt->cor, nb = 0.0;
  int nan = 0;
  for (int i = 0; i < N; i++) {
    const double bi = rhs[kkt->perm[i]], a = fabs(bi);
    db[i] = bi - b[i];
    b[i] = bi;
    nb = a > nb ? a : nb;  // ‖b‖∞ as qcp_vec_norm_inf takes it
    nan |= a != a;
  }
  kkt->rhs_norm = nan ? NAN : nb;
  kkt->solves++;
  qcp_ldl_solve(N, kkt->Lp, kkt->Li, kkt->Lx, kkt->Dinv, db);
  for (int i = 0; i < N; i++) {
    x[i] += db[i];
    r[i] += kkt->delta * kkt->sign[i] * db[i];
  }
}

double qcp_kkt_solve_prox(qcp_kkt *kkt, const double *rhs, double *sol, int max_reg, int max_exact,
                          double tol) {
  int N = kkt->N;
  double *b = kkt->rhs, *x = kkt->sol, *r = kkt->res, nr;
  // a factor whose pivots were replaced is not K_reg's: each solve is refined against K_reg anew
  const int from_kept = kkt->from_kept && kkt->prox_kept && kkt->dyn_pivots == 0;
  if (from_kept)
    solve_from_kept(kkt, rhs);
  else
    solve_factored(kkt, rhs);
  const double lim_d = kkt->lim_d, lim_p = kkt->lim_p;
  kkt->lim_d = kkt->lim_p = 0.0;
  if (from_kept && !kkt->measure_res) {  // r₀ + δ·S·Δ, kept up to date by solve_from_kept
    nr = residual_norms(kkt, r, NULL);
  } else if (kkt->dyn_pivots > 0) {  // the factor is not K_reg's: refine against K_reg
    kkt->against_reg = 1;
    nr = kkt_residual(kkt, b, x, r, NULL);
    refine(kkt, b, x, nr, max_reg, tol * (1.0 + kkt->rhs_norm), NULL);
    kkt->against_reg = 0;
    r = kkt->res;  // refine swaps its buffers
    nr = kkt_residual(kkt, b, x, r, NULL);
  } else if (kkt->measure_res) {  // the factor's rounding may not be negligible against δ·S·x
    nr = kkt_residual(kkt, b, x, r, NULL);
  } else {  // K_reg x = b up to rounding: the residual against K is δ·S·x
    nr = residual_norms(kkt, r, x);
  }
  // the proximal error would hold the step's residuals back: refine against K to the limits
  kkt->lim_d = lim_d, kkt->lim_p = lim_p;
  kkt->met_limits = within_limits(kkt);
  kkt->prox_kept = 1;  // b, x and r for the next solve with this factor (refine may undo it)
  if (!kkt->met_limits) nr = refine(kkt, b, x, nr, max_exact, tol * (1.0 + kkt->rhs_norm), NULL);
  for (int i = 0; i < N; i++) sol[kkt->perm[i]] = x[i];
  return nr;
}
