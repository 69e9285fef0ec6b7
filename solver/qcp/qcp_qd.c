// SPDX-License-Identifier: MIT
// The exported quasidefinite LDLᵀ (qcp_qd.h): AMD on the pattern, the permuted upper triangle
// with a map from the caller's entry order, the elimination tree, then qcp_ldl's numeric factor
// and solves (qcp_ldl.c has the derivation). A refactor (rows k0 … n−1 after a change of a few
// rows and columns) runs its own up-looking loop over L's row pattern: row k's slot in column j
// is read from the pattern (no per-column fill pointer to rebuild from every kept row), a row
// whose column of the matrix is zero above the diagonal and whose L row is already zero costs
// O(1), and each column's last nonzero (the solves stop there) is kept as entries are written —
// the arithmetic of every recomputed row is qcp_ldl's, so the factor is the same bitwise.
#include "qcp/qcp_qd.h"

#include <amd.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "common/sc_work.h"
#include "qcp/qcp.h"
#include "qcp_internal.h"

struct qcp_qd {
  int n;
  qcp_allocator al;  // where every array below came from
  int *perm, *pinv, *Kp, *Ki, *map, *slotcol, *etree, *Lnz, *Lp, *Li, *iwork;
  int *Rp, *Rslot, *Lcol, *Lend;  // L's pattern by rows (qcp_ldl_rows: zero rows skip their solve)
  qcp_ldl_rows rows;
  double *Kx, *Lx, *D, *Dinv, *fwork, *b;  // Kx: the permuted values last factored
  signed char *sign;
  int factored;           // L holds a factor of Kx (qcp_qd_refactor may keep part of it)
  double eps_f, delta_f;  // and the regularisation it was computed with
  // the caller's entries by variable: Ve[Vp[i] … Vp[i+1]−1] are those in row or column i
  int *Vp, *Ve;
  // per permuted column k of Kx: kzero[k] = 1 if zero above the diagonal, kd[k] its diagonal
  // (0.0 + the sum, as qcp_ldl accumulates it); per row k of L: lzero[k] = 1 if all zero
  signed char *kzero, *lzero, *cdirty;
  double *kd;
  int stamp;  // the refactor's marks (iwork's first n): above any row index qcp_ldl leaves there
  int rot;    // the order is a rotation, perm[k] = (k + rot) mod n (−1: not): solves copy blocks
};

void qcp_qd_free(qcp_qd *f) {
  if (!f) return;
  const qcp_allocator al = f->al;
  void *ptrs[] = {f->perm, f->pinv,  f->Kp, f->Ki,    f->map,   f->slotcol, f->etree,
                  f->Lnz,  f->Lp,    f->Li, f->iwork, f->Kx,    f->Lx,      f->D,
                  f->Dinv, f->fwork, f->b,  f->sign,  f->Rp,    f->Rslot,   f->Lcol,
                  f->Lend, f->Vp,    f->Ve, f->kzero, f->lzero, f->cdirty,  f->kd};
  for (size_t k = 0; k < sizeof ptrs / sizeof *ptrs; k++) qcp_release(&al, ptrs[k]);
  qcp_release(&al, f);
}

// the permuted upper triangle (column max(π(i), π(j)), row min) and map[k] = its slot of entry k
static void permute_pattern(qcp_qd *f, const int *Ap, const int *Ai) {
  const int n = f->n;
  int *next = f->iwork;
  memset(next, 0, sizeof(int) * (size_t)n);
  for (int j = 0; j < n; j++)
    for (int k = Ap[j]; k < Ap[j + 1]; k++) {
      int a = f->pinv[Ai[k]], b = f->pinv[j];
      next[a > b ? a : b]++;
    }
  f->Kp[0] = 0;
  for (int j = 0; j < n; j++) f->Kp[j + 1] = f->Kp[j] + next[j], next[j] = f->Kp[j];
  for (int j = 0; j < n; j++)
    for (int k = Ap[j]; k < Ap[j + 1]; k++) {
      int a = f->pinv[Ai[k]], b = f->pinv[j];
      int col = a > b ? a : b;
      f->map[k] = next[col];
      f->slotcol[next[col]] = col;
      f->Ki[next[col]++] = a > b ? b : a;
    }
}

