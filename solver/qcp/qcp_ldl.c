// SPDX-License-Identifier: MIT
// Sparse LDLᵀ of a quasidefinite matrix: elimination tree, up-looking numeric factor, solves.
//
// Derivation. For symmetric A = L D Lᵀ (L unit lower), row k of L solves the triangular system
// L₁₁ D₁₁ ℓ = a₁₂ with a₁₂ = A(0:k−1, k), the (given) upper-triangular column k, and
// d_k = a_kk − ℓᵀ D₁₁ ℓ. Writing y = D₁₁ ℓ, y = L₁₁⁻¹ a₁₂ is a sparse triangular solve whose
// nonzeros are the nodes reachable from the pattern of a₁₂ in the elimination tree (parent(i) =
// min{k > i : ℓ_ki ≠ 0}); processing them in topological order, column j of L (entries of rows
// < k already computed) updates y, and then ℓ_kj = y_j / d_j, d_k −= y_j ℓ_kj. Column counts of L
// come from the same reach computed on the pattern only (symbolic phase).
//
// A quasidefinite matrix [H Bᵀ; B −F] (H, F positive definite) is strongly factorisable: every
// symmetric permutation has an LDLᵀ with n₁ positive and n₂ negative pivots (Vanderbei, SIAM J.
// Optim. 5 (1995)). Pivots of the wrong sign or tiny magnitude (rank-deficient A, singular P, the
// zero "−W²" of an inactive cone near convergence) are replaced by ±delta (dynamic regularisation,
// as in ECOS/QOCO); iterative refinement in qcp_kkt.c removes the resulting perturbation.
// References: T. Davis, Direct Methods for Sparse Linear Systems (SIAM 2006) ch. 4; QDLDL.
#include <math.h>
#include <stdint.h>

#include "common/sc_work.h"
#include "qcp_internal.h"

// The structural operation count (sc_work.h) of rows ≥ k0 of an up-looking factor: ℓ_kj costs 2
// per entry of column j above row k and 3 for itself and d_k, so a column of c entries of which
// the first a (rows < k0) are kept costs (c² + 2c) − (a² + 2a). kept[j] (NULL: none) is the slot
// of column j's first entry of a row ≥ k0.
static void count_factor(int n, const int *Lp, const int *kept) {
  double flops = 0;
  for (int j = 0; j < n; j++) {
    const double c = Lp[j + 1] - Lp[j], a = kept ? kept[j] - Lp[j] : 0;
    flops += c * (c + 2) - a * (a + 2);
  }
  sc_work_add_factor(flops);
}

long qcp_ldl_etree(int n, const int *Ap, const int *Ai, int *work, int *Lnz, int *etree) {
  long total = 0;
  for (int i = 0; i < n; i++) {
    work[i] = -1;
    Lnz[i] = 0;
    etree[i] = -1;
  }
  for (int j = 0; j < n; j++) {
    work[j] = j;
    int has_diag = 0;
    for (int p = Ap[j]; p < Ap[j + 1]; p++) {
      int i = Ai[p];
      if (i == j) has_diag = 1;
      if (i >= j) continue;
      // climb from i until a node already visited for this column
      while (work[i] != j) {
        if (etree[i] == -1) etree[i] = j;
        Lnz[i]++;
        work[i] = j;
        i = etree[i];
      }
    }
    if (!has_diag) return -1;
  }
  for (int i = 0; i < n; i++) total += Lnz[i];
  return total;
}

long qcp_ldl_etree_reach(int n, const int *Ap, const int *Ai, int *work, int *Lnz, int *etree,
                         int *Rp, int *Rj, long cap, int *rows) {
  int *marker = work, *stack = work + n;
  long t = 0;
  *rows = n;
  for (int i = 0; i < n; i++) marker[i] = -1, Lnz[i] = 0, etree[i] = -1;
  for (int k = 0; k < n; k++) {
    int top = 0, has_diag = 0;
    marker[k] = k;
    for (int p = Ap[k]; p < Ap[k + 1]; p++) {
      int i = Ai[p];
      if (i == k) has_diag = 1;
      if (i >= k) continue;
      // qcp_ldl_etree's climb (a node met for the first time gets parent k), which is row_reach's
      // on the finished tree: a node's parent is set before any later row climbs past it
      const int start = top;
      while (marker[i] != k) {
        if (etree[i] == -1) etree[i] = k;
        Lnz[i]++;
        marker[i] = k;
        stack[top++] = i;
        i = etree[i];
      }
      for (int a = start, b = top - 1; a < b; a++, b--) {  // row_reach's segment order
        const int tmp = stack[a];
        stack[a] = stack[b], stack[b] = tmp;
      }
    }
    if (!has_diag) return -1;
    if (*rows < n) continue;
    Rp[k] = (int)t;
    if (t + top > cap) {
      *rows = k;  // Rp[k] ends the rows listed
      continue;
    }
    for (int q = top - 1; q >= 0; q--) Rj[t++] = stack[q];
  }
  if (*rows == n) Rp[n] = (int)t;
  long total = 0;
  for (int i = 0; i < n; i++) total += Lnz[i];
  return total;
}

