// SPDX-License-Identifier: MIT
// Spring–mass–damper (paper A §3): observed growth vs spectral radius for the Figs 1–3 cases,
// implicit Euler's exact amplitude ratio, the stability boundaries, and the exact solution.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <complex.h>
#include <math.h>
#include <stdio.h>

#include "scenarios/smd.h"

typedef struct growth_case {
  const char *figure;
  smd_scheme scheme;
  double h, k, b;
  int stable;  // what the paper shows
} growth_case;

// Figs 1–3 of paper A; `stable` is the paper's verdict, not ours
static const growth_case fig_cases[] = {
    {"Fig 1", SMD_EXPLICIT, 1e-5, 1e6, 1, 0},      {"Fig 1", SMD_EXPLICIT, 1e-5, 1e6, 2e5, 1},
    {"Fig 1", SMD_EXPLICIT, 1e-5, 1e6, 2.1e5, 0},  {"Fig 2", SMD_SEMI_IMPLICIT, 1e-3, 1e6, 1, 1},
    {"Fig 2", SMD_SEMI_IMPLICIT, 1e-3, 1e7, 1, 0}, {"Fig 3", SMD_IMPLICIT, 1e-5, 1e6, 0, 1},
    {"Fig 3", SMD_IMPLICIT, 1e-2, 1e6, 0, 1},
};

// Observed per-step amplification (trajectory from the update rules) equals ρ(A) (matrix
// eigenvalues): two independent code paths. The envelope estimate samples each oscillation
// at discrete phases, so its log can be off by up to −ln cos(θ/2) ≤ 0.15 (θ ≤ 1.1 rad, the
// rotation per step in these cases) over the steps between the two maxima; the run is long
// (2e6 steps, or until the state over- or underflows) so that bias is below 1e-6 per step.
static void test_growth_equals_spectral_radius(void **state) {
  (void)state;
  printf("%-6s %-14s %-8s %-8s %-8s %-22s %-22s %s\n", "figure", "scheme", "h", "k", "b", "rho(A)",
         "observed", "rel.diff");
  for (size_t i = 0; i < sizeof fig_cases / sizeof fig_cases[0]; i++) {
    const growth_case *c = &fig_cases[i];
    smd_params p = {.m = 1, .k = c->k, .b = c->b, .f = 0};
    double A[4];
    smd_iteration_matrix(c->scheme, &p, c->h, A);
    double rho = smd_spectral_radius(A);
    smd_run run = smd_simulate(c->scheme, &p, c->h, 1.0, 0.0, 2000000, NULL, NULL);
    double rel = fabs(run.growth / rho - 1);
    printf("%-6s %-14s %-8g %-8g %-8g %-22.17g %-22.17g %.2e\n", c->figure,
           smd_scheme_name(c->scheme), c->h, c->k, c->b, rho, run.growth, rel);
    assert_true(rel < 1e-6);
    // the paper's verdict, from theory and from the observation
    assert_int_equal(rho < 1, c->stable);
    assert_int_equal(run.growth < 1, c->stable);
    // an unstable case ends larger than it started
    if (!c->stable) assert_true(run.diverged || fabs(run.x_final) > 1);
  }
}

// ρ(A) (the eigenvalues of the assembled iteration matrix) against the eigenvalues in closed form
// from each scheme's recurrence with x_n, v_n ∝ λⁿ, through the continuous roots
// μ = (−b ± √(b² − 4km))/2m: explicit λ = 1 + hμ, implicit λ = 1/(1 − hμ); semi-implicit
// (λ − 1)(λ − a) = −a λ h²k/m with a = 1/(1 + hb/m). The Figs 1–3 cases and a grid around them;
// the grid avoids near-double roots, where either route loses half the digits.
static double closed_form_rho(smd_scheme s, double h, double k, double b) {
  const double m = 1;
  const double complex d = csqrt((double complex)(b * b - 4 * k * m));
  const double complex mu[2] = {(-b + d) / (2 * m), (-b - d) / (2 * m)};
  double rho = 0;
  if (s == SMD_SEMI_IMPLICIT) {
    const double a = 1 / (1 + h * b / m), tr = 1 + a * (1 - h * h * k / m);
    const double complex r = csqrt((double complex)(tr * tr - 4 * a));
    return fmax(cabs((tr + r) / 2), cabs((tr - r) / 2));
  }
  for (int i = 0; i < 2; i++)
    rho = fmax(rho, cabs(s == SMD_EXPLICIT ? 1 + h * mu[i] : 1 / (1 - h * mu[i])));
  return rho;
}

