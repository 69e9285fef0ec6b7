// SPDX-License-Identifier: MIT
// Cone operations for K = R₊^l × Q^{q1} × …: Jordan algebra, Nesterov–Todd scaling, step length.
//
// Jordan algebra of Q^q: u ∘ v = (uᵀv, u₀v₁ + v₀u₁), identity e = (1, 0), det u = u₀² − ‖u₁‖²,
// inverse u⁻¹ = J u / det u with J = diag(1, −I). On R₊ everything is elementwise.
// NT scaling (Nesterov & Todd 1997; in the form of Vandenberghe, "The CVXOPT linear and quadratic
// cone program solvers", 2010, §4): for interior s, z let s̄ = s/√det s, z̄ = z/√det z,
// γ = √((1 + s̄ᵀz̄)/2), w̄ = (s̄ + J z̄)/(2γ), η = (det s / det z)^{1/4}. Then
//   W = η [w̄₀, w̄₁ᵀ; w̄₁, I + w̄₁w̄₁ᵀ/(1 + w̄₀)],  W⁻¹ = η⁻¹ J W̄ J,  W² = η²(2 w̄w̄ᵀ − J),
// and W z = W⁻¹ s = λ, the scaled point. Orthant: w = √(s/z), λ = √(s z).
// Step to the boundary: det(v + α d) = a α² + 2 b α + c with a = det d, b = v₀d₀ − v₁ᵀd₁,
// c = det v > 0; the first positive root (computed without cancellation) is the exact limit.
#include <float.h>
#include <math.h>

#include "qcp_internal.h"

// det of a SOC block written as a product to avoid cancellation near the boundary
static double soc_det(const double *v, int q) {
  double nrm = 0.0;
  for (int i = 1; i < q; i++) nrm += v[i] * v[i];
  nrm = sqrt(nrm);
  return (v[0] - nrm) * (v[0] + nrm);
}

static double soc_min_eig(const double *v, int q) {
  double nrm = 0.0;
  for (int i = 1; i < q; i++) nrm += v[i] * v[i];
  return v[0] - sqrt(nrm);
}

double qcp_cone_min_eig(const qcp_cones *K, const double *v) {
  double r = INFINITY;
  for (int i = 0; i < K->l; i++) r = v[i] < r ? v[i] : r;  // fmin is a libm call here
  for (int k = 0; k < K->nsoc; k++) r = fmin(r, soc_min_eig(v + K->off[k], K->q[k]));
  return r;
}

void qcp_cone_add_identity(const qcp_cones *K, double *v, double t) {
  for (int i = 0; i < K->l; i++) v[i] += t;
  for (int k = 0; k < K->nsoc; k++) v[K->off[k]] += t;
}

int qcp_cone_nt(const qcp_cones *K, const double *s, const double *z, qcp_nt *nt, double *lambda) {
  // λ = W z for every block is formed by qcp_cone_scale below (for the orthant w z, not √(s z))
  for (int i = 0; i < K->l; i++) {
    if (!(s[i] > 0.0 && z[i] > 0.0)) return -1;
    nt->w[i] = sqrt(s[i] / z[i]);
  }
  for (int k = 0; k < K->nsoc; k++) {
    int o = K->off[k], q = K->q[k];
    const double *sk = s + o, *zk = z + o;
    double *w = nt->w + o;
    double ds = soc_det(sk, q), dz = soc_det(zk, q);
    if (!(ds > 0.0 && dz > 0.0 && sk[0] > 0.0 && zk[0] > 0.0)) return -1;
    double rs = 1.0 / sqrt(ds), rz = 1.0 / sqrt(dz);
    // s̄ᵀz̄
    double sz = sk[0] * zk[0] * rs * rz;
    for (int i = 1; i < q; i++) sz += sk[i] * zk[i] * rs * rz;
    double gamma = sqrt(0.5 * (1.0 + sz));
    w[0] = (sk[0] * rs + zk[0] * rz) / (2.0 * gamma);
    for (int i = 1; i < q; i++) w[i] = (sk[i] * rs - zk[i] * rz) / (2.0 * gamma);
    nt->eta[k] = sqrt(sqrt(ds / dz));
  }
  qcp_cone_scale(K, nt, 0, z, lambda);
  return 0;
}

// W̄ v (inv = 0) or W̄⁻¹ v = J W̄ J v (inv = 1) for one SOC block
static void soc_scale(const double *w, int q, int inv, const double *v, double *out) {
  double sgn = inv ? -1.0 : 1.0;
  double w1v1 = 0.0;
  for (int i = 1; i < q; i++) w1v1 += w[i] * v[i];
  out[0] = w[0] * v[0] + sgn * w1v1;
  double coef = w1v1 / (1.0 + w[0]) + sgn * v[0];
  for (int i = 1; i < q; i++) out[i] = v[i] + coef * w[i];
}

