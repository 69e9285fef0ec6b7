// SPDX-License-Identifier: MIT
// Hand-made problems with known solutions: one friction cone (stick, slide, separate), linear
// rows (active, inactive, equality, redundant), μ = 0 and tiny μ, a zero pivot, infeasibility,
// and the input-error paths of the API.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "qcp/qcp.h"
#include "qcp_gen.h"

// asserts |got − want| ≤ tol·max(1, |want|) and names the quantity
static void check_close(const char *what, double got, double want, double tol) {
  double err = fabs(got - want) / fmax(1.0, fabs(want));
  if (!(err <= tol)) {
    print_error("%s: got %.12g, want %.12g (rel err %.2e > %.1e)\n", what, got, want, err, tol);
    fail();
  }
}

// solves g cold, checks status and the independent checker, copies x (n) and z (m) out
static qcp_status solve_cold(qcp_gen *g, double *x, double *z, double check_tol) {
  qcp_workspace *ws = NULL;
  qcp_error err;
  int rc = qcp_setup(&ws, &g->prob, NULL, &err);
  if (rc) print_error("setup failed: %s\n", err.message);
  assert_int_equal(rc, QCP_OK);
  assert_int_equal(qcp_solve(ws, QCP_START_COLD, NULL, NULL, NULL, NULL, &err), QCP_OK);
  const qcp_info *info = qcp_info_get(ws);
  qcp_status st = info->status;
  if (st == QCP_SOLVED && check_tol > 0) {
    qcp_check_result cr;
    qcp_check(&g->prob, qcp_solution_x(ws), qcp_solution_s(ws), qcp_solution_y(ws),
              qcp_solution_z(ws), &cr);
    if (!qcp_check_passes(&cr, check_tol)) {
      print_error("checker: pres %.2e dres %.2e gap %.2e s %.2e z %.2e\n", cr.pres_rel, cr.dres_rel,
                  cr.gap_rel, cr.s_cone, cr.z_cone);
      fail();
    }
  }
  if (x) memcpy(x, qcp_solution_x(ws), (size_t)g->prob.n * sizeof *x);
  if (z) memcpy(z, qcp_solution_z(ws), (size_t)g->prob.G.nrows * sizeof *z);
  qcp_workspace_free(ws);
  return st;
}