// Vp, Ve: the entries of each variable's row and column (a diagonal entry listed once)
static void variable_entries(qcp_qd *f, const int *Ap, const int *Ai) {
  const int n = f->n;
  int *next = f->iwork;
  memset(f->Vp, 0, sizeof(int) * ((size_t)n + 1));
  for (int j = 0; j < n; j++)
    for (int k = Ap[j]; k < Ap[j + 1]; k++) {
      f->Vp[j + 1]++;
      if (Ai[k] != j) f->Vp[Ai[k] + 1]++;
    }
  for (int i = 0; i < n; i++) f->Vp[i + 1] += f->Vp[i], next[i] = f->Vp[i];
  for (int j = 0; j < n; j++)
    for (int k = Ap[j]; k < Ap[j + 1]; k++) {
      f->Ve[next[j]++] = k;
      if (Ai[k] != j) f->Ve[next[Ai[k]]++] = k;
    }
}

qcp_qd *qcp_qd_create(int n, const int *Ap, const int *Ai, const signed char *sign,
                      const int *order, const qcp_allocator *allocator, sc_error *err) {
  if (n <= 0 || !Ap || !Ai || !sign || Ap[0] != 0 || Ap[n] < n)
    return sc_error_set(err, QCP_ERR_INPUT, "quasidefinite system: bad size n = %d", n), NULL;
  const int nnz = Ap[n];
  const qcp_allocator al = allocator ? *allocator : (qcp_allocator){0};
  qcp_qd *f = qcp_calloc(&al, 1, sizeof *f);
  if (!f) return sc_error_set(err, QCP_ERR_ALLOC, "out of memory (n = %d)", n), NULL;
  f->n = n, f->al = al;
  const size_t un = (size_t)n;
  f->perm = qcp_calloc(&al, un, sizeof(int)), f->pinv = qcp_calloc(&al, un, sizeof(int));
  f->Kp = qcp_calloc(&al, un + 1, sizeof(int)), f->Ki = qcp_calloc(&al, (size_t)nnz, sizeof(int));
  f->map = qcp_calloc(&al, (size_t)nnz, sizeof(int));
  f->slotcol = qcp_calloc(&al, (size_t)nnz, sizeof(int));
  f->etree = qcp_calloc(&al, un, sizeof(int)), f->Lnz = qcp_calloc(&al, un, sizeof(int));
  f->Lp = qcp_calloc(&al, un + 1, sizeof(int)), f->iwork = qcp_calloc(&al, 3 * un, sizeof(int));
  f->Kx = qcp_calloc(&al, (size_t)nnz, sizeof(double));
  f->D = qcp_calloc(&al, un, sizeof(double)), f->Dinv = qcp_calloc(&al, un, sizeof(double));
  f->fwork = qcp_calloc(&al, un, sizeof(double)), f->b = qcp_calloc(&al, un, sizeof(double));
  f->sign = qcp_calloc(&al, un, 1);
  f->Vp = qcp_calloc(&al, un + 1, sizeof(int)),
  f->Ve = qcp_calloc(&al, 2 * (size_t)nnz, sizeof(int));
  f->kzero = qcp_calloc(&al, un, 1), f->lzero = qcp_calloc(&al, un, 1);
  f->cdirty = qcp_calloc(&al, un, 1), f->kd = qcp_calloc(&al, un, sizeof(double));
  if (!f->perm || !f->pinv || !f->Kp || !f->Ki || !f->map || !f->slotcol || !f->etree || !f->Lnz ||
      !f->Lp || !f->iwork || !f->Kx || !f->D || !f->Dinv || !f->fwork || !f->b || !f->sign ||
      !f->Vp || !f->Ve || !f->kzero || !f->lzero || !f->cdirty || !f->kd)
    goto oom;
  const int st = order ? AMD_OK : qcp_amd_order(n, Ap, Ai, f->perm, &al, NULL);
  if (order) {  // the caller's elimination order: checked to be a permutation
    for (int i = 0; i < n; i++) f->pinv[i] = -1;
    for (int k = 0; k < n; k++) {
      if (order[k] < 0 || order[k] >= n || f->pinv[order[k]] >= 0) {
        sc_error_set(err, QCP_ERR_INPUT, "quasidefinite system: order is not a permutation");
        qcp_qd_free(f);
        return NULL;
      }
      f->perm[k] = order[k], f->pinv[order[k]] = k;
    }
  }
  if (st != AMD_OK) {
    sc_error_set(err, st == AMD_OUT_OF_MEMORY ? QCP_ERR_ALLOC : QCP_ERR_ORDERING,
                 "AMD ordering of the %dx%d system failed (status %d)", n, n, st);
    qcp_qd_free(f);
    return NULL;
  }
  for (int i = 0; i < n; i++) f->pinv[f->perm[i]] = i;
  f->rot = f->perm[0];
  for (int k = 0; k < n && f->rot >= 0; k++)
    if (f->perm[k] != (k + f->rot) % n) f->rot = -1;
  for (int i = 0; i < n; i++) f->sign[f->pinv[i]] = sign[i] < 0 ? -1 : 1;
  permute_pattern(f, Ap, Ai);
  variable_entries(f, Ap, Ai);
  long nnzL = qcp_ldl_etree(n, f->Kp, f->Ki, f->iwork, f->Lnz, f->etree);
  if (nnzL < 0 || nnzL > 2000000000L) {
    sc_error_set(err, QCP_ERR_INPUT, "quasidefinite system: %s",
                 nnzL < 0 ? "a diagonal entry is missing from the pattern" : "factor too large");
    qcp_qd_free(f);
    return NULL;
  }
  f->Lp[0] = 0;
  for (int j = 0; j < n; j++) f->Lp[j + 1] = f->Lp[j] + f->Lnz[j];
  f->Li = qcp_calloc(&al, (size_t)nnzL, sizeof(int));
  f->Lx = qcp_calloc(&al, (size_t)nnzL, sizeof(double));
  f->Rp = qcp_calloc(&al, un + 1, sizeof(int));
  f->Rslot = qcp_calloc(&al, (size_t)nnzL, sizeof(int));
  f->Lcol = qcp_calloc(&al, (size_t)nnzL, sizeof(int));
  f->Lend = qcp_calloc(&al, un, sizeof(int));
  if (!f->Li || !f->Lx || !f->Rp || !f->Rslot || !f->Lcol || !f->Lend) goto oom;
  qcp_ldl_row_pattern(n, f->Kp, f->Ki, f->Lp, f->etree, f->iwork, f->Rp, f->Rslot, f->Lcol);
  f->rows = (qcp_ldl_rows){f->Rp, f->Rslot, f->Lcol, f->Lend};
  f->stamp = n;
  return f;
oom:
  sc_error_set(err, QCP_ERR_ALLOC, "out of memory for the %dx%d system (%d entries)", n, n, nnz);
  qcp_qd_free(f);
  return NULL;
}

