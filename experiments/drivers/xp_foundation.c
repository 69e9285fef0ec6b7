// SPDX-License-Identifier: MIT
// Cube on an elastic foundation (paper A §5.5): Table 1 (wall time of the constraint solver and
// of CVODE BDF order 1, CVODE BDF and RK45 on the same penalty ODE), Table 2 (error of the
// generalised coordinates at T against a reference) and Fig 7 (pressure under the cube at T).
//
// Reference protocol: the "truth" is RK45 and CVODE BDF, both at a tight tolerance;
// their difference is stored as the reference error floor, and an error within 10× of the floor
// is flagged ("at floor") rather than reported as exact.
#include "xp_foundation.h"

#include "xp/xp_common.h"
#include "xp/xp_file.h"
#include "xp/xp_matched.h"
#include "xp/xp_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// one grid point (elements, E, F): the foundation, its case-name base and the reference
typedef struct fd_point {
  foundation fd;
  int ne;            // elements
  char base[128];    // "elements=…_E=…_F=…"
  double *pressure;  // ne, scratch for the element pressures at T
  fd_run ref;        // the reference solution (RK45 at ref_tol)
  double floor_abs;  // its disagreement with CVODE BDF at ref_tol: the error floor
  double qref_norm;
} fd_point;

static void fd_case_point_params(xp_case *c, const fd_point *pt, const char *method) {
  xp_case_param_string(c, "method", method);
  xp_case_param_real(c, "elements", pt->ne, "");
  xp_case_param_real(c, "E", pt->fd.p.E, "N/m^2");
  xp_case_param_real(c, "F", pt->fd.p.load, "N");
}

// the reference: two independent tight solutions, their difference the floor
static int fd_reference_case(fd_point *pt, const fd_settings *s, double ref_tol, xp_results *out,
                             xp_error *err) {
  fd_settings tight = *s;
  tight.budget = 0;
  fd_run ref_b;
  fd_references(&pt->fd, ref_tol, &tight, pt->pressure, &pt->ref, &ref_b);
  pt->floor_abs = fd_q_distance(pt->ref.q, ref_b.q), pt->qref_norm = fd_q_norm(pt->ref.q);
  char name[200];
  snprintf(name, sizeof name, "%s_reference", pt->base);
  xp_case *c = xp_case_begin(out, name);
  fd_case_point_params(c, pt, "reference");
  xp_case_param_real(c, "ref_tol", ref_tol, "");
  xp_case_stat_real(c, "floor_abs", pt->floor_abs, "");
  xp_case_stat_real(c, "rk45_wall_time", pt->ref.seconds, "s");
  xp_case_stat_real(c, "bdf_wall_time", ref_b.seconds, "s");
  xp_case_stat_real(c, "rk45_steps", (double)pt->ref.steps, "");
  xp_case_stat_real(c, "bdf_steps", (double)ref_b.steps, "");
  xp_case_series(c, "q", "m, 1", pt->ref.q, FD_NQ);
  xp_case_series(c, "pressure", "Pa", pt->pressure, (size_t)pt->ne);
  xp_case_status(c, pt->ref.ok && ref_b.ok ? "ok" : "failed",
                 pt->ref.ok ? ref_b.message : pt->ref.message);
  return xp_case_end(c) ? xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out)) : XP_OK;
}

