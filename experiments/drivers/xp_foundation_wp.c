// SPDX-License-Identifier: MIT
// Work–precision on the cube on its elastic foundation (paper A §5.5): error at T against wall
// time at matched accuracy, the constraint solver over a sweep of h beside CVODE BDF1 / BDF /
// RK45 over a sweep of tolerances — the soft case (foundation_wp) and the stiff one
// (foundation_wp_stiff).
#include "xp_foundation.h"

#include "xp/xp_common.h"
#include "xp/xp_file.h"
#include "xp/xp_matched.h"
#include "xp/xp_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The constraint solver at a sweep of h and CVODE BDF1 / BDF / RK45 at a sweep of tolerances on
// one foundation case; every point is (median wall time, error at T against the reference).
static int fd_run_wp(const xp_params *prm, xp_results *out, xp_progress *progress, xp_error *err) {
  foundation_params p = foundation_params_default();
  p.n = (int)xp_params_int(prm, "n");
  p.E = xp_params_real(prm, "E");
  p.load = xp_params_real(prm, "F");
  foundation_params_read(prm, &p);
  foundation fd;
  if (foundation_params_check(&p, err)) return XP_ERR_USAGE;
  foundation_init(&fd, &p);
  const double *hs, *tols;
  size_t nh = xp_params_list(prm, "h", &hs), nt = xp_params_list(prm, "tol", &tols);
  const sim_method_options base = fd_options(prm);
  fd_settings s = {.h = 0.01,
                   .T = xp_params_real(prm, "T"),
                   .budget = base.wall_budget,
                   .use_bias = 0,
                   .base = base};
  const int repeats = (int)xp_params_int(prm, "repeats");
  fd_settings tight = s;
  tight.budget = 0;
  const double ref_tol = xp_params_real(prm, "ref_tol");
  fd_run ref_a, ref_b;
  fd_references(&fd, ref_tol, &tight, NULL, &ref_a, &ref_b);
  const double floor_abs = fd_q_distance(ref_a.q, ref_b.q);
  fd_methods use;
  if (fd_parse_methods(xp_params_string(prm, "method"), &use, err)) return XP_ERR_USAGE;
  // fixed-step methods over h, the adaptive integrators over tol: one run per (method, knob)
  size_t total = 0, done = 0;
  for (size_t i = 0; i < use.n; i++) total += fd_is_adaptive(use.m[i]) ? nt : nh;
  for (size_t i = 0; i < use.n; i++) {
    const sim_method *m = use.m[i];
    const int is_step = !fd_is_adaptive(m);
    for (size_t k = 0; k < (is_step ? nh : nt); k++) {
      double knob = is_step ? hs[k] : tols[k];
      fd_settings run_set = s;
      if (is_step)
        run_set.h = knob;
      else
        run_set.rtol = run_set.atol = knob;
      fd_run run;
      fd_timing tm;
      double median = fd_run_timed(&fd, m, &run_set, repeats, NULL, &run, &tm);
      char name[128], num[32];
      xp_format_compact(num, sizeof num, knob);
      snprintf(name, sizeof name, "%s_%s=%s", fd_label(m), is_step ? "h" : "tol", num);
      xp_case *c = xp_case_begin(out, name);
      xp_case_param_string(c, "method", fd_label(m));
      xp_case_param_real(c, is_step ? "h" : "tol", knob, is_step ? "s" : "");
      xp_case_param_real(c, "elements", (double)(p.n * p.n),
                         "");  // the case, for the figure's title
      xp_case_param_real(c, "E", p.E, "N/m^2");
      xp_case_param_real(c, "F", p.load, "N");
      xp_case_stat_real(c, "wall_time", median, "s");
      fd_timing_stats(c, &tm);
      double e = run.ok ? fd_q_distance(run.q, ref_a.q) : NAN;
      xp_case_stat_real(c, "error_abs", e, "");
      xp_case_stat_real(c, "at_floor", e <= 10 * floor_abs, "");
      xp_case_stat_real(c, "floor_abs", floor_abs, "");
      xp_case_stat_real(c, "steps", (double)run.steps, "");
      xp_case_status(c, run.status, run.message);
      if (xp_case_end(c)) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
      xp_progress_update(progress, (double)++done / (double)total);
    }
  }
  return XP_OK;
}