// kzero and kd of permuted column k from Kx (what qcp_ldl's zero-row test and pivot read)
static void column_state(qcp_qd *f, int k) {
  double dk = 0.0;
  int zero = 1;
  for (int p = f->Kp[k]; p < f->Kp[k + 1]; p++) {
    if (f->Ki[p] == k)
      dk += f->Kx[p];
    else if (f->Kx[p] != 0.0)
      zero = 0;
  }
  f->kzero[k] = (signed char)zero, f->kd[k] = dk;
}

// value v into slot s of column j, keeping Lend[j] one past the column's last nonzero
static inline void put(qcp_qd *f, int j, int s, double v) {
  f->Lx[s] = v;
  int *end = f->Lend + j;
  if (v != 0.0) {
    if (s >= *end) *end = s + 1;
  } else if (s == *end - 1) {
    int e = s;
    while (e > f->Lp[j] && f->Lx[e - 1] == 0.0) e--;
    *end = e;
  }
}

// row k of L whose column of Kx is zero above the diagonal: zero (written only if it was not)
static void zero_row(qcp_qd *f, int k) {
  if (f->lzero[k]) return;
  for (int t = f->Rp[k]; t < f->Rp[k + 1]; t++) {
    const int slot = f->Rslot[t];
    put(f, f->Lcol[slot], slot, 0.0);
  }
  f->lzero[k] = 1;
}

