// SPDX-License-Identifier: MIT
// Frictional contact in the general step (SPEC §1.2–1.3): a particle on a 15° incline
// against closed forms. The model works in the ramp frame (plane z = 0, gravity tilted by θ), so
// the contact normal is z and the tangents are x (down the slope) and y; a 2-D variant drops y.
//
// Discrete exact reference (coulomb, sliding): with λ_t on the cone boundary opposite to the
// sliding and λ_n = m g cos θ (the spring preloaded at φ0 = −m g cos θ / K_n keeps v_n = 0), the
// semi-implicit step gives v_k = v0 + k h a, a = g (sin θ − μ cos θ), and
// x_N = x0 + h Σ_{k=1..N} v_k = x0 + N h v0 + h² a N (N + 1) / 2.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mbs/mbs.h"
#ifdef MBS_TEST_QCP_IO
#include "qcp/qcp_io.h"
#endif

typedef struct incline {
  int dim;  // 2 (x, z) or 3 (x, y, z)
  double m, g, theta, mu, kn, bn, bt;
} incline;

static int in_mass(double t, const double *q, double *M, void *ctx) {
  (void)t, (void)q;
  const incline *p = ctx;
  for (int i = 0; i < p->dim * p->dim; i++) M[i] = 0;
  for (int i = 0; i < p->dim; i++) M[i * p->dim + i] = p->m;
  return 0;
}

static int in_forces(double t, const double *q, const double *v, double *f, void *ctx) {
  (void)t, (void)q, (void)v;
  const incline *p = ctx;
  f[0] = p->m * p->g * sin(p->theta);
  if (p->dim == 3) f[1] = 0;
  f[p->dim - 1] = -p->m * p->g * cos(p->theta);
  return 0;
}

static int in_rows(double t, const double *q, const double *v, mdl_rows *rows, void *ctx) {
  (void)t, (void)v;
  const incline *p = ctx;
  const int cz = p->dim - 1, cx = 0, cy = 1;
  const double one = 1;
  mdl_rows_clear(rows);
  int n = mdl_rows_add(rows, MDL_ROW_NORMAL, q[cz], 0, p->kn, p->bn, 1, &cz, &one);
  int r = mdl_rows_add(rows, MDL_ROW_TANGENT, 0, 0, 0, p->bt, 1, &cx, &one);
  int s = p->dim == 3 ? mdl_rows_add(rows, MDL_ROW_TANGENT, 0, 0, 0, p->bt, 1, &cy, &one) : 0;
  if (n < 0 || r < 0 || s < 0) return -1;
  mdl_rows_set_contact(rows, n, 0, p->mu);
  mdl_rows_set_contact(rows, r, 0, p->mu);
  if (p->dim == 3) mdl_rows_set_contact(rows, s, 0, p->mu);
  return 0;
}

static mdl_model incline_model(incline *p, const int *blocks) {
  return (mdl_model){.nq = p->dim,
                     .nv = p->dim,
                     .max_rows = p->dim,
                     .max_nnz = p->dim,
                     .nblocks = 1,
                     .block_size = blocks,
                     .mass = in_mass,
                     .forces = in_forces,
                     .rows = in_rows,
                     .ctx = p};
}

#define H 0.01
#define THETA (15.0 * M_PI / 180.0)

static incline paper_particle(int dim, double mu) {
  return (incline){
      .dim = dim, .m = 1, .g = 9.81, .theta = THETA, .mu = mu, .kn = 1e6, .bn = 1, .bt = 1e6 / H};
}

// runs N steps from the preloaded rest height with velocity v0 along x; checks every step's cone
// and the friction direction; returns the final x and stores the last λ_n and the largest |λ_t|
typedef struct run_out {
  double x, z_max, ln_last, lt_max, ln_max, cone_max;
  int fp_max, fp_total, steps, status_bad;
} run_out;

// coulomb's solver for run (the Newton default unless a test sets the fixed point)
static mbs_coulomb_solver run_coulomb_solver = MBS_COULOMB_NEWTON;

