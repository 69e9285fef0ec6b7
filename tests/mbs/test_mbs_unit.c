// SPDX-License-Identifier: MIT
// Unit tests of the mbs API and step: row sets, validation, every error/status path, one
// bilateral step against closed-form implicit Euler, and two coupled unilateral rows.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "mbs/mbs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// ---- a configurable 1-D particle ---------------------------------------------------------------

typedef struct particle {
  double m, f, k, b, phi_offset;
  mdl_row_kind kind;
  int rows_rc, forces_rc, mass_rc;  // forced callback return codes
  int nan_force, extra_rows;
} particle;

static int p_mass(double t, const double *q, double *M, void *ctx) {
  (void)t, (void)q;
  const particle *p = ctx;
  M[0] = p->m;
  return p->mass_rc;
}
static int p_forces(double t, const double *q, const double *v, double *f, void *ctx) {
  (void)t, (void)q, (void)v;
  const particle *p = ctx;
  f[0] = p->nan_force ? NAN : p->f;
  return p->forces_rc;
}
static int p_rows(double t, const double *q, const double *v, mdl_rows *rows, void *ctx) {
  (void)t, (void)v;
  const particle *p = ctx;
  const int col = 0;
  const double one = 1;
  mdl_rows_clear(rows);
  for (int i = 0; i < 1 + p->extra_rows; i++)
    mdl_rows_add(rows, p->kind, q[0] + p->phi_offset, 0, p->k, p->b, 1, &col, &one);
  return p->rows_rc;
}
static mdl_model particle_model(particle *p) {
  return (mdl_model){.nq = 1,
                     .nv = 1,
                     .max_rows = 1,
                     .max_nnz = 1,
                     .mass = p_mass,
                     .forces = p_forces,
                     .rows = p_rows,
                     .ctx = p};
}

// two identical unilateral rows (redundant, SPEC §1.2): every formulation and solver takes the
// step, and the pair carries the single row's force (k = 1e15: the rigid limit)
static void test_redundant_unilateral(void **state) {
  (void)state;
  const mbs_formulation forms[] = {MBS_RELAXED, MBS_PAPER};
  const mbs_solver solvers[] = {MBS_SOLVER_DENSE, MBS_SOLVER_QCP};
  for (int f = 0; f < 2; f++)
    for (int sv = 0; sv < 2; sv++) {
      double lam[2][2] = {{0}};
      for (int copies = 0; copies < 2; copies++) {
        particle p = {.m = 1,
                      .f = -9.81,
                      .k = 1e15,
                      .b = 1,
                      .phi_offset = -1e-3,
                      .kind = MDL_ROW_UNILATERAL,
                      .extra_rows = copies};
        mdl_model model = particle_model(&p);
        model.max_rows = 2, model.max_nnz = 2;
        mbs_settings s = mbs_settings_default();
        s.formulation = forms[f], s.solver = solvers[sv];
        mbs_workspace *ws = mbs_workspace_create(&model, &s, NULL);
        assert_non_null(ws);
        double q = 0, v = -0.5;
        mbs_status st = mbs_step(ws, 0, 0.01, &q, &v, &q, &v);
        printf("%s %s, %d row(s): %s, lambda = (%.9g, %.9g)\n", mbs_formulation_name(forms[f]),
               mbs_solver_name(solvers[sv]), copies + 1, mbs_status_name(st),
               mbs_step_lambda(ws)[0], copies ? mbs_step_lambda(ws)[1] : 0.0);
        assert_int_equal(st, MBS_OK);
        lam[copies][0] = mbs_step_lambda(ws)[0];
        lam[copies][1] = copies ? mbs_step_lambda(ws)[1] : 0;
        mbs_workspace_free(ws);
      }
      const double single = lam[0][0], pair = lam[1][0] + lam[1][1];
      assert_true(fabs(pair - single) <= 1e-6 * single);
    }
}