// one method at the run's settings, timed over the repeats, against the reference
static int fd_method_case(fd_point *pt, const sim_method *m, const fd_settings *s, int repeats,
                          xp_results *out, xp_error *err) {
  fd_run run;
  fd_timing tm;
  double median = fd_run_timed(&pt->fd, m, s, repeats, pt->pressure, &run, &tm);
  double err_abs = run.ok ? fd_q_distance(run.q, pt->ref.q) : NAN;
  char name[200];
  snprintf(name, sizeof name, "%s_%s", pt->base, fd_label(m));
  xp_case *c = xp_case_begin(out, name);
  fd_case_point_params(c, pt, fd_label(m));
  xp_case_param_real(c, "h", s->h, "s");
  xp_case_param_real(c, "rtol", s->rtol, "");
  xp_case_param_real(c, "atol", s->atol, "");
  xp_case_stat_real(c, "wall_time", median, "s");
  xp_case_stat_real(c, "repeats", tm.runs, "");
  fd_timing_stats(c, &tm);
  xp_case_stat_real(c, "error_abs", err_abs, "");
  xp_case_stat_real(c, "error_rel", err_abs / pt->qref_norm, "");
  // an error this close to the reference's own disagreement is not a measurement
  xp_case_stat_real(c, "at_floor", err_abs <= 10 * pt->floor_abs, "");
  xp_case_stat_real(c, "steps", (double)run.steps, "");
  for (int i = 0; i < SIM_INTEGRATOR_STATS; i++)  // the integrator's counters (0: fixed step)
    xp_case_stat_real(c, sim_integrator_stat_key(i), run.ode[i], "");
  xp_case_stat_real(c, "solver_iterations", (double)run.iterations, "");
  // the loop's step policy: steps solved again from the feasible start, steps taken degraded
  xp_case_stat_real(c, "steps_retried", (double)run.retried, "");
  xp_case_stat_real(c, "steps_degraded", (double)run.degraded, "");
  xp_case_stat_real(c, "pressure_max", run.pressure_max, "Pa");
  xp_case_series(c, "q", "m, 1", run.q, FD_NQ);
  xp_case_series(c, "pressure", "Pa", pt->pressure, (size_t)pt->ne);
  xp_case_status(c, run.status, run.message);
  return xp_case_end(c) ? xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out)) : XP_OK;
}

// Table 2's caption: the constraint solver again at the finer step h_fine (no pressure)
static int fd_fine_case(fd_point *pt, const fd_settings *s, double h_fine, int repeats,
                        xp_results *out, xp_error *err) {
  fd_settings fine = *s;
  fine.h = h_fine;
  fd_run run;
  fd_timing tm;
  double median = fd_run_timed(&pt->fd, sim_method_find(fd_sim_names[FD_CONSTRAINT]), &fine,
                               repeats, NULL, &run, &tm);
  double err_abs = run.ok ? fd_q_distance(run.q, pt->ref.q) : NAN;
  char name[200];
  snprintf(name, sizeof name, "%s_fine-step-constraint", pt->base);
  xp_case *c = xp_case_begin(out, name);
  fd_case_point_params(c, pt, "constraint");
  xp_case_param_real(c, "h", h_fine, "s");
  xp_case_stat_real(c, "wall_time", median, "s");
  fd_timing_stats(c, &tm);
  xp_case_stat_real(c, "error_abs", err_abs, "");
  xp_case_stat_real(c, "error_rel", err_abs / pt->qref_norm, "");
  xp_case_stat_real(c, "at_floor", err_abs <= 10 * pt->floor_abs, "");
  xp_case_stat_real(c, "steps", (double)run.steps, "");
  xp_case_series(c, "q", "m, 1", run.q, FD_NQ);
  xp_case_status(c, run.status, run.message);
  return xp_case_end(c) ? xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out)) : XP_OK;
}

