// SPDX-License-Identifier: MIT
// Dense Cholesky factorisation and small vector kernels for the θ-method's nv×nv matrices.
//
// The matrices of one step (M, A = M + δt²θθvq K + δt θ D, the Newton Hessian A + JᵀGJ) are
// nv×nv with nv the model's velocity count; a dense right-looking Cholesky L Lᵀ is exact and
// cheap at the sizes of the θ-method studies. A pivot ≤ 1e-14·max diag is reported as singular.
#include "theta_internal.h"

#include <math.h>

int theta_chol_factor(double *a, int n) {
  double dmax = 0;
  for (int i = 0; i < n; i++) dmax = fmax(dmax, fabs(a[i * n + i]));
  const double tiny = 1e-14 * dmax;
  for (int j = 0; j < n; j++) {
    double d = a[j * n + j];
    for (int k = 0; k < j; k++) d -= a[j * n + k] * a[j * n + k];
    if (!(d > tiny)) return -1;
    d = sqrt(d);
    a[j * n + j] = d;
    for (int i = j + 1; i < n; i++) {
      double s = a[i * n + j];
      for (int k = 0; k < j; k++) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / d;
    }
  }
  return 0;
}

void theta_chol_solve(const double *L, int n, double *x) {
  // forward L z = b
  for (int i = 0; i < n; i++) {
    double s = x[i];
    for (int k = 0; k < i; k++) s -= L[i * n + k] * x[k];
    x[i] = s / L[i * n + i];
  }
  // backward Lᵀ x = z
  for (int i = n - 1; i >= 0; i--) {
    double s = x[i];
    for (int k = i + 1; k < n; k++) s -= L[k * n + i] * x[k];
    x[i] = s / L[i * n + i];
  }
}

void theta_matvec(const double *a, int n, const double *x, double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++) s += a[i * n + j] * x[j];
    y[i] = s;
  }
}

double theta_dot(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

int theta_all_finite(const double *x, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i])) return 0;
  return 1;
}
