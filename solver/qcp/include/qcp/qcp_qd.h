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
// allocation-free). order: NULL for AMD, or the elimination order (order[k] = the variable
// eliminated k-th; a caller that will change a few rows between factors puts them last, see
// qcp_qd_refactor). NULL with a message in err on an entry below the diagonal, a missing
// diagonal, an order that is not a permutation, a bad size or out of memory.
qcp_qd *qcp_qd_create(int n, const int *Ap, const int *Ai, const signed char *sign,
                      const int *order, const qcp_allocator *allocator, sc_error *err);

// Numeric factor of the matrix with values Ax (in the order of the pattern given to create).
// A pivot of the wrong sign or with |d| < eps is replaced by ±delta; returns how many were
// (0: the factor is of the matrix as given).
int qcp_qd_factor(qcp_qd *f, const double *Ax, double eps, double delta);

// Factor of values Ax that differ from the last factored ones only in the rows and columns of the
// nchanged variables changed[] (original numbering): the factor's rows before the first of them
// in the elimination order are kept, the rest recomputed (the same result as qcp_qd_factor).
// Without an earlier factor it is qcp_qd_factor. Returns the pivots replaced among those
// recomputed.
int qcp_qd_refactor(qcp_qd *f, const double *Ax, int nchanged, const int *changed, double eps,
                    double delta);

// Factor of values Ax, keeping the held factor's rows before the first (in the elimination order)
// that the change from the last factored values reaches: the values are compared entry by entry,
// so a caller need not know what changed (the same result as qcp_qd_factor, bitwise; a
// different eps or delta, or no earlier factor, factors afresh). Returns the pivots replaced
// among the rows recomputed.
int qcp_qd_factor_update(qcp_qd *f, const double *Ax, double eps, double delta);

// Solves with the last factor: x holds b on entry and the solution on return.
void qcp_qd_solve(qcp_qd *f, double *x);

// The same with b kept: x = K⁻¹ b (x may be b).
void qcp_qd_solve_rhs(qcp_qd *f, const double *b, double *x);

void qcp_qd_free(qcp_qd *f);

#endif
