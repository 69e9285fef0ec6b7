// SPDX-License-Identifier: MIT
// Spring–mass–damper under explicit, semi-implicit and implicit Euler (paper A §3).
//
// With y = [x v]ᵀ and f = 0 each scheme is a linear recurrence y1 = A y0:
//   explicit (7–8):       A = [1, h; −hk/m, 1 − hb/m]                                  (eq. 10)
//   semi-implicit (11–12): v1 (1 + hb/m) = v0 − (hk/m) x0, x1 = x0 + h v1;
//                         with a = 1/(1 + hb/m):  A = [1 − a h²k/m, a h; −a hk/m, a]
//   implicit (13–14):     [1, −h; hk/m, 1 + hb/m] y1 = y0,  A = that matrix's inverse.
// Stability ⇔ ρ(A) < 1 ⇔ (Jury) |det A| < 1 and |tr A| < 1 + det A, which gives
//   explicit: det A < 1 ⇔ h < b/k; det A > −1 and p(−1) = 4 − 2hb/m + h²k/m > 0 first fail at
//             h = 4m/(b + √(b² − 4km)) when b² ≥ 4km (heavy damping); h* is the smaller one;
//   semi-implicit: h²k < 4m + 2hb, i.e. h < (b + √(b² + 4km))/k;
//   implicit: stable for every h > 0 when k, b ≥ 0 and k + b > 0.
#include "scenarios/smd.h"

#include <assert.h>
#include <complex.h>
#include <math.h>

static const char *const scheme_names[] = {
#define SMD_NAME(id, name, text) name,
    SMD_SCHEME_LIST(SMD_NAME)
#undef SMD_NAME
};
static const char *const scheme_texts[] = {
#define SMD_TEXT(id, name, text) text,
    SMD_SCHEME_LIST(SMD_TEXT)
#undef SMD_TEXT
};

const char *smd_scheme_name(smd_scheme s) { return scheme_names[s]; }
const char *smd_scheme_description(smd_scheme s) { return scheme_texts[s]; }

void smd_step(smd_scheme s, const smd_params *p, double h, double *x, double *v) {
  const double m = p->m, k = p->k, b = p->b, f = p->f;
  double x0 = *x, v0 = *v;
  switch (s) {
    case SMD_EXPLICIT:  // eqs. 7–8
      *x = x0 + h * v0;
      *v = v0 + h / m * (f - b * v0 - k * x0);
      break;
    case SMD_SEMI_IMPLICIT:  // eqs. 11–12: v1 implicit in the damping only
      *v = (v0 + h / m * (f - k * x0)) / (1 + h * b / m);
      *x = x0 + h * *v;
      break;
    case SMD_IMPLICIT: {  // eqs. 13–14: substitute x1 = x0 + h v1 into (14)
      double v1 = (v0 + h / m * (f - k * x0)) / (1 + h * b / m + h * h * k / m);
      *v = v1;
      *x = x0 + h * v1;
      break;
    }
    default:
      assert(0 && "unknown scheme");
  }
}

void smd_iteration_matrix(smd_scheme s, const smd_params *p, double h, double A[4]) {
  const double m = p->m, k = p->k, b = p->b;
  switch (s) {
    case SMD_EXPLICIT:
      A[0] = 1, A[1] = h, A[2] = -h * k / m, A[3] = 1 - h * b / m;
      break;
    case SMD_SEMI_IMPLICIT: {
      double a = 1 / (1 + h * b / m);
      A[0] = 1 - a * h * h * k / m, A[1] = a * h, A[2] = -a * h * k / m, A[3] = a;
      break;
    }
    case SMD_IMPLICIT: {
      // inverse of [1, −h; hk/m, 1 + hb/m]
      double det = 1 + h * b / m + h * h * k / m;
      A[0] = (1 + h * b / m) / det, A[1] = h / det;
      A[2] = -h * k / m / det, A[3] = 1 / det;
      break;
    }
    default:
      assert(0 && "unknown scheme");
  }
}

double smd_spectral_radius(const double A[4]) {
  double tr = A[0] + A[3];
  double det = A[0] * A[3] - A[1] * A[2];
  double complex disc = csqrt((double complex)(tr * tr / 4 - det));
  double complex l1 = tr / 2 + disc, l2 = tr / 2 - disc;
  return fmax(cabs(l1), cabs(l2));
}

