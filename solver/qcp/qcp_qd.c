// SPDX-License-Identifier: MIT
// The exported quasidefinite LDLᵀ (qcp_qd.h): AMD on the pattern, the permuted upper triangle
// with a map from the caller's entry order, the elimination tree, then qcp_ldl's numeric factor
// and solves (qcp_ldl.c has the derivation).
#include "qcp/qcp_qd.h"

#include <amd.h>
#include <string.h>

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
};

void qcp_qd_free(qcp_qd *f) {
  if (!f) return;
  const qcp_allocator al = f->al;
  void *ptrs[] = {f->perm, f->pinv, f->Kp,    f->Ki,    f->map,  f->slotcol, f->etree, f->Lnz,
                  f->Lp,   f->Li,   f->iwork, f->Kx,    f->Lx,   f->D,       f->Dinv,  f->fwork,
                  f->b,    f->sign, f->Rp,    f->Rslot, f->Lcol, f->Lend};
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
  if (!f->perm || !f->pinv || !f->Kp || !f->Ki || !f->map || !f->slotcol || !f->etree || !f->Lnz ||
      !f->Lp || !f->iwork || !f->Kx || !f->D || !f->Dinv || !f->fwork || !f->b || !f->sign)
    goto oom;
  const int st = order ? AMD_OK : qcp_amd_order(n, Ap, Ai, f->perm, &al);
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
  for (int i = 0; i < n; i++) f->sign[f->pinv[i]] = sign[i] < 0 ? -1 : 1;
  permute_pattern(f, Ap, Ai);
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
  return f;
oom:
  sc_error_set(err, QCP_ERR_ALLOC, "out of memory for the %dx%d system (%d entries)", n, n, nnz);
  qcp_qd_free(f);
  return NULL;
}

int qcp_qd_factor(qcp_qd *f, const double *Ax, double eps, double delta) {
  const int nnz = f->Kp[f->n];
  for (int k = 0; k < nnz; k++) f->Kx[f->map[k]] = Ax[k];
  f->factored = 1, f->eps_f = eps, f->delta_f = delta;
  return qcp_ldl_refactor(0, f->n, f->Kp, f->Ki, f->Kx, f->Lp, f->Li, f->Lx, f->D, f->Dinv,
                          f->etree, &f->rows, f->sign, eps, delta, f->iwork, f->fwork);
}

int qcp_qd_refactor(qcp_qd *f, const double *Ax, int nchanged, const int *changed, double eps,
                    double delta) {
  if (!f->factored) return qcp_qd_factor(f, Ax, eps, delta);
  int k0 = f->n;  // the first permuted row the change reaches
  for (int c = 0; c < nchanged; c++) {
    const int i = changed[c];
    if (i >= 0 && i < f->n && f->pinv[i] < k0) k0 = f->pinv[i];
  }
  if (k0 == f->n) return 0;  // nothing changed: the factor stands
  const int nnz = f->Kp[f->n];
  for (int k = 0; k < nnz; k++) f->Kx[f->map[k]] = Ax[k];
  f->eps_f = eps, f->delta_f = delta;
  return qcp_ldl_refactor(k0, f->n, f->Kp, f->Ki, f->Kx, f->Lp, f->Li, f->Lx, f->D, f->Dinv,
                          f->etree, &f->rows, f->sign, eps, delta, f->iwork, f->fwork);
}

// The first permuted column whose values differ from the held factor's is where the change
// reaches (an entry (i, j) sits in permuted column max(π(i), π(j)), and row k of L reads columns
// ≤ k only): rows before it stand, bitwise.
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
  return qcp_ldl_refactor(k0, f->n, f->Kp, f->Ki, f->Kx, f->Lp, f->Li, f->Lx, f->D, f->Dinv,
                          f->etree, &f->rows, f->sign, eps, delta, f->iwork, f->fwork);
}

void qcp_qd_solve(qcp_qd *f, double *x) {
  for (int i = 0; i < f->n; i++) f->b[i] = x[f->perm[i]];
  qcp_ldl_solve_ends(f->n, f->Lp, f->Lend, f->Li, f->Lx, f->Dinv, f->b);
  for (int i = 0; i < f->n; i++) x[f->perm[i]] = f->b[i];
}
