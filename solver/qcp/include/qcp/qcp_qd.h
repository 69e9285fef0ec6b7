// SPDX-License-Identifier: MIT
// A sparse quasidefinite LDLᵀ with a fill-reducing (AMD) ordering: the factorisation qcp's
// interior-point iterations use, exported for callers that solve one symmetric KKT system of a
// fixed pattern many times (paper A's step predicting its active set, mbs_qcp.c).
//
// The pattern is the upper triangle of a symmetric n×n matrix in CSC with every diagonal entry
// present; sign[i] = +1 or −1 is the expected sign of pivot i (quasidefinite [H Bᵀ; B −F]: + on
// H, − on F). Setup (ordering, symbolic factor) allocates (from the caller's allocator); factor
// and solve do not.
#ifndef QCP_QD_H
#define QCP_QD_H

#include "common/sc_error.h"
#include "qcp/qcp.h"

typedef struct qcp_qd qcp_qd;

// Orders and analyses the pattern (Ap[n+1], Ai[nnz], upper triangle, sorted or not, diagonal
// present), taking every array from allocator (NULL: malloc; a qcp_arena's makes a new pattern
// allocation-free). NULL with a message in err on an entry below the diagonal, a missing
// diagonal, a bad size or out of memory.
qcp_qd *qcp_qd_create(int n, const int *Ap, const int *Ai, const signed char *sign,
                      const qcp_allocator *allocator, sc_error *err);

// Numeric factor of the matrix with values Ax (in the order of the pattern given to create).
// A pivot of the wrong sign or with |d| < eps is replaced by ±delta; returns how many were
// (0: the factor is of the matrix as given).
int qcp_qd_factor(qcp_qd *f, const double *Ax, double eps, double delta);

// Solves with the last factor: x holds b on entry and the solution on return.
void qcp_qd_solve(qcp_qd *f, double *x);

void qcp_qd_free(qcp_qd *f);

#endif