static void test_rows_api(void **state) {
  (void)state;
  mdl_rows *r = mdl_rows_create(2, 3);
  assert_non_null(r);
  const int c[2] = {0, 1};
  const double v[2] = {1, 2};
  mdl_rows_clear(r);
  assert_int_equal(mdl_rows_add(r, MDL_ROW_BILATERAL, 0.1, 0, 1, 2, 2, c, v), 0);
  assert_int_equal(mdl_rows_add(r, MDL_ROW_UNILATERAL, -0.1, 0, 1, 2, 2, c, v), -1);  // entries
  assert_int_equal(r->overflow, 1);
  assert_int_equal(mdl_rows_add(r, MDL_ROW_UNILATERAL, -0.1, 0, 1, 2, 1, c, v), 1);
  assert_int_equal(mdl_rows_add(r, MDL_ROW_UNILATERAL, -0.1, 0, 1, 2, 0, c, v), -1);  // rows
  assert_int_equal(r->n, 2);
  assert_int_equal(r->start[2], 3);
  mdl_rows_clear(r);
  assert_int_equal(r->n, 0);
  assert_int_equal(r->overflow, 0);
  assert_string_equal(mdl_row_kind_name(MDL_ROW_UNILATERAL), "unilateral");
  assert_string_equal(mdl_row_kind_name((mdl_row_kind)99), "invalid");
  mdl_rows_free(r);
}

static void test_validation(void **state) {
  (void)state;
  particle p = {.m = 1, .k = 1, .kind = MDL_ROW_BILATERAL};
  sc_error serr = {0};
  const char *msg = serr.message;
  mdl_model m = particle_model(&p);
  assert_int_equal(mdl_model_validate(&m, &serr), 0);
  mdl_model bad = m;
  bad.nv = 0;
  assert_int_equal(mdl_model_validate(&bad, &serr), -1);
  assert_non_null(strstr(msg, "nv = 0"));
  bad = m, bad.mass = NULL;
  assert_int_equal(mdl_model_validate(&bad, &serr), -1);
  assert_non_null(strstr(msg, "mass"));
  const int blocks[2] = {1, 1};
  bad = m, bad.nblocks = 2, bad.block_size = blocks;
  assert_int_equal(mdl_model_validate(&bad, &serr), -1);
  assert_non_null(strstr(msg, "sum to 2"));
  bad = m, bad.nq = 2;
  assert_int_equal(mdl_model_validate(&bad, &serr), -1);
  assert_non_null(strstr(msg, "velocity_map"));
  assert_null(mbs_workspace_create(&bad, NULL, &serr));
  mbs_settings s = mbs_settings_default();
  s.tol = 2;
  assert_null(mbs_workspace_create(&m, &s, &serr));
  assert_non_null(strstr(msg, "tol"));
  mbs_formulation f;
  assert_int_equal(mbs_formulation_parse("paper", &f), 0);
  assert_int_equal(f, MBS_PAPER);
  assert_int_equal(mbs_formulation_parse("nope", &f), -1);
  assert_string_equal(mbs_status_name(MBS_CALLBACK_FATAL), "callback-fatal");
}

// every status path is provoked on purpose
static void test_status_paths(void **state) {
  (void)state;
  struct {
    const char *what;
    particle p;
    double h;
    mbs_status expect;
  } cases[] = {
      {"ok", {.m = 1, .k = 10, .kind = MDL_ROW_BILATERAL}, 0.1, MBS_OK},
      {"rows > 0", {.m = 1, .k = 10, .rows_rc = 3}, 0.1, MBS_CALLBACK_RECOVERABLE},
      {"forces < 0", {.m = 1, .k = 10, .forces_rc = -2}, 0.1, MBS_CALLBACK_FATAL},
      {"mass > 0", {.m = 1, .k = 10, .mass_rc = 1}, 0.1, MBS_CALLBACK_RECOVERABLE},
      {"NaN force", {.m = 1, .k = 10, .nan_force = 1}, 0.1, MBS_NONFINITE},
      {"negative K", {.m = 1, .k = -1}, 0.1, MBS_BAD_ROW},
      {"too many rows", {.m = 1, .k = 1, .extra_rows = 1}, 0.1, MBS_CAPACITY},
      {"singular M", {.m = 0, .k = 1}, 0.1, MBS_SINGULAR},
      {"h = 0", {.m = 1, .k = 1}, 0.0, MBS_NONFINITE},
      {"normal row", {.m = 1, .k = 1, .kind = MDL_ROW_NORMAL, .phi_offset = -1}, 0.1, MBS_OK},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    mdl_model m = particle_model(&cases[i].p);
    mbs_workspace *ws = mbs_workspace_create(&m, NULL, NULL);
    assert_non_null(ws);
    double q = 0.5, v = 0;
    mbs_status st = mbs_step(ws, 0, cases[i].h, &q, &v, &q, &v);
    printf("%-14s -> %s (expected %s)\n", cases[i].what, mbs_status_name(st),
           mbs_status_name(cases[i].expect));
    assert_int_equal(st, cases[i].expect);
    assert_int_equal(mbs_step_info(ws)->status, st);
    mbs_workspace_free(ws);
  }
}

