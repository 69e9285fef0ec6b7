// SPDX-License-Identifier: MIT
// The two unilateral solvers agree: the built-in exact dense active-set methods and qcp (lifted
// sparse form), for the relaxed and the paper formulations, on single steps with coupled
// unilateral rows and with bilateral + unilateral rows together.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "mbs/mbs.h"
#include "ref/ref_pendulum.h"
#include "scenarios/pendulum.h"
#include "scenarios/rom_pendulum.h"

#include <math.h>
#include <stdio.h>

// pendulum bob with a wall: the joint (2 bilateral rows) plus one unilateral row φ = x − x_wall
// on the bob centre, and a second one on the bob's far corner (couples through θ)
typedef struct walled {
  pendulum pd;
  double x_wall, k, b;
  mdl_model model;
} walled;

static int w_rows(double t, const double *q, const double *v, mdl_rows *rows, void *ctx) {
  walled *w = ctx;
  if (w->pd.model.rows(t, q, v, rows, &w->pd)) return -1;
  const int c1[1] = {0}, c2[2] = {0, 2};
  const double one = 1, r = 0.05, g2[2] = {1, -r * sin(q[2])};
  if (mdl_rows_add(rows, MDL_ROW_UNILATERAL, q[0] - w->x_wall, 0, w->k, w->b, 1, c1, &one) < 0 ||
      mdl_rows_add(rows, MDL_ROW_UNILATERAL, q[0] + r * cos(q[2]) - w->x_wall, 0, w->k, w->b, 2, c2,
                   g2) < 0)
    return -1;
  return 0;
}
static int w_mass(double t, const double *q, double *M, void *ctx) {
  walled *w = ctx;
  return w->pd.model.mass(t, q, M, &w->pd);
}
static int w_forces(double t, const double *q, const double *v, double *f, void *ctx) {
  walled *w = ctx;
  return w->pd.model.forces(t, q, v, f, &w->pd);
}

static void walled_init(walled *w, double k, double x_wall) {
  pendulum_params p = pendulum_params_default();
  p.k = 1e8;
  pendulum_init(&w->pd, &p);
  w->x_wall = x_wall, w->k = k, w->b = 10;
  w->model = w->pd.model;
  w->model.max_rows += 2, w->model.max_nnz += 3;
  w->model.rows = w_rows, w->model.mass = w_mass, w->model.forces = w_forces;
  w->model.energy = NULL, w->model.ctx = w;
}

static void compare_solvers(mdl_model *model, const double *q, const double *v, double h,
                            const char *what) {
  double lam[2][2][8] = {{{0}}};
  int n = 0;
  for (int f = 0; f < 2; f++)
    for (int s = 0; s < 2; s++) {
      mbs_settings set = mbs_settings_default();
      set.formulation = f ? MBS_PAPER : MBS_RELAXED;
      set.solver = s ? MBS_SOLVER_QCP : MBS_SOLVER_DENSE;
      mbs_workspace *ws = mbs_workspace_create(model, &set, NULL);
      assert_non_null(ws);
      double q1[3], v1[3];
      mbs_status st = mbs_step(ws, 0, h, q, v, q1, v1);
      const mbs_info *info = mbs_step_info(ws);
      n = mbs_step_rows(ws)->n;
      for (int i = 0; i < n; i++) lam[f][s][i] = mbs_step_lambda(ws)[i];
      printf("%s %-7s %-5s: status %-8s iterations %2d, active unilateral %d, lambda =", what,
             f ? "paper" : "relaxed", s ? "qcp" : "dense", mbs_status_name(st), info->iterations,
             info->rows_unilateral);
      for (int i = 0; i < n; i++) printf(" %.8g", lam[f][s][i]);
      printf("\n");
      assert_int_equal(st, MBS_OK);
      mbs_workspace_free(ws);
    }
  for (int f = 0; f < 2; f++) {
    double scale = 0, diff = 0;
    for (int i = 0; i < n; i++) scale = fmax(scale, fabs(lam[f][0][i]));
    for (int i = 0; i < n; i++) diff = fmax(diff, fabs(lam[f][0][i] - lam[f][1][i]));
    printf("%s %s: max |lambda_dense - lambda_qcp| = %.3e (scale %.3e)\n", what,
           f ? "paper" : "relaxed", diff, scale);
    assert_true(diff <= 1e-6 * (1 + scale));
  }
}

static void test_pendulum_wall(void **state) {
  (void)state;
  // the bob swings through the wall position: start at the wall, moving into it
  const double ks[] = {1e4, 1e8};
  const double vx[] = {-0.5, -3.0};
  const double walls[] = {0.3, 0.31};   // 0.31: centre and corner both penetrate
  const double spins[] = {0, 40, -40};  // extra bob spin [rad/s] (the corner row moves with θ)
  for (int ik = 0; ik < 2; ik++)
    for (int iv = 0; iv < 2; iv++)
      for (int iw = 0; iw < 2; iw++)
        for (int is = 0; is < 3; is++) {
          walled w;
          walled_init(&w, ks[ik], walls[iw]);
          double a = asin(0.29), q[3], v[3];
          pendulum_state_from_angle(&w.pd, a, vx[iv] / cos(a), q, v);
          v[2] += spins[is];
          char what[96];
          snprintf(what, sizeof what, "wall=%.2f k=%.0e vx=%.1f spin=%+.0f", walls[iw], ks[ik],
                   vx[iv], spins[is]);
          compare_solvers(&w.model, q, v, 1e-3, what);
        }
}