// every case of one grid point: the reference, each chosen method, the fine-step run
static int fd_point_cases(const xp_params *prm, const foundation_params *p, const fd_methods *use,
                          const fd_settings *s, xp_results *out, xp_error *err) {
  fd_point pt;
  foundation_init(&pt.fd, p);
  pt.ne = p->n * p->n;
  pt.pressure = malloc((size_t)pt.ne * sizeof *pt.pressure);
  if (!pt.pressure) return xp_fail(err, XP_ERR_RUN, "out of memory");
  xp_case_name(pt.base, sizeof pt.base, 3, (const char *[]){"elements", "E", "F"},
               (double[]){(double)pt.ne, p->E, p->load});
  const int repeats = (int)xp_params_int(prm, "repeats");
  const double h_fine = xp_params_real(prm, "h_fine");
  int rc = fd_reference_case(&pt, s, xp_params_real(prm, "ref_tol"), out, err);
  int constraint = 0;  // Table 2's caption runs the relaxed step again at h_fine
  for (size_t k = 0; rc == XP_OK && k < use->n; k++) {
    rc = fd_method_case(&pt, use->m[k], s, repeats, out, err);
    constraint |= strcmp(use->m[k]->name, fd_sim_names[FD_CONSTRAINT]) == 0;
  }
  if (rc == XP_OK && constraint && h_fine > 0) rc = fd_fine_case(&pt, s, h_fine, repeats, out, err);
  free(pt.pressure);
  return rc;
}

static int fd_run_all(const xp_params *prm, xp_results *out, xp_progress *progress, xp_error *err) {
  fd_methods use;
  if (fd_parse_methods(xp_params_string(prm, "method"), &use, err)) return XP_ERR_USAGE;
  const double *ns, *Es, *Fs;
  size_t nn = xp_params_list(prm, "n", &ns), nE = xp_params_list(prm, "E", &Es),
         nF = xp_params_list(prm, "F", &Fs);
  const sim_method_options base = fd_options(prm);
  const fd_settings s = {.h = xp_params_real(prm, "h"),
                         .T = xp_params_real(prm, "T"),
                         .rtol = base.rtol,
                         .atol = base.atol,
                         .budget = base.wall_budget,
                         .use_bias = (int)xp_params_int(prm, "bias"),
                         .base = base};
  size_t total = nn * nE * nF, done = 0;
  for (size_t in = 0; in < nn; in++)
    for (size_t iE = 0; iE < nE; iE++)
      for (size_t iF = 0; iF < nF; iF++) {
        foundation_params p = foundation_params_default();
        p.n = (int)lround(ns[in]);
        p.E = Es[iE];
        p.load = Fs[iF];
        foundation_params_read(prm, &p);
        if (p.n < 1 || (double)p.n != ns[in])
          return xp_fail(err, XP_ERR_USAGE, "parameter n=%g: must be a positive integer", ns[in]);
        if (foundation_params_check(&p, err)) return XP_ERR_USAGE;
        int rc = fd_point_cases(prm, &p, &use, &s, out, err);
        if (rc != XP_OK) return rc;
        xp_progress_update(progress, (double)++done / (double)total);
      }
  return XP_OK;
}

// ---- report: Tables 1 and 2 beside the paper's -------------------------------------------

// paper A Table 1 (s): [elements 100/900][load 5/50][E 1e7/1e11][constraint, ode15s, ode45]
static const double paper_table1[2][2][2][3] = {
    {{{0.331, 0.302, 28.0}, {0.286, 0.189, 27.4}}, {{0.332, 9.55, 15.5}, {0.396, 5550, 621}}},
    {{{7.40, 4.75, 829}, {8.23, 1.10, 17100}}, {{12.98, 27.3, 346}, {26.00, 2.31, 17400}}}};
// paper A Table 2: absolute error of the constraint solver at h = 0.01 against ode45
static const double paper_table2[2][2][2] = {{{2.96e-5, 2.91e-7}, {0.813, 0.814}},
                                             {{1.98e-5, 2.71e-9}, {1.0e-2, 1.0e-2}}};

static int paper_index(double elements, double F, double E, int *ie, int *iF, int *iE) {
  *ie = elements == 100 ? 0 : elements == 900 ? 1 : -1;
  *iF = F == 5 ? 0 : F == 50 ? 1 : -1;
  *iE = E == 1e7 ? 0 : E == 1e11 ? 1 : -1;
  return *ie >= 0 && *iF >= 0 && *iE >= 0;
}

