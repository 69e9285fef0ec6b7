// SPDX-License-Identifier: MIT
// Spring–cylinder (paper B §VI.B) against its closed form: fitted orders of e_q per scheme for
// μ = 1 (rolling) and μ = 0 (frictionless), energy behaviour, the resting impulse m g δt, the
// rolling slip against paper B's estimate σμgδt, and explicit Euler reported as it is.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "theta_test_util.h"

#define T_STUDY 5.0  // SPEC §5
#define DT_PAPER 0.02

static spring_cylinder_params params_mu(double mu) {
  spring_cylinder_params p = spring_cylinder_params_default();
  p.mu = mu;
  return p;
}

// e_q over dt = dt0·2^{-k}, k = 0 .. n−1; prints the table and returns the least-squares order
static double measured_order(theta_scheme scheme, double mu, double dt0, int n) {
  const spring_cylinder_params p = params_mu(mu);
  double dt[12], eq[12];
  for (int k = 0; k < n; k++) {
    dt[k] = dt0 / (double)(1 << k);
    cyl_run r = cyl_simulate(scheme, &p, dt[k], T_STUDY);
    if (r.status != THETA_OK)
      fail_msg("%s mu = %g dt = %g: step status %s", theta_scheme_name(scheme), mu, dt[k],
               theta_status_name(r.status));
    eq[k] = r.eq;
  }
  const double order = fit_order(dt, eq, (size_t)n);
  char title[160];
  snprintf(title, sizeof title,
           "scheme %s, mu = %g (exact: x0 cos(sqrt(k_s/m_eff) t), m_eff = %g kg)",
           theta_scheme_name(scheme), mu, spring_cylinder_effective_mass(&p));
  print_order_table(title, dt, eq, (size_t)n, order);
  return order;
}

static void assert_order(const char *what, double got, double want, double band) {
  if (!(fabs(got - want) <= band))
    fail_msg("%s: fitted order %.3f, expected %.1f ± %.1f", what, got, want, band);
}

// midpoint: order 2 in the range above the O(σδt) slip floor (δt ≥ 0.02/32, see the report)
static void test_midpoint_order(void **state) {
  (void)state;
  assert_order("midpoint mu = 1", measured_order(THETA_MIDPOINT, 1, DT_PAPER, 6), 2, 0.2);
  assert_order("midpoint mu = 0", measured_order(THETA_MIDPOINT, 0, DT_PAPER, 6), 2, 0.2);
}

// implicit Euler: asymptotic only once ω δt ≪ 1 and the amplitude has not decayed away
static void test_implicit_order(void **state) {
  (void)state;
  assert_order("implicit mu = 1", measured_order(THETA_IMPLICIT, 1, DT_PAPER / 32, 4), 1, 0.2);
  assert_order("implicit mu = 0", measured_order(THETA_IMPLICIT, 0, DT_PAPER / 32, 4), 1, 0.2);
}

// symplectic Euler: the O(δt) phase offset dominates the O(δt²) drift for δt ≤ 0.005
static void test_symplectic_order(void **state) {
  (void)state;
  assert_order("symplectic mu = 1", measured_order(THETA_SYMPLECTIC, 1, DT_PAPER / 4, 6), 1, 0.2);
  assert_order("symplectic mu = 0", measured_order(THETA_SYMPLECTIC, 0, DT_PAPER / 4, 6), 1, 0.2);
}

// explicit Euler: reported, asserted to be no better than first order
static void test_explicit_reported(void **state) {
  (void)state;
  for (int mu = 0; mu <= 1; mu++) {
    const double coarse = measured_order(THETA_EXPLICIT, mu, DT_PAPER, 3);
    const double fine = measured_order(THETA_EXPLICIT, mu, DT_PAPER / 32, 4);
    printf(
        "explicit Euler mu = %d: order %.3f over dt in [0.005, 0.02] (unstable growth), %.3f "
        "over [7.8e-5, 6.25e-4]\n\n",
        mu, coarse, fine);
    if (!(fine <= 1.2)) fail_msg("explicit Euler mu = %d: fitted order %.3f > 1.2", mu, fine);
  }
}