static void test_spectral_radius_closed_form(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof fig_cases / sizeof fig_cases[0]; i++) {
    const growth_case *c = &fig_cases[i];
    smd_params p = {.m = 1, .k = c->k, .b = c->b, .f = 0};
    double A[4];
    smd_iteration_matrix(c->scheme, &p, c->h, A);
    const double rho = smd_spectral_radius(A), cf = closed_form_rho(c->scheme, c->h, c->k, c->b);
    printf("%-6s %-14s h=%-6g k=%-6g b=%-7g rho(A) %.17g closed form %.17g\n", c->figure,
           smd_scheme_name(c->scheme), c->h, c->k, c->b, rho, cf);
    assert_true(fabs(rho / cf - 1) < 1e-13);
  }
  // Fig 1's b = 10 sits on the boundary h = b/k: |λ|² = det A = 1 − hb/m + h²k/m = 1
  smd_params p = {.m = 1, .k = 1e6, .b = 10, .f = 0};
  double A[4];
  smd_iteration_matrix(SMD_EXPLICIT, &p, 1e-5, A);
  printf("explicit h=1e-5 k=1e6 b=10: rho(A) - 1 = %.3g\n", smd_spectral_radius(A) - 1);
  assert_true(fabs(smd_spectral_radius(A) - 1) < 1e-14);
  // the grid: every scheme, h 1e-6 … 1, k 1 … 1e12, b 0 … 1e5 (not near b² = 4km)
  double worst = 0;
  for (int s = 0; s < SMD_SCHEME_COUNT; s++)
    for (double h = 1e-6; h < 2; h *= 10)
      for (double k = 1; k < 2e12; k *= 100)
        for (double b = 0; b < 2e5; b = b ? b * 31.6 : 0.1) {
          const double disc = b * b - 4 * k;
          if (fabs(disc) < 1e-3 * (b * b + 4 * k)) continue;
          p = (smd_params){.m = 1, .k = k, .b = b, .f = 0};
          smd_iteration_matrix((smd_scheme)s, &p, h, A);
          const double rho = smd_spectral_radius(A), cf = closed_form_rho((smd_scheme)s, h, k, b);
          const double rel = fabs(rho / cf - 1);
          if (rel > worst) worst = rel;
          if (!(rel < 1e-9))
            printf("%s h=%g k=%g b=%g: rho(A) %.17g closed form %.17g\n",
                   smd_scheme_name((smd_scheme)s), h, k, b, rho, cf);
          assert_true(rel < 1e-9);
        }
  printf("grid: worst relative difference %.2e\n", worst);
}

// Implicit Euler with b = 0: the energy norm √(k x² + m v²) shrinks by exactly 1/√(1+(ωh)²)
// every step (the update is a rotation-scaling by 1/(1 + iωh) in (ωx, v)).
static void test_implicit_amplitude_ratio(void **state) {
  (void)state;
  const double hs[] = {1e-5, 1e-3, 1e-2, 0.1};
  for (size_t j = 0; j < 4; j++) {
    smd_params p = {.m = 1, .k = 1e6, .b = 0, .f = 0};
    double h = hs[j], w = sqrt(p.k / p.m), expect = 1 / sqrt(1 + (w * h) * (w * h));
    double x = 1, v = 0, worst = 0;
    for (int i = 0; i < 20; i++) {
      double before = smd_energy_norm(&p, x, v);
      smd_step(SMD_IMPLICIT, &p, h, &x, &v);
      double ratio = smd_energy_norm(&p, x, v) / before;
      worst = fmax(worst, fabs(ratio / expect - 1));
    }
    printf("h = %-6g  expected ratio %.15g  worst rel. deviation over 20 steps %.2e\n", h, expect,
           worst);
    assert_true(worst < 1e-12);
  }
}

