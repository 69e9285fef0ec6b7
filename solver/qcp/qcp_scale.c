// SPDX-License-Identifier: MIT
// Ruiz equilibration of the problem data, keeping cones intact.
//
// Derivation (D. Ruiz, "A scaling algorithm to equilibrate both rows and columns norms in
// matrices", RAL-TR-2001-034; used on the KKT matrix by OSQP, Stellato et al. 2020 §5.1, and by
// Clarabel/QOCO). With diagonal D > 0 (variables), E > 0 (rows of A and G) and a cost scale κ > 0
// the problem  min ½x̄ᵀ(κDPD)x̄ + κ(Dc)ᵀx̄,  (E_A A D)x̄ = E_A b,  (E_G G D)x̄ + s̄ = E_G h
// has the solution x = D x̄, s = E_G⁻¹ s̄, y = E_A ȳ/κ, z = E_G z̄/κ, and s̄ ∈ K ⇔ s ∈ K as long as
// E_G is a positive multiple of the identity on each second-order cone (one scale per cone
// block; orthant rows scale individually). Each pass divides every column j of the symmetric
// matrix [P Aᵀ Gᵀ; A 0 0; G 0 0] by √‖col_j‖∞ and every row by √‖row_i‖∞ (for a cone block,
// the largest row norm of the block); ten passes bring all norms near 1. κ then scales the cost
// so that max(mean ‖P̄ col‖∞, ‖c̄‖∞) ≈ 1. Factors are clipped to [1e-4, 1e4] per pass
// (OSQP's limits) so that empty or tiny rows and columns are not blown up.
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "qcp_internal.h"

#define SCALE_MIN 1e-4
#define SCALE_MAX 1e4
// Data whose KKT row and column norms all lie within this factor of each other is left as it is:
// equilibration would only perturb the iterates of an already well-scaled problem (the contact
// and foundation families have spreads of 1e3 and need 3–8 iterations unscaled), while the badly
// scaled Maros–Mészáros problems have spreads of 1e5 … 1e12.
#define SCALE_SPREAD 1e4

// max/min over the nonzero norms (1 if there are none)
static double norm_spread(const double *v, int n) {
  double lo = INFINITY, hi = 0.0;
  for (int i = 0; i < n; i++)
    if (v[i] > 0.0) lo = v[i] < lo ? v[i] : lo, hi = v[i] > hi ? v[i] : hi;
  return hi > 0.0 ? hi / lo : 1.0;
}

// The nearest power of two (in ratio) to f > 0. Every factor is one, so the scaled data are the
// original data exactly (a product by 2^k does not round) and unscaling a point is exact: the
// scaled problem is the same problem, and a point refined on it carries no rounding of the
// scaling into the residuals on the original data (as LAPACK's dgeequb scales by powers of the
// radix). Each factor is within √2 of Ruiz's, so the balance is met within a factor 2 (test
// qcp_scale: norms in [½, 2]), which is all it needs.
// For a normal f = 1.m·2^(E−1023) (E the biased exponent) that is frexp's mantissa 1.m/2 compared
// with 1/√2 and ldexp(1, E − 1022 − [1.m/2 < 1/√2]), read and written through the bits (the same
// power: the factors here lie in [1e-4, 1e4]; frexp and ldexp were libm calls per factor).
static double nearest_power_of_two(double f) {
  uint64_t u;
  memcpy(&u, &f, sizeof u);
  const uint64_t E = u >> 52 & 0x7ff, mant_bits = u & 0xfffffffffffffULL;
  const uint64_t one_m_bits = mant_bits | (uint64_t)1023 << 52;  // 1.m in [1, 2)
  double one_m;
  memcpy(&one_m, &one_m_bits, sizeof one_m);
  const uint64_t r = (one_m < 2.0 * 0.70710678118654752440 ? E : E + 1) << 52;
  double p;
  memcpy(&p, &r, sizeof p);
  return p;
}

