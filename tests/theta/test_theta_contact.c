// SPDX-License-Identifier: MIT
// Contact stage and step (paper B §III–V): the primal Newton solver checked against the dual
// problem's optimality conditions (computed independently), hand cases with closed-form answers,
// v̂ and R from model rows, free flight, and every error path.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/spring_cylinder.h"
#include "theta/theta.h"

#define PI 3.14159265358979323846

static double urand(unsigned *state, double lo, double hi) {
  *state = *state * 1664525u + 1013904223u;
  return lo + (hi - lo) * ((double)(*state >> 8) / 16777216.0);
}

static void assert_close(const char *what, double got, double want, double tol) {
  if (!(fabs(got - want) <= tol))
    fail_msg("%s: got %.17g, want %.17g (|diff| %.3g > tol %.3g)", what, got, want,
             fabs(got - want), tol);
}

// x = a⁻¹ b by Gaussian elimination with partial pivoting (the test's own solver), n ≤ 8
static void dense_solve(const double *a, int n, const double *b, double *x) {
  double m[8][9];
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) m[i][j] = a[i * n + j];
    m[i][n] = b[i];
  }
  for (int c = 0; c < n; c++) {
    int p = c;
    for (int i = c + 1; i < n; i++)
      if (fabs(m[i][c]) > fabs(m[p][c])) p = i;
    for (int j = 0; j <= n; j++) {
      double t = m[c][j];
      m[c][j] = m[p][j], m[p][j] = t;
    }
    for (int i = c + 1; i < n; i++) {
      double f = m[i][c] / m[c][c];
      for (int j = c; j <= n; j++) m[i][j] -= f * m[c][j];
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = m[i][n];
    for (int j = i + 1; j < n; j++) s -= m[i][j] * x[j];
    x[i] = s / m[i][i];
  }
}

// dense J (nrows×nv) from the problem's CSR
static void jac_dense(const theta_contact_problem *p, double *J) {
  memset(J, 0, (size_t)p->nrows * (size_t)p->nv * sizeof(double));
  for (int r = 0; r < p->nrows; r++)
    for (int k = p->start[r]; k < p->start[r + 1]; k++) J[r * p->nv + p->col[k]] += p->val[k];
}

// dual optimality: r = (W + R)γ + Jv* − v̂ with W = J A⁻¹ Jᵀ formed here; per cone γ ∈ F,
// r ∈ F* (μ‖r_t‖ ≤ r_n), γᵀr = 0; free rows r = 0. Returns the worst violation relative to scale.
static double dual_violation(const theta_contact_problem *p, const double *gamma) {
  const int nv = p->nv, m = p->nrows;
  double J[64], jtg[8] = {0}, w[8], r[8], scale = 0;
  jac_dense(p, J);
  for (int j = 0; j < nv; j++)
    for (int a = 0; a < m; a++) jtg[j] += J[a * nv + j] * gamma[a];
  dense_solve(p->A, nv, jtg, w);
  for (int a = 0; a < m; a++) {
    double s = p->R[a] * gamma[a] - p->vhat[a];
    for (int j = 0; j < nv; j++) s += J[a * nv + j] * (w[j] + p->vstar[j]);
    r[a] = s;
    scale = fmax(scale, fabs(p->vhat[a]) + fabs(p->R[a] * gamma[a]));
  }
  for (int j = 0; j < nv; j++) scale = fmax(scale, fabs(p->vstar[j]));
  double worst = 0;
  for (int c = 0; c < p->nc; c++) {
    const int r0 = p->first[c], dim = p->first[c + 1] - r0, n = r0 + dim - 1;
    if (p->kind[c] == THETA_CONTACT_FREE) {
      worst = fmax(worst, fabs(r[r0]));
      continue;
    }
    double gt = 0, rt = 0, comp = 0;
    for (int k = r0; k < n; k++) gt += gamma[k] * gamma[k], rt += r[k] * r[k];
    for (int k = r0; k <= n; k++) comp += gamma[k] * r[k];
    gt = sqrt(gt), rt = sqrt(rt);
    worst = fmax(worst, fmax(0, gt - p->mu[c] * gamma[n]) / fmax(1e-300, fabs(gamma[n]) + 1e-12));
    worst = fmax(worst, fmax(0, p->mu[c] * rt - r[n]));
    worst = fmax(worst, fabs(comp) / fmax(1e-300, fabs(gamma[n]) + gt + 1e-12));
  }
  return worst / fmax(scale, 1e-300);
}