// one bilateral step = implicit Euler on m ẍ = f − kx − bẋ (closed form), including k = 1e15
static void test_bilateral_step_closed_form(void **state) {
  (void)state;
  const double ks[] = {0, 1e3, 1e15}, bs[] = {0, 2}, hs[] = {1e-3, 0.1, 1};
  for (int ik = 0; ik < 3; ik++)
    for (int ib = 0; ib < 2; ib++)
      for (int ih = 0; ih < 3; ih++) {
        particle p = {.m = 2, .f = -3, .k = ks[ik], .b = bs[ib], .kind = MDL_ROW_BILATERAL};
        mdl_model m = particle_model(&p);
        mbs_workspace *ws = mbs_workspace_create(&m, NULL, NULL);
        double h = hs[ih], x0 = 0.25, v0 = -1, x = x0, v = v0;
        assert_int_equal(mbs_step(ws, 0, h, &x, &v, &x, &v), MBS_OK);
        // (m + h b + h² k) v1 = m v0 + h (f − k x0)
        double v1 = (p.m * v0 + h * (p.f - p.k * x0)) / (p.m + h * p.b + h * h * p.k);
        double x1 = x0 + h * v1;
        double ev = fabs(v - v1) / fmax(1, fabs(v1)), ex = fabs(x - x1) / fmax(1, fabs(x1));
        if (ev > 1e-12 || ex > 1e-12)
          printf("k=%g b=%g h=%g: v %.17g vs %.17g, x %.17g vs %.17g\n", p.k, p.b, h, v, v1, x, x1);
        assert_true(ev <= 1e-12);
        assert_true(ex <= 1e-12);
        mbs_workspace_free(ws);
      }
}

// ---- two coupled unilateral rows on one body, one separating -----------------------------------

// planar bar (y, θ) on two supports at ±a: φ1 = y + aθ, φ2 = y − aθ, G = [1 a; 1 −a], M =
// diag(m, I). With I > m a² the rows couple positively (W12 = 1/m − a²/I > 0): pushing on one
// row helps the other. Both start slightly compressed while the bar rotates so end 2 lifts off.
typedef struct bar {
  double m, I, a, g, k, b;
} bar;
static int bar_mass(double t, const double *q, double *M, void *ctx) {
  (void)t, (void)q;
  const bar *br = ctx;
  M[0] = br->m, M[1] = M[2] = 0, M[3] = br->I;
  return 0;
}
static int bar_forces(double t, const double *q, const double *v, double *f, void *ctx) {
  (void)t, (void)q, (void)v;
  const bar *br = ctx;
  f[0] = -br->m * br->g, f[1] = 0;
  return 0;
}
static int bar_rows(double t, const double *q, const double *v, mdl_rows *rows, void *ctx) {
  (void)t, (void)v;
  const bar *br = ctx;
  const int c[2] = {0, 1};
  const double g1[2] = {1, br->a}, g2[2] = {1, -br->a};
  mdl_rows_clear(rows);
  mdl_rows_add(rows, MDL_ROW_UNILATERAL, q[0] + br->a * q[1], 0, br->k, br->b, 2, c, g1);
  mdl_rows_add(rows, MDL_ROW_UNILATERAL, q[0] - br->a * q[1], 0, br->k, br->b, 2, c, g2);
  return 0;
}

