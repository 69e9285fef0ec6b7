// SPDX-License-Identifier: MIT
// AMD ordering through the allocator of the caller (qcp_amd_order in qcp_internal.h).
//
// amd_order allocates its own workspace with malloc; SuiteSparse also exports its core routine
// amd_2, which takes every array from the caller. This file builds amd_2's input — the adjacency
// lists of the graph of A + Aᵀ without the diagonal, with elbow room for the quotient graph — from
// an upper-triangular pattern, in the order amd_order's own preprocessing gives for such a pattern
// (column by column, each stored pair (i, j), i < j, appended to the lists of j and of i), so the
// ordering is the same as amd_order's (tests/qcp/test_qcp_ldl.c compares them).
#include <amd.h>
#include <stdint.h>
#include <string.h>

#include "qcp_internal.h"

int qcp_amd_order(int n, const int *Up, const int *Ui, int *perm, const qcp_allocator *al,
                  long *lnz) {
  if (lnz) *lnz = 0;
  if (n <= 0) return AMD_OK;
  int *len = qcp_calloc(al, (size_t)n, sizeof *len);
  if (!len) return AMD_OUT_OF_MEMORY;
  // the degrees in A + Aᵀ: each off-diagonal pair once (a repeated entry is dropped, the
  // marker holds the last column that listed a row)
  int *mark = perm;  // perm is n long and written only at the end
  for (int i = 0; i < n; i++) mark[i] = -1;
  long nz = 0;
  for (int j = 0; j < n; j++)
    for (int k = Up[j]; k < Up[j + 1]; k++) {
      const int i = Ui[k];
      if (i < 0 || i > j) {  // not an upper triangle
        qcp_release(al, len);
        return AMD_INVALID;
      }
      if (i == j || mark[i] == j) continue;
      mark[i] = j, len[i]++, len[j]++, nz += 2;
    }
  // amd_2's arrays: Pe, Nv, Next, Last (the order), Head, Elen, Degree, W (n each) and Iw with
  // 20 % elbow room plus n, as amd_order sizes it
  const long iwlen = nz + nz / 5 + n;
  if (iwlen > INT32_MAX) {
    qcp_release(al, len);
    return AMD_OUT_OF_MEMORY;
  }
  // written before read (pe, the lists up to pfree) or amd_2's own workspace, which it
  // initialises: not zeroed (amd_order takes them from malloc too)
  int *work = qcp_alloc_uninit(al, 7 * (size_t)n, sizeof *work);
  int *iw = qcp_alloc_uninit(al, (size_t)iwlen, sizeof *iw);
  if (!work || !iw) {
    qcp_release(al, iw), qcp_release(al, work), qcp_release(al, len);
    return AMD_OUT_OF_MEMORY;
  }
  int *pe = work, *nv = work + n, *next = work + 2 * (size_t)n, *head = work + 3 * (size_t)n;
  int *elen = work + 4 * (size_t)n, *degree = work + 5 * (size_t)n, *w = work + 6 * (size_t)n;
  int *fill = nv;  // the next free slot of each list while filling (nv is amd_2's output)
  int pfree = 0;
  for (int i = 0; i < n; i++) pe[i] = fill[i] = pfree, pfree += len[i];
  for (int i = 0; i < n; i++) mark[i] = -1;
  for (int j = 0; j < n; j++)
    for (int k = Up[j]; k < Up[j + 1]; k++) {
      const int i = Ui[k];
      if (i == j || mark[i] == j) continue;
      mark[i] = j;
      iw[fill[j]++] = i, iw[fill[i]++] = j;
    }
  double control[AMD_CONTROL], info[AMD_INFO] = {0};
  amd_defaults(control);
  amd_2(n, pe, iw, len, (int)iwlen, pfree, nv, next, perm, head, elen, degree, w, control,
        lnz ? info : NULL);
  if (lnz) *lnz = (long)info[AMD_LNZ];
  qcp_release(al, iw), qcp_release(al, work), qcp_release(al, len);
  return AMD_OK;
}