// one particle (x, z), J = I, A = mI: the dual is separable and solvable by hand
static void test_particle_by_hand(void **state) {
  (void)state;
  theta_contact_problem *p = theta_contact_problem_create(2, 2, 4);
  theta_newton *nw = theta_newton_create(2, 2);
  assert_non_null(p), assert_non_null(nw);
  const double m = 2, mu = 0.4, jac[4] = {1, 0, 0, 1}, R[2] = {1e-3, 0.05}, vhat[2] = {0, 0.02};
  for (int i = 0; i < 4; i++) p->A[i] = p->M[i] = (i == 0 || i == 3) ? m : 0;
  assert_int_equal(theta_contact_problem_add(p, THETA_CONTACT_CONE, mu, 2, jac, vhat, R), 0);
  const theta_contact_settings s = theta_contact_settings_default();
  const double at = 1 / m + R[0], an = 1 / m + R[1];  // diagonal of W + R
  const struct {
    const char *name;
    double vt, vn;
  } cases[] = {{"stiction", 0.01, -0.5}, {"sliding", 1.0, -0.5}, {"separated", 0.3, 0.4}};
  for (int k = 0; k < 3; k++) {
    p->vstar[0] = cases[k].vt, p->vstar[1] = cases[k].vn;
    const double bt = cases[k].vt - vhat[0], bn = cases[k].vn - vhat[1];
    double want_t = -bt / at, want_n = -bn / an;  // stiction: (W + R)γ = −b
    if (fabs(want_t) > mu * want_n) {  // sliding: γ_t = −sgn(b_t)μγ_n on the surface
      want_n = fmax(0, (mu * fabs(bt) - bn) / (at * mu * mu + an));
      want_t = -copysign(mu * want_n, bt);
    }
    double v[2] = {p->vstar[0], p->vstar[1]}, g[2];
    theta_contact_info info;
    assert_int_equal(theta_newton_solve(nw, p, &s, v, g, &info), 0);
    printf("%-9s: γ = (%.12g, %.12g), want (%.12g, %.12g), %d iterations\n", cases[k].name, g[0],
           g[1], want_t, want_n, info.iterations);
    assert_close("γ_t", g[0], want_t, 1e-10 * (1 + fabs(want_t)));
    assert_close("γ_n", g[1], want_n, 1e-10 * (1 + fabs(want_n)));
    // momentum balance A(v − v*) = Jᵀγ
    assert_close("momentum x", m * (v[0] - p->vstar[0]), g[0], 1e-10);
    assert_close("momentum z", m * (v[1] - p->vstar[1]), g[1], 1e-10);
    assert_int_equal(info.stiction + info.sliding + info.separated, 1);
    assert_int_equal(k == 0 ? info.stiction : k == 1 ? info.sliding : info.separated, 1);
  }
  theta_newton_free(nw);
  theta_contact_problem_free(p);
}