// The ringing sentence of a work–precision report: the case's modes (closed form, file's
// parameters) and how much of their ringing implicit Euler has damped out by T at the smallest h
static void wp_ringing_text(const xp_file *f, FILE *md) {
  char buf[32];
  foundation_params p = foundation_params_default();
  double T = NAN, h_min = INFINITY;
  if (xp_file_param(f, "n", buf, sizeof buf) == 0) p.n = atoi(buf);
  const char *keys[5] = {"E", "F", "B", "g", "T"};
  double *dst[5] = {&p.E, &p.load, &p.B, &p.g, &T};
  for (int i = 0; i < 5; i++)
    if (xp_file_param(f, keys[i], buf, sizeof buf) == 0) *dst[i] = atof(buf);
  for (size_t i = 0; i < xp_file_case_count(f); i++) {
    double h = NAN;
    if (xp_file_case_param(f, xp_file_case_name(f, i), "h", &h) == 0 && h < h_min) h_min = h;
  }
  sc_error perr = {0};
  if (!isfinite(h_min) || !isfinite(T) || foundation_params_check(&p, &perr)) return;
  foundation fd;
  foundation_init(&fd, &p);
  const ref_winkler w = fd_winkler(&fd);
  const ref_winkler_mode hv = ref_winkler_heave(&w), rk = ref_winkler_rocking(&w);
  const double ah = ref_winkler_numerical_damping(&hv, h_min) * T,
               ar = ref_winkler_numerical_damping(&rk, h_min) * T;
  fprintf(md,
          "The cube, set down at zero deformation, rings on the foundation: heave ω = %.4g rad/s "
          "and rocking ω = %.4g rad/s, physical decay ζω = %.3g and %.3g 1/s (closed form, "
          "reference/ref/ref_winkler.c). Implicit Euler damps a mode at α ≈ ω²h/2 on top (as if "
          "each element's damping were B + hK): at the smallest step here, h = %g s, αT = %.3g "
          "(heave) and %.3g (rocking), so the step keeps e^{−αT} = %.2g and %.2g of the ringing "
          "the reference still carries at T. Where αT ≫ 1 the first-order step's error levels "
          "off at that ringing, whatever h; the foundation_ringing section gives the error model "
          "and checks it against a sweep over h.\n\n",
          hv.omega, rk.omega, hv.decay, rk.decay, h_min, ah, ar, exp(-ah), exp(-ar));
}

// The matched-accuracy run of `method` at `level` (xp_matched_select over its cases): wall time,
// or INFINITY (none, or the level lies below the reference floor); its knob.
static double wp_cheapest(const xp_file *f, const char *method, double level, double floor_abs,
                          double *knob) {
  xp_matched_point pts[2 * XP_MAX_LIST];
  size_t n = 0;
  const size_t ln = strlen(method), nc = xp_file_case_count(f);
  for (size_t i = 0; i < nc && n < 2 * XP_MAX_LIST; i++) {
    const char *c = xp_file_case_name(f, i);
    if (strncmp(c, method, ln) != 0 || c[ln] != '_') continue;
    xp_matched_point *p = &pts[n++];
    p->error = p->cost = p->knob = NAN;
    xp_file_case_stat(f, c, "error_abs", &p->error), xp_file_case_stat(f, c, "wall_time", &p->cost);
    if (xp_file_case_param(f, c, "h", &p->knob)) xp_file_case_param(f, c, "tol", &p->knob);
  }
  const int k = xp_matched_select(pts, n, level, floor_abs);
  if (k < 0) return INFINITY;
  *knob = pts[k].knob;
  return pts[k].cost;
}

static const char *const wp_methods[] = {"constraint", "cvode-bdf1", "cvode-bdf", "rk45"};
static const double wp_levels[] = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10};
enum { WP_METHODS = 4, WP_LEVELS = sizeof wp_levels / sizeof wp_levels[0] };