// row k of L by the up-looking solve (qcp_ldl.c's factor_rows, the same operations in the same
// order), its slots read from the row pattern; returns d_k before the pivot rule
static double solve_row(qcp_qd *f, int k) {
  int *marker = f->iwork, *slot = f->iwork + f->n, *stack = f->iwork + 2 * f->n;
  double *y = f->fwork;
  const int mark = ++f->stamp;
  for (int t = f->Rp[k]; t < f->Rp[k + 1]; t++) slot[f->Lcol[f->Rslot[t]]] = f->Rslot[t];
  marker[k] = mark;
  int top = 0, nonzero = 0;
  double dk = 0.0;
  for (int p = f->Kp[k]; p < f->Kp[k + 1]; p++) {
    int i = f->Ki[p];
    if (i == k) {
      dk += f->Kx[p];
      continue;
    }
    y[i] = f->Kx[p];
    const int start = top;
    while (marker[i] != mark) marker[i] = mark, stack[top++] = i, i = f->etree[i];
    for (int a = start, b = top - 1; a < b; a++, b--) {
      const int t = stack[a];
      stack[a] = stack[b], stack[b] = t;
    }
  }
  for (int t = top - 1; t >= 0; t--) {
    const int j = stack[t], s = slot[j];
    const double yj = y[j];
    y[j] = 0.0;
    if (yj != 0.0)
      for (int p = f->Lp[j]; p < s; p++) y[f->Li[p]] -= f->Lx[p] * yj;
    const double lkj = yj * f->Dinv[j];
    put(f, j, s, lkj);
    nonzero |= lkj != 0.0;
    dk -= yj * lkj;
  }
  f->lzero[k] = (signed char)!nonzero;
  return dk;
}

// rows k0 … n−1 of L and D after Kx changed in columns ≥ k0 (kzero, kd current); returns the
// pivots replaced, or −1 (non-finite pivot: the factor is then dropped)
static int refactor_rows(qcp_qd *f, int k0) {
  const int n = f->n;
  if (f->stamp > INT_MAX - n - 1) {  // marks about to wrap: start them again above n
    for (int i = 0; i < n; i++) f->iwork[i] = -1;
    f->stamp = n;
  }
  // the structural count of rows k0 … n−1 (as qcp_ldl's): 2 per entry above each ℓ_kj, 3 for it
  double flops = 0;
  for (int t = f->Rp[k0]; t < f->Rp[n]; t++) {
    const int slot = f->Rslot[t];
    flops += 2.0 * (slot - f->Lp[f->Lcol[slot]]) + 3;
  }
  sc_work_add_factor(flops);
  int nreg = 0;
  for (int k = k0; k < n; k++) {
    double dk;
    if (f->kzero[k]) {
      zero_row(f, k);
      dk = f->kd[k];
    } else {
      dk = solve_row(f, k);
    }
    if (!isfinite(dk)) {
      for (int i = 0; i < n; i++) f->fwork[i] = 0.0;
      f->factored = 0;
      return -1;
    }
    dk = qcp_ldl_pivot(dk, f->sign[k], f->eps_f, f->delta_f, &nreg);
    f->D[k] = dk, f->Dinv[k] = 1.0 / dk;
  }
  return nreg;
}