// random coupled problems (2-D and 3-D cones, a normal-only cone, a free row) on nv = 5
static void test_random_problems_dual_optimality(void **state) {
  (void)state;
  const int nv = 5;
  theta_contact_problem *p = theta_contact_problem_create(nv, 8, 40);
  theta_newton *nw = theta_newton_create(nv, 8);
  const theta_contact_settings s = theta_contact_settings_default();
  unsigned seed = 4242;
  int regions[3] = {0, 0, 0}, max_it = 0;
  double worst = 0;
  for (int trial = 0; trial < 300; trial++) {
    theta_contact_problem_clear(p);
    double B[25];
    for (int i = 0; i < 25; i++) B[i] = urand(&seed, -1, 1);
    for (int i = 0; i < nv; i++)
      for (int j = 0; j < nv; j++) {
        double a = i == j ? 0.5 : 0;
        for (int k = 0; k < nv; k++) a += B[k * nv + i] * B[k * nv + j];
        p->A[i * nv + j] = a, p->M[i * nv + j] = i == j ? a : 0;
      }
    for (int j = 0; j < nv; j++) p->vstar[j] = urand(&seed, -1, 1);
    const int dims[4] = {2, 3, 1, 1};
    for (int c = 0; c < 4; c++) {
      const int dim = dims[c];
      double jac[15], vhat[3] = {0, 0, urand(&seed, -0.3, 0.3)}, R[3];
      for (int i = 0; i < dim * nv; i++) jac[i] = urand(&seed, -1, 1);
      const double rt = pow(10, urand(&seed, -4, -1)), rn = pow(10, urand(&seed, -3, 0));
      for (int i = 0; i < dim; i++) R[i] = i == dim - 1 ? rn : rt;
      vhat[dim - 1] = vhat[2];
      const theta_contact_kind kind = c == 3 ? THETA_CONTACT_FREE : THETA_CONTACT_CONE;
      assert_true(theta_contact_problem_add(p, kind, urand(&seed, 0, 1.2), dim, jac, vhat, R) == c);
    }
    double v[5], g[8];
    memcpy(v, p->vstar, sizeof v);
    theta_contact_info info;
    const int rc = theta_newton_solve(nw, p, &s, v, g, &info);
    if (rc != 0)
      fail_msg("trial %d: solver returned %d after %d iterations (residual %g, tol %g)", trial, rc,
               info.iterations, info.residual, info.tolerance);
    const double viol = dual_violation(p, g);
    worst = fmax(worst, viol);
    if (viol > 1e-8) fail_msg("trial %d: dual optimality violated by %g (relative)", trial, viol);
    regions[0] += info.stiction, regions[1] += info.sliding, regions[2] += info.separated;
    max_it = info.iterations > max_it ? info.iterations : max_it;
  }
  printf(
      "300 random problems: worst dual violation %.3g, most iterations %d, regions "
      "stiction %d sliding %d separated %d\n",
      worst, max_it, regions[0], regions[1], regions[2]);
  assert_true(regions[0] > 20 && regions[1] > 20 && regions[2] > 20);
  theta_newton_free(nw);
  theta_contact_problem_free(p);
}

