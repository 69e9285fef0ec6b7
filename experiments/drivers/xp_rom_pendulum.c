// SPDX-License-Identifier: MIT
// Paper A §5.4, Fig 6: pendulum with a stiff unilateral range-of-motion limit θ ≥ 0.
//
// Each case h integrates the `rom_pendulum` scenario with mbs_step (one unilateral row, relaxed or
// paper formulation) from t0 to T. Before the limit is reached the motion is the free pendulum,
// so a run may start at t0 > 0 from the exact (Jacobi-elliptic) state. Stored per case: θ(t), θ̇,
// λ, energy, the perfectly elastic rigid-limit reference |α(t)| and per-step statistics
// (decimated to max_points), plus every step inside a zoom window around the impact.
#include "xp/xp.h"
#include "xp/xp_common.h"
#include "xp/xp_file.h"
#include "xp/xp_report.h"

#include "mbs/mbs.h"
#include "ref/ref.h"
#include "scenarios/rom_pendulum.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { C_T, C_TH, C_THD, C_LAM, C_E, C_EL, C_ROWS, C_ITER, C_RES, C_STATUS, C_COUNT };
static const char *const col_names[C_COUNT] = {
    "t",           "theta",      "theta_dot", "lambda",     "energy", "theta_elastic",
    "rows_active", "iterations", "residual",  "step_status"};
static const char *const col_units[C_COUNT] = {"s",   "rad", "rad/s", "N*m",     "J",
                                               "rad", "",    "",      "rad/s^2", ""};
enum { Z_T, Z_DT, Z_TH, Z_THD, Z_LAM, Z_EL, Z_COUNT };
static const char *const zoom_names[Z_COUNT] = {"t_zoom",      "dt_impact_zoom",
                                                "theta_zoom",  "theta_dot_zoom",
                                                "lambda_zoom", "theta_elastic_zoom"};
static const char *const zoom_units[Z_COUNT] = {"s", "us", "rad", "rad/s", "N*m", "rad"};