// the case of a reference case c (element count, E, F) and the prefix of its method cases
static void reference_case(const xp_file *f, const char *c, double *ne, double *E, double *F,
                           char base[200]) {
  xp_file_case_param(f, c, "elements", ne);
  xp_file_case_param(f, c, "E", E);
  xp_file_case_param(f, c, "F", F);
  snprintf(base, 200, "%.*s", (int)(strstr(c, "_reference") - c), c);
}

// Table 1's row of reference case c: each method's wall time (or status), paper A's, the ratios
static void table1_row(const xp_file *f, xp_table *t1, const char *c) {
  double ne = NAN, E = NAN, F = NAN;
  char base[200];
  reference_case(f, c, &ne, &E, &F, base);
  xp_table_cell(t1, "%g", ne), xp_table_cell(t1, "%g N", F), xp_table_cell(t1, "%g", E);
  double t[FD_METHOD_COUNT];
  for (int m = 0; m < FD_METHOD_COUNT; m++) {
    char name[260], status[64] = "";
    snprintf(name, sizeof name, "%s_%s", base, fd_method_names[m]);
    t[m] = NAN;
    if (xp_file_case_status(f, name, status, sizeof status) != 0) {
      xp_table_cell(t1, "—");
      continue;
    }
    xp_file_case_stat(f, name, "wall_time", &t[m]);
    if (strcmp(status, "ok") == 0)
      xp_table_cell(t1, "%.3g", t[m]);
    else
      xp_table_cell(t1, "%s after %.3g", status, t[m]);
  }
  int ie, iF, iE;
  if (paper_index(ne, F, E, &ie, &iF, &iE))
    xp_table_cell(t1, "[%g, %g, %g]", paper_table1[ie][iF][iE][0], paper_table1[ie][iF][iE][1],
                  paper_table1[ie][iF][iE][2]);
  else
    xp_table_cell(t1, "—");
  // speed-ups; "—" where a time is missing (its cell says why)
  const double s1 = t[FD_BDF1] / t[FD_CONSTRAINT], s2 = t[FD_RK45] / t[FD_CONSTRAINT];
  xp_table_cell(t1, s1 == s1 ? "%.3g" : "—", s1);
  xp_table_cell(t1, s2 == s2 ? "%.3g" : "—", s2);
}

// Table 2's row of reference case c: errors of the shown methods, the floor, paper A's, and the
// caption's h = 1e-3 errors (100 elements, 50 N, E = 1e7 and 1e11)
static void table2_row(const xp_file *f, xp_table *t2, const char *c) {
  double ne = NAN, E = NAN, F = NAN, floor_abs = NAN;
  char base[200];
  reference_case(f, c, &ne, &E, &F, base);
  xp_file_case_stat(f, c, "floor_abs", &floor_abs);
  const fd_method shown[4] = {FD_CONSTRAINT, FD_CONSTRAINT_PAPER, FD_BDF1, FD_RK45};
  char cell[4][64];
  double rel = NAN;
  for (int k = 0; k < 4; k++) {
    char name[260];
    double e = NAN, at_floor = 0;
    snprintf(name, sizeof name, "%s_%s", base, fd_method_names[shown[k]]);
    xp_file_case_stat(f, name, "error_abs", &e);
    xp_file_case_stat(f, name, "at_floor", &at_floor);
    if (k == 0) xp_file_case_stat(f, name, "error_rel", &rel);
    char status[32] = "absent";
    xp_file_case_status(f, name, status, sizeof status);
    if (e == e)
      snprintf(cell[k], sizeof cell[k], "%.3g%s", e, at_floor > 0 ? " (at floor)" : "");
    else  // no error without a state at T: the cell says why
      snprintf(cell[k], sizeof cell[k], "— (%s)", strcmp(status, "ok") ? status : "no error");
  }
  int ie, iF, iE;
  char paper[32] = "—";
  if (paper_index(ne, F, E, &ie, &iF, &iE))
    snprintf(paper, sizeof paper, "%.3g", paper_table2[ie][iF][iE]);
  char fine_name[260], fine[64] = "—", paper_fine[32] = "—";
  double e_fine = NAN, h_fine = NAN;
  snprintf(fine_name, sizeof fine_name, "%s_fine-step-constraint", base);
  if (xp_file_case_stat(f, fine_name, "error_abs", &e_fine) == 0 &&
      xp_file_case_param(f, fine_name, "h", &h_fine) == 0)
    snprintf(fine, sizeof fine, "%.3g (h = %g)", e_fine, h_fine);
  if (ne == 100 && F == 50 && (E == 1e7 || E == 1e11))
    snprintf(paper_fine, sizeof paper_fine, "%s", E == 1e7 ? "3.14e-3" : "9.22e-5");
  const char *const row[] = {cell[0], NULL, cell[1], cell[2], cell[3]};
  xp_table_cell(t2, "%g", ne), xp_table_cell(t2, "%g N", F), xp_table_cell(t2, "%g", E);
  for (int k = 0; k < 5; k++)
    if (row[k])
      xp_table_cell(t2, "%s", row[k]);
    else
      xp_table_cell(t2, "%.3g", rel);
  xp_table_cell(t2, "%.3g", floor_abs);
  xp_table_cell(t2, "%s", paper), xp_table_cell(t2, "%s", fine);
  xp_table_cell(t2, "%s", paper_fine);
}

