// SPDX-License-Identifier: MIT
// Unit tests of the model layer alone (linked without paper A's step, which the link proves): the
// evaluator and the penalty right-hand side against a hand computation on a two-dof model with a
// full 2×2 mass matrix, the bias on and off, dense and matrix-free bias solves, every evaluation
// status path, the common statuses' names and severities, and sc_error.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/sc_error.h"
#include "mdl/mdl_dense.h"
#include "mdl/mdl_eval.h"
#include "mdl/mdl_model.h"
#include "mdl/mdl_penalty.h"
#include "mdl/mdl_status.h"
#include "ref/ref_penalty.h"

// ---- a two-dof model: M = [[2, ½], [½, 1]], f = (1, −2), rows on q0 + q1 and q1
// ------------------
//   bilateral  φ_b = q0 + q1 − 1, G_b = (1, 1), Ġv = 0.3, K = 100, B = 2
//   unilateral φ_u = q1 − 0.2,    G_u = (0, 1), Ġv = 0,   K = 50,  B = 1 (active while φ_u ≤ 0)

typedef struct two_dof {
  int mass_rc, forces_rc, rows_rc;  // forced callback return codes
  double K_u;                       // unilateral stiffness (< 0 provokes bad-row)
  double phi_nan;                   // added to φ_b (NaN provokes nonfinite)
} two_dof;

static int td_mass(double t, const double *q, double *M, void *ctx) {
  (void)t, (void)q;
  const two_dof *d = ctx;
  M[0] = 2, M[1] = 0.5, M[2] = 0.5, M[3] = 1;
  return d->mass_rc;
}
static int td_forces(double t, const double *q, const double *v, double *f, void *ctx) {
  (void)t, (void)q, (void)v;
  const two_dof *d = ctx;
  f[0] = 1, f[1] = -2;
  return d->forces_rc;
}
static int td_rows(double t, const double *q, const double *v, mdl_rows *rows, void *ctx) {
  (void)t, (void)v;
  const two_dof *d = ctx;
  const int cb[2] = {0, 1}, cu[1] = {1};
  const double gb[2] = {1, 1}, gu[1] = {1};
  mdl_rows_clear(rows);
  mdl_rows_add(rows, MDL_ROW_BILATERAL, q[0] + q[1] - 1 + d->phi_nan, 0.3, 100, 2, 2, cb, gb);
  mdl_rows_add(rows, MDL_ROW_UNILATERAL, q[1] - 0.2, 0, d->K_u, 1, 1, cu, gu);
  return d->rows_rc;
}
static mdl_model td_model(two_dof *d) {
  return (mdl_model){.nq = 2,
                     .nv = 2,
                     .max_rows = 2,
                     .max_nnz = 3,
                     .nblocks = 0,
                     .mass = td_mass,
                     .forces = td_forces,
                     .rows = td_rows,
                     .ctx = d};
}

// the hand computation: M⁻¹ = [[1, −½], [−½, 2]] / 1.75
static void minv(const double x[2], double y[2]) {
  y[0] = (x[0] - 0.5 * x[1]) / 1.75;
  y[1] = (-0.5 * x[0] + 2 * x[1]) / 1.75;
}

static void check_rel(const char *what, double got, double want, double tol) {
  printf("%-28s got %.17g want %.17g\n", what, got, want);
  if (!(fabs(got - want) <= tol * (1 + fabs(want))))
    fail_msg("%s: got %.17g, want %.17g (tol %g)", what, got, want, tol);
}