// brute-force minimiser of ½‖λ‖² over {λ ≥ 0, A λ ≥ c} in 2-D: every candidate active set
static void paper_brute_force(const double A[2][2], const double c[2], double best[2]) {
  double lines[4][3] = {{A[0][0], A[0][1], c[0]}, {A[1][0], A[1][1], c[1]}, {1, 0, 0}, {0, 1, 0}};
  double cand[16][2];
  int nc = 0;
  cand[nc][0] = 0, cand[nc][1] = 0, nc++;
  for (int i = 0; i < 4; i++) {  // projection of 0 onto one line aᵀλ = r
    double nn = lines[i][0] * lines[i][0] + lines[i][1] * lines[i][1];
    cand[nc][0] = lines[i][2] * lines[i][0] / nn, cand[nc][1] = lines[i][2] * lines[i][1] / nn,
    nc++;
  }
  for (int i = 0; i < 4; i++)
    for (int j = i + 1; j < 4; j++) {  // vertices
      double det = lines[i][0] * lines[j][1] - lines[i][1] * lines[j][0];
      if (fabs(det) < 1e-14) continue;
      cand[nc][0] = (lines[i][2] * lines[j][1] - lines[i][1] * lines[j][2]) / det;
      cand[nc][1] = (lines[i][0] * lines[j][2] - lines[i][2] * lines[j][0]) / det;
      nc++;
    }
  double bestn = INFINITY;
  for (int k = 0; k < nc; k++) {
    double *x = cand[k];
    double tol = 1e-9 * (1 + fabs(c[0]) + fabs(c[1]));
    if (x[0] < -tol || x[1] < -tol) continue;
    if (A[0][0] * x[0] + A[0][1] * x[1] < c[0] - tol) continue;
    if (A[1][0] * x[0] + A[1][1] * x[1] < c[1] - tol) continue;
    double n = x[0] * x[0] + x[1] * x[1];
    if (n < bestn) bestn = n, best[0] = x[0], best[1] = x[1];
  }
}

static void test_coupled_unilateral_rows(void **state) {
  (void)state;
  bar br = {.m = 1, .I = 10, .a = 1, .g = 9.81, .k = 1e6, .b = 10};
  const int blocks[1] = {2};
  mdl_model model = {.nq = 2,
                     .nv = 2,
                     .max_rows = 2,
                     .max_nnz = 4,
                     .nblocks = 1,
                     .block_size = blocks,
                     .mass = bar_mass,
                     .forces = bar_forces,
                     .rows = bar_rows,
                     .ctx = &br};
  const double h = 1e-3, q0[2] = {-1e-4, 0}, v0[2] = {0, -0.5};
  double lam[2][2], res[2][2];
  for (int f = 0; f < 2; f++) {
    mbs_settings s = mbs_settings_default();
    s.formulation = f ? MBS_PAPER : MBS_RELAXED;
    mbs_workspace *ws = mbs_workspace_create(&model, &s, NULL);
    double q[2], v[2];
    assert_int_equal(mbs_step(ws, 0, h, q0, v0, q, v), MBS_OK);
    const mbs_info *info = mbs_step_info(ws);
    assert_int_equal(info->rows_unilateral, 2);
    for (int i = 0; i < 2; i++)
      lam[f][i] = mbs_step_lambda(ws)[i], res[f][i] = mbs_step_residual(ws)[i];
    printf(
        "%-7s: lambda = (%.6f, %.6f) N, scaled residual r/D = (%.3e, %.3e) m/s2, "
        "|lambda r| max = %.3e N2, iterations %d\n",
        s.formulation == MBS_PAPER ? "paper" : "relaxed", lam[f][0], lam[f][1], res[f][0],
        res[f][1], info->complementarity, info->iterations);
    mbs_workspace_free(ws);
  }
  // relaxed: 0 ≤ λ ⊥ r ≥ 0 row by row; here row 2 separates (λ2 = 0, r2 > 0)
  for (int i = 0; i < 2; i++) {
    assert_true(lam[0][i] >= 0);
    assert_true(res[0][i] >= -1e-12);
    assert_true(fabs(fmin(lam[0][i], res[0][i] * 1e3)) <= 1e-9);
  }
  assert_true(lam[0][0] > 0 && lam[0][1] == 0 && res[0][1] > 1e-6);
  // paper: feasible, and the minimum-norm point of its QP (checked by brute force)
  const double W12 = 1 / br.m - br.a * br.a / br.I, W11 = 1 / br.m + br.a * br.a / br.I;
  const double D = h * (h * br.k + br.b);
  const double A[2][2] = {{W11 + 1 / D, W12}, {W12, W11 + 1 / D}};
  // ĉ from the relaxed solution's residual: ĉ = Aλ − r̂
  double c[2];
  for (int i = 0; i < 2; i++) c[i] = A[i][0] * lam[0][0] + A[i][1] * lam[0][1] - res[0][i];
  double best[2] = {NAN, NAN};
  paper_brute_force(A, c, best);
  printf("paper brute force: (%.6f, %.6f); relaxed norm %.6f, paper norm %.6f\n", best[0], best[1],
         hypot(lam[0][0], lam[0][1]), hypot(lam[1][0], lam[1][1]));
  for (int i = 0; i < 2; i++) {
    assert_true(lam[1][i] >= 0);
    assert_true(res[1][i] >= -1e-9);
    assert_true(fabs(lam[1][i] - best[i]) <= 1e-8 * (1 + fabs(best[i])));
  }
  // measured: paper pushes on the separating row (λ2 > 0 while r2 > 0), i.e. λ ⊥ r fails
  printf("paper departs from complementarity on row 2: lambda2 = %.6f N with r2/D = %.3e m/s2\n",
         lam[1][1], res[1][1]);
  assert_true(hypot(lam[1][0], lam[1][1]) <= hypot(lam[0][0], lam[0][1]) + 1e-12);
}