static run_out run(incline *p, mbs_formulation f, double v0, int N) {
  const int blocks[1] = {p->dim};
  mdl_model model = incline_model(p, blocks);
  mbs_settings set = mbs_settings_default();
  set.formulation = f;
  set.coulomb_solver = run_coulomb_solver;
  mbs_workspace *ws = mbs_workspace_create(&model, &set, NULL);
  assert_non_null(ws);
  double q[3] = {0}, v[3] = {0};
  q[p->dim - 1] = -p->m * p->g * cos(p->theta) / p->kn;
  v[0] = v0;
  run_out o = {0};
  for (int k = 0; k < N; k++) {
    mbs_status st = mbs_step(ws, k * H, H, q, v, q, v);
    o.status_bad += st != MBS_OK;
    const mbs_info *in = mbs_step_info(ws);
    const double *lam = mbs_step_lambda(ws);
    const int *act = mbs_step_active(ws);
    double ln = act[0] ? lam[0] : 0,
           lt[2] = {act[0] ? lam[1] : 0, p->dim == 3 && act[0] ? lam[2] : 0};
    double nt = hypot(lt[0], lt[1]);
    // independent cone check on the returned forces
    o.cone_max = fmax(o.cone_max, (nt - p->mu * ln) / (1 + ln));
    o.lt_max = fmax(o.lt_max, nt);
    o.ln_max = fmax(o.ln_max, ln);
    o.ln_last = ln;
    o.z_max = fmax(o.z_max, q[p->dim - 1]);
    // friction opposes sliding: λ_t · v_t1 ≤ 0 while the contact slides
    double vt = p->dim == 3 ? hypot(v[0], v[1]) : fabs(v[0]);
    if (vt > 1e-6 && nt > 0) {
      double dot = lt[0] * v[0] + (p->dim == 3 ? lt[1] * v[1] : 0);
      assert_true(dot <= 1e-12 * nt * vt);
    }
    o.fp_max = in->fp_iterations > o.fp_max ? in->fp_iterations : o.fp_max;
    o.fp_total += in->fp_iterations;
    o.steps++;
  }
  o.x = q[0];
  mbs_workspace_free(ws);
  return o;
}

// coulomb: discrete exact sliding distance to 1e-6 relative and λ_n = normal load (2-D and 3-D),
// by either solver (SPEC §1.3, §1.6)
static void test_coulomb_sliding_exact(void **state) {
  (void)state;
  for (int solver = 0; solver <= MBS_COULOMB_FIXED_POINT; solver++)
    for (int dim = 2; dim <= 3; dim++) {
      run_coulomb_solver = (mbs_coulomb_solver)solver;
      incline p = paper_particle(dim, 0.125);
      const int N = 100;
      const double v0 = 0.5, a = p.g * (sin(p.theta) - p.mu * cos(p.theta));
      const double x_ref = N * H * v0 + H * H * a * N * (N + 1) / 2.0;
      run_out o = run(&p, MBS_COULOMB, v0, N);
      run_coulomb_solver = MBS_COULOMB_NEWTON;
      const double load = p.m * p.g * cos(p.theta);
      printf(
          "coulomb (%s) %dD: x(1 s) = %.10f m (discrete exact %.10f, rel %.2e); lambda_n = "
          "%.10f N (load %.10f, rel %.2e); relaxed solves: max %d, mean %.2f per step\n",
          mbs_coulomb_solver_name((mbs_coulomb_solver)solver), dim, o.x, x_ref,
          fabs(o.x - x_ref) / x_ref, o.ln_last, load, fabs(o.ln_last - load) / load, o.fp_max,
          (double)o.fp_total / o.steps);
      assert_int_equal(o.status_bad, 0);
      assert_true(fabs(o.x - x_ref) <= 1e-6 * x_ref);
      assert_true(fabs(o.ln_last - load) <= 1e-6 * load);
      assert_true(fabs(o.ln_max - load) <= 1e-6 * load);
      assert_true(o.cone_max <= 1e-9);
      assert_true(o.fp_max <= 10);
    }
}