// One run at step h. The step loop stays here, not in sim_simulate, on purpose: Fig 6 takes up to
// 1e8 steps of a one-dof model at ~100 ns each, and the simulate loop's per-step timing, report
// and dispatch measured 1.22 s against 0.78 s of CPU per 1e7 steps (+55 %); the loop, the sampled
// and the zoomed series are one pass, hence the length.
static int run_case(const xp_params *prm, double h, xp_results *out, xp_error *err) {
  const rom_pendulum_params p = rom_pendulum_params_read(prm);
  const double t0 = xp_params_real(prm, "t0"), T = xp_params_real(prm, "T");
  const size_t max_points = (size_t)xp_params_int(prm, "max_points");
  // the scenario allows g = 0; the study needs the swing that makes the impact
  if (!(p.g > 0))
    return xp_fail(err, XP_ERR_USAGE, "parameter g=%g: the Fig 6 study needs g > 0", p.g);
  const double w0 = sqrt(p.g / p.l), t_imp = ref_pendulum_quarter_period(w0, M_PI / 2);
  const double z_lo = t_imp - xp_params_real(prm, "zoom_before"),
               z_hi = t_imp + xp_params_real(prm, "zoom_after");
  if (!(T > t0)) return xp_fail(err, XP_ERR_USAGE, "T = %g s must exceed t0 = %g s", T, t0);
  if (t0 >= t_imp)
    return xp_fail(err, XP_ERR_USAGE, "t0 = %g s must precede the impact at %.6f s", t0, t_imp);
  rom_pendulum rp;
  rom_pendulum_init(&rp, &p);
  mbs_settings s = mbs_settings_default();
  // paper A's step driven here directly: the impact's row force and iterations per step
  const sim_method *m = NULL;
  size_t nm = 0;
  if (sim_study_methods(xp_params_string(prm, "method"), "rom_pendulum", SIM_FAMILY_PAPER_A,
                        "the study drives paper A's step itself (paperA-relaxed or paperA-paper; "
                        "`stabcon run rom_pendulum_methods` runs any method)",
                        &m, 1, &nm, err))
    return XP_ERR_USAGE;
  s.formulation = (mbs_formulation)m->variant;
  if (s.formulation == MBS_COULOMB)
    return xp_fail(err, XP_ERR_USAGE,
                   "parameter method=%s: the joint limit has no friction row (paperA-relaxed or "
                   "paperA-paper; `stabcon run rom_pendulum_methods` runs any method)",
                   m->name);
  if (mbs_solver_parse(xp_params_string(prm, "solver"), &s.solver))
    return xp_fail(err, XP_ERR_USAGE, "solver = '%s' is not auto|dense|qcp",
                   xp_params_string(prm, "solver"));
  sc_error serr = {0};
  mbs_workspace *ws = mbs_workspace_create(&rp.model, &s, &serr);
  if (!ws) return xp_fail(err, serr.code ? serr.code : XP_ERR_USAGE, "%s", serr.message);
  char msg[256];
  size_t n_steps;
  if (xp_step_count(T - t0, h, &n_steps, err)) return mbs_workspace_free(ws), XP_ERR_USAGE;
  const long n = (long)n_steps;
  const long stride = n / (long)max_points + 1;
  const long nz = (long)((z_hi - z_lo) / h) + 2, zstride = nz / (long)max_points + 1;
  xp_series ser, zoom;
  if (xp_series_init(&ser, C_COUNT, (size_t)(n / stride + 3)) ||
      xp_series_init(&zoom, Z_COUNT, (size_t)(nz / zstride + 3))) {
    mbs_workspace_free(ws);
    return xp_fail(err, XP_ERR_RUN, "out of memory");
  }
  double th, thd;
  rom_pendulum_initial_state(&th, &thd);
  if (t0 > 0) ref_pendulum_exact(w0, M_PI / 2, t0, &th, &thd);
  const double e0 = rom_pendulum_energy(&p, th, thd), wall0 = xp_now();
  double lam_min = INFINITY, lam_max = 0, peak_after = 0, row[C_COUNT];
  long active = 0, iters = 0, steps = 0, zcount = 0;
  int impacted = 0;
  mbs_status st = MBS_OK;
  for (long i = 0; i <= n; i++) {
    const double t = t0 + (double)i * h;
    const mbs_info *info = mbs_step_info(ws);
    if (i > 0) {
      st = mbs_step(ws, t - h, h, &th, &thd, &th, &thd);
      if (st != MBS_OK) break;
      steps = i;
      iters += info->iterations;
      if (info->rows_unilateral) {
        double l = mbs_step_lambda(ws)[0];
        active++, impacted = 1;
        lam_min = fmin(lam_min, l), lam_max = fmax(lam_max, l);
      }
      if (impacted) peak_after = fmax(peak_after, th);
    }
    const double lam = (i > 0 && info->rows_unilateral) ? mbs_step_lambda(ws)[0] : 0;
    int keep = (i % stride == 0) || i == n,
        zkeep = t >= z_lo && t <= z_hi && (zcount++ % zstride == 0);
    if (!keep && !zkeep) continue;
    double a, ad;
    ref_pendulum_exact(w0, M_PI / 2, t, &a, &ad);
    if (keep) {
      row[C_T] = t, row[C_TH] = th, row[C_THD] = thd, row[C_LAM] = lam;
      row[C_E] = rom_pendulum_energy(&p, th, thd), row[C_EL] = fabs(a);
      row[C_ROWS] = i ? info->rows_active : 0, row[C_ITER] = i ? info->iterations : 0;
      row[C_RES] = i ? info->residual : 0, row[C_STATUS] = i ? info->status : 0;
      if (xp_series_push(&ser, row)) break;
    }
    if (zkeep) {
      double zr[Z_COUNT] = {t, (t - t_imp) * 1e6, th, thd, lam, fabs(a)};
      if (xp_series_push(&zoom, zr)) break;
    }
  }
  const double wall = xp_now() - wall0;
  char name[64];
  xp_case_name(name, sizeof name, 1, (const char *[]){"h"}, (double[]){h});
  xp_case *c = xp_case_begin(out, name);
  if (!c) {
    xp_series_free(&ser), xp_series_free(&zoom);
    mbs_workspace_free(ws);
    return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  }
  xp_case_param_real(c, "h", h, "s");
  xp_case_param_real(c, "k", p.k, "N*m/rad");
  xp_case_param_real(c, "b", p.b, "N*m*s/rad");
  xp_case_param_real(c, "m", p.m, "kg");
  xp_case_param_real(c, "l", p.l, "m");
  xp_case_param_real(c, "g", p.g, "m/s^2");
  xp_case_param_real(c, "t0", t0, "s");
  xp_case_param_real(c, "T", T, "s");
  xp_case_param_string(c, "contact", mbs_formulation_name(s.formulation));
  xp_case_param_string(c, "solver", mbs_solver_name(s.solver));
  for (int j = 0; j < C_COUNT; j++)
    xp_case_series(c, col_names[j], col_units[j], ser.col[j], ser.n);
  for (int j = 0; j < Z_COUNT; j++)
    xp_case_series(c, zoom_names[j], zoom_units[j], zoom.col[j], zoom.n);
  double a_T, ad_T;
  ref_pendulum_exact(w0, M_PI / 2, t0 + (double)steps * h, &a_T, &ad_T);
  xp_case_stat_real(c, "impact_time_exact", t_imp, "s");
  xp_case_stat_real(c, "theta_T", th, "rad");
  xp_case_stat_real(c, "theta_T_elastic", fabs(a_T), "rad");
  xp_case_stat_real(c, "theta_peak_after_impact", peak_after, "rad");
  xp_case_stat_real(c, "energy_ratio_T", rom_pendulum_energy(&p, th, thd) / e0, "");
  xp_case_stat_real(c, "lambda_min", active ? lam_min : NAN, "N*m");
  xp_case_stat_real(c, "lambda_max", active ? lam_max : NAN, "N*m");
  xp_case_stat_real(c, "active_steps", (double)active, "");
  xp_case_stat_real(c, "iterations_total", (double)iters, "");
  xp_case_stat_real(c, "steps", (double)steps, "");
  xp_case_stat_real(c, "wall_time", wall, "s");
  if (st != MBS_OK) {
    snprintf(msg, sizeof msg, "mbs_step status %s at t = %g s", mbs_status_name(st),
             t0 + (double)steps * h);
    xp_case_status(c, "failed", msg);
  } else if (active && lam_min < 0) {
    xp_case_status(c, "failed", "a unilateral row pulled (lambda < 0)");
  } else {
    xp_case_status(c, "ok", NULL);
  }
  xp_series_free(&ser), xp_series_free(&zoom);
  mbs_workspace_free(ws);
  if (xp_case_end(c)) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  return XP_OK;
}