// q̇, v̇ and λ of the penalty RHS equal the hand computation; the bias of the single bilateral row is
// p = Ġv / (W + ε W) with W = G M⁻¹ Gᵀ = 8/7 and ε = bias_reg
static void check_penalty(int use_bias, int dense_max_rows) {
  two_dof d = {.K_u = 50};
  mdl_model m = td_model(&d);
  mdl_eval_settings s = mdl_eval_settings_default();
  s.use_bias = use_bias, s.dense_max_rows = dense_max_rows;
  mdl_eval *ev = mdl_eval_create(&m, &s, NULL);
  assert_non_null(ev);
  // q = (0.4, 0.1): φ_b = −0.5, φ_u = −0.1 (active); v = (0.3, −0.7): G_b v = −0.4, G_u v = −0.7
  const double q[2] = {0.4, 0.1}, v[2] = {0.3, -0.7};
  double qd[2], vd[2];
  assert_int_equal(mdl_penalty_rhs(ev, 0, q, v, qd, vd), MDL_EVAL_OK);
  assert_int_equal(ev->na, 2);
  assert_int_equal(ev->n_bilateral, 1);
  assert_int_equal(ev->n_unilateral, 1);
  assert_int_equal(ev->dense, dense_max_rows >= 2);
  // bias per kind (groups of one row): p = Ġv / (1 + ε) W⁻¹
  const double Wb = 8.0 / 7.0, pb = use_bias ? 0.3 / (Wb * (1 + s.bias_reg)) : 0;
  check_rel("bias p_b", ev->p[0], pb, 1e-10);
  assert_true(ev->p[1] == 0);                              // Ġv = 0: no bias
  const double lb = -100 * (-0.5) - 2 * (0.3 - 0.7) - pb;  // −Kφ − B Gv − p
  const double lu = fmax(0, -50 * (-0.1) - 1 * (-0.7));
  check_rel("lambda_b", ev->lambda[0], lb, 1e-13);
  check_rel("lambda_u", ev->lambda[1], lu, 1e-13);
  double rhs[2] = {1 + lb, -2 + lb + lu}, want[2];
  minv(rhs, want);
  check_rel("vdot[0]", vd[0], want[0], 1e-13);
  check_rel("vdot[1]", vd[1], want[1], 1e-13);
  assert_true(qd[0] == v[0] && qd[1] == v[1]);  // N = I
  // the evaluator's W (dense mode) and mass factor
  if (ev->dense) check_rel("W_bb", ev->W[0], Wb, 1e-14);
  double x[2] = {1, -2}, y[2];
  minv(x, y);
  mdl_eval_mass_solve(ev, x);
  check_rel("M^-1 x", x[0], y[0], 1e-14);
  mdl_eval_free(ev);
}

static void test_penalty_hand(void **state) {
  (void)state;
  check_penalty(1, 64);  // dense bias (Cholesky on W + εI)
  check_penalty(1, -1);  // matrix-free CG bias
  check_penalty(0, 64);  // no bias
}

// the reference integrators' ODE is the same right-hand side (ref links the model layer only)
static void test_ref_penalty(void **state) {
  (void)state;
  two_dof d = {.K_u = 50};
  mdl_model m = td_model(&d);
  ref_penalty pen;
  sc_error err = {0};
  assert_int_equal(ref_penalty_init(&pen, &m, NULL, &err), 0);
  const double y[4] = {0.4, 0.1, 0.3, -0.7};
  double yd[4], qd[2], vd[2];
  assert_int_equal(pen.ode.rhs(0, y, yd, pen.ode.ctx), 0);
  mdl_eval *ev = mdl_eval_create(&m, NULL, NULL);
  assert_int_equal(mdl_penalty_rhs(ev, 0, y, y + 2, qd, vd), MDL_EVAL_OK);
  for (int i = 0; i < 2; i++) assert_true(yd[i] == qd[i] && yd[2 + i] == vd[i]);
  mdl_eval_free(ev);
  ref_penalty_free(&pen);
  // bad settings name the field
  mdl_eval_settings s = mdl_eval_settings_default();
  s.bias_reg = 0;
  assert_int_equal(ref_penalty_init(&pen, &m, &s, &err), SC_ERR_INPUT);
  printf("bias_reg = 0: %s\n", err.message);
  assert_non_null(strstr(err.message, "bias_reg"));
}