void qcp_ldl_row_pattern(int n, const int *Ap, const int *Ai, const int *Lp, const int *etree,
                         int *iwork, int *Rp, int *Rslot, int *Lcol) {
  int *marker = iwork, *next = iwork + n;
  for (int j = 0; j < n; j++) {
    marker[j] = -1, next[j] = Lp[j];
    for (int p = Lp[j]; p < Lp[j + 1]; p++) Lcol[p] = j;
  }
  int t = 0;
  for (int k = 0; k < n; k++) {
    Rp[k] = t;
    marker[k] = k;
    // row k's pattern is the reach of A's column k in the elimination tree (any order will do:
    // a column's slots are taken by increasing row, as the numeric factor takes them)
    for (int p = Ap[k]; p < Ap[k + 1]; p++)
      for (int i = Ai[p]; i < k && marker[i] != k; i = etree[i])
        marker[i] = k, Rslot[t++] = next[i]++;
  }
  Rp[n] = t;
}

// the kept rows' last nonzero of each column (column j's recomputed part starts at next[j])
static void kept_ends(int k0, int n, const int *Lp, const double *Lx, const int *next,
                      const qcp_ldl_rows *rows) {
  for (int j = 0; j < n; j++) {
    int end = j < k0 ? rows->Lend[j] : Lp[j];
    if (end > next[j])
      for (end = next[j]; end > Lp[j] && Lx[end - 1] == 0.0;) end--;
    rows->Lend[j] = end;
  }
}

// row k of L when A's column k is zero above the diagonal: zero too (its slots written as such),
// and *dk = a_kk; 0 (nothing written) otherwise
static int zero_row(int k, const int *Ap, const int *Ai, const double *Ax, const qcp_ldl_rows *rows,
                    int *Li, double *Lx, int *next, double *dk) {
  for (int p = Ap[k]; p < Ap[k + 1]; p++)
    if (Ai[p] != k && Ax[p] != 0.0) return 0;
  for (int p = Ap[k]; p < Ap[k + 1]; p++) *dk += Ai[p] == k ? Ax[p] : 0.0;
  for (int t = rows->Rp[k]; t < rows->Rp[k + 1]; t++) {
    const int slot = rows->Rslot[t];
    Li[slot] = k, Lx[slot] = 0.0, next[rows->Lcol[slot]]++;
  }
  return 1;
}

// Row k's reach in the elimination tree from A's column k, into stack[0 … top−1] (returned):
// read from the end it is a topological order (each path is pushed after its ancestors).
static int row_reach(int k, const int *Ap, const int *Ai, const int *etree, int *marker,
                     int *stack) {
  int top = 0;
  marker[k] = k;
  for (int p = Ap[k]; p < Ap[k + 1]; p++) {
    int i = Ai[p];
    if (i == k) continue;
    int start = top;
    while (marker[i] != k) {
      marker[i] = k;
      stack[top++] = i;
      i = etree[i];
    }
    // reverse the new segment: ancestors first in storage, read from the end = leaf first
    for (int a = start, b = top - 1; a < b; a++, b--) {
      int t = stack[a];
      stack[a] = stack[b];
      stack[b] = t;
    }
  }
  return top;
}