// v̂ and R from the spring–cylinder's rows at rest (SPEC §2.3 formulas evaluated by hand)
static void test_build_from_rows(void **state) {
  (void)state;
  spring_cylinder sc;
  spring_cylinder_params prm = spring_cylinder_params_default();
  spring_cylinder_init(&sc, &prm);
  double q[3], v[3];
  spring_cylinder_initial_state(&sc, q, v);
  mdl_rows *rows = mdl_rows_create(2, 3);
  assert_int_equal(sc.model.rows(0, q, v, rows, sc.model.ctx), 0);
  theta_contact_problem *p = theta_contact_problem_create(3, 2, 3);
  const double m = prm.m, I = 0.5 * m * prm.radius * prm.radius, h = 0.02;
  double L[9] = {sqrt(m), 0, 0, 0, sqrt(m), 0, 0, 0, sqrt(I)}, scratch[12];
  theta_contact_settings s = theta_contact_settings_default();
  sc_error serr = {0};
  const char *msg = serr.message;
  assert_int_equal(theta_contact_problem_build(p, rows, h, &s, L, scratch, &serr), 0);
  assert_int_equal(p->nc, 1), assert_int_equal(p->nrows, 2);
  // W = diag(1/m + R²/I, 1/m) = diag(3/m, 1/m) for A = M
  const double w = sqrt(9 + 1) / m / 3, phi0 = q[1] - prm.radius;
  assert_close("R_t = σ w", p->R[0], 1e-3 * w, 1e-15);
  assert_close("R_n", p->R[1], fmax(w / (4 * PI * PI), 1 / (h * prm.k * (h + prm.tau_d))), 1e-15);
  assert_close("R_n is the physical compliance 0.125", p->R[1], 0.125, 1e-15);
  assert_close("v̂_n = −φ0/(δt + τ_d)", p->vhat[1], -phi0 / (h + prm.tau_d), 1e-15);
  assert_close("v̂_t", p->vhat[0], 0, 0);
  assert_int_equal(p->source[0], 1), assert_int_equal(p->source[1], 0);
  // a near-rigid contact takes the β bound
  rows->K[0] = 1e12, rows->B[0] = 0;
  theta_contact_problem_build(p, rows, h, &s, L, scratch, &serr);
  assert_close("near-rigid R_n = β²w/(4π²)", p->R[1], w / (4 * PI * PI), 1e-15);
  // error paths: negative stiffness, tangent row without its normal, column out of range
  rows->K[0] = -1;
  assert_int_equal(theta_contact_problem_build(p, rows, h, &s, L, scratch, &serr), -1);
  printf("negative K: %s\n", msg);
  assert_non_null(strstr(msg, "K = -1"));
  rows->K[0] = 1e4, rows->contact[0] = 5;
  assert_int_equal(theta_contact_problem_build(p, rows, h, &s, L, scratch, &serr), -1);
  printf("orphan tangent: %s\n", msg);
  assert_non_null(strstr(msg, "no normal row"));
  rows->contact[0] = 0, rows->col[0] = 7;
  assert_int_equal(theta_contact_problem_build(p, rows, h, &s, L, scratch, &serr), -1);
  printf("bad column: %s\n", msg);
  assert_non_null(strstr(msg, "col 7"));
  theta_contact_problem_free(p);
  mdl_rows_free(rows);
}

// a Hertz row K(d) = E√(r d) for the energy test (ctx: E√r)
static int hertz_stiffness(const mdl_rows *rows, int i, double phi, double *K, void *ctx) {
  (void)rows, (void)i;
  *K = *(const double *)ctx * sqrt(fmax(0.0, -phi));
  return 0;
}

// ∫ s⁴/(αs + B) ds (polynomial division), for the closed form of the capped Hertz energy
static double capped_antiderivative(double s, double alpha, double B) {
  const double a2 = alpha * alpha, a3 = a2 * alpha, a4 = a3 * alpha, a5 = a4 * alpha;
  return pow(s, 4) / (4 * alpha) - B * pow(s, 3) / (3 * a2) + B * B * s * s / (2 * a3) -
         B * B * B * s / a4 + pow(B, 4) / a5 * log(alpha * s + B);
}