double smd_stability_boundary(smd_scheme s, const smd_params *p) {
  const double m = p->m, k = p->k, b = p->b;
  switch (s) {
    case SMD_EXPLICIT: {
      if (k <= 0) return b > 0 ? 2 * m / b : INFINITY;
      double h = b / k;
      // heavy damping: p(−1) > 0 fails first, at the smaller root of k h² − 2 b h + 4 m
      if (b * b >= 4 * k * m) h = fmin(h, 4 * m / (b + sqrt(b * b - 4 * k * m)));
      return h;
    }
    case SMD_SEMI_IMPLICIT:
      if (k <= 0) return INFINITY;
      return (b + sqrt(b * b + 4 * k * m)) / k;
    case SMD_IMPLICIT:
    default:
      return INFINITY;
  }
}

void smd_exact(const smd_params *p, double x0, double v0, double t, double *x, double *v) {
  assert(p->k > 0);
  const double xe = p->f / p->k;  // equilibrium; the homogeneous part decays/oscillates about it
  const double y0 = x0 - xe;
  const double alpha = p->b / (2 * p->m);
  const double w0sq = p->k / p->m;
  const double disc = alpha * alpha - w0sq;
  double y, yd;
  if (disc < -1e-14 * w0sq) {  // under-damped
    double wd = sqrt(-disc);
    double c = cos(wd * t), s = sin(wd * t), e = exp(-alpha * t);
    double B = (v0 + alpha * y0) / wd;
    y = e * (y0 * c + B * s);
    yd = e * (-alpha * (y0 * c + B * s) + (-y0 * wd * s + B * wd * c));
  } else if (disc > 1e-14 * w0sq) {  // over-damped
    double r = sqrt(disc), r1 = -alpha + r, r2 = -alpha - r;
    double c1 = (v0 - r2 * y0) / (r1 - r2), c2 = y0 - c1;
    y = c1 * exp(r1 * t) + c2 * exp(r2 * t);
    yd = c1 * r1 * exp(r1 * t) + c2 * r2 * exp(r2 * t);
  } else {  // critically damped
    double B = v0 + alpha * y0, e = exp(-alpha * t);
    y = (y0 + B * t) * e;
    yd = (B - alpha * (y0 + B * t)) * e;
  }
  *x = y + xe;
  *v = yd;
}

double smd_energy_norm(const smd_params *p, double x, double v) {
  return sqrt(p->k * x * x + p->m * v * v);
}

double smd_observed_growth(double norm_a, double norm_b, size_t steps) {
  if (steps == 0 || !(norm_a > 0) || !(norm_b > 0)) return NAN;
  return exp((log(norm_b) - log(norm_a)) / (double)steps);
}

smd_run smd_simulate(smd_scheme s, const smd_params *p, double h, double x0, double v0, size_t n,
                     void (*record)(void *ctx, size_t i, double x, double v), void *ctx) {
  smd_run run = {0};
  double x = x0, v = v0;
  if (record) record(ctx, 0, x, v);
  for (size_t i = 1; i <= n; i++) {
    smd_step(s, p, h, &x, &v);
    double norm = smd_energy_norm(p, x, v);
    if (!(norm < SMD_DIVERGED_NORM)) {
      run.diverged = 1;
      break;
    }
    run.steps = i;
    if (record) record(ctx, i, x, v);
    if (norm < 1 / SMD_DIVERGED_NORM) break;
  }
  // Growth from the envelope: the largest norm in the windows (n/4, n/2] and (3n/4, n], half a
  // run apart. Taking maxima removes the phase-dependent oscillation of the norm within a
  // period (eigenvectors are not orthogonal in any fixed norm). The recurrence is replayed
  // because the windows depend on where the run stopped.
  size_t m = run.steps, at_a = 0, at_b = 0;
  double max_a = 0, max_b = 0, xr = x0, vr = v0;
  const double norm0 = smd_energy_norm(p, x0, v0);
  for (size_t i = 1; i <= m; i++) {
    smd_step(s, p, h, &xr, &vr);
    double norm = smd_energy_norm(p, xr, vr);
    if (4 * i > m && 2 * i <= m && norm > max_a) max_a = norm, at_a = i;
    if (4 * i > 3 * m && norm > max_b) max_b = norm, at_b = i;
  }
  // short runs (a few steps to overflow or underflow): the ratio over the whole run
  run.growth = (m >= 8 && at_b > at_a) ? smd_observed_growth(max_a, max_b, at_b - at_a)
                                       : smd_observed_growth(norm0, smd_energy_norm(p, xr, vr), m);
  run.x_final = xr;
  run.v_final = vr;
  return run;
}