// y_i −= ℓ_ij y_j over column j's entries p … end−1, four at a time, loads before stores: a
// column's rows are distinct, so each y_i gets the single operation of the plain loop (the same
// bits), and the four updates overlap instead of each load waiting behind the previous store.
// Kept out of line: inlined into the row loops, it slowed the thin factors (columns of 1–3
// entries) by 2–7 % although they never enter it.
static __attribute__((noinline)) void column_update4(double *restrict y, const int *restrict Li,
                                                     const double *restrict Lx, int p, int end,
                                                     double yj) {
  for (; p + 4 <= end; p += 4) {
    const int i0 = Li[p], i1 = Li[p + 1], i2 = Li[p + 2], i3 = Li[p + 3];
    const double a0 = y[i0] - Lx[p] * yj, a1 = y[i1] - Lx[p + 1] * yj;
    const double a2 = y[i2] - Lx[p + 2] * yj, a3 = y[i3] - Lx[p + 3] * yj;
    y[i0] = a0, y[i1] = a1, y[i2] = a2, y[i3] = a3;
  }
  for (; p < end; p++) y[Li[p]] -= Lx[p] * yj;
}

// Shorter columns take the plain loop: measured on Maros–Mészáros KKT factors, thresholds of 8
// to 48 entries are alike on the long-column factors (−10 … −17 %) and within noise on the thin.
enum { COLUMN_UPDATE4_MIN = 16 };

// y_i −= ℓ_ij y_j over column j's entries p … end−1 (the same bits by either path)
static inline void column_update(double *restrict y, const int *restrict Li,
                                 const double *restrict Lx, int p, int end, double yj) {
  if (end - p >= COLUMN_UPDATE4_MIN)
    column_update4(y, Li, Lx, p, end, yj);
  else
    for (; p < end; p++) y[Li[p]] -= Lx[p] * yj;
}

// one step of row k's sparse triangular solve: column j of L (rows < k) updates y, and ℓ_kj
// goes into column j's next slot; d_k loses y_j ℓ_kj. Returns ℓ_kj.
static inline double row_column(int k, int j, double *y, const int *Lp, int *Li, double *Lx,
                                const double *Dinv, int *next, double *dk) {
  double yj = y[j];
  y[j] = 0.0;
  // a structural entry that is numerically 0 (an open contact row) updates nothing
  if (yj != 0.0) column_update(y, Li, Lx, Lp[j], next[j], yj);
  double lkj = yj * Dinv[j];
  Li[next[j]] = k;
  Lx[next[j]] = lkj;
  next[j]++;
  *dk -= yj * lkj;
  return lkj;
}

// rows k0 … k1−1 of L and D (rows above k0 are kept; next[j] must point past them)
static int factor_rows(int k0, int k1, int n, const int *Ap, const int *Ai, const double *Ax,
                       const int *Lp, int *Li, double *Lx, double *D, double *Dinv,
                       const int *etree, const qcp_ldl_rows *rows, const signed char *sign,
                       double eps, double delta, int *iwork, double *fwork) {
  int *marker = iwork;         // last row k that visited a node
  int *next = iwork + n;       // next free slot per column of L
  int *stack = iwork + 2 * n;  // reach of row k, reverse topological order
  double *y = fwork;           // dense accumulator of row k
  int nreg = 0;
  for (int i = 0; i < n; i++) {
    marker[i] = -1;
    y[i] = 0.0;
  }
  if (rows) kept_ends(k0, n, Lp, Lx, next, rows);
  for (int k = k0; k < k1; k++) {
    int top = 0;
    double dk = 0.0;
    marker[k] = k;
    // scatter column k and collect its reach in the elimination tree (a zero row needs neither:
    // top stays 0)
    const int zero = rows && zero_row(k, Ap, Ai, Ax, rows, Li, Lx, next, &dk);
    if (!zero) {
      for (int p = Ap[k]; p < Ap[k + 1]; p++) {
        if (Ai[p] == k)
          dk += Ax[p];
        else
          y[Ai[p]] = Ax[p];
      }
      top = row_reach(k, Ap, Ai, etree, marker, stack);
    }
    // sparse triangular solve in topological order (read the stack from the end)
    for (int t = top - 1; t >= 0; t--) {
      int j = stack[t];
      double lkj = row_column(k, j, y, Lp, Li, Lx, Dinv, next, &dk);
      if (rows && lkj != 0.0) rows->Lend[j] = next[j];
    }
    // dynamic regularisation: enforce the expected pivot sign and a minimum magnitude
    if (!isfinite(dk)) return -1;
    dk = qcp_ldl_pivot(dk, sign[k], eps, delta, &nreg);
    D[k] = dk;
    Dinv[k] = 1.0 / dk;
  }
  return nreg;
}