// the energy of the law the step applies, against closed forms: a sphere (planar: x, y, θ) on
// the ground with overlap d, A = M, w = ‖diag(1/m + r²/I, 1/m)‖_F/3, C = 4π²/(β²wδt). Hertz
// K = a√d: ΔU = −∫_{d*}^{d} (K − CK/(Kδt + B)) u du = −(2/5)a[u^{5/2}] + 2Ca[∫ s⁴/(αs + B) ds]
// with s = √u, α = aδt, √d* = (C − B)/α; a held K: −K(1 − C/(Kδt + B))d²/2; a soft β: 0
static void test_energy_shift_closed_forms(void **state) {
  (void)state;
  const double m = 1, r = 0.1, I = 0.4 * m * r * r, E = 1e11, B = 1, h = 0.01, d = 5e-4;
  double a = E * sqrt(r);
  mdl_model model = {.nv = 3, .row_stiffness = hertz_stiffness, .ctx = &a};
  mdl_rows *rows = mdl_rows_create(2, 3);
  const int ct[] = {0, 2}, cn[] = {1};
  const double vt[] = {1, r}, vn[] = {1};
  const int it = mdl_rows_add(rows, MDL_ROW_TANGENT, 0, 0, 0, 1e4, 2, ct, vt);
  const int in = mdl_rows_add(rows, MDL_ROW_NORMAL, -d, 0, a * sqrt(d), B, 1, cn, vn);
  mdl_rows_set_contact(rows, it, 0, 0.5), mdl_rows_set_contact(rows, in, 0, 0.5);
  const double L[9] = {sqrt(m), 0, 0, 0, sqrt(m), 0, 0, 0, sqrt(I)};
  double scratch[12], shift = 0;
  theta_contact_settings s = theta_contact_settings_default();
  const double w = sqrt(pow(1 / m + r * r / I, 2) + 1 / (m * m)) / 3;
  const double C = 4 * PI * PI / (w * h), alpha = a * h, sd = sqrt(d), ss = (C - B) / alpha;
  const double hertz = 0.4 * a * (pow(d, 2.5) - pow(ss, 5));
  const double capped =
      2 * C * a * (capped_antiderivative(sd, alpha, B) - capped_antiderivative(ss, alpha, B));
  assert_int_equal(theta_contact_energy_shift(&model, rows, h, &s, L, scratch, &shift), 0);
  printf("Hertz sphere, overlap %g m: energy shift %.15e J, closed form %.15e J\n", d, shift,
         capped - hertz);
  assert_true(shift < -1);  // the bound is active: the test tests the quadrature
  assert_close("Hertz: ΔU", shift, capped - hertz, 1e-12 * fabs(hertz));
  // the stiffness held (no row_stiffness): a linear spring
  model.row_stiffness = NULL;
  const double K = rows->K[in];
  assert_int_equal(theta_contact_energy_shift(&model, rows, h, &s, L, scratch, &shift), 0);
  assert_close("held K: ΔU", shift, -K * (1 - C / (K * h + B)) * d * d / 2, 1e-13 * K * d * d);
  // β small enough that R_n is the physical compliance: the step's law is the model's
  s.beta = 1e-4;
  model.row_stiffness = hertz_stiffness;
  assert_int_equal(theta_contact_energy_shift(&model, rows, h, &s, L, scratch, &shift), 0);
  assert_close("β = 1e-4: ΔU", shift, 0, 0);
  // an open contact holds no energy
  rows->phi[in] = 1e-3, s.beta = 1;
  assert_int_equal(theta_contact_energy_shift(&model, rows, h, &s, L, scratch, &shift), 0);
  assert_close("open: ΔU", shift, 0, 0);
  mdl_rows_free(rows);
}

// free flight above the ground: the midpoint rule is exact for constant gravity, θ = 0 gives
// v1 = v0 + δt M⁻¹f(q0, v0), and no impulse acts
static void test_free_flight(void **state) {
  (void)state;
  spring_cylinder sc;
  spring_cylinder_params prm = spring_cylinder_params_default();
  prm.ks = 0;
  spring_cylinder_init(&sc, &prm);
  for (int s = 0; s < THETA_SCHEME_COUNT; s++) {
    theta_settings set = theta_settings_default();
    theta_settings_set_scheme(&set, (theta_scheme)s);
    theta_workspace *ws = theta_workspace_create(&sc.model, &set, NULL);
    assert_non_null(ws);
    double q[3] = {0, 1, 0}, v[3] = {0.5, 0, 2}, h = 0.01;
    for (int i = 0; i < 20; i++) {
      assert_int_equal(theta_step(ws, i * h, h, q, v, q, v), THETA_OK);
      assert_close("no impulse in flight",
                   fabs(theta_step_gamma(ws)[0]) + fabs(theta_step_gamma(ws)[1]), 0, 0);
    }
    const double t = 20 * h, g = prm.g;
    assert_close("v_z = −g t", v[1], -g * t, 1e-12);
    assert_close("ẋ constant", v[0], 0.5, 1e-14);
    assert_close("θ̇ constant", v[2], 2, 1e-14);
    // z: exact for the midpoint rule; the Euler variants err by ±½ g δt t
    const double z_exact = 1 - 0.5 * g * t * t, tvq = set.theta_vq;
    const double z_scheme = 1 - g * h * h * (20.0 * 19.0 / 2 + 20 * tvq);
    assert_close(theta_scheme_name((theta_scheme)s), q[1], z_scheme, 1e-12);
    if (s == THETA_MIDPOINT) assert_close("midpoint z exact", q[1], z_exact, 1e-12);
    theta_workspace_free(ws);
  }
}