// energy of the horizontal oscillator per scheme at paper B's δt = 0.02 s over 5 s
static void test_energy(void **state) {
  (void)state;
  for (int mu = 0; mu <= 1; mu++)
    for (int s = 0; s < THETA_SCHEME_COUNT; s++) {
      const spring_cylinder_params p = params_mu(mu);
      cyl_run r = cyl_simulate((theta_scheme)s, &p, DT_PAPER, T_STUDY);
      printf(
          "energy mu = %d %-10s: peak-to-peak/E0 = %.4e, largest one-step rise/E0 = %.3e, "
          "final status %s\n",
          mu, theta_scheme_name((theta_scheme)s), (r.emax - r.emin) / r.e0, r.max_rise,
          theta_status_name(r.status));
    }
  // frictionless midpoint: ½mẋ² + ½k_s x² conserved (θ̇ stays 0)
  spring_cylinder_params p = params_mu(0);
  cyl_run r = cyl_simulate(THETA_MIDPOINT, &p, DT_PAPER, T_STUDY);
  if (!((r.emax - r.emin) / r.e0 <= 1e-10))
    fail_msg("frictionless midpoint energy variation %.3e > 1e-10", (r.emax - r.emin) / r.e0);
  // rolling midpoint: peak-to-peak ≤ 0.5 % (paper B: 0.16 %)
  p = params_mu(1);
  r = cyl_simulate(THETA_MIDPOINT, &p, DT_PAPER, T_STUDY);
  if (!((r.emax - r.emin) / r.e0 <= 5e-3))
    fail_msg("rolling midpoint energy variation %.3e > 0.5 %%", (r.emax - r.emin) / r.e0);
  // implicit Euler: monotone decay (no step raises the energy beyond rounding)
  for (int mu = 0; mu <= 1; mu++) {
    p = params_mu(mu);
    r = cyl_simulate(THETA_IMPLICIT, &p, DT_PAPER, T_STUDY);
    if (!(r.max_rise <= 1e-14))
      fail_msg("implicit Euler mu = %d: energy rose by %.3e E0 in one step", mu, r.max_rise);
    if (!(r.emin < 0.5 * r.e0))
      fail_msg("implicit Euler mu = %d: energy did not decay (%g)", mu, r.emin / r.e0);
  }
  // symplectic Euler: bounded over 100 s = 20 periods at δt = 0.02 — the envelope of the last
  // 5 s equals that of the first 5 s, and the excursion stays within O(ωδt)
  for (int mu = 0; mu <= 1; mu++) {
    p = params_mu(mu);
    cyl_run a = cyl_simulate(THETA_SYMPLECTIC, &p, DT_PAPER, T_STUDY);
    cyl_run b = cyl_simulate(THETA_SYMPLECTIC, &p, DT_PAPER, 100);
    const double w = sqrt(p.ks / spring_cylinder_effective_mass(&p));
    printf(
        "symplectic mu = %d: E/E0 in [%.4f, %.4f] over 5 s, [%.4f, %.4f] over 100 s (ω δt = "
        "%.3f)\n",
        mu, a.emin / a.e0, a.emax / a.e0, b.emin / b.e0, b.emax / b.e0, w * DT_PAPER);
    if (!(b.emax / b.e0 <= 1 + 2 * w * DT_PAPER && b.emin / b.e0 >= 1 - 2 * w * DT_PAPER))
      fail_msg("symplectic Euler mu = %d: energy left [1 − 2ωδt, 1 + 2ωδt] over 100 s", mu);
    if (!(b.emax - a.emax <= 1e-3 * a.e0))
      fail_msg("symplectic Euler mu = %d: energy envelope grew by %.3e E0 over 100 s", mu,
               (b.emax - a.emax) / a.e0);
  }
}

// resting on the ground (x0 = 0: no spring load): the normal impulse per step is m g δt
static void test_rest_impulse(void **state) {
  (void)state;
  for (int s = 0; s < THETA_SCHEME_COUNT; s++)
    for (int mu = 0; mu <= 1; mu++) {
      spring_cylinder_params p = params_mu(mu);
      p.x0 = 0;
      for (double dt = DT_PAPER; dt > 1e-3; dt /= 4) {
        cyl_run r = cyl_simulate((theta_scheme)s, &p, dt, 0.5);
        const double want = p.m * p.g * dt;
        if (!(fabs(r.gamma_n_last - want) <= 1e-10 * want))
          fail_msg("%s mu = %d dt = %g: γ_n = %.15g, m g δt = %.15g",
                   theta_scheme_name((theta_scheme)s), mu, dt, r.gamma_n_last, want);
      }
    }
  // dropped from φ = 0 at rest, the contact settles (τ_d damping) to the same impulse
  spring_cylinder_params p = params_mu(1);
  p.x0 = 0;
  spring_cylinder sc;
  spring_cylinder_init(&sc, &p);
  theta_workspace *ws = theta_workspace_create(&sc.model, NULL, NULL);
  double q[3] = {0, p.radius, 0}, v[3] = {0, 0, 0};
  for (int i = 0; i < 250; i++)
    assert_int_equal(theta_step(ws, i * DT_PAPER, DT_PAPER, q, v, q, v), THETA_OK);
  const double gn = theta_step_gamma(ws)[0], want = p.m * p.g * DT_PAPER;
  printf("settled after a drop from phi = 0: γ_n = %.15g, m g δt = %.15g (rel. diff %.2e)\n", gn,
         want, fabs(gn - want) / want);
  if (!(fabs(gn - want) <= 1e-9 * want)) fail_msg("settled γ_n = %.15g, m g δt = %.15g", gn, want);
  theta_workspace_free(ws);
}

// rolling slip |ẋ − Rθ̇| within 5× paper B's estimate σμgδt
static void test_slip(void **state) {
  (void)state;
  const spring_cylinder_params p = params_mu(1);
  for (int s = 1; s < THETA_SCHEME_COUNT; s++)
    for (double dt = DT_PAPER; dt > 1e-3; dt /= 4) {
      cyl_run r = cyl_simulate((theta_scheme)s, &p, dt, T_STUDY);
      const double estimate = 1e-3 * p.mu * p.g * dt, ratio = r.max_slip / estimate;
      printf("slip %-10s dt = %.5f: max |v_t| = %.4e m/s, sigma mu g dt = %.4e m/s, ratio %.3f\n",
             theta_scheme_name((theta_scheme)s), dt, r.max_slip, estimate, ratio);
      if (!(ratio <= 5))
        fail_msg("%s dt = %g: slip ratio %.3f > 5", theta_scheme_name((theta_scheme)s), dt, ratio);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_midpoint_order),
      cmocka_unit_test(test_implicit_order),
      cmocka_unit_test(test_symplectic_order),
      cmocka_unit_test(test_explicit_reported),
      cmocka_unit_test(test_energy),
      cmocka_unit_test(test_rest_impulse),
      cmocka_unit_test(test_slip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