long qcp_ldl_reach_order(int k1, const int *Ap, const int *Ai, const int *etree, int *iwork,
                         int *Rp, int *Rj) {
  int *marker = iwork, *stack = iwork + k1;
  long t = 0;
  for (int i = 0; i < k1; i++) marker[i] = -1;
  for (int k = 0; k < k1; k++) {
    int top = row_reach(k, Ap, Ai, etree, marker, stack);
    if (Rp) Rp[k] = (int)t;
    for (int q = top - 1; q >= 0; q--, t++)
      if (Rj) Rj[t] = stack[q];
  }
  if (Rp) Rp[k1] = (int)t;
  return t;
}

// rows 0 … k1−1 of L and D as factor_rows computes them (the same operations in the same order:
// the same bits), each row's reach read from (Rp, Rj) instead of climbing the elimination tree.
// The arrays do not overlap (restrict): the row's bounds and slots stay in registers across the
// stores into L and y.
static int factor_rows_ordered(int k1, int n, const int *restrict Ap, const int *restrict Ai,
                               const double *restrict Ax, const int *restrict Lp, int *restrict Li,
                               double *restrict Lx, double *restrict D, double *restrict Dinv,
                               const int *restrict Rp, const int *restrict Rj,
                               const signed char *restrict sign, double eps, double delta,
                               int *restrict next, double *restrict y) {
  int nreg = 0;
  for (int i = 0; i < n; i++) y[i] = 0.0;
  for (int k = 0; k < k1; k++) {
    double dk = 0.0;
    for (int p = Ap[k]; p < Ap[k + 1]; p++) {
      if (Ai[p] == k)
        dk += Ax[p];
      else
        y[Ai[p]] = Ax[p];
    }
    for (int t = Rp[k]; t < Rp[k + 1]; t++) {  // row_column's step
      const int j = Rj[t], end = next[j];
      const double yj = y[j];
      y[j] = 0.0;
      if (yj != 0.0) column_update(y, Li, Lx, Lp[j], end, yj);
      const double lkj = yj * Dinv[j];
      Li[end] = k, Lx[end] = lkj, next[j] = end + 1;
      dk -= yj * lkj;
    }
    if (!isfinite(dk)) return -1;
    dk = qcp_ldl_pivot(dk, sign[k], eps, delta, &nreg);
    D[k] = dk;
    Dinv[k] = 1.0 / dk;
  }
  return nreg;
}

int qcp_ldl_factor_ordered(int n, const int *Ap, const int *Ai, const double *Ax, const int *Lp,
                           int *Li, double *Lx, double *D, double *Dinv, const int *Rp,
                           const int *Rj, const signed char *sign, double eps, double delta,
                           int *iwork, double *fwork) {
  int *next = iwork + n;
  for (int i = 0; i < n; i++) next[i] = Lp[i];
  count_factor(n, Lp, NULL);
  return factor_rows_ordered(n, n, Ap, Ai, Ax, Lp, Li, Lx, D, Dinv, Rp, Rj, sign, eps, delta, next,
                             fwork);
}

int qcp_ldl_factor(int n, const int *Ap, const int *Ai, const double *Ax, const int *Lp, int *Li,
                   double *Lx, double *D, double *Dinv, const int *etree, const signed char *sign,
                   double eps, double delta, int *iwork, double *fwork) {
  int *next = iwork + n;
  for (int i = 0; i < n; i++) next[i] = Lp[i];
  count_factor(n, Lp, NULL);
  return factor_rows(0, n, n, Ap, Ai, Ax, Lp, Li, Lx, D, Dinv, etree, NULL, sign, eps, delta, iwork,
                     fwork);
}

int qcp_ldl_dense_tail(int n, const int *Lnz) {
  int k0 = n;
  while (k0 > 0 && Lnz[k0 - 1] == n - k0) k0--;
  return k0;
}

// Columns of L₂₁ taken together by one dense update, and the waste allowed: a group's update
// costs u²·b/2 multiply-adds (u its rows' union) against Σ c_j²/2 for its columns one by one,
// and the dense kernel runs several times faster than the scattered scalar loop.
enum { TAIL_BLOCK = 64, TAIL_SCALAR = 24, TAIL_ROWS = 32 /* bits of a uint32_t */ };
#define TAIL_WASTE 2.0

// ints: mid (n), the group's row union and its list (nt each), the group's columns, the row
// masks (n)
size_t qcp_ldl_tail_iwork(int n, int nt) { return 2 * (size_t)n + 2 * (size_t)nt + TAIL_BLOCK; }