static int failing_forces(double t, const double *q, const double *v, double *f, void *ctx) {
  (void)t, (void)q, (void)v, (void)f, (void)ctx;
  return 3;
}

// settings out of range, a failing callback, and a bit-identical repeat run
static void test_errors_and_determinism(void **state) {
  (void)state;
  spring_cylinder sc;
  spring_cylinder_params prm = spring_cylinder_params_default();
  spring_cylinder_init(&sc, &prm);
  sc_error serr = {0};
  const char *msg = serr.message;
  theta_settings s = theta_settings_default();
  s.theta = 1.5;
  assert_null(theta_workspace_create(&sc.model, &s, &serr));
  printf("theta = 1.5: %s\n", msg);
  assert_non_null(strstr(msg, "theta = 1.5"));
  s = theta_settings_default();
  s.contact.sigma = 0;
  assert_null(theta_workspace_create(&sc.model, &s, &serr));
  printf("sigma = 0: %s\n", msg);
  assert_non_null(strstr(msg, "sigma"));
  // a recoverable callback failure is a status naming the callback
  mdl_model bad = sc.model;
  bad.forces = failing_forces;
  theta_workspace *ws = theta_workspace_create(&bad, NULL, &serr);
  double q[3], v[3];
  spring_cylinder_initial_state(&sc, q, v);
  assert_int_equal(theta_step(ws, 0, 0.01, q, v, q, v), THETA_CALLBACK_RECOVERABLE);
  assert_string_equal(theta_step_info(ws)->callback, "forces");
  assert_int_equal(theta_step_info(ws)->callback_code, 3);
  assert_string_equal(theta_status_name(theta_step_info(ws)->status), "callback-recoverable");
  theta_workspace_free(ws);
  // determinism: two runs give the same bits
  double qa[3], va[3], qb[3], vb[3];
  for (int run = 0; run < 2; run++) {
    ws = theta_workspace_create(&sc.model, NULL, NULL);
    double *qq = run ? qb : qa, *vv = run ? vb : va;
    spring_cylinder_initial_state(&sc, qq, vv);
    for (int i = 0; i < 200; i++) theta_step(ws, i * 0.02, 0.02, qq, vv, qq, vv);
    theta_workspace_free(ws);
  }
  assert_memory_equal(qa, qb, sizeof qa);
  assert_memory_equal(va, vb, sizeof va);
  theta_scheme sch;
  assert_int_equal(theta_scheme_parse("symplectic", &sch), 0);
  assert_int_equal(sch, THETA_SYMPLECTIC);
  assert_int_equal(theta_scheme_parse("rk4", &sch), -1);
}