// the matched-accuracy table: per error level, each method's cheapest run reaching it for good;
// then the speed-up of the constraint solver at the tightest level every method reaches
static void wp_table(const xp_file *f, FILE *md, double floor_abs) {
  const char *const head[1 + WP_METHODS] = {"error ≤", wp_methods[0], wp_methods[1], wp_methods[2],
                                            wp_methods[3]};
  xp_table t;
  xp_table_init(&t, 1 + WP_METHODS, head, NULL);
  double common[WP_METHODS] = {NAN, NAN, NAN, NAN}, common_level = NAN;
  for (size_t l = 0; l < WP_LEVELS; l++) {
    double w[WP_METHODS];
    int all = 1;
    // a level within 10× of the reference's own floor is not resolved by the reference
    const int resolved = !(wp_levels[l] < 10 * floor_abs);
    xp_table_cell(&t, "%g%s", wp_levels[l], resolved ? "" : " (< 10× floor)");
    for (size_t m = 0; m < WP_METHODS; m++) {
      double knob = NAN;
      w[m] = wp_cheapest(f, wp_methods[m], wp_levels[l], floor_abs, &knob);
      all &= isfinite(w[m]) != 0;
      if (isfinite(w[m]))
        xp_table_cell(&t, "%.3g (%s %g)", w[m], m ? "tol" : "h", knob);
      else
        xp_table_cell(&t, "%s",
                      xp_matched_outcome_name(wp_levels[l] < floor_abs ? XP_MATCHED_UNDECIDABLE
                                                                       : XP_MATCHED_NONE));
    }
    if (all && resolved) memcpy(common, w, sizeof common), common_level = wp_levels[l];
  }
  xp_table_write(&t, md);
  xp_table_free(&t);
  if (isfinite(common_level))
    fprintf(md,
            "\nMatched accuracy at error ≤ %g (the tightest level every method reaches for "
            "good, at least 10× the reference floor): the constraint solver takes %.3g s; CVODE "
            "BDF1 %.3g s (speed-up %.3g), CVODE BDF %.3g s (%.3g), RK45 %.3g s (%.3g) "
            "— " XP_SPEEDUP_HEADER ".\n",
            common_level, common[0], common[1], common[1] / common[0], common[2],
            common[2] / common[0], common[3], common[3] / common[0]);
}

// REPORT.md: the cheapest run of each method that reaches each accuracy (matched accuracy, not
// matched settings), then every point of the diagram
static int fd_wp_report(const char *path, FILE *md, xp_error *err) {
  xp_file *f = xp_file_open(path, err);
  if (!f) return XP_ERR_RUN;
  char nbuf[32] = "?", ebuf[32] = "?", fbuf[32] = "?", tbuf[32] = "?", rbuf[32] = "?";
  xp_file_param(f, "n", nbuf, sizeof nbuf), xp_file_param(f, "E", ebuf, sizeof ebuf);
  xp_file_param(f, "F", fbuf, sizeof fbuf), xp_file_param(f, "T", tbuf, sizeof tbuf);
  xp_file_param(f, "ref_tol", rbuf, sizeof rbuf);
  fprintf(md,
          "Not a paper figure: paper A compares methods at fixed settings (Table 1); here each "
          "method is timed at the accuracy it reaches (%s×%s elements, E = %s Pa, F = %s N, "
          "T = %s s, error ‖q − q_ref‖ at T). Cheapest run per method (median wall time [s] "
          "after a warm-up, with the step or tolerance) whose error, and that of every tighter "
          "setting, is within each level:\n\n",
          nbuf, nbuf, ebuf, fbuf, tbuf);
  double fl = NAN;
  if (xp_file_case_count(f)) xp_file_case_stat(f, xp_file_case_name(f, 0), "floor_abs", &fl);
  wp_table(f, md, fl);
  fprintf(md, "\nEvery point:\n\n");
  static const char *const keys[] = {"h",         "tol",      "wall_time", "wall_time_min",
                                     "error_abs", "at_floor", "steps"};
  static const char *const heads[] = {
      "h [s]", "tol", "wall time median [s]", "min [s]", "error", "at floor", "steps"};
  xp_report_stats_table(md, f, NULL, 7, keys, heads);
  if (isfinite(fl))
    fprintf(md,
            "\nReference: RK45 at rtol = atol = %s; its floor ‖q_RK45 − q_BDF‖ (CVODE BDF at the "
            "same tolerance), measured first: %.3g (errors within 10× of it are marked at "
            "floor). ",
            rbuf, fl);
  wp_ringing_text(f, md);
  xp_file_close(f);
  return XP_OK;
}

