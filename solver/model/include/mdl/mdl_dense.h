// SPDX-License-Identifier: MIT
// Small dense kernels of the model layer (mass blocks, row-space and nv×nv matrices), shared by
// paper A's step, the θ-method and the penalty right-hand side. Row-major storage throughout.
#ifndef MDL_MDL_DENSE_H
#define MDL_MDL_DENSE_H

// In-place Cholesky A = L Lᵀ of the n×n row-major SPD matrix A (leading dimension lda); the lower
// triangle receives L (the strict upper triangle is left untouched). Returns 0, or −1 on a pivot
// that is not finite or not > 0.
int mdl_chol_factor(double *A, int n, int lda);
// As mdl_chol_factor, but a pivot must also exceed rel · max_i |A_ii| (rel ≥ 0; the θ-method uses
// 1e-14 to call a numerically singular matrix singular).
int mdl_chol_factor_rel(double *A, int n, int lda, double rel);
// Solves L Lᵀ x = b in place (x holds b on entry, n entries) with the factor from mdl_chol_factor.
void mdl_chol_solve(const double *L, int n, int lda, double *x);

// y = A x for the row-major n×n matrix A (x, y n entries, not aliased).
void mdl_dense_matvec(const double *A, int n, const double *x, double *y);
// Euclidean dot product of n entries.
double mdl_dense_dot(const double *x, const double *y, int n);
// 1 if all n entries of x are finite (no NaN or Inf), else 0.
int mdl_finite(const double *x, int n);

#endif  // MDL_MDL_DENSE_H