// ---- penalty ODE right-hand side ----------------------------------------------------------------

// particle (x, y) with a frictional contact on the plane y = 0: normal row φ = y, tangent row x
typedef struct slider {
  double m, g, k, b, bt, mu;
} slider;
static int sl_mass(double t, const double *q, double *M, void *ctx) {
  (void)t, (void)q;
  const slider *s = ctx;
  M[0] = M[3] = s->m, M[1] = M[2] = 0;
  return 0;
}
static int sl_forces(double t, const double *q, const double *v, double *f, void *ctx) {
  (void)t, (void)q, (void)v;
  const slider *s = ctx;
  f[0] = 0, f[1] = -s->m * s->g;
  return 0;
}
static int sl_rows(double t, const double *q, const double *v, mdl_rows *rows, void *ctx) {
  (void)t, (void)v;
  const slider *s = ctx;
  const int cy = 1, cx = 0;
  const double one = 1;
  mdl_rows_clear(rows);
  int n = mdl_rows_add(rows, MDL_ROW_NORMAL, q[1], 0, s->k, s->b, 1, &cy, &one);
  int r = mdl_rows_add(rows, MDL_ROW_TANGENT, 0, 0, 0, s->bt, 1, &cx, &one);
  if (n < 0 || r < 0) return -1;
  mdl_rows_set_contact(rows, n, 0, s->mu);
  mdl_rows_set_contact(rows, r, 0, s->mu);
  return 0;
}