// Tables 1 and 2 beside the paper's, a row per reference case, in reading order
static void write_tables(const xp_file *f, FILE *md) {
  fprintf(
      md,
      "**Table 1 analogue** — wall time [s] to simulate 1 s (median of repeats after a "
      "warm-up, single thread; h = 0.01 for the constraint solver). Paper A's numbers "
      "(MATLAB, its machine) in brackets: [constraint, ode15s order 1, ode45]. " XP_SPEEDUP_HEADER
      ".\n\n");
  static const char *const head1[] = {"elements",
                                      "load",
                                      "E",
                                      "constraint",
                                      "constraint (paper obj.)",
                                      "CVODE BDF1",
                                      "CVODE BDF",
                                      "RK45",
                                      "paper A [constraint, ode15s, ode45]",
                                      "speed-up BDF1 ÷ constraint",
                                      "speed-up RK45 ÷ constraint"};
  xp_table t;
  xp_table_init(&t, 11, head1, NULL);
  for (size_t i = 0; i < xp_file_case_count(f); i++)
    if (strstr(xp_file_case_name(f, i), "_reference")) table1_row(f, &t, xp_file_case_name(f, i));
  xp_table_write(&t, md);
  xp_table_free(&t);
  fprintf(md,
          "\n**Table 2 analogue** — error ‖q − q_ref‖ of the generalised coordinates "
          "(position and unit quaternion) at T against the reference (RK45 at ref_tol); the "
          "reference floor is ‖q_RK45 − q_BDF‖ at that tolerance. \"(at floor)\" marks an "
          "error within 10× of the floor.\n\n");
  static const char *const head2[] = {"elements",
                                      "load",
                                      "E",
                                      "constraint abs.",
                                      "constraint rel.",
                                      "constraint (paper obj.) abs.",
                                      "CVODE BDF1 abs.",
                                      "RK45 abs.",
                                      "reference floor",
                                      "paper A abs.",
                                      "constraint abs. at h_fine",
                                      "paper A at h = 1e-3"};
  xp_table_init(&t, 12, head2, NULL);
  for (size_t i = 0; i < xp_file_case_count(f); i++)
    if (strstr(xp_file_case_name(f, i), "_reference")) table2_row(f, &t, xp_file_case_name(f, i));
  xp_table_write(&t, md);
  xp_table_free(&t);
  fprintf(md,
          "\nPaper A does not state whether gravity acts (default here g = 9.81 m/s², "
          "recorded in the run's parameters). Its 50 N errors (0.81 at 100 elements) are of the "
          "size one gets without weight: `--set g=0` gives ‖q − q_ref‖ = 0.108 for the "
          "constraint solver (100 elements, E = 1e7, 50 N) and 0.047 for RK45 at rtol 1e-3; "
          "with gravity the cube stays seated and every error is small.\n\n");
}