// relaxed: one step from the sliding state shows the gliding normal velocity ≈ μ‖v_t‖; the exact
// value from the relaxed KKT (ρ_n = μ‖ρ_t‖) with the dynamics is μ v_t · χ/(1 + χ), χ = (hK+B)h/m
static void test_relaxed_gliding(void **state) {
  (void)state;
  incline p = paper_particle(3, 0.125);
  const int blocks[1] = {3};
  mdl_model model = incline_model(&p, blocks);
  mbs_settings set = mbs_settings_default();
  set.formulation = MBS_RELAXED;
  mbs_workspace *ws = mbs_workspace_create(&model, &set, NULL);
  assert_non_null(ws);
  double q[3] = {0, 0, -p.m * p.g * cos(p.theta) / p.kn}, v[3] = {0.5, 0, 0};
  assert_int_equal(mbs_step(ws, 0, H, q, v, q, v), MBS_OK);
  double chi = (H * p.kn + p.bn) * H / p.m;
  double vn_ref = p.mu * fabs(v[0]) * chi / (1 + chi);
  printf(
      "relaxed: normal velocity after one sliding step %.6f m/s; mu |v_t| = %.6f m/s; "
      "KKT closed form %.6f m/s (rel %.2e)\n",
      v[2], p.mu * fabs(v[0]), vn_ref, fabs(v[2] - vn_ref) / vn_ref);
  assert_true(fabs(v[2] - vn_ref) <= 1e-6 * vn_ref);
  assert_true(fabs(v[2] - p.mu * fabs(v[0])) <= 0.02 * p.mu * fabs(v[0]));
  mbs_workspace_free(ws);
  // over 1 s the particle lifts off the plane (gliding separation)
  run_out o = run(&p, MBS_RELAXED, 0.5, 100);
  printf("relaxed: max height above the plane over 1 s %.3e m, x(1 s) = %.6f m\n", o.z_max, o.x);
  assert_true(o.z_max > 1e-4);
}

// paper: the objective inflates the normal force while sliding (SPEC §1.3: ≈ 420 N for 9.5 N)
static void test_paper_inflation(void **state) {
  (void)state;
  incline p = paper_particle(3, 0.125);
  const int blocks[1] = {3};
  mdl_model model = incline_model(&p, blocks);
  mbs_settings set = mbs_settings_default();
  set.formulation = MBS_PAPER;
  mbs_workspace *ws = mbs_workspace_create(&model, &set, NULL);
  assert_non_null(ws);
  double q[3] = {0, 0, -p.m * p.g * cos(p.theta) / p.kn}, v[3] = {0.5, 0, 0};
  mbs_status st = mbs_step(ws, 0, H, q, v, q, v);
  const double load = p.m * p.g * cos(p.theta), ln = mbs_step_lambda(ws)[0];
  printf("paper: first sliding step (%s) lambda_n = %.3f N (normal spring asks %.3f N): x%.1f\n",
         mbs_status_name(st), ln, load, ln / load);
  assert_int_equal(st, MBS_OK);
  assert_true(ln > 10 * load);
  mbs_workspace_free(ws);
  run_out o = run(&p, MBS_PAPER, 0.5, 100);
  incline pc = paper_particle(3, 0.125);
  run_out oc = run(&pc, MBS_COULOMB, 0.5, 100);
  printf("paper: x(1 s) = %.4f m vs coulomb %.4f m; max height %.3e m; %d steps not ok\n", o.x,
         oc.x, o.z_max, o.status_bad);
  assert_true(o.x < oc.x);
}

// μ = 0: every tangential force exactly 0, in every formulation
static void test_frictionless(void **state) {
  (void)state;
  for (int f = 0; f < MBS_FORMULATION_COUNT; f++)
    for (int dim = 2; dim <= 3; dim++) {
      incline p = paper_particle(dim, 0);
      run_out o = run(&p, (mbs_formulation)f, 0.5, 100);
      const double a = p.g * sin(p.theta), x_ref = 100 * H * 0.5 + H * H * a * 100 * 101 / 2.0;
      printf("mu = 0, %s %dD: max |lambda_t| = %g, x(1 s) = %.8f m (frictionless exact %.8f)\n",
             mbs_formulation_name((mbs_formulation)f), dim, o.lt_max, o.x, x_ref);
      assert_true(o.lt_max == 0.0);
      assert_true(fabs(o.x - x_ref) <= 1e-9 * x_ref);
      assert_int_equal(o.status_bad, 0);
    }
}