// the work–precision parameters, with the case's defaults
#define FD_WP_PARAMS(n_def, E_def, T_def, ref_def)                                                \
  {"n", XP_INT, n_def, XP_POSITIVE, "", NULL, "elements per side"},                               \
      {"E", XP_REAL, E_def, XP_POSITIVE, "N/m^2", NULL, "Young's modulus"},                       \
      {"F", XP_REAL, "50", XP_NONNEGATIVE, "N", NULL, "load (50 N: rocking, elements separate)"}, \
      FOUNDATION_PARAM_DEFS{"T", XP_REAL, T_def, XP_POSITIVE, "s", NULL, "simulated time"},       \
      {"h",                                                                                       \
       XP_REAL_LIST,                                                                              \
       "0.02,0.01,0.005,0.0025,0.00125,0.000625,0.0003125",                                       \
       XP_POSITIVE,                                                                               \
       "s",                                                                                       \
       NULL,                                                                                      \
       "constraint-solver steps"},                                                                \
      {"tol",                                                                                     \
       XP_REAL_LIST,                                                                              \
       "1e-2,1e-3,1e-4,1e-5,1e-6,1e-7,1e-8",                                                      \
       XP_POSITIVE,                                                                               \
       "",                                                                                        \
       NULL,                                                                                      \
       "rtol = atol of the integrators (in place of rtol, atol)"},                                \
      {"ref_tol",                                                                                 \
       XP_REAL,                                                                                   \
       ref_def,                                                                                   \
       XP_POSITIVE,                                                                               \
       "",                                                                                        \
       NULL,                                                                                      \
       "tolerance of the reference (RK45) and of its floor check (CVODE BDF)"},                   \
      {"method",                                                                                  \
       XP_STRING,                                                                                 \
       "paperA-relaxed,cvode-bdf1,cvode-bdf,rk45",                                                \
       XP_ANY,                                                                                    \
       "",                                                                                        \
       NULL,                                                                                      \
       "methods (stabcon list --methods): fixed-step ones over h, integrators over tol"},         \
      {"repeats", XP_INT, "1", XP_POSITIVE, "", NULL, "timed repeats after one warm-up"},         \
      SIM_OPTION_DEFS

// the work–precision runs' wall-time budget
static const char *const fd_wp_defaults[] = {"budget=30", NULL};

// B, g: the scenario's declarations (FOUNDATION_PARAM_DEFS)
static const xp_param_def fd_wp_params[] = {FD_WP_PARAMS("10", "1e7", "1", "1e-11")};

const xp_experiment xp_experiment_foundation_wp = {
    .name = "foundation_wp",
    .paper_ref = "Paper A §5.5 (work-precision; not a paper figure)",
    .summary = "error vs wall time: constraint solver over h, CVODE/RK45 over tolerances",
    .params = fd_wp_params,
    .n_params = sizeof fd_wp_params / sizeof fd_wp_params[0],
    .run = fd_run_wp,
    .plot_script = "work_precision.gp",
    .report = fd_wp_report,
    .in_reproduce = 1,
    .defaults = fd_wp_defaults,
    .error_stat = "error_abs",
};

// The same diagram in the stiff regime at Table 1's large size (900 elements,
// E = 1e11). T = 0.05 s keeps it within reproduce's budget (the ODE integrators' cost there is
// set by the stiffness, ∝ T); ref_tol = 1e-12 gave the lowest floor measured at T = 0.1 s
// (3.6e-11; 1e-11 gave 1.1e-10 and 1e-13 1.3e-10: round-off).
static const xp_param_def fd_wp_stiff_params[] = {FD_WP_PARAMS("30", "1e11", "0.05", "1e-12")};

const xp_experiment xp_experiment_foundation_wp_stiff = {
    .name = "foundation_wp_stiff",
    .paper_ref = "Paper A §5.5 (work-precision, 900 el., E = 1e11; not a paper figure)",
    .summary = "error vs wall time in the stiff regime: 900 elements, E = 1e11 Pa, 50 N",
    .params = fd_wp_stiff_params,
    .n_params = sizeof fd_wp_stiff_params / sizeof fd_wp_stiff_params[0],
    .run = fd_run_wp,
    .plot_script = "work_precision.gp",
    .report = fd_wp_report,
    .in_reproduce = 1,
    .defaults = fd_wp_defaults,
    .error_stat = "error_abs",
};