// a near-rigid stiction (σ = 1e-9) stays solvable: the stopping rule's rounding floor 10u/σ
static void test_tiny_sigma(void **state) {
  (void)state;
  spring_cylinder sc;
  spring_cylinder_params prm = spring_cylinder_params_default();
  spring_cylinder_init(&sc, &prm);
  for (double sigma = 1e-5; sigma > 1e-10; sigma /= 100) {
    theta_settings s = theta_settings_default();
    s.contact.sigma = sigma;
    theta_workspace *ws = theta_workspace_create(&sc.model, &s, NULL);
    double q[3], v[3], slip = 0;
    spring_cylinder_initial_state(&sc, q, v);
    for (int i = 0; i < 250; i++) {
      theta_status st = theta_step(ws, i * 0.02, 0.02, q, v, q, v);
      if (st != THETA_OK) fail_msg("sigma = %g step %d: %s", sigma, i, theta_status_name(st));
      slip = fmax(slip, fabs(spring_cylinder_slip(&sc, v)));
    }
    printf("sigma = %g: 250 steps ok, max slip %.3g m/s\n", sigma, slip);
    if (!(slip <= 2 * sigma * prm.g * 0.02))
      fail_msg("sigma = %g: slip %g above 2 sigma g dt", sigma, slip);
    theta_workspace_free(ws);
  }
}

// ---- a one-dof model with q̇ = N v, N = 2, and an optional cubic spring --------------------------
typedef struct dof1 {
  double m, k, c;  // mass, linear and cubic stiffness: f = −k q − c q³
  int hooks;       // position_update calls
  int jacobians;   // 1: provide force_jacobians
} dof1;

static int dof1_mass(double t, const double *q, double *M, void *ctx) {
  (void)t, (void)q;
  M[0] = ((dof1 *)ctx)->m;
  return 0;
}
static int dof1_vmap(double t, const double *q, const double *v, double *qdot, void *ctx) {
  (void)t, (void)q, (void)ctx;
  qdot[0] = 2 * v[0];
  return 0;
}
static int dof1_forces(double t, const double *q, const double *v, double *f, void *ctx) {
  (void)t, (void)v;
  const dof1 *d = ctx;
  f[0] = -d->k * q[0] - d->c * q[0] * q[0] * q[0];
  return 0;
}
// K = −∂f/∂q · N = (k + 3cq²)·2, D = 0
static int dof1_jac(double t, const double *q, const double *v, double *K, double *D, void *ctx) {
  (void)t, (void)v;
  const dof1 *d = ctx;
  K[0] = 2 * (d->k + 3 * d->c * q[0] * q[0]), D[0] = 0;
  return 0;
}
static int dof1_hook(double *q, void *ctx) {
  (void)q;
  ((dof1 *)ctx)->hooks++;
  return 0;
}
static mdl_model dof1_model(dof1 *d) {
  return (mdl_model){.nq = 1,
                     .nv = 1,
                     .mass = dof1_mass,
                     .velocity_map = dof1_vmap,
                     .forces = dof1_forces,
                     .position_update = dof1_hook,
                     .force_jacobians = d->jacobians ? dof1_jac : NULL,
                     .ctx = d};
}

// N = 2: q̈ = 2v̇ = −(2k/m) q, exact q0 cos(√(2k/m) t); the midpoint is second order through N
static void test_velocity_map(void **state) {
  (void)state;
  dof1 d = {.m = 1, .k = 50, .c = 0, .jacobians = 1};
  mdl_model model = dof1_model(&d);
  const double w = sqrt(2 * d.k / d.m), T = 2;
  double err[3], dts[3];
  for (int l = 0; l < 3; l++) {
    dts[l] = 0.01 / (1 << l);
    theta_workspace *ws = theta_workspace_create(&model, NULL, NULL);
    double q = 0.3, v = 0, e = 0;
    const int n = (int)lround(T / dts[l]);
    for (int i = 0; i < n; i++) {
      assert_int_equal(theta_step(ws, i * dts[l], dts[l], &q, &v, &q, &v), THETA_OK);
      e = fmax(e, fabs(q - 0.3 * cos(w * (i + 1) * dts[l])));
    }
    err[l] = e;
    theta_workspace_free(ws);
  }
  const double o1 = log(err[0] / err[1]) / log(2), o2 = log(err[1] / err[2]) / log(2);
  printf("N = 2 midpoint: max error %.3e, %.3e, %.3e; orders %.3f, %.3f; position hook %d calls\n",
         err[0], err[1], err[2], o1, o2, d.hooks);
  if (!(fabs(o2 - 2) < 0.1)) fail_msg("N = 2 midpoint order %.3f, expected 2", o2);
  assert_int_equal(d.hooks, 200 + 400 + 800);
}

