// SPDX-License-Identifier: MIT
// Internal helpers of the theta library: dense Cholesky and small vector kernels.
#ifndef THETA_INTERNAL_H
#define THETA_INTERNAL_H

// Factors the row-major SPD n×n matrix a (leading dimension n) in place into its lower Cholesky
// factor L (a = L Lᵀ; the strict upper triangle is left untouched); returns 0, or −1 on a pivot
// that is not positive relative to the largest diagonal entry.
int theta_chol_factor(double *a, int n);
// Solves L Lᵀ x = b in place (x holds b on entry), L from theta_chol_factor.
void theta_chol_solve(const double *L, int n, double *x);

// y = a x for the row-major n×n matrix a.
void theta_matvec(const double *a, int n, const double *x, double *y);
// Euclidean dot product of n entries.
double theta_dot(const double *x, const double *y, int n);
// 1 if all n entries are finite.
int theta_all_finite(const double *x, int n);

#endif  // THETA_INTERNAL_H