// doubles: the rows' accumulator Y (n·TAIL_ROWS), then the group panel and the dense kernels'
// scratch (reused by the dense factor)
size_t qcp_ldl_tail_fwork(int n, int nt) {
  size_t upd = qcp_dense_work(nt, TAIL_BLOCK), ldl = qcp_dense_ldl_work(nt);
  size_t grp = (size_t)nt * TAIL_BLOCK + TAIL_BLOCK + (upd > ldl ? upd : ldl);
  size_t rows = (size_t)n * TAIL_ROWS;
  return rows > grp ? rows : grp;
}

// Rows k0 … n−1 of L in columns < k0: ℓ = D₁⁻¹ L₁₁⁻¹ A(0:k0, k), the up-looking solve cut at the
// tail (a path of the elimination tree that enters [k0, n) never leaves it, and column j's
// update stops at its first tail slot, mid[j]). TAIL_ROWS rows at a time: their reaches, which
// overlap almost entirely, are merged (a node's bit r says row r reaches it) and one pass over
// each column of L₁₁ updates all of them (Y holds the rows interleaved, node-major), so the
// indices and values of L₁₁ are read once per group instead of once per row. S gets A₂₂'s lower
// triangle.
static void tail_rows(int k0, int n, const int *Ap, const int *Ai, const double *Ax, const int *Lp,
                      int *Li, double *Lx, const double *Dinv, const int *etree, int *iwork,
                      const int *mid, uint32_t *mask, double *Y, double *S) {
  int *next = iwork + n, *stack = iwork + 2 * n;
  const int nt = n - k0;
  for (int i = 0; i < k0; i++) mask[i] = 0;
  for (int kb = k0; kb < n; kb += TAIL_ROWS) {
    const int nr = kb + TAIL_ROWS <= n ? TAIL_ROWS : n - kb;
    int top = 0;
    for (int r = 0; r < nr; r++) {
      const int k = kb + r;
      for (int i = k0; i <= k; i++) S[(size_t)(i - k0) * nt + (k - k0)] = 0.0;
      for (int p = Ap[k]; p < Ap[k + 1]; p++) {
        int i = Ai[p];
        if (i >= k0) {
          S[(size_t)(i - k0) * nt + (k - k0)] += Ax[p];
          continue;
        }
        Y[(size_t)i * TAIL_ROWS + r] = Ax[p];
        // a node new to the group is pushed (ancestors after it, reversed below); one that
        // another row reached already has all its ancestors in the group
        const int start = top;
        for (; i >= 0 && i < k0 && !(mask[i] & ((uint32_t)1 << r)); i = etree[i]) {
          if (!mask[i]) stack[top++] = i;
          mask[i] |= (uint32_t)1 << r;
        }
        for (int a = start, b = top - 1; a < b; a++, b--) {
          const int t = stack[a];
          stack[a] = stack[b];
          stack[b] = t;
        }
      }
    }
    for (int t = top - 1; t >= 0; t--) {
      const int j = stack[t];
      double yj[TAIL_ROWS];
      double *yv = Y + (size_t)j * TAIL_ROWS;
      int any = 0;
      for (int r = 0; r < TAIL_ROWS; r++) yj[r] = yv[r], yv[r] = 0.0, any |= yj[r] != 0.0;
      if (any)
        for (int p = Lp[j]; p < mid[j]; p++) {
          double *yi = Y + (size_t)Li[p] * TAIL_ROWS;
          const double l = Lx[p];
          for (int r = 0; r < TAIL_ROWS; r++) yi[r] -= l * yj[r];
        }
      for (int r = 0; r < nr; r++)
        if (mask[j] & ((uint32_t)1 << r)) {
          Li[next[j]] = kb + r;
          Lx[next[j]++] = yj[r] * Dinv[j];
        }
      mask[j] = 0;
    }
  }
}