static double clip_inv_sqrt(double norm) {
  if (!(norm > 0.0)) return 1.0;  // an empty row or column keeps its scale
  // norm = 1.m·2^e: 1/√norm lies nearest (in ratio) to 2^−⌈e/2⌉ (for even e, 1/√norm is within
  // √2 of 2^(−e/2) from below; for odd e, of 2^(−(e+1)/2) from above). Read off the bits except
  // where rounding 1.0/sqrt(norm) could decide (1.m within 2^-44 of 2 for even e) or the clip
  // applies (the factor beyond [3e-4, 3e3]): there, as written. The same power either way (checked
  // against the rounded expression on every power of two ± 4096 ulps and 2e8 random norms).
  uint64_t u;
  memcpy(&u, &norm, sizeof u);
  const int e = (int)(u >> 52 & 0x7ff) - 1023;
  const uint64_t mant = u & 0xfffffffffffffULL;
  if (norm >= 1e-7 && norm <= 1e7 && !(e % 2 == 0 && mant >= 0xfffffffffff00ULL)) {
    const int k = e >= 0 ? (e + 1) / 2 : -(-e / 2);  // ⌈e/2⌉
    const uint64_t r = (uint64_t)(1023 - k) << 52;
    double f;
    memcpy(&f, &r, sizeof f);
    return f;
  }
  double f = 1.0 / sqrt(norm);
  return nearest_power_of_two(f < SCALE_MIN ? SCALE_MIN : (f > SCALE_MAX ? SCALE_MAX : f));
}

// ∞-norms of the KKT columns of x (cn, n) and of the rows of A (rp, p) and G (rm, m) of the
// values, after multiplying them by diag(e)·M·diag(d) (P by diag(d)·P·diag(d)) when d is given:
// one sweep per Ruiz pass for the scaling and the next pass's norms (cn = NULL: no norms)
static void scale_norms(const qcp_problem *pr, const double *d, const double *ep, const double *em,
                        double *Pv, double *Av, double *Gv, double *cn, double *rp, double *rm) {
  int n = pr->n, p = pr->p, m = pr->G.nrows;
  if (cn) {
    memset(cn, 0, (size_t)n * sizeof *cn);
    memset(rp, 0, (size_t)p * sizeof *rp);
    memset(rm, 0, (size_t)m * sizeof *rm);
  }
  // plain comparisons: fmax is a libm call here, three per entry (the data are finite)
  for (int j = 0; j < n; j++) {
    double cj = cn ? cn[j] : 0.0;
    for (int k = pr->P.colptr[j]; k < pr->P.colptr[j + 1]; k++) {
      int i = pr->P.rowind[k];
      if (d) Pv[k] *= d[i] * d[j];
      if (!cn) continue;
      double a = fabs(Pv[k]);
      cj = a > cj ? a : cj;
      if (i != j) cn[i] = a > cn[i] ? a : cn[i];  // the lower triangle's (i, j) is in column i
    }
    for (int k = p > 0 ? pr->A.colptr[j] : 0; k < (p > 0 ? pr->A.colptr[j + 1] : 0); k++) {
      int i = pr->A.rowind[k];
      if (d) Av[k] *= ep[i] * d[j];
      if (!cn) continue;
      double a = fabs(Av[k]);
      cj = a > cj ? a : cj;
      rp[i] = a > rp[i] ? a : rp[i];
    }
    for (int k = pr->G.colptr[j]; k < pr->G.colptr[j + 1]; k++) {
      int i = pr->G.rowind[k];
      if (d) Gv[k] *= em[i] * d[j];
      if (!cn) continue;
      double a = fabs(Gv[k]);
      cj = a > cj ? a : cj;
      rm[i] = a > rm[i] ? a : rm[i];
    }
    if (cn) cn[j] = cj;
  }
}

// one factor per second-order cone: the largest row norm of its block
static void cone_blocks(const qcp_cones *K, double *rm) {
  for (int k = 0; k < K->nsoc; k++) {
    int o = K->off[k], q = K->q[k];
    double mx = 0.0;
    for (int i = 0; i < q; i++) mx = rm[o + i] > mx ? rm[o + i] : mx;  // finite norms: fmax's
    for (int i = 0; i < q; i++) rm[o + i] = mx;
  }
}

// the cost scale κ: 1 / max(mean column norm of P̄, ‖c̄‖∞), clipped
static double cost_scale(const qcp_problem *pr, const double *Pv, const double *c, double *cn) {
  int n = pr->n;
  memset(cn, 0, (size_t)n * sizeof *cn);
  for (int j = 0; j < n; j++)
    for (int k = pr->P.colptr[j]; k < pr->P.colptr[j + 1]; k++) {
      double a = fabs(Pv[k]);
      const int i = pr->P.rowind[k];
      cn[j] = a > cn[j] ? a : cn[j];  // finite data: fmax's result without the libm call
      cn[i] = a > cn[i] ? a : cn[i];
    }
  double mean = 0.0;
  for (int j = 0; j < n; j++) mean += cn[j];
  mean /= n;
  double s = fmax(mean, qcp_vec_norm_inf(c, n));
  if (!(s > 0.0)) return 1.0;
  s = 1.0 / s;
  return nearest_power_of_two(s < SCALE_MIN ? SCALE_MIN : (s > SCALE_MAX ? SCALE_MAX : s));
}

