// SPDX-License-Identifier: MIT
// Internal dense kernels of mbs (small systems: mass blocks, row-space matrices). Not public.
#ifndef MBS_DENSE_H
#define MBS_DENSE_H

// In-place Cholesky A = L Lᵀ of the n×n row-major SPD matrix A (leading dimension lda); the
// lower triangle receives L. Returns 0, or −1 on a non-positive or non-finite pivot.
int mbs_chol_factor(double *A, int n, int lda);
// Solves L Lᵀ x = b in place (x holds b on entry) with the factor from mbs_chol_factor.
void mbs_chol_solve(const double *L, int n, int lda, double *x);

#endif  // MBS_DENSE_H