// S −= Σ_{j∈cols} d_j ℓ_j ℓ_jᵀ on the union of the columns' tail rows (inR marked, count u):
// the columns gathered into a dense u×b panel, one dense update, the marks cleared
static void flush_group(int k0, int nt, int nb, const int *cols, int u, const int *Lp,
                        const int *Li, const double *Lx, const double *D, const int *mid, int *inR,
                        int *R, double *S, double *fwork) {
  double *P = fwork, *d = fwork + (size_t)nt * TAIL_BLOCK, *work = d + TAIL_BLOCK;
  for (int t = 0, a = 0; t < nt && a < u; t++)
    if (inR[t] >= 0) inR[t] = a, R[a++] = t;
  for (int c = 0; c < nb; c++) {
    const int j = cols[c];
    double *pc = P + (size_t)c * u;
    for (int a = 0; a < u; a++) pc[a] = 0.0;
    for (int p = mid[j]; p < Lp[j + 1]; p++) pc[inR[Li[p] - k0]] = Lx[p];
    d[c] = D[j];
  }
  qcp_dense_update(u, nb, P, u, d, R, 0, S, nt, work);
  for (int a = 0; a < u; a++) inR[R[a]] = -1;
}

// S = A₂₂ − L₂₁ D₁ L₂₁ᵀ: a column with few tail entries updates S entry by entry; the others are
// grouped, in order, while the group's dense update stays within TAIL_WASTE of their own cost
static void schur_update(int k0, int n, const int *Lp, const int *Li, const double *Lx,
                         const double *D, const int *mid, int *tiwork, double *S, double *fwork) {
  const int nt = n - k0;
  int *inR = tiwork + n, *R = inR + nt, *cols = R + nt;
  int nb = 0, u = 0;
  double own = 0.0;
  for (int t = 0; t < nt; t++) inR[t] = -1;
  for (int j = 0; j < k0; j++) {
    const int c = Lp[j + 1] - mid[j];
    if (c == 0) continue;
    if (c < TAIL_SCALAR) {
      for (int p = mid[j]; p < Lp[j + 1]; p++) {
        const double v = Lx[p] * D[j];
        double *sa = S + (Li[p] - k0);
        for (int q = mid[j]; q <= p; q++) sa[(size_t)(Li[q] - k0) * nt] -= v * Lx[q];
      }
      continue;
    }
    int added = 0;
    for (int p = mid[j]; p < Lp[j + 1]; p++) added += inR[Li[p] - k0] < 0;
    const double cost = (double)(u + added) * (u + added) * (nb + 1);
    if (nb > 0 && (nb == TAIL_BLOCK || cost > TAIL_WASTE * (own + (double)c * c))) {
      flush_group(k0, nt, nb, cols, u, Lp, Li, Lx, D, mid, inR, R, S, fwork);
      nb = 0, u = 0, own = 0.0;
    }
    for (int p = mid[j]; p < Lp[j + 1]; p++)
      if (inR[Li[p] - k0] < 0) inR[Li[p] - k0] = 0, u++;
    cols[nb++] = j;
    own += (double)c * c;
  }
  if (nb > 0) flush_group(k0, nt, nb, cols, u, Lp, Li, Lx, D, mid, inR, R, S, fwork);
}

int qcp_ldl_factor_tail(int k0, int n, const int *Ap, const int *Ai, const double *Ax,
                        const int *Lp, int *Li, double *Lx, double *D, double *Dinv,
                        const int *etree, const signed char *sign, double eps, double delta,
                        int *iwork, double *fwork, double *S, int *tiwork, double *tfwork,
                        const int *Rp, const int *Rj) {
  int *next = iwork + n, *mid = tiwork;
  for (int i = 0; i < n; i++) next[i] = Lp[i];
  count_factor(n, Lp, NULL);  // the same L as the sparse factor's, whatever kernel forms the tail
  int nreg = Rp ? factor_rows_ordered(k0, n, Ap, Ai, Ax, Lp, Li, Lx, D, Dinv, Rp, Rj, sign, eps,
                                      delta, next, fwork)
                : factor_rows(0, k0, n, Ap, Ai, Ax, Lp, Li, Lx, D, Dinv, etree, NULL, sign, eps,
                              delta, iwork, fwork);
  if (nreg < 0) return -1;
  for (int j = 0; j < k0; j++) mid[j] = next[j];
  uint32_t *mask = (uint32_t *)(tiwork + n + 2 * (n - k0) + TAIL_BLOCK);
  for (size_t i = 0; i < (size_t)n * TAIL_ROWS; i++) tfwork[i] = 0.0;
  tail_rows(k0, n, Ap, Ai, Ax, Lp, Li, Lx, Dinv, etree, iwork, mid, mask, tfwork, S);
  schur_update(k0, n, Lp, Li, Lx, D, mid, tiwork, S, tfwork);
  const int nt = n - k0;
  const int r = qcp_dense_ldl(nt, S, nt, D + k0, Dinv + k0, sign + k0, eps, delta, tfwork);
  if (r < 0) return -1;
  // the tail's columns of L are dense: rows j+1 … n−1, in order
  for (int j = k0; j < n; j++) {
    const double *sj = S + (size_t)(j - k0) * nt - k0;
    for (int i = j + 1, p = Lp[j]; i < n; i++, p++) {
      Li[p] = i;
      Lx[p] = sj[i];
    }
  }
  return nreg + r;
}