static int fd_report(const char *path, FILE *md, xp_error *err) {
  xp_file *f = xp_file_open(path, err);
  if (!f) return XP_ERR_RUN;
  write_tables(f, md);
  // the same tables as a file of their own next to the results
  char tables[1200];
  snprintf(tables, sizeof tables, "%.*s_tables.md", (int)(strlen(path) - 3), path);
  FILE *t = fopen(tables, "w");
  if (t) {
    fprintf(t, "# Cube on an elastic foundation — paper A Tables 1–2 regenerated\n\n");
    write_tables(f, t);
    fclose(t);
    fprintf(md, "(Also in `%s`.)\n\n", tables);
  }
  xp_file_close(f);
  return XP_OK;
}

static const xp_param_def fd_params[] = {
    {"n", XP_REAL_LIST, "10,30", XP_POSITIVE, "", NULL,
     "elements per side (n×n elements: 100, 900)"},
    {"E", XP_REAL_LIST, "1e7,1e11", XP_POSITIVE, "N/m^2", NULL,
     "Young's modulus of the foundation"},
    {"F", XP_REAL_LIST, "5,50", XP_NONNEGATIVE, "N", NULL,
     "downward load at (s/2)[cos 10t, sin 10t, 1]"},
    {"h", XP_REAL, "0.01", XP_POSITIVE, "s", NULL, "constraint-solver step"},
    {"h_fine", XP_REAL, "1e-3", XP_NONNEGATIVE, "s", NULL,
     "constraint solver again at this step (Table 2's caption: 1e-3; 0: not run)"},
    {"T", XP_REAL, "1", XP_POSITIVE, "s", NULL, "simulated time"},
    FOUNDATION_PARAM_DEFS  // B, g: the scenario's declarations
    {"method", XP_STRING, "paperA-relaxed,paperA-paper,cvode-bdf1,cvode-bdf,rk45", XP_ANY, "", NULL,
     "methods (stabcon list --methods): Table 1's by default, any other that applies to the "
     "foundation; cases of Table 1's are labelled constraint, constraint-paper, cvode-bdf1, "
     "cvode-bdf, rk45"},
    {"ref_tol", XP_REAL, "1e-10", XP_POSITIVE, "", NULL,
     "tolerance of the two reference solutions (RK45, CVODE BDF)"},
    {"repeats", XP_INT, "1", XP_POSITIVE, "", NULL,
     "timed repeats after one warm-up (median reported; --full: 5)"},
    {"bias", XP_INT, "0", XP_NONNEGATIVE, "", NULL,
     "1: include the bias p = M̂Ġv (rank-deficient here: 900 rows on 6 dofs), 0: p = 0"},
    SIM_OPTION_DEFS  // rtol, atol, budget (also of the fixed-step runs), start, …
};

// Table 1's tolerances are MATLAB's defaults (paper A §5.5)
static const char *const fd_defaults[] = {"rtol=1e-3", "atol=1e-6", NULL};

static const char *const fd_full[] = {"repeats=5", NULL};

const xp_experiment xp_experiment_foundation = {
    .name = "foundation",
    .paper_ref = "Paper A §5.5, Tables 1-2, Fig 7",
    .summary = "cube on a stiff elastic foundation: constraint solver vs CVODE BDF1/BDF and RK45",
    .params = fd_params,
    .n_params = sizeof fd_params / sizeof fd_params[0],
    .run = fd_run_all,
    .plot_script = "foundation.gp",
    .in_reproduce = 1,
    .error_stat = "error_abs",
    .report = fd_report,
    .full_size = fd_full,
    .defaults = fd_defaults,
};
