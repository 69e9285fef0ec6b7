// SPDX-License-Identifier: MIT
// Projection onto the friction cone in the R-norm, in closed form (paper B §IV, SPEC §2.3).
//
// P_F(y) = argmin_{γ ∈ F} ½(γ − y)ᵀR(γ − y), F = {‖γ_t‖ ≤ μγ_n}, R = diag(R_t, …, R_t, R_n).
// With z = R^{½}γ the cone becomes {‖z_t‖ ≤ μ̃ z_n}, μ̃ = μ√(R_t/R_n), and the problem is the
// Euclidean projection of ẑ = R^{½}y. Its three regions, written back in y (y_r = ‖y_t‖):
//   stiction   y_r ≤ μ y_n                    → γ = y
//   separated  y_n ≤ −μ̂ y_r, μ̂ = μR_t/R_n     → γ = 0          (the polar cone)
//   sliding    otherwise                       → γ_n = (y_n + μ̂ y_r)/(1 + μ̃²), γ_t = μγ_n t̂,
//                                                 t̂ = y_t / y_r.
// The Newton Hessian of ℓ needs G = (∂γ/∂y)R⁻¹ = R^{-½} ∂Π R^{-½}, symmetric PSD. In sliding,
// differentiating γ_n and γ_t = μγ_n t̂ (∂t̂/∂y_t = (I − t̂t̂ᵀ)/y_r) gives, with u = (μt̂, 1),
//   G = u uᵀ / (R_n(1 + μ̃²)) + [μγ_n/(y_r R_t)] (I − t̂t̂ᵀ) on the tangent block,
// whose second term vanishes for one tangent direction (planar contact).
#include "theta/theta_contact.h"

#include <math.h>

theta_cone_region theta_cone_project(int dim, double mu, const double *R, const double *y,
                                     double *gamma, double *G) {
  const int nt = dim - 1, n = dim - 1;
  if (G)
    for (int k = 0; k < dim * dim; k++) G[k] = 0;
  // normal-only cone R₊
  if (nt == 0) {
    if (y[0] > 0) {
      gamma[0] = y[0];
      if (G) G[0] = 1.0 / R[0];
      return THETA_CONE_STICTION;
    }
    gamma[0] = 0;
    return THETA_CONE_SEPARATED;
  }
  const double Rt = R[0], Rn = R[n], yn = y[n];
  double yr = 0;
  for (int k = 0; k < nt; k++) yr += y[k] * y[k];
  yr = sqrt(yr);
  if (yr <= mu * yn) {
    for (int k = 0; k < dim; k++) gamma[k] = y[k];
    if (G)
      for (int k = 0; k < dim; k++) G[k * dim + k] = 1.0 / R[k];
    return THETA_CONE_STICTION;
  }
  const double muhat = mu * Rt / Rn, mutil2 = mu * mu * Rt / Rn;
  if (yn <= -muhat * yr) {
    for (int k = 0; k < dim; k++) gamma[k] = 0;
    return THETA_CONE_SEPARATED;
  }
  // sliding: y_r > 0 here (y_r = 0 would be stiction or separation)
  const double gn = (yn + muhat * yr) / (1 + mutil2);
  double that[2] = {0, 0};
  for (int k = 0; k < nt; k++) that[k] = y[k] / yr;
  for (int k = 0; k < nt; k++) gamma[k] = mu * gn * that[k];
  gamma[n] = gn;
  if (G) {
    double u[3];
    for (int k = 0; k < nt; k++) u[k] = mu * that[k];
    u[n] = 1;
    const double a = 1.0 / (Rn * (1 + mutil2)), b = mu * gn / (yr * Rt);
    for (int i = 0; i < dim; i++)
      for (int j = 0; j < dim; j++) G[i * dim + j] = a * u[i] * u[j];
    // curvature of t̂ (zero in 2-D where I − t̂t̂ᵀ = 0)
    if (nt == 2)
      for (int i = 0; i < nt; i++)
        for (int j = 0; j < nt; j++) G[i * dim + j] += b * ((i == j) - that[i] * that[j]);
  }
  return THETA_CONE_SLIDING;
}
