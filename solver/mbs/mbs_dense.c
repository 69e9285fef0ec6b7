// SPDX-License-Identifier: MIT
// Dense Cholesky factorisation and solve (row-major, lower triangle), for small SPD systems.
#include "mbs_dense.h"

#include <math.h>

int mbs_chol_factor(double *A, int n, int lda) {
  for (int j = 0; j < n; j++) {
    double d = A[j * lda + j];
    for (int k = 0; k < j; k++) d -= A[j * lda + k] * A[j * lda + k];
    if (!(d > 0) || !isfinite(d)) return -1;
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

void mbs_chol_solve(const double *L, int n, int lda, double *x) {
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