static int rom_run(const xp_params *prm, xp_results *out, xp_progress *progress, xp_error *err) {
  const double *hs;
  size_t nh = xp_params_list(prm, "h", &hs);
  for (size_t i = 0; i < nh; i++) {
    int rc = run_case(prm, hs[i], out, err);
    if (rc) return rc;
    xp_progress_update(progress, (double)(i + 1) / (double)nh);
  }
  return XP_OK;
}

static const xp_param_def rom_params_table[] = {
    {"h", XP_REAL_LIST, "1e-5,1e-6,1e-7,1e-8", XP_POSITIVE, "s", NULL,
     "step sizes (paper Fig 6); h = 1e-8 over 1 s is 1e8 steps, the longest run"},
    {"t0", XP_REAL, "0", XP_NONNEGATIVE, "s", NULL,
     "start time; t0 > 0 starts from the exact free-swing state (impact at 0.59196 s), e.g. "
     "t0=0.59 T=0.6 for a cheap window"},
    {"T", XP_REAL, "1", XP_POSITIVE, "s", NULL, "end time (paper: 1 s)"},
    ROM_PENDULUM_PARAM_DEFS  // m, l, g, k, b: the scenario's declarations
    {"method", XP_STRING, "paperA-relaxed", XP_ANY, "", NULL,
     "paper A's step with this formulation of the unilateral row (identical with one row; "
     "recorded as contact=relaxed|paper)"},
    {"solver", XP_STRING, "auto", XP_ANY, "", "auto|dense|qcp",
     "unilateral solver: exact dense active set, qcp interior point, or dense up to 64 rows"},
    {"zoom_before", XP_REAL, "1e-5", XP_NONNEGATIVE, "s", NULL,
     "zoom window (every step stored) starts this long before the exact impact time"},
    {"zoom_after", XP_REAL, "3e-5", XP_NONNEGATIVE, "s", NULL,
     "zoom window ends this long after the exact impact time"},
    {"max_points", XP_INT, "20000", XP_POSITIVE, "", NULL,
     "stored points per series (uniform decimation, last kept)"},
};

// REPORT.md: paper A §5.4 observes a "dead" impact for large h and an elastic one for small h
static int rom_report(const char *path, FILE *md, xp_error *err) {
  xp_file *f = xp_file_open(path, err);
  if (!f) return XP_ERR_RUN;
  fprintf(md,
          "Paper A (§5.4, Fig 6): with k = 1e12, b = 0 the impact looks \"dead\" for large h "
          "and elastic only for small h. Measured: the energy kept after the impact "
          "(1 = elastic) and the rebound angle against the rigid elastic limit:\n\n");
  static const char *const keys[] = {
      "h",          "energy_ratio_T", "theta_peak_after_impact", "theta_T_elastic", "active_steps",
      "lambda_min", "lambda_max"};
  static const char *const heads[] = {"h [s]",
                                      "energy kept at T",
                                      "θ peak after impact [rad]",
                                      "elastic limit θ(T) [rad]",
                                      "steps in contact",
                                      "min λ [N·m]",
                                      "max λ [N·m]"};
  xp_report_stats_table(md, f, NULL, 7, keys, heads);
  xp_file_close(f);
  return XP_OK;
}

const xp_experiment xp_experiment_rom_pendulum = {
    .report = rom_report,
    .name = "rom_pendulum",
    .paper_ref = "Paper A §5.4, Fig 6",
    .summary =
        "pendulum hitting a k = 1e12 range-of-motion limit: dead vs elastic impact against h",
    .params = rom_params_table,
    .n_params = sizeof rom_params_table / sizeof rom_params_table[0],
    .run = rom_run,
    .plot_script = "rom_pendulum.gp",
    .error_stat = "energy_ratio_T",
    .in_reproduce = 1,
};