int qcp_qd_factor(qcp_qd *f, const double *Ax, double eps, double delta) {
  const int n = f->n, nnz = f->Kp[n];
  for (int k = 0; k < nnz; k++) f->Kx[f->map[k]] = Ax[k];
  f->factored = 1, f->eps_f = eps, f->delta_f = delta;
  const int r = qcp_ldl_refactor(0, n, f->Kp, f->Ki, f->Kx, f->Lp, f->Li, f->Lx, f->D, f->Dinv,
                                 f->etree, &f->rows, f->sign, eps, delta, f->iwork, f->fwork);
  if (r < 0) return f->factored = 0, r;
  // the state refactor_rows keeps: columns of Kx, zero rows of L
  for (int k = 0; k < n; k++) {
    column_state(f, k);
    int zero = 1;
    for (int t = f->Rp[k]; t < f->Rp[k + 1] && zero; t++) zero = f->Lx[f->Rslot[t]] == 0.0;
    f->lzero[k] = (signed char)zero;
  }
  return r;
}

// Only the entries of the changed variables' rows and columns are written; the first permuted
// column where one differs from the held value is where the change reaches (an entry (i, j)
// sits in permuted column max(π(i), π(j)), and row k of L reads columns ≤ k only): rows before
// it stand, bitwise.
int qcp_qd_refactor(qcp_qd *f, const double *Ax, int nchanged, const int *changed, double eps,
                    double delta) {
  if (!f->factored || eps != f->eps_f || delta != f->delta_f)
    return qcp_qd_factor(f, Ax, eps, delta);
  int k0 = f->n, nd = 0, *dirty = f->iwork + 2 * f->n;  // the stack's space, free here
  for (int c = 0; c < nchanged; c++) {
    const int i = changed[c];
    if (i < 0 || i >= f->n) continue;
    for (int e = f->Vp[i]; e < f->Vp[i + 1]; e++) {
      const int k = f->Ve[e], slot = f->map[k], col = f->slotcol[slot];
      if (f->Kx[slot] == Ax[k]) continue;
      f->Kx[slot] = Ax[k];
      if (col < k0) k0 = col;
      if (!f->cdirty[col]) f->cdirty[col] = 1, dirty[nd++] = col;
    }
  }
  for (int d = 0; d < nd; d++) column_state(f, dirty[d]), f->cdirty[dirty[d]] = 0;
  return k0 == f->n ? 0 : refactor_rows(f, k0);  // nothing changed: the factor stands
}

int qcp_qd_factor_update(qcp_qd *f, const double *Ax, double eps, double delta) {
  if (!f->factored || eps != f->eps_f || delta != f->delta_f)
    return qcp_qd_factor(f, Ax, eps, delta);
  const int nnz = f->Kp[f->n];
  int k0 = f->n;
  for (int k = 0; k < nnz; k++) {
    const int slot = f->map[k];
    if (f->Kx[slot] == Ax[k]) continue;
    if (f->slotcol[slot] < k0) k0 = f->slotcol[slot];
    f->Kx[slot] = Ax[k];
  }
  if (k0 == f->n) return 0;  // nothing changed: the factor stands
  for (int k = k0; k < f->n; k++) column_state(f, k);
  return refactor_rows(f, k0);
}

void qcp_qd_solve_rhs(qcp_qd *f, const double *b, double *x) {
  const int n = f->n, r = f->rot;
  const size_t head = sizeof(double) * (size_t)(n - r), tail = sizeof(double) * (size_t)r;
  if (r >= 0)  // the caller's last variables first (the prediction's order: bodies, then rows)
    memcpy(f->b, b + r, head), memcpy(f->b + n - r, b, tail);
  else
    for (int i = 0; i < n; i++) f->b[i] = b[f->perm[i]];
  qcp_ldl_solve_ends(n, f->Lp, f->Lend, f->Li, f->Lx, f->Dinv, f->b);
  if (r >= 0)
    memcpy(x + r, f->b, head), memcpy(x, f->b + n - r, tail);
  else
    for (int i = 0; i < n; i++) x[f->perm[i]] = f->b[i];
}

void qcp_qd_solve(qcp_qd *f, double *x) { qcp_qd_solve_rhs(f, x, x); }