// rom_pendulum through the impact: qcp and dense give the same trajectory (1000 steps of 1e-8 s)
static void test_rom_window_qcp(void **state) {
  (void)state;
  rom_pendulum_params p = rom_pendulum_params_default();
  double w0 = sqrt(p.g / p.l), t0 = ref_pendulum_quarter_period(w0, M_PI / 2) - 1e-6, th0, thd0;
  assert_int_equal(ref_pendulum_exact(w0, M_PI / 2, t0, &th0, &thd0), 0);
  double th[2], thd[2], lmax[2] = {0, 0};
  long iters[2] = {0, 0};
  for (int s = 0; s < 2; s++) {
    rom_pendulum rp;
    rom_pendulum_init(&rp, &p);
    mbs_settings set = mbs_settings_default();
    set.solver = s ? MBS_SOLVER_QCP : MBS_SOLVER_DENSE;
    mbs_workspace *ws = mbs_workspace_create(&rp.model, &set, NULL);
    th[s] = th0, thd[s] = thd0;
    for (int i = 0; i < 1000; i++) {
      assert_int_equal(mbs_step(ws, t0 + i * 1e-8, 1e-8, &th[s], &thd[s], &th[s], &thd[s]), MBS_OK);
      iters[s] += mbs_step_info(ws)->iterations;
      lmax[s] = fmax(lmax[s], mbs_step_lambda(ws)[0]);
      assert_true(mbs_step_info(ws)->lambda_min >= 0);
    }
    mbs_workspace_free(ws);
  }
  printf(
      "rom window: dense theta %.12e, qcp theta %.12e (diff %.3e); theta_dot %.9f vs %.9f; "
      "max lambda %.6e vs %.6e; qcp iterations %ld\n",
      th[0], th[1], fabs(th[0] - th[1]), thd[0], thd[1], lmax[0], lmax[1], iters[1]);
  assert_true(fabs(th[0] - th[1]) <= 1e-8 * fabs(th[0]));
  assert_true(fabs(thd[0] - thd[1]) <= 1e-8 * fabs(thd[0]));
}

// bilateral-only steps in sparse mode (qcp, lifted KKT; bias by matrix-free CG) against the dense
// compliance-form Cholesky path: stiff, soft and redundant joints
static void test_pendulum_sparse_bilateral(void **state) {
  (void)state;
  const double ks[] = {1e6, 1e15}, hs[] = {0.1, 1e-3};
  for (int ik = 0; ik < 2; ik++)
    for (int ih = 0; ih < 2; ih++)
      for (int copies = 1; copies <= 2; copies++) {
        pendulum_params p = pendulum_params_default();
        p.k = ks[ik], p.copies = copies, p.split = 1;
        double q[2][3], v[2][3], lam[2][4] = {{0}};
        mbs_status st[2];
        for (int s = 0; s < 2; s++) {
          pendulum pd;
          pendulum_init(&pd, &p);
          mbs_settings set = mbs_settings_default();
          set.solver = s ? MBS_SOLVER_QCP : MBS_SOLVER_DENSE;
          mbs_workspace *ws = mbs_workspace_create(&pd.model, &set, NULL);
          pendulum_initial_state(&pd, q[s], v[s]);
          int n = (int)lround(0.5 / hs[ih]);
          for (int i = 0; i < n; i++) {
            st[s] = mbs_step(ws, i * hs[ih], hs[ih], q[s], v[s], q[s], v[s]);
            if (st[s] != MBS_OK) break;
          }
          for (int i = 0; i < 2 * copies; i++) lam[s][i] = mbs_step_lambda(ws)[i];
          mbs_workspace_free(ws);
        }
        double dq = 0, dl = 0, ls = 0;
        for (int j = 0; j < 3; j++) dq = fmax(dq, fabs(q[0][j] - q[1][j]));
        // stiff redundant copies: only their sum is determined (the split to ~ε‖W‖/C, see
        // test_pendulum.c), so compare the joint force per direction
        int split_ok = copies == 1 || p.k < 1e9;
        for (int i = 0; i < 2; i++) {
          double a = lam[0][i] + (copies == 2 && !split_ok ? lam[0][i + 2] : 0);
          double b = lam[1][i] + (copies == 2 && !split_ok ? lam[1][i + 2] : 0);
          dl = fmax(dl, fabs(a - b)), ls = fmax(ls, fabs(a));
          if (copies == 2 && split_ok) {
            dl = fmax(dl, fabs(lam[0][i + 2] - lam[1][i + 2]));
          }
        }
        printf(
            "k=%.0e h=%.0e copies=%d: status %s/%s, |q_dense - q_qcp| = %.3e, "
            "|lambda diff| = %.3e (scale %.3e)\n",
            p.k, hs[ih], copies, mbs_status_name(st[0]), mbs_status_name(st[1]), dq, dl, ls);
        assert_int_equal(st[0], MBS_OK);
        assert_int_equal(st[1], MBS_OK);
        assert_true(dq <= 1e-6);
        assert_true(dl <= 1e-5 * (1 + ls));
      }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pendulum_wall),
      cmocka_unit_test(test_rom_window_qcp),
      cmocka_unit_test(test_pendulum_sparse_bilateral),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