void qcp_cone_scale(const qcp_cones *K, const qcp_nt *nt, int inv, const double *v, double *out) {
  const double *w = nt->w;  // one loop per direction: this runs 5–15 times per iteration
  if (inv)
    for (int i = 0; i < K->l; i++) out[i] = v[i] / w[i];
  else
    for (int i = 0; i < K->l; i++) out[i] = v[i] * w[i];
  for (int k = 0; k < K->nsoc; k++) {
    int o = K->off[k], q = K->q[k];
    soc_scale(nt->w + o, q, inv, v + o, out + o);
    double f = inv ? 1.0 / nt->eta[k] : nt->eta[k];
    for (int i = 0; i < q; i++) out[o + i] *= f;
  }
}

void qcp_cone_prod(const qcp_cones *K, const double *u, const double *v, double *out) {
  for (int i = 0; i < K->l; i++) out[i] = u[i] * v[i];
  for (int k = 0; k < K->nsoc; k++) {
    int o = K->off[k], q = K->q[k];
    double d = 0.0;
    for (int i = 0; i < q; i++) d += u[o + i] * v[o + i];
    for (int i = 1; i < q; i++) out[o + i] = u[o] * v[o + i] + v[o] * u[o + i];
    out[o] = d;
  }
}

void qcp_cone_div(const qcp_cones *K, const double *lambda, const double *v, double *out) {
  for (int i = 0; i < K->l; i++) out[i] = v[i] / lambda[i];
  for (int k = 0; k < K->nsoc; k++) {
    int o = K->off[k], q = K->q[k];
    const double *L = lambda + o, *vk = v + o;
    double l1v1 = 0.0;
    for (int i = 1; i < q; i++) l1v1 += L[i] * vk[i];
    // λ₀u₀ + λ₁ᵀu₁ = v₀, λ₀u₁ + u₀λ₁ = v₁  ⇒  u₀ = (λ₀v₀ − λ₁ᵀv₁)/det λ
    double u0 = (L[0] * vk[0] - l1v1) / soc_det(L, q);
    out[o] = u0;
    for (int i = 1; i < q; i++) out[o + i] = (vk[i] - u0 * L[i]) / L[0];
  }
}

// largest α with v + α d ∈ Q^q, +inf if d does not leave the cone
static double soc_step(const double *v, const double *d, int q) {
  double d1 = 0.0, b1 = 0.0;
  for (int i = 1; i < q; i++) {
    d1 += d[i] * d[i];
    b1 += v[i] * d[i];
  }
  double nd1 = sqrt(d1);
  double a = (d[0] - nd1) * (d[0] + nd1);
  double b = v[0] * d[0] - b1;
  double c = soc_det(v, q);
  if (c <= 0.0) return 0.0;
  if (a > 0.0) {
    if (d[0] > 0.0) return INFINITY;  // d interior: never leaves
    double disc = fmax(b * b - a * c, 0.0);
    return c / (-b + sqrt(disc));  // smaller root of a α² + 2bα + c, b < 0 here
  }
  if (a == 0.0) {
    if (b >= 0.0) return (d[0] >= 0.0) ? INFINITY : -v[0] / d[0];
    return -c / (2.0 * b);
  }
  double disc = b * b - a * c;  // > 0 since a < 0 < c
  double sq = sqrt(disc);
  return (b >= 0.0) ? (b + sq) / (-a) : c / (sq - b);
}

// 1 if −v/d (d < 0) cannot round below a: v > a·(−d) exactly, so the quotient is ≥ a and its
// division can be skipped without changing the minimum. Rounded to nearest, v > fl(a·(−d)) implies
// it already (v is then at least the next double, beyond the product's half-ulp error, subnormal
// or not); the 4ε margin is a cheap allowance beyond that.
static inline int ratio_not_below(double v, double d, double a) {
  return v > a * -d * (1.0 + 4.0 * DBL_EPSILON);
}

double qcp_cone_step(const qcp_cones *K, const double *v, const double *dv, double amax) {
  double a = amax;
  // plain comparisons (fmin is a libm call here), and a division only for the rows that can
  // shorten the step: this runs 2–10 times per iteration over every orthant row
  for (int i = 0; i < K->l; i++) {
    if (!(dv[i] < 0.0) || ratio_not_below(v[i], dv[i], a)) continue;
    const double t = -v[i] / dv[i];
    a = t < a ? t : a;
  }
  for (int k = 0; k < K->nsoc; k++) {
    int o = K->off[k];
    a = fmin(a, soc_step(v + o, dv + o, K->q[k]));
  }
  return fmax(a, 0.0);
}

void qcp_cone_inverse(const qcp_cones *K, const double *v, double mu, double *out) {
  for (int i = 0; i < K->l; i++) out[i] = mu / v[i];
  for (int k = 0; k < K->nsoc; k++) {
    int o = K->off[k], q = K->q[k];
    double f = mu / soc_det(v + o, q);
    out[o] = f * v[o];
    for (int i = 1; i < q; i++) out[o + i] = -f * v[o + i];
  }
}