static void test_penalty_rhs(void **state) {
  (void)state;
  slider s = {.m = 2, .g = 9.81, .k = 1e4, .b = 10, .bt = 1e3, .mu = 0.3};
  const int blocks[1] = {2};
  mdl_model model = {.nq = 2,
                     .nv = 2,
                     .max_rows = 2,
                     .max_nnz = 2,
                     .nblocks = 1,
                     .block_size = blocks,
                     .mass = sl_mass,
                     .forces = sl_forces,
                     .rows = sl_rows,
                     .ctx = &s};
  mdl_eval *ev = mdl_eval_create(&model, NULL, NULL);  // the model layer's evaluator alone
  assert_non_null(ev);
  struct {
    double q[2], v[2];
  } cases[] = {
      {{0, -1e-3}, {0.5, -0.1}},   // penetrating, sliding: λ_t on the cone
      {{0, -1e-3}, {1e-4, -0.1}},  // penetrating, nearly sticking: λ_t = −B_t v_t inside
      {{0, -1e-6}, {0.5, 0.2}},    // separating fast: −Kφ − Bφ̇ < 0 → λ_n = 0, λ_t = 0
      {{0, 1e-3}, {0.5, -0.1}},    // above the plane: inactive
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    double qd[2], vd[2];
    assert_int_equal(mdl_penalty_rhs(ev, 0, cases[c].q, cases[c].v, qd, vd), MBS_OK);
    double phi = cases[c].q[1], ln = 0, lt = 0;
    if (phi <= 0) {
      ln = fmax(0, -s.k * phi - s.b * cases[c].v[1]);
      lt = -s.bt * cases[c].v[0];
      if (fabs(lt) > s.mu * ln) lt = copysign(s.mu * ln, lt);
    }
    const double *lam = ev->lambda;
    printf("case %zu: lambda_n %.9g (expect %.9g), lambda_t %.9g (expect %.9g)\n", c, lam[0], ln,
           lam[1], lt);
    assert_true(fabs(lam[0] - ln) <= 1e-12 * (1 + ln));
    assert_true(fabs(lam[1] - lt) <= 1e-12 * (1 + fabs(lt)));
    assert_true(fabs(vd[0] - lt / s.m) <= 1e-12 * (1 + fabs(lt)));
    assert_true(fabs(vd[1] - (ln / s.m - s.g)) <= 1e-12 * (1 + ln));
    assert_true(qd[0] == cases[c].v[0] && qd[1] == cases[c].v[1]);
  }
  mdl_eval_free(ev);
  // the step takes contact rows through qcp (measured in test_mbs_contact.c)
  mbs_workspace *ws = mbs_workspace_create(&model, NULL, NULL);
  assert_non_null(ws);
  double q[2] = {0, -1e-3}, v[2] = {0.5, 0};
  assert_int_equal(mbs_step(ws, 0, 1e-3, q, v, q, v), MBS_OK);
  mbs_workspace_free(ws);
}

// statuses: names and numbers unchanged by the model-layer split (results files store both), the
// common ones shared with the model layer, and the signed outcome
static void test_status_severity(void **state) {
  (void)state;
  const char *names[MBS_STATUS_COUNT] = {"ok",
                                         "callback-recoverable",
                                         "callback-fatal",
                                         "capacity",
                                         "singular",
                                         "max-iterations",
                                         "inaccurate",
                                         "solver-failed",
                                         "nonfinite",
                                         "bad-row",
                                         "unsupported"};
  for (int s = 0; s < MBS_STATUS_COUNT; s++)
    assert_string_equal(mbs_status_name((mbs_status)s), names[s]);
  assert_int_equal(MBS_NONFINITE, MDL_EVAL_NONFINITE);
  assert_int_equal(mbs_status_severity(MBS_OK), 0);
  assert_true(mbs_status_severity(MBS_MAX_ITERATIONS) > 0 &&
              mbs_status_severity(MBS_INACCURATE) > 0);
  assert_true(mbs_status_severity(MBS_SOLVER_FAILED) < 0 &&
              mbs_status_severity(MBS_UNSUPPORTED) < 0);
  assert_true(mbs_status_severity(MBS_CALLBACK_RECOVERABLE) < 0 &&
              mbs_status_severity(MBS_NONFINITE) < 0);
  assert_string_equal(mbs_status_name((mbs_status)11), "invalid");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_status_severity),
      cmocka_unit_test(test_rows_api),
      cmocka_unit_test(test_validation),
      cmocka_unit_test(test_status_paths),
      cmocka_unit_test(test_redundant_unilateral),
      cmocka_unit_test(test_bilateral_step_closed_form),
      cmocka_unit_test(test_coupled_unilateral_rows),
      cmocka_unit_test(test_penalty_rhs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