// ρ(A) crosses 1 at the closed-form boundary h*(k): just inside stable, just outside unstable.
static void test_stability_boundary(void **state) {
  (void)state;
  // (k, b) where a relative step change of 1e-6 moves ρ by more than round-off; b = 1e4 is
  // the heavily damped branch of the explicit boundary
  const double ks[] = {1, 1e3, 1e6};
  const double bs[] = {0.5, 1, 100, 1e4};
  for (int s = SMD_EXPLICIT; s <= SMD_SEMI_IMPLICIT; s++)
    for (size_t i = 0; i < 3; i++)
      for (size_t j = 0; j < 4; j++) {
        smd_params p = {.m = 1, .k = ks[i], .b = bs[j], .f = 0};
        double hstar = smd_stability_boundary((smd_scheme)s, &p), A[4];
        smd_iteration_matrix((smd_scheme)s, &p, hstar * (1 - 1e-6), A);
        double inside = smd_spectral_radius(A);
        smd_iteration_matrix((smd_scheme)s, &p, hstar * (1 + 1e-6), A);
        double outside = smd_spectral_radius(A);
        if (!(inside < 1 && outside > 1))
          printf("%s k=%g b=%g h*=%g: rho inside %.17g outside %.17g\n",
                 smd_scheme_name((smd_scheme)s), p.k, p.b, hstar, inside, outside);
        assert_true(inside < 1);
        assert_true(outside > 1);
      }
  // implicit Euler: no boundary, ρ < 1 for every h
  smd_params p = {.m = 1, .k = 1e12, .b = 1, .f = 0};
  assert_true(isinf(smd_stability_boundary(SMD_IMPLICIT, &p)));
  for (double h = 1e-8; h < 1e3; h *= 10) {
    double A[4];
    smd_iteration_matrix(SMD_IMPLICIT, &p, h, A);
    assert_true(smd_spectral_radius(A) < 1);
  }
}

// The exact solution satisfies m ẍ + b ẋ + k x = f (checked by central differences of ẋ) in
// all three damping regimes, and starts at (x0, v0).
static void test_exact_solution(void **state) {
  (void)state;
  const smd_params ps[] = {
      {.m = 1, .k = 4, .b = 0.4, .f = 0},  // under-damped
      {.m = 1, .k = 4, .b = 4, .f = 1},    // critically damped
      {.m = 2, .k = 1, .b = 10, .f = -3},  // over-damped
  };
  for (size_t i = 0; i < 3; i++) {
    const smd_params *p = &ps[i];
    double x, v;
    smd_exact(p, 0.7, -0.3, 0, &x, &v);
    assert_true(fabs(x - 0.7) < 1e-14 && fabs(v + 0.3) < 1e-14);
    for (double t = 0.1; t < 3; t += 0.37) {
      const double d = 1e-5;
      double xm, vm, xp, vp;
      smd_exact(p, 0.7, -0.3, t, &x, &v);
      smd_exact(p, 0.7, -0.3, t - d, &xm, &vm);
      smd_exact(p, 0.7, -0.3, t + d, &xp, &vp);
      double acc = (vp - vm) / (2 * d), xdot = (xp - xm) / (2 * d);
      double residual = p->m * acc + p->b * v + p->k * x - p->f;
      assert_true(fabs(residual) < 1e-7);
      assert_true(fabs(xdot - v) < 1e-8);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_growth_equals_spectral_radius),
      cmocka_unit_test(test_spectral_radius_closed_form),
      cmocka_unit_test(test_implicit_amplitude_ratio),
      cmocka_unit_test(test_stability_boundary),
      cmocka_unit_test(test_exact_solution),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