// μ = 0.375 > tan 15°: the particle sticks, displacement over 1 s below 1e-6 m, all formulations
static void test_sticking(void **state) {
  (void)state;
  for (int f = 0; f < MBS_FORMULATION_COUNT; f++) {
    incline p = paper_particle(3, 0.375);
    run_out o = run(&p, (mbs_formulation)f, 0, 100);
    // the memoryless tangential damper B_t creeps at m g sin θ / B_t (K_t = 0, SPEC §1.2)
    const double creep = p.m * p.g * sin(p.theta) / p.bt * 1.0;
    printf("mu = 0.375, %s: creep over 1 s %.6e m (memoryless damper estimate %.6e m)\n",
           mbs_formulation_name((mbs_formulation)f), o.x, creep);
    assert_true(fabs(o.x) < 1e-6);
    assert_true(fabs(o.x - creep) <= 1e-3 * creep);  // measured: within 6e-5
    assert_int_equal(o.status_bad, 0);
    assert_true(o.cone_max <= 1e-9);
  }
}

// coulomb: the distance decreases strictly with μ (from rest)
static void test_distance_monotone(void **state) {
  (void)state;
  const double mus[] = {0, 0.125, 0.25, 0.375};
  double prev = INFINITY;
  for (int k = 0; k < 4; k++) {
    incline p = paper_particle(3, mus[k]);
    run_out o = run(&p, MBS_COULOMB, 0, 100);
    double a = fmax(0, p.g * (sin(p.theta) - p.mu * cos(p.theta)));
    const double x_ref = H * H * a * 100 * 101 / 2.0;
    printf("coulomb from rest, mu = %.3f: x(1 s) = %.8e m (discrete exact %.8e)\n", mus[k], o.x,
           x_ref);
    assert_true(o.x < prev);
    if (x_ref > 0) assert_true(fabs(o.x - x_ref) <= 1e-6 * x_ref);  // sliding: μ < tan θ
    prev = o.x;
  }
}

// a friction coefficient that is NaN or negative is bad input, reported as a status (not taken
// as frictionless)
static void test_bad_mu(void **state) {
  (void)state;
  const struct {
    double mu;
    mbs_status want;
  } cases[] = {{NAN, MBS_NONFINITE}, {-0.5, MBS_BAD_ROW}, {INFINITY, MBS_NONFINITE}};
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    incline p = paper_particle(3, cases[k].mu);
    const int blocks[1] = {3};
    mdl_model model = incline_model(&p, blocks);
    mbs_workspace *ws = mbs_workspace_create(&model, NULL, NULL);
    assert_non_null(ws);
    double q[3] = {0, 0, -1e-5}, v[3] = {0.5, 0, 0};
    mbs_status st = mbs_step(ws, 0, H, q, v, q, v);
    printf("mu = %g -> %s (expected %s)\n", cases[k].mu, mbs_status_name(st),
           mbs_status_name(cases[k].want));
    assert_int_equal(st, cases[k].want);
    mbs_workspace_free(ws);
  }
}

// the coulomb fixed point makes at most fp_max_iter relaxed solves; one that has not converged
// within them is reported as max-iterations with the last iterate kept
static void test_fixed_point_budget(void **state) {
  (void)state;
  incline p = paper_particle(3, 0.125);
  const int blocks[1] = {3};
  mdl_model model = incline_model(&p, blocks);
  const int budgets[] = {1, 2, 3, 50};
  for (size_t k = 0; k < sizeof budgets / sizeof *budgets; k++) {
    mbs_settings set = mbs_settings_default();
    set.formulation = MBS_COULOMB, set.fp_max_iter = budgets[k];
    set.coulomb_solver = MBS_COULOMB_FIXED_POINT;
    mbs_workspace *ws = mbs_workspace_create(&model, &set, NULL);
    assert_non_null(ws);
    double q[3] = {0, 0, -p.m * p.g * cos(p.theta) / p.kn}, v[3] = {0.5, 0, 0};
    mbs_status st = mbs_step(ws, 0, H, q, v, q, v);
    const int solves = mbs_step_info(ws)->fp_iterations;
    printf("fp_max_iter = %d: %d solves, status %s\n", budgets[k], solves, mbs_status_name(st));
    assert_true(solves <= budgets[k]);
    // sliding needs about 7 solves (test_coulomb_sliding_exact)
    assert_int_equal(st, budgets[k] >= 10 ? MBS_OK : MBS_MAX_ITERATIONS);
    mbs_workspace_free(ws);
  }
}