// a cubic spring: stage 1 needs several Newton iterations (with K) or a fixed point (without K)
static void test_nonlinear_free_motion(void **state) {
  (void)state;
  for (int jac = 1; jac >= 0; jac--) {
    dof1 d = {.m = 1, .k = 10, .c = 1e3, .jacobians = jac};
    mdl_model model = dof1_model(&d);
    theta_workspace *ws = theta_workspace_create(&model, NULL, NULL);
    double q = 0.5, v = 0, e0 = 0.5 * d.k * q * q + 0.25 * d.c * q * q * q * q, emax = e0,
           emin = e0;
    int most = 0;
    for (int i = 0; i < 2000; i++) {
      theta_status st = theta_step(ws, i * 1e-3, 1e-3, &q, &v, &q, &v);
      if (st != THETA_OK) fail_msg("jacobians %d, step %d: %s", jac, i, theta_status_name(st));
      most =
          theta_step_info(ws)->free_iterations > most ? theta_step_info(ws)->free_iterations : most;
      // invariant of m v̇ = −U'(q), q̇ = 2v: m v² + U(q)
      const double e = d.m * v * v + 0.5 * d.k * q * q + 0.25 * d.c * q * q * q * q;
      emax = fmax(emax, e), emin = fmin(emin, e);
    }
    printf("cubic spring, jacobians %d: most stage-1 iterations %d, energy in [%.6f, %.6f] E0\n",
           jac, most, emin / e0, emax / e0);
    assert_true(most >= 2);
    if (!(emax / e0 - 1 < 1e-3 && 1 - emin / e0 < 1e-3))
      fail_msg("cubic spring midpoint: energy left E0(1 ± 1e-3): [%g, %g]", emin / e0, emax / e0);
    theta_workspace_free(ws);
  }
}

// statuses: names and numbers unchanged (the common ones come from the model layer), signed outcome
static void test_status_severity(void **state) {
  (void)state;
  const char *names[THETA_STATUS_COUNT] = {"ok",
                                           "callback-recoverable",
                                           "callback-fatal",
                                           "capacity",
                                           "singular",
                                           "free-max-iterations",
                                           "contact-max-iterations",
                                           "contact-failed",
                                           "nonfinite",
                                           "bad-row"};
  for (int s = 0; s < THETA_STATUS_COUNT; s++)
    assert_string_equal(theta_status_name((theta_status)s), names[s]);
  assert_int_equal(theta_status_severity(THETA_OK), 0);
  assert_true(theta_status_severity(THETA_CONTACT_MAX_ITERATIONS) > 0);
  assert_true(theta_status_severity(THETA_FREE_MAX_ITERATIONS) < 0);
  assert_true(theta_status_severity(THETA_SINGULAR) < 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_status_severity),
      cmocka_unit_test(test_particle_by_hand),
      cmocka_unit_test(test_random_problems_dual_optimality),
      cmocka_unit_test(test_build_from_rows),
      cmocka_unit_test(test_energy_shift_closed_forms),
      cmocka_unit_test(test_free_flight),
      cmocka_unit_test(test_errors_and_determinism),
      cmocka_unit_test(test_tiny_sigma),
      cmocka_unit_test(test_velocity_map),
      cmocka_unit_test(test_nonlinear_free_motion),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