// one contact, min ½‖λ − ĉ‖² over the friction cone ‖λ_t‖ ≤ μλ_n (projection onto the cone)
static void friction_case(double mu, const double chat[3], const double want[3], double tol) {
  double P[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  double G[9] = {-mu, 0, 0, 0, -1, 0, 0, 0, -1};
  double c[3] = {-chat[0], -chat[1], -chat[2]}, h[3] = {0, 0, 0};
  int q = 3;
  qcp_gen g;
  assert_int_equal(qcp_gen_dense(&g, 3, 0, 0, 1, &q, P, NULL, G, c, NULL, h), 0);
  double x[3];
  assert_int_equal(solve_cold(&g, x, NULL, 1e-8), QCP_SOLVED);
  check_close("lambda_n", x[0], want[0], tol);
  check_close("lambda_r", x[1], want[1], tol);
  check_close("lambda_s", x[2], want[2], tol);
  qcp_gen_free(&g);
}

static void test_cone_stick(void **state) {
  (void)state;
  double chat[3] = {1.0, 0.1, 0.2}, want[3] = {1.0, 0.1, 0.2};  // inside the cone
  friction_case(0.5, chat, want, 1e-7);
}

static void test_cone_slide(void **state) {
  (void)state;
  // boundary: a = (ĉ_n + μ‖ĉ_t‖)/(1 + μ²) = 1.6, λ = (a, μ a ĉ_t/‖ĉ_t‖)
  double chat[3] = {1.0, 2.0, 0.0}, want[3] = {1.6, 0.8, 0.0};
  friction_case(0.5, chat, want, 1e-7);
  double chat2[3] = {1.0, 1.2, -1.6}, a = (1.0 + 0.5 * 2.0) / 1.25;
  double want2[3] = {a, 0.5 * a * 0.6, -0.5 * a * 0.8};
  friction_case(0.5, chat2, want2, 1e-7);
}

static void test_cone_separate(void **state) {
  (void)state;
  double chat[3] = {-1.0, 0.1, 0.0}, want[3] = {0, 0, 0};  // in the polar cone
  friction_case(0.5, chat, want, 1e-7);
}

static void test_cone_tiny_mu(void **state) {
  (void)state;
  // μ = 1e-6: λ_t ≈ μ λ_n, λ_n ≈ ĉ_n (a = (1 + 1e-6·1)/(1 + 1e-12))
  double mu = 1e-6, chat[3] = {1.0, 1.0, 0.0}, a = (1.0 + mu) / (1.0 + mu * mu);
  double want[3] = {a, mu * a, 0.0};
  friction_case(mu, chat, want, 1e-7);
}

static void test_cone_mu_zero(void **state) {
  (void)state;
  // μ = 0 is written as an orthant row for λ_n and the equality λ_t = 0 (the degenerate
  // Q³ with diag(0,1,1) has no interior, see README)
  double P[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, A[6] = {0, 1, 0, 0, 0, 1};
  double G[3] = {-1, 0, 0}, c[3] = {-2.0, -1.0, 3.0}, b[2] = {0, 0}, h[1] = {0};
  qcp_gen g;
  assert_int_equal(qcp_gen_dense(&g, 3, 2, 1, 0, NULL, P, A, G, c, b, h), 0);
  double x[3];
  assert_int_equal(solve_cold(&g, x, NULL, 1e-8), QCP_SOLVED);
  check_close("lambda_n", x[0], 2.0, 1e-8);
  check_close("lambda_r", x[1], 0.0, 1e-8);
  check_close("lambda_s", x[2], 0.0, 1e-8);
  qcp_gen_free(&g);
}

static void test_linear_rows(void **state) {
  (void)state;
  // min ½‖x − a‖² s.t. x ≤ u: x = min(a, u), z = max(a − u, 0)
  double P[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, G[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  double a[3] = {1, -2, 3}, u[3] = {0, 0, 5}, c[3] = {-1, 2, -3};
  qcp_gen g;
  assert_int_equal(qcp_gen_dense(&g, 3, 0, 3, 0, NULL, P, NULL, G, c, NULL, u), 0);
  double x[3], z[3];
  assert_int_equal(solve_cold(&g, x, z, 1e-8), QCP_SOLVED);
  for (int i = 0; i < 3; i++) {
    check_close("x", x[i], fmin(a[i], u[i]), 1e-7);  // residual tolerance 1e-8·scale (5)
    check_close("z", z[i], fmax(a[i] - u[i], 0.0), 1e-7);
  }
  qcp_gen_free(&g);
}

static void test_equality_rows(void **state) {
  (void)state;
  // min ½‖x‖² s.t. x0 + x1 + x2 = 3, x0 ≥ 1.5  →  (1.5, 0.75, 0.75)
  double P[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, A[3] = {1, 1, 1}, b[1] = {3};
  double G[3] = {-1, 0, 0}, h[1] = {-1.5}, c[3] = {0, 0, 0};
  qcp_gen g;
  assert_int_equal(qcp_gen_dense(&g, 3, 1, 1, 0, NULL, P, A, G, c, b, h), 0);
  double x[3];
  assert_int_equal(solve_cold(&g, x, NULL, 1e-8), QCP_SOLVED);
  check_close("x0", x[0], 1.5, 1e-8);
  check_close("x1", x[1], 0.75, 1e-8);
  check_close("x2", x[2], 0.75, 1e-8);
  qcp_gen_free(&g);
}

static void test_redundant_rows(void **state) {
  (void)state;
  // equalities: row 2 = row 0 + row 1 (consistent, rank 2); inequality x0 ≤ 0.5 twice
  // min ½‖x‖² s.t. x0 + x1 = 2, x1 + x2 = 2, x0 + 2x1 + x2 = 4, x0 ≤ 0.5 (twice)
  // unconstrained by the bound: x = (2/3, 4/3, 2/3) violates x0 ≤ 0.5, so x0 = 0.5, x1 = 1.5, x2 =
  // 0.5
  double P[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  double A[9] = {1, 1, 0, 0, 1, 1, 1, 2, 1}, b[3] = {2, 2, 4};
  double G[6] = {1, 0, 0, 1, 0, 0}, h[2] = {0.5, 0.5}, c[3] = {0, 0, 0};
  qcp_gen g;
  assert_int_equal(qcp_gen_dense(&g, 3, 3, 2, 0, NULL, P, A, G, c, b, h), 0);
  double x[3];
  assert_int_equal(solve_cold(&g, x, NULL, 1e-8), QCP_SOLVED);
  check_close("x0", x[0], 0.5, 1e-7);
  check_close("x1", x[1], 1.5, 1e-7);
  check_close("x2", x[2], 0.5, 1e-7);
  qcp_gen_free(&g);
}

static void test_zero_pivot(void **state) {
  (void)state;
  // an LP (P = 0) with a variable x2 that appears nowhere: its KKT column is zero
  // min x0 + x1 s.t. x0 ≥ 0, x1 ≥ 1  →  objective 1
  double G[6] = {-1, 0, 0, 0, -1, 0}, h[2] = {0, -1}, c[3] = {1, 1, 0};
  qcp_gen g;
  assert_int_equal(qcp_gen_dense(&g, 3, 0, 2, 0, NULL, NULL, NULL, G, c, NULL, h), 0);
  double x[3];
  assert_int_equal(solve_cold(&g, x, NULL, 1e-8), QCP_SOLVED);
  check_close("x0", x[0], 0.0, 1e-7);
  check_close("x1", x[1], 1.0, 1e-7);
  check_close("x2 (free, zero pivot)", x[2], 0.0, 1e-7);
  qcp_gen_free(&g);
}

static void test_singular_hessian(void **state) {
  (void)state;
  // two redundant rigid rows pushing on one body: min ½(x0 + x1)² − (x0 + x1), x ≥ 0.
  // P is singular, the solution set is x0 + x1 = 1 (non-unique split), objective −½
  double P[4] = {1, 1, 0, 1}, G[4] = {-1, 0, 0, -1}, h[2] = {0, 0}, c[2] = {-1, -1};
  qcp_gen g;
  assert_int_equal(qcp_gen_dense(&g, 2, 0, 2, 0, NULL, P, NULL, G, c, NULL, h), 0);
  double x[2];
  assert_int_equal(solve_cold(&g, x, NULL, 1e-8), QCP_SOLVED);
  check_close("x0 + x1", x[0] + x[1], 1.0, 1e-7);
  assert_true(x[0] >= -1e-9 && x[1] >= -1e-9);
  qcp_gen_free(&g);
}

// solves g cold and returns its status with the (normalised) certificate in x, s, y, z
static qcp_status solve_certificate(qcp_gen *g, double *x, double *s, double *y, double *z) {
  qcp_workspace *ws = NULL;
  qcp_error err;
  assert_int_equal(qcp_setup(&ws, &g->prob, NULL, &err), QCP_OK);
  assert_int_equal(qcp_solve(ws, QCP_START_COLD, NULL, NULL, NULL, NULL, &err), QCP_OK);
  qcp_status st = qcp_info_get(ws)->status;
  const int n = g->prob.n, p = g->prob.p, m = g->prob.G.nrows;
  memcpy(x, qcp_solution_x(ws), (size_t)n * sizeof *x);
  if (m) memcpy(s, qcp_solution_s(ws), (size_t)m * sizeof *s);
  if (m) memcpy(z, qcp_solution_z(ws), (size_t)m * sizeof *z);
  if (p) memcpy(y, qcp_solution_y(ws), (size_t)p * sizeof *y);
  qcp_workspace_free(ws);
  return st;
}

static void test_primal_infeasible(void **state) {
  (void)state;
  // x ≥ 1 and x ≤ −1: certificate z ≥ 0 with Gᵀz = 0 and hᵀz = −1
  double P[1] = {1}, G[2] = {-1, 1}, h[2] = {-1, -1}, c[1] = {0};
  qcp_gen g;
  assert_int_equal(qcp_gen_dense(&g, 1, 0, 2, 0, NULL, P, NULL, G, c, NULL, h), 0);
  double x[1], s[2], y[1], z[2];
  assert_int_equal(solve_certificate(&g, x, s, y, z), QCP_PRIMAL_INFEASIBLE);
  printf("primal certificate z = (%g, %g)\n", z[0], z[1]);
  check_close("Gᵀz", G[0] * z[0] + G[1] * z[1], 0, 1e-7);
  check_close("hᵀz", h[0] * z[0] + h[1] * z[1], -1, 1e-9);
  assert_true(z[0] >= 0 && z[1] >= 0);
  qcp_gen_free(&g);
  // no cone rows at all: x = 1 and x = 2 (certificate y with Aᵀy = 0, bᵀy = −1)
  double A[2] = {1, 1}, b[2] = {1, 2}, c1[1] = {0};
  assert_int_equal(qcp_gen_dense(&g, 1, 2, 0, 0, NULL, NULL, A, NULL, c1, b, NULL), 0);
  double y2[2];
  assert_int_equal(solve_certificate(&g, x, s, y2, z), QCP_PRIMAL_INFEASIBLE);
  printf("equality certificate y = (%g, %g)\n", y2[0], y2[1]);
  check_close("Aᵀy", y2[0] + y2[1], 0, 1e-7);
  check_close("bᵀy", b[0] * y2[0] + b[1] * y2[1], -1, 1e-9);
  qcp_gen_free(&g);
}

static void test_dual_infeasible(void **state) {
  (void)state;
  // min −x0 s.t. x0 ≥ 0, x1 ≥ 0 (unbounded): certificate x with Gx + s = 0, s ≥ 0, cᵀx = −1
  double G[4] = {-1, 0, 0, -1}, h[2] = {0, 0}, c[2] = {-1, 0};
  qcp_gen g;
  assert_int_equal(qcp_gen_dense(&g, 2, 0, 2, 0, NULL, NULL, NULL, G, c, NULL, h), 0);
  double x[2], s[2], y[1], z[2];
  assert_int_equal(solve_certificate(&g, x, s, y, z), QCP_DUAL_INFEASIBLE);
  printf("dual certificate x = (%g, %g), s = (%g, %g)\n", x[0], x[1], s[0], s[1]);
  check_close("cᵀx", c[0] * x[0] + c[1] * x[1], -1, 1e-9);
  check_close("(Gx + s)_0", G[0] * x[0] + G[1] * x[1] + s[0], 0, 1e-12);
  check_close("(Gx + s)_1", G[2] * x[0] + G[3] * x[1] + s[1], 0, 1e-12);
  assert_true(s[0] >= -1e-12 && s[1] >= -1e-12);
  qcp_gen_free(&g);
}

// a strictly convex problem with a far optimum is not unbounded: min ½·εx² − x over x ≥ 0 has
// x* = 1/ε. Certifying dual infeasibility from ‖Px‖ ≤ eps·|cᵀx| alone would call it unbounded.
static void test_small_curvature_not_unbounded(void **state) {
  (void)state;
  const double eps[] = {1e-6, 1e-8, 1e-10};
  for (int k = 0; k < 3; k++) {
    double P[1] = {eps[k]}, G[1] = {-1}, h[1] = {0}, c[1] = {-1};
    qcp_gen g;
    assert_int_equal(qcp_gen_dense(&g, 1, 0, 1, 0, NULL, P, NULL, G, c, NULL, h), 0);
    double x[1], s[1], y[1], z[1];
    qcp_status st = solve_certificate(&g, x, s, y, z);
    printf("P = %g: status %s, x = %.6g (optimum %.6g)\n", eps[k], qcp_status_string(st), x[0],
           1 / eps[k]);
    assert_int_not_equal(st, QCP_DUAL_INFEASIBLE);
    if (st == QCP_SOLVED) check_close("x", x[0], 1 / eps[k], 1e-6);
    qcp_gen_free(&g);
  }
}

// the independent checker fails a point with a NaN anywhere (fmax and comparisons drop NaN)
static void test_checker_nan(void **state) {
  (void)state;
  double P[1] = {1}, G[1] = {-1}, h[1] = {0}, c[1] = {-1};
  qcp_gen g;
  assert_int_equal(qcp_gen_dense(&g, 1, 0, 1, 0, NULL, P, NULL, G, c, NULL, h), 0);
  double x[1] = {1}, s[1] = {1}, z[1] = {0};
  qcp_check_result cr;
  qcp_check(&g.prob, x, s, NULL, z, &cr);
  assert_true(qcp_check_passes(&cr, 1e-9));  // the optimum x = 1, s = 1, z = 0
  s[0] = NAN;
  qcp_check(&g.prob, x, s, NULL, z, &cr);
  assert_false(qcp_check_passes(&cr, 1e-9));
  qcp_gen_free(&g);
}

static void test_equality_only(void **state) {
  (void)state;
  // no cone at all: one Newton step solves min ½‖x‖² s.t. x0 + x1 = 1
  double P[4] = {1, 0, 0, 1}, A[2] = {1, 1}, b[1] = {1}, c[2] = {0, 0};
  qcp_gen g;
  assert_int_equal(qcp_gen_dense(&g, 2, 1, 0, 0, NULL, P, A, NULL, c, b, NULL), 0);
  double x[2];
  assert_int_equal(solve_cold(&g, x, NULL, 1e-8), QCP_SOLVED);
  check_close("x0", x[0], 0.5, 1e-9);
  check_close("x1", x[1], 0.5, 1e-9);
  qcp_gen_free(&g);
}

// each setting out of range: qcp_setup fails with an input error naming the field and value
static void assert_settings_named(const qcp_problem *prob) {
  qcp_workspace *ws = NULL;
  qcp_error err;
  enum { NSET = 9 };
  qcp_settings flags[NSET];
  for (int k = 0; k < NSET; k++) flags[k] = qcp_settings_default();
  flags[0].step_fraction = 1.5, flags[1].lastbit = 2, flags[2].time_limit_cpu = -1;
  flags[3].start_switch = 2, flags[4].proximal = -1, flags[5].polish_bound = 2;
  flags[6].split_step = 2, flags[7].step_fraction_late = 1.0, flags[8].polish_solved = -1;
  const char *named[NSET] = {
      "step_fraction = 1.5", "lastbit = 2",      "time_limit_cpu = -1", "start_switch = 2",
      "proximal = -1",       "polish_bound = 2", "split_step = 2",      "step_fraction_late = 1",
      "polish_solved = -1"};
  for (int k = 0; k < NSET; k++) {
    assert_int_equal(qcp_setup(&ws, prob, &flags[k], &err), QCP_ERR_SETTINGS);
    assert_non_null(strstr(err.message, named[k]));
    assert_null(ws);
  }
}

static void test_input_errors(void **state) {
  (void)state;
  double P[4] = {1, 0, 0, 1}, G[4] = {1, 0, 0, 1}, h[2] = {1, 1}, c[2] = {0, 0};
  qcp_gen g;
  assert_int_equal(qcp_gen_dense(&g, 2, 0, 2, 0, NULL, P, NULL, G, c, NULL, h), 0);
  qcp_workspace *ws = NULL;
  qcp_error err;
  assert_settings_named(&g.prob);
  // unsorted G rows
  int gp[3] = {0, 2, 3}, gi[3] = {1, 0, 1};
  double gv[3] = {1, 1, 1};
  qcp_problem bad = g.prob;
  bad.G.colptr = gp;
  bad.G.rowind = gi;
  bad.G.values = gv;
  assert_int_equal(qcp_setup(&ws, &bad, NULL, &err), QCP_ERR_INPUT);
  assert_non_null(strstr(err.message, "not strictly increasing"));
  // P not upper triangular
  int pp[3] = {0, 2, 3}, pi[3] = {0, 1, 1};
  bad = g.prob;
  bad.P.colptr = pp;
  bad.P.rowind = pi;
  bad.P.values = gv;
  assert_int_equal(qcp_setup(&ws, &bad, NULL, &err), QCP_ERR_INPUT);
  assert_non_null(strstr(err.message, "upper triangular"));
  // NaN in c
  double cn[2] = {0, NAN};
  bad = g.prob;
  bad.c = cn;
  assert_int_equal(qcp_setup(&ws, &bad, NULL, &err), QCP_ERR_INPUT);
  assert_non_null(strstr(err.message, "c entry 1"));
  // wrong G size
  bad = g.prob;
  bad.l = 3;
  assert_int_equal(qcp_setup(&ws, &bad, NULL, &err), QCP_ERR_INPUT);
  // one cone so large that its dense q(q+1)/2 KKT block overflows int: an input error, not a
  // heap overflow (q = 92682 wraps q(q+1)/2 to 55 607 in int arithmetic)
  {
    enum { QBIG = 92682 };
    static double hbig[QBIG];
    const int qbig[1] = {QBIG}, pcol[2] = {0, 0}, gcol[2] = {0, 1}, grow[1] = {0};
    const double gval[1] = {-1}, c1[1] = {0};
    qcp_problem big = {
        .n = 1,
        .p = 0,
        .l = 0,
        .nsoc = 1,
        .q = qbig,
        .P = {.nrows = 1, .ncols = 1, .colptr = pcol},
        .G = {.nrows = QBIG, .ncols = 1, .colptr = gcol, .rowind = grow, .values = gval},
        .c = c1,
        .h = hbig};
    assert_int_equal(qcp_setup(&ws, &big, NULL, &err), QCP_ERR_INPUT);
    printf("cone q = %d: %s\n", QBIG, err.message);
    assert_non_null(strstr(err.message, "too large"));
    assert_null(ws);
  }
  // a valid setup, then a non-interior feasible start and a NaN update
  assert_int_equal(qcp_setup(&ws, &g.prob, NULL, &err), QCP_OK);
  double x0[2] = {2.0, 0.0};
  assert_int_equal(qcp_solve(ws, QCP_START_FEASIBLE, x0, NULL, NULL, NULL, &err), QCP_ERR_START);
  assert_int_equal(qcp_update(ws, NULL, NULL, NULL, cn, NULL, NULL, &err), QCP_ERR_INPUT);
  assert_string_equal(qcp_status_string(QCP_SOLVED), "solved");
  assert_string_equal(qcp_status_string(QCP_PRIMAL_INFEASIBLE), "primal_infeasible");
  assert_string_equal(qcp_status_string((qcp_status)99), "invalid");
  qcp_workspace_free(ws);
  qcp_gen_free(&g);
}

static void test_warm_from_poor_points(void **state) {
  (void)state;
  // the sliding cone from warm starts that are far off: zeros (pushed into the interior),
  // a point outside the cone, and a huge point — all must still converge
  double P[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, G[9] = {-0.5, 0, 0, 0, -1, 0, 0, 0, -1};
  double c[3] = {-1.0, -2.0, 0.0}, h[3] = {0, 0, 0};
  int q = 3;
  qcp_gen g;
  assert_int_equal(qcp_gen_dense(&g, 3, 0, 0, 1, &q, P, NULL, G, c, NULL, h), 0);
  qcp_workspace *ws = NULL;
  qcp_error err;
  assert_int_equal(qcp_setup(&ws, &g.prob, NULL, &err), QCP_OK);
  double pts[3][3] = {{0, 0, 0}, {-1, 5, 5}, {1e6, -1e6, 1e6}};
  for (int k = 0; k < 3; k++) {
    assert_int_equal(qcp_solve(ws, QCP_START_WARM, pts[k], pts[k], NULL, pts[k], &err), QCP_OK);
    assert_int_equal(qcp_info_get(ws)->status, QCP_SOLVED);
    check_close("warm lambda_n", qcp_solution_x(ws)[0], 1.6, 1e-7);
    check_close("warm lambda_r", qcp_solution_x(ws)[1], 0.8, 1e-7);
  }
  // a warm start with a NaN in its dual part is bad input, not a numerical outcome
  double znan[3] = {1, NAN, 0};
  assert_int_equal(qcp_solve(ws, QCP_START_WARM, pts[0], pts[0], NULL, znan, &err), QCP_ERR_START);
  assert_non_null(strstr(err.message, "z0[1]"));
  // feasible start: λ = (1, 0, 0) is strictly inside the cone
  double xf[3] = {1, 0, 0};
  assert_int_equal(qcp_solve(ws, QCP_START_FEASIBLE, xf, NULL, NULL, NULL, &err), QCP_OK);
  assert_int_equal(qcp_info_get(ws)->status, QCP_SOLVED);
  check_close("feasible lambda_n", qcp_solution_x(ws)[0], 1.6, 1e-7);
  // a lower iteration limit through qcp_settings_set; raising it above setup is refused
  qcp_settings s = qcp_settings_default();
  s.max_iter = 2;
  assert_int_equal(qcp_settings_set(ws, &s, &err), QCP_OK);
  assert_int_equal(qcp_solve(ws, QCP_START_COLD, NULL, NULL, NULL, NULL, &err), QCP_OK);
  qcp_status st = qcp_info_get(ws)->status;
  assert_true(st == QCP_MAX_ITERATIONS || st == QCP_SOLVED_INACCURATE);
  assert_true(qcp_info_get(ws)->iterations == 2);
  s.max_iter = 500;
  assert_int_equal(qcp_settings_set(ws, &s, &err), QCP_ERR_SETTINGS);
  qcp_workspace_free(ws);
  qcp_gen_free(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cone_stick),
      cmocka_unit_test(test_cone_slide),
      cmocka_unit_test(test_cone_separate),
      cmocka_unit_test(test_cone_tiny_mu),
      cmocka_unit_test(test_cone_mu_zero),
      cmocka_unit_test(test_linear_rows),
      cmocka_unit_test(test_equality_rows),
      cmocka_unit_test(test_redundant_rows),
      cmocka_unit_test(test_zero_pivot),
      cmocka_unit_test(test_singular_hessian),
      cmocka_unit_test(test_primal_infeasible),
      cmocka_unit_test(test_dual_infeasible),
      cmocka_unit_test(test_small_curvature_not_unbounded),
      cmocka_unit_test(test_checker_nan),
      cmocka_unit_test(test_equality_only),
      cmocka_unit_test(test_input_errors),
      cmocka_unit_test(test_warm_from_poor_points),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