// Up-looking, row k of L depends only on rows < k of A and L: after a change confined to rows
// and columns ≥ k0 (permuted), rows < k0 stand. Column j's entries are stored by increasing row,
// so its free slot is the first entry with row ≥ k0 (binary search).
int qcp_ldl_refactor(int k0, int n, const int *Ap, const int *Ai, const double *Ax, const int *Lp,
                     int *Li, double *Lx, double *D, double *Dinv, const int *etree,
                     const qcp_ldl_rows *rows, const signed char *sign, double eps, double delta,
                     int *iwork, double *fwork) {
  if (k0 < 0) k0 = 0;
  int *next = iwork + n;
  if (rows) {  // column j's first slot of a row ≥ k0: the rows' slots, the last row first
    for (int j = 0; j < n; j++) next[j] = j < k0 ? Lp[j + 1] : Lp[j];
    for (int t = rows->Rp[n] - 1; t >= rows->Rp[k0]; t--)
      next[rows->Lcol[rows->Rslot[t]]] = rows->Rslot[t];
    count_factor(n, Lp, next);
    return factor_rows(k0, n, n, Ap, Ai, Ax, Lp, Li, Lx, D, Dinv, etree, rows, sign, eps, delta,
                       iwork, fwork);
  }
  for (int j = 0; j < n; j++) {
    int lo = Lp[j], hi = Lp[j + 1];
    if (j < k0)
      while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (Li[mid] < k0)
          lo = mid + 1;
        else
          hi = mid;
      }
    next[j] = lo;
  }
  count_factor(n, Lp, next);
  return factor_rows(k0, n, n, Ap, Ai, Ax, Lp, Li, Lx, D, Dinv, etree, rows, sign, eps, delta,
                     iwork, fwork);
}

// L D Lᵀ x = b in place, column j of L read up to Lend[j] (the operation count is the callers')
static void solve_ends(int n, const int *Lp, const int *Lend, const int *Li, const double *Lx,
                       const double *Dinv, double *x) {
  // L u = b, column by column: the factor's column update
  for (int j = 0; j < n; j++) {
    double xj = x[j];
    if (xj != 0.0) column_update(x, Li, Lx, Lp[j], Lend[j], xj);
  }
  // D v = u and Lᵀ x = v in one sweep: v_j is formed as the sweep reaches j (x_i, i > j, are
  // final by then), the same operations as a separate pass over D. A column's first entry is
  // often row j + 1 (its parent in a postordered elimination tree): x_{j+1}, just computed, is
  // then read from the register; reloading it from the store just made puts the store-to-load
  // latency on the critical path of each chain of the tree (thin, banded factors)
  double xnext = 0.0;
  for (int j = n - 1; j >= 0; j--) {
    double xj = x[j] * Dinv[j];
    int p = Lp[j];
    const int end = Lend[j];
    if (p < end) {
      const int i = Li[p];
      if (i == j + 1)
        xj -= Lx[p] * xnext;
      else
        xj -= Lx[p] * x[i];
      p++;
    }
    for (; p < end; p++) xj -= Lx[p] * x[Li[p]];
    x[j] = xj;
    xnext = xj;
  }
}

void qcp_ldl_solve_ends(int n, const int *Lp, const int *Lend, const int *Li, const double *Lx,
                        const double *Dinv, double *x) {
  double nz = 0;
  for (int j = 0; j < n; j++) nz += Lend[j] - Lp[j];
  sc_work_add(4 * nz + n);
  solve_ends(n, Lp, Lend, Li, Lx, Dinv, x);
}

void qcp_ldl_solve(int n, const int *Lp, const int *Li, const double *Lx, const double *Dinv,
                   double *x) {
  sc_work_add(4.0 * (Lp[n] - Lp[0]) + n);
  solve_ends(n, Lp, Lp + 1, Li, Lx, Dinv, x);
}
