// SPDX-License-Identifier: MIT
// Dense Cholesky factorisation and solve (row-major, lower triangle) and small vector kernels, for
// the small SPD systems of the model layer and the steppers above it (mass blocks, W_XX + εI,
// the θ-method's nv×nv matrices): right-looking L Lᵀ, exact at these sizes.
#include "mdl/mdl_dense.h"

#include <math.h>

#include "common/sc_work.h"

int mdl_chol_factor_rel(double *A, int n, int lda, double rel) {
  sc_work_add((double)n * n * n / 3);
  double dmax = 0;
  if (rel > 0)
    for (int i = 0; i < n; i++) dmax = fmax(dmax, fabs(A[i * lda + i]));
  const double tiny = rel > 0 ? rel * dmax : 0;
  for (int j = 0; j < n; j++) {
    double d = A[j * lda + j];
    for (int k = 0; k < j; k++) d -= A[j * lda + k] * A[j * lda + k];
    if (!(d > tiny) || !isfinite(d)) return -1;
    double ljj = sqrt(d);
    A[j * lda + j] = ljj;
    for (int i = j + 1; i < n; i++) {
      double s = A[i * lda + j];
      for (int k = 0; k < j; k++) s -= A[i * lda + k] * A[j * lda + k];
      A[i * lda + j] = s / ljj;
    }
  }
  return 0;
}

int mdl_chol_factor(double *A, int n, int lda) { return mdl_chol_factor_rel(A, n, lda, 0); }

void mdl_chol_solve(const double *L, int n, int lda, double *x) {
  sc_work_add(2.0 * n * n);
  // forward: L y = b
  for (int i = 0; i < n; i++) {
    double s = x[i];
    for (int k = 0; k < i; k++) s -= L[i * lda + k] * x[k];
    x[i] = s / L[i * lda + i];
  }
  // backward: Lᵀ x = y
  for (int i = n - 1; i >= 0; i--) {
    double s = x[i];
    for (int k = i + 1; k < n; k++) s -= L[k * lda + i] * x[k];
    x[i] = s / L[i * lda + i];
  }
}

void mdl_dense_matvec(const double *A, int n, const double *x, double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

double mdl_dense_dot(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

int mdl_finite(const double *x, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i])) return 0;
  return 1;
}