// every evaluation status path, with the failing callback named
static void test_eval_status_paths(void **state) {
  (void)state;
  const double q[2] = {0.4, 0.1}, v[2] = {0.3, -0.7};
  double qd[2], vd[2];
  struct {
    two_dof d;
    mdl_eval_status want;
    const char *callback;
  } cases[] = {
      {{.K_u = 50, .mass_rc = 2}, MDL_EVAL_CALLBACK_RECOVERABLE, "mass"},
      {{.K_u = 50, .forces_rc = -1}, MDL_EVAL_CALLBACK_FATAL, "forces"},
      {{.K_u = 50, .rows_rc = 1}, MDL_EVAL_CALLBACK_RECOVERABLE, "rows"},
      {{.K_u = -1}, MDL_EVAL_BAD_ROW, NULL},
      {{.K_u = 50, .phi_nan = NAN}, MDL_EVAL_NONFINITE, NULL},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    mdl_model m = td_model(&cases[c].d);
    mdl_eval *ev = mdl_eval_create(&m, NULL, NULL);
    mdl_eval_status st = mdl_penalty_rhs(ev, 0, q, v, qd, vd);
    printf("case %zu: %s (callback %s)\n", c, mdl_common_status_name((int)st),
           ev->callback ? ev->callback : "-");
    assert_int_equal(st, cases[c].want);
    if (cases[c].callback) assert_string_equal(ev->callback, cases[c].callback);
    mdl_eval_free(ev);
  }
  // a row set that overflows its capacity
  two_dof d = {.K_u = 50};
  mdl_model m = td_model(&d);
  m.max_rows = 1;
  mdl_eval *ev = mdl_eval_create(&m, NULL, NULL);
  assert_int_equal(mdl_penalty_rhs(ev, 0, q, v, qd, vd), MDL_EVAL_CAPACITY);
  mdl_eval_free(ev);
  // an invalid model is refused with the field named
  sc_error err = {0};
  m.max_rows = 2, m.nv = 0;
  assert_null(mdl_eval_create(&m, NULL, &err));
  assert_int_equal(err.code, SC_ERR_INPUT);
  assert_non_null(strstr(err.message, "nv = 0"));
}

// names and signs of the common statuses; the dense kernels' singular pivot
static void test_status_and_kernels(void **state) {
  (void)state;
  assert_string_equal(mdl_common_status_name(MDL_EVAL_OK), "ok");
  assert_string_equal(mdl_common_status_name(MDL_EVAL_NONFINITE), "nonfinite");
  assert_string_equal(mdl_common_status_name(MDL_EVAL_BAD_ROW), "bad-row");
  assert_null(mdl_common_status_name(5));  // a stepper's own code
  assert_int_equal(mdl_common_status_severity(MDL_EVAL_OK), 0);
  assert_true(mdl_common_status_severity(MDL_EVAL_SINGULAR) < 0);
  assert_true(mdl_common_status_severity(MDL_EVAL_CALLBACK_RECOVERABLE) < 0);
  double A[4] = {1, 1, 1, 1 + 1e-15};  // SPD by a hair: singular at rel 1e-14, not at 0
  double B[4] = {1, 1, 1, 1 + 1e-15};
  assert_int_equal(mdl_chol_factor_rel(A, 2, 2, 1e-14), -1);
  assert_int_equal(mdl_chol_factor(B, 2, 2), 0);
  double C[4] = {1, 0, 0, NAN};
  assert_int_equal(mdl_chol_factor(C, 2, 2), -1);
}

static void test_sc_error(void **state) {
  (void)state;
  assert_int_equal(sc_error_set(NULL, SC_ERR_IO, "no err %d", 1), SC_ERR_IO);
  sc_error e;
  assert_int_equal(sc_error_set(&e, SC_ERR_INPUT, "h = %g, must be > 0", -1.0), SC_ERR_INPUT);
  assert_int_equal(e.code, SC_ERR_INPUT);
  assert_string_equal(e.message, "h = -1, must be > 0");
  char big[sizeof e.message + 100];
  memset(big, 'x', sizeof big - 1), big[sizeof big - 1] = '\0';
  sc_error_set(&e, SC_ERR_INPUT, "%s", big);  // truncated, terminated
  assert_int_equal((int)strlen(e.message), (int)sizeof e.message - 1);
  sc_error_clear(&e);
  assert_int_equal(e.code, SC_OK);
  assert_string_equal(e.message, "");
  assert_string_equal(sc_error_code_name(SC_ERR_MEMORY), "out-of-memory");
  assert_string_equal(sc_error_code_name(42), "unknown");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_penalty_hand),      cmocka_unit_test(test_ref_penalty),
      cmocka_unit_test(test_eval_status_paths), cmocka_unit_test(test_status_and_kernels),
      cmocka_unit_test(test_sc_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