void qcp_scale_compute(qcp_scaling *sc, const qcp_problem *src, const qcp_cones *K,
                       qcp_problem *dst) {
  int n = src->n, p = src->p, m = K->m;
  double *Pv = (double *)dst->P.values, *Av = (double *)dst->A.values;
  double *Gv = (double *)dst->G.values;
  double *c = (double *)dst->c, *b = (double *)dst->b, *h = (double *)dst->h;
  double *cn = sc->work, *rp = sc->work + n, *rm = sc->work + n + p;
  // well-scaled data is left as it is, and dst untouched: the problem is src itself (the scales
  // are then never read, and not written)
  sc->applied = 0;
  sc->cost = 1.0;
  if (sc->passes <= 0) return;
  scale_norms(src, NULL, NULL, NULL, (double *)src->P.values, (double *)src->A.values,
              (double *)src->G.values, cn, rp, rm);  // d = NULL: read only
  if (!(sc->applied = norm_spread(sc->work, n + p + m) > SCALE_SPREAD)) return;
  for (int j = 0; j < n; j++) sc->D[j] = 1.0;
  for (int i = 0; i < p; i++) sc->Ey[i] = 1.0;
  for (int i = 0; i < m; i++) sc->Ez[i] = 1.0;
  memcpy(Pv, src->P.values, (size_t)src->P.colptr[n] * sizeof *Pv);
  if (p > 0) memcpy(Av, src->A.values, (size_t)src->A.colptr[n] * sizeof *Av);
  memcpy(Gv, src->G.values, (size_t)src->G.colptr[n] * sizeof *Gv);
  // each pass's factors (f: n + p + m) from the norms, then one sweep that scales the values and
  // takes the next pass's norms
  double *f = sc->fac, *fp = f + n, *fm = f + n + p;
  for (int pass = 0; pass < sc->passes; pass++) {
    cone_blocks(K, rm);
    int moved =
        0;  // a pass whose factors are all 1 leaves the data, and so every later pass, as is
    for (int j = 0; j < n; j++) f[j] = clip_inv_sqrt(cn[j]), sc->D[j] *= f[j], moved |= f[j] != 1.0;
    for (int i = 0; i < p; i++)
      fp[i] = clip_inv_sqrt(rp[i]), sc->Ey[i] *= fp[i], moved |= fp[i] != 1.0;
    for (int i = 0; i < m; i++)
      fm[i] = clip_inv_sqrt(rm[i]), sc->Ez[i] *= fm[i], moved |= fm[i] != 1.0;
    if (!moved) break;
    const int last = pass + 1 == sc->passes;
    scale_norms(src, f, fp, fm, Pv, Av, Gv, last ? NULL : cn, rp, rm);
  }
  for (int j = 0; j < n; j++) c[j] = sc->D[j] * src->c[j];
  sc->cost = cost_scale(src, Pv, c, cn);
  for (int k = 0; k < src->P.colptr[n]; k++) Pv[k] *= sc->cost;
  for (int j = 0; j < n; j++) c[j] *= sc->cost;
  for (int i = 0; i < p; i++) b[i] = sc->Ey[i] * src->b[i];
  for (int i = 0; i < m; i++) h[i] = sc->Ez[i] * src->h[i];
}

void qcp_scale_unscale(const qcp_scaling *sc, int n, int p, int m, double *x, double *s, double *y,
                       double *z) {
  if (!sc->applied) return;  // unit scales: nothing to do (and no divisions)
  for (int j = 0; j < n; j++) x[j] *= sc->D[j];
  for (int i = 0; i < p; i++) y[i] *= sc->Ey[i] / sc->cost;
  for (int i = 0; i < m; i++) s[i] /= sc->Ez[i], z[i] *= sc->Ez[i] / sc->cost;
}

void qcp_scale_scale(const qcp_scaling *sc, int n, int p, int m, double *x, double *s, double *y,
                     double *z) {
  if (!sc->applied) return;
  for (int j = 0; j < n; j++) x[j] /= sc->D[j];
  for (int i = 0; y && i < p; i++) y[i] *= sc->cost / sc->Ey[i];
  for (int i = 0; s && i < m; i++) s[i] *= sc->Ez[i];
  for (int i = 0; z && i < m; i++) z[i] *= sc->cost / sc->Ez[i];
}