// a contact whose normal row has no compliance (K = B = 0, an explicit row) has no normal force
// law: the step runs and its tangential forces are exactly 0
static void test_explicit_normal(void **state) {
  (void)state;
  incline p = paper_particle(3, 0.5);
  p.kn = 0, p.bn = 0;
  const int blocks[1] = {3};
  mdl_model model = incline_model(&p, blocks);
  mbs_workspace *ws = mbs_workspace_create(&model, NULL, NULL);
  assert_non_null(ws);
  double q[3] = {0, 0, 0}, v[3] = {0.5, 0, 0};  // φ = 0: the contact is active
  mbs_status st = mbs_step(ws, 0, H, q, v, q, v);
  const double *lam = mbs_step_lambda(ws);
  printf("K = B = 0 normal: status %s, lambda = (%g, %g, %g)\n", mbs_status_name(st), lam[0],
         lam[1], lam[2]);
  assert_int_equal(st, MBS_OK);
  assert_true(lam[1] == 0 && lam[2] == 0);
  mbs_workspace_free(ws);
}

// the step's conic subproblem (mbs_step_qcp_problem), written by the caller in the qcp problem
// format (no solver writes files): reading it back and solving it alone gives the step's forces
static void test_dump_subproblem(void **state) {
  (void)state;
#ifdef MBS_TEST_QCP_IO
  incline p = paper_particle(3, 0.125);
  const int blocks[1] = {3};
  mdl_model model = incline_model(&p, blocks);
  char path[] = "/tmp/mbs_dump_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  mbs_settings set = mbs_settings_default();  // relaxed glides off the plane after step 0
  mbs_workspace *ws = mbs_workspace_create(&model, &set, NULL);
  assert_non_null(ws);
  double q[3] = {0, 0, -p.m * p.g * cos(p.theta) / p.kn}, v[3] = {0.5, 0, 0}, lam[3] = {0};
  assert_int_equal(mbs_step(ws, 0, H, q, v, q, v), MBS_OK);
  const qcp_problem *step_prob = mbs_step_qcp_problem(ws);
  assert_non_null(step_prob);
  qcp_error werr;
  assert_int_equal(qcp_io_problem_write(path, step_prob, &werr), QCP_OK);
  memcpy(lam, mbs_step_lambda(ws), sizeof lam);
  mbs_workspace_free(ws);
  qcp_io_problem prob;
  qcp_error err;
  assert_int_equal(qcp_io_problem_read(path, &prob, &err), QCP_OK);
  qcp_workspace *qw = NULL;
  qcp_settings qs = qcp_settings_contact();  // as the step solves it (mbs_qcp.c)
  assert_int_equal(qcp_setup(&qw, &prob.prob, &qs, &err), QCP_OK);
  assert_int_equal(qcp_solve(qw, QCP_START_COLD, NULL, NULL, NULL, NULL, &err), QCP_OK);
  const double *x = qcp_solution_x(qw);
  printf(
      "dumped step 0 (relaxed, n = %d): lambda = (%.9g, %.9g, %.9g) N, re-solved (%.9g, %.9g, "
      "%.9g) N\n",
      prob.prob.n, lam[0], lam[1], lam[2], x[0], x[1], x[2]);
  for (int k = 0; k < 3; k++) assert_true(fabs(x[k] - lam[k]) <= 1e-6 * (1 + fabs(lam[k])));
  qcp_workspace_free(qw);
  qcp_io_problem_free(&prob);
  remove(path);
#else
  skip();
#endif
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_coulomb_sliding_exact), cmocka_unit_test(test_bad_mu),
      cmocka_unit_test(test_fixed_point_budget),    cmocka_unit_test(test_explicit_normal),
      cmocka_unit_test(test_relaxed_gliding),       cmocka_unit_test(test_paper_inflation),
      cmocka_unit_test(test_frictionless),          cmocka_unit_test(test_sticking),
      cmocka_unit_test(test_distance_monotone),     cmocka_unit_test(test_dump_subproblem),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
