// SPDX-License-Identifier: MIT
// The stiffness study's REPORT section (xp_stiffness.c runs it): where paper A's relaxed step
// becomes cheaper than the ODE integrators, the matched-accuracy speed-ups at E = 1e11, and each
// scenario's time tables under both protocols — every table built as data (xp_table) from the
// results file.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "xp/xp_common.h"
#include "xp/xp_file.h"
#include "xp/xp_matched.h"
#include "xp/xp_report.h"
#include "xp_stiffness.h"

enum { ST_MAX_E = XP_MAX_LIST };

// the grid of one slice and protocol read back: E values and the time of each method
typedef struct st_grid {
  size_t nE;
  double E[ST_MAX_E];
} st_grid;

// wall time of a case: wall_min (protocol a), wall_time (matched); NaN if absent
static double case_time(const xp_file *f, const char *label, double E, const char *method,
                        const char *protocol, char *status, size_t len) {
  char e_txt[32], name[160];
  xp_format_compact(e_txt, sizeof e_txt, E);
  snprintf(name, sizeof name, "%s_E=%s_%s_%s", label, e_txt, method, protocol);
  double t = NAN;
  snprintf(status, len, "—");
  if (xp_file_case_status(f, name, status, len) != 0) return NAN;
  xp_file_case_stat(f, name, strcmp(protocol, "paper") == 0 ? "wall_min" : "wall_time", &t);
  return t;
}

static double case_stat(const xp_file *f, const char *label, double E, const char *method,
                        const char *protocol, const char *key) {
  char e_txt[32], name[160];
  xp_format_compact(e_txt, sizeof e_txt, E);
  snprintf(name, sizeof name, "%s_E=%s_%s_%s", label, e_txt, method, protocol);
  double v = NAN;
  xp_file_case_stat(f, name, key, &v);
  return v;
}

// the E values of a slice present in the file, ascending
static void slice_grid(const xp_file *f, const char *label, st_grid *g) {
  g->nE = 0;
  const size_t ll = strlen(label);
  for (size_t i = 0; i < xp_file_case_count(f); i++) {
    const char *c = xp_file_case_name(f, i);
    if (strncmp(c, label, ll) != 0 || strncmp(c + ll, "_E=", 3) != 0 || !strstr(c, "_reference"))
      continue;
    double E = NAN;
    if (xp_file_case_param(f, c, "E", &E) == 0 && g->nE < ST_MAX_E) g->E[g->nE++] = E;
  }
  qsort(g->E, g->nE, sizeof g->E[0], xp_cmp_double);
}

// Where method `a` becomes cheaper than `b` for good: the stiffness from which on t_b/t_a ≥ 1
// at every grid point (b over the budget or missing the target counts as slower), interpolated
// log-linearly inside the interval where the ratio crosses 1. Points where `a` has no result
// (no reference, a over the budget) are left out and counted in the text.
static void crossover_text(const xp_file *f, const char *label, const st_grid *g,
                           const char *protocol, const char *a, const char *b, char *out,
                           size_t len) {
  double r[ST_MAX_E], E[ST_MAX_E];
  char st[64];
  size_t n = 0, skipped = 0;
  for (size_t k = 0; k < g->nE; k++) {
    const double ta = case_time(f, label, g->E[k], a, protocol, st, sizeof st);
    const int a_ok = strcmp(st, "ok") == 0 || strcmp(st, "degraded") == 0;
    const double tb = case_time(f, label, g->E[k], b, protocol, st, sizeof st);
    const int b_ok = strcmp(st, "ok") == 0 || strcmp(st, "degraded") == 0;
    const int b_none =
        strcmp(st, "no-reference") == 0 || strcmp(st, "not-decidable") == 0 || strcmp(st, "—") == 0;
    if (!a_ok || !(ta > 0) || b_none) {
      skipped++;
      continue;
    }
    E[n] = g->E[k], r[n++] = b_ok ? tb / ta : INFINITY;
  }
  size_t from = n;
  while (from > 0 && r[from - 1] >= 1) from--;
  char tail[64] = "";
  if (skipped) snprintf(tail, sizeof tail, " (%zu E without a result left out)", skipped);
  if (n == 0) {
    snprintf(out, len, "%s has no result at any E (target not met within the budget)", a);
  } else if (from == 0) {
    snprintf(out, len, "≤ %g Pa: cheaper over the whole range%s", E[0], tail);
  } else if (from == n) {
    snprintf(out, len, "never within %g … %g Pa%s", E[0], E[n - 1], tail);
  } else if (!isfinite(r[from])) {
    snprintf(out, len, "between %g and %g Pa%s", E[from - 1], E[from], tail);
  } else {
    const double l0 = log10(E[from - 1]), l1 = log10(E[from]);
    const double x =
        l0 + (l1 - l0) * (0 - log10(r[from - 1])) / (log10(r[from]) - log10(r[from - 1]));
    snprintf(out, len, "%.2g Pa%s", pow(10, x), tail);
  }
}

static const char *const st_cell_ok[] = {"ok", "degraded"};

// one cell of a time table: wall time and error (paper) or the setting reached (matched)
static void time_cell(xp_table *t, const xp_file *f, const char *label, double E,
                      const char *method, const char *protocol) {
  char st[64];
  const double tm = case_time(f, label, E, method, protocol, st, sizeof st);
  const double e = case_stat(f, label, E, method, protocol, "error_abs");
  const int ok = strcmp(st, st_cell_ok[0]) == 0 || strcmp(st, st_cell_ok[1]) == 0;
  if (ok && strcmp(protocol, "matched") == 0) {
    const double hk = case_stat(f, label, E, method, protocol, "h");
    const double tk = case_stat(f, label, E, method, protocol, "tol");
    xp_table_cell(t, "%.3g (%s %g)", tm, isfinite(hk) ? "h" : "tol", isfinite(hk) ? hk : tk);
  } else if (ok && e == e) {
    xp_table_cell(t, "%.3g / %.1e", tm, e);
  } else if (ok) {  // a run that finished has an error unless the reference did not
    xp_table_cell(t, "%.3g / — (no reference)", tm);
  } else {
    xp_table_cell(t, "%s", st);  // "—" when absent
  }
}

static void time_table(FILE *md, const xp_file *f, const char *label, const st_grid *g,
                       const char *protocol, const char *const *methods, size_t nm) {
  const char *head[1 + ST_MAX_METHODS] = {"E [Pa]"};
  for (size_t j = 0; j < nm; j++) head[1 + j] = methods[j];
  xp_table t;
  xp_table_init(&t, 1 + nm, head, NULL);
  for (size_t k = 0; k < g->nE; k++) {
    xp_table_cell(&t, "%g", g->E[k]);
    for (size_t j = 0; j < nm; j++) time_cell(&t, f, label, g->E[k], methods[j], protocol);
  }
  xp_table_write(&t, md);
  xp_table_free(&t);
  fprintf(md, "\n");
}

// the methods present in the file, in registry order
static size_t file_methods(const xp_file *f, const char **methods) {
  size_t n = 0;
  for (size_t i = 0; sim_methods[i] && n < ST_MAX_METHODS; i++) {
    char pat[64];
    snprintf(pat, sizeof pat, "_%s_paper", sim_methods[i]->name);
    for (size_t c = 0; c < xp_file_case_count(f); c++)
      if (strstr(xp_file_case_name(f, c), pat)) {
        methods[n++] = sim_methods[i]->name;
        break;
      }
  }
  return n;
}

// the protocols in words: what runs, the reference, the budget
static void st_report_intro(FILE *md, const xp_file *f) {
  char target[32] = "?", budget[32] = "?", T[32] = "?", ref_tol[32] = "?", check[32] = "?";
  xp_file_param(f, "check_budget", check, sizeof check);
  xp_file_param(f, "target", target, sizeof target),
      xp_file_param(f, "budget", budget, sizeof budget);
  xp_file_param(f, "T", T, sizeof T), xp_file_param(f, "ref_tol", ref_tol, sizeof ref_tol);
  fprintf(md,
          "Not a paper table: paper A times its methods at E ∈ {1e7, 1e11} only. Here every "
          "method runs while the contact stiffness sweeps, T = %s s, under (a) paper A's "
          "protocol (h = 0.01 s; ODE integrators at rtol = 1e-3, atol = 1e-6, MATLAB's "
          "defaults, output every 0.01 s) and (b) matched accuracy: the cheapest run whose "
          "error ‖q(T) − q_ref(T)‖ is ≤ %s and stays there for every tighter rung of a ladder of "
          "h or of rtol = atol run cheap to expensive, the rungs that check it sharing %s s (the "
          "rule of the work-precision studies too; a target below the reference floor is not "
          "decidable). Reference: CVODE BDF at rtol "
          "= atol = %s; its "
          "floor is measured against RK45 at the same tolerance (CVODE BDF at 10× where RK45 "
          "does not finish). Each run has a wall-time budget of %s s (fixed-step runs: a rung "
          "predicted to exceed it is not run). Times are the minimum over repeats of runs "
          "under 0.5 s (median and CPU time in the results file).\n\n",
          T, target, check, ref_tol, budget);
}

// from which stiffness paper A's relaxed step is cheaper than each ODE integrator, per scenario
// and protocol
static void st_crossover_table(FILE *md, const xp_file *f) {
  fprintf(md,
          "**Crossover stiffness** — from where on paper A's constraint solver "
          "(`paperA-relaxed`) is cheaper than CVODE BDF1 and than RK45:\n\n");
  static const char *const head[] = {"scenario", "protocol", "vs cvode-bdf1", "vs rk45",
                                     "vs cvode-bdf"};
  static const char *const against[] = {"cvode-bdf1", "rk45", "cvode-bdf"};
  xp_table t;
  xp_table_init(&t, 5, head, NULL);
  for (size_t i = 0; i < ST_NSLICES; i++) {
    st_grid g;
    slice_grid(f, st_slices[i].label, &g);
    if (!g.nE) continue;
    static const char *const protocols[] = {"paper", "matched"};
    for (size_t p = 0; p < 2; p++) {
      xp_table_cell(&t, "%s", st_slices[i].label);
      xp_table_cell(&t, "%s", p ? "(b) matched" : "(a) paper");
      for (size_t k = 0; k < 3; k++) {
        char c[96];
        crossover_text(f, st_slices[i].label, &g, protocols[p], "paperA-relaxed", against[k], c,
                       sizeof c);
        xp_table_cell(&t, "%s", c);
      }
    }
  }
  xp_table_write(&t, md);
  xp_table_free(&t);
}

// wall time of each method over paper A's relaxed step at matched accuracy and E = 1e11
static void st_cost_ratio_table(FILE *md, const xp_file *f, const char *const *methods, size_t nm) {
  fprintf(md,
          "\n**Matched-accuracy speed-up at E = 1e11** (wall time of each method ÷ that of "
          "`paperA-relaxed`: " XP_SPEEDUP_HEADER "):\n\n");
  const char *head[1 + ST_MAX_METHODS] = {"scenario"};
  for (size_t j = 0; j < nm; j++) head[1 + j] = methods[j];
  xp_table t;
  xp_table_init(&t, 1 + nm, head, NULL);
  for (size_t i = 0; i < ST_NSLICES; i++) {
    st_grid g;
    slice_grid(f, st_slices[i].label, &g);
    if (!g.nE) continue;
    char st[64];
    const double ta =
        case_time(f, st_slices[i].label, 1e11, "paperA-relaxed", "matched", st, sizeof st);
    xp_table_cell(&t, "%s", st_slices[i].label);
    for (size_t j = 0; j < nm; j++) {
      const double tm =
          case_time(f, st_slices[i].label, 1e11, methods[j], "matched", st, sizeof st);
      if (strcmp(st, "ok") == 0 && isfinite(ta))
        xp_table_cell(&t, "%.3g", tm / ta);
      else if (strcmp(st, "ok") == 0)
        xp_table_cell(&t, "%.3g s (no ratio)", tm);
      else
        xp_table_cell(&t, "%s", st);
    }
  }
  xp_table_write(&t, md);
  xp_table_free(&t);
  fprintf(md, "\n");
}

// per scenario: the time tables of both protocols and the reference's floor per E
static void st_slice_tables(FILE *md, const xp_file *f, const char *const *methods, size_t nm) {
  char target[32] = "?";
  xp_file_param(f, "target", target, sizeof target);
  for (size_t i = 0; i < ST_NSLICES; i++) {
    st_grid g;
    slice_grid(f, st_slices[i].label, &g);
    if (!g.nE) continue;
    fprintf(md, "*%s* — %s.\n\n(a) paper protocol: wall time [s] / error at T:\n\n",
            st_slices[i].label, st_slices[i].what);
    time_table(md, f, st_slices[i].label, &g, "paper", methods, nm);
    fprintf(md, "(b) matched accuracy (error ≤ %s): wall time [s] (setting reached):\n\n", target);
    time_table(md, f, st_slices[i].label, &g, "matched", methods, nm);
    fprintf(md, "Reference floor ‖q_BDF − q_second‖ per E:");
    for (size_t k = 0; k < g.nE; k++) {
      char e_txt[32], name[160];
      xp_format_compact(e_txt, sizeof e_txt, g.E[k]);
      snprintf(name, sizeof name, "%s_E=%s_reference", st_slices[i].label, e_txt);
      double fl = NAN;
      xp_file_case_stat(f, name, "floor_abs", &fl);
      char st[32] = "absent";
      xp_file_case_status(f, name, st, sizeof st);
      if (fl == fl)
        fprintf(md, " %s: %.2g;", e_txt, fl);
      else
        fprintf(md, " %s: — (%s);", e_txt, strcmp(st, "ok") ? st : "not measured");
    }
    fprintf(md, "\n\n");
  }
}

// The θ-methods' model difference from the penalty ODE, in the file's numbers: theta-implicit's
// largest overlap on the 100-element foundation at the two stiffest E, and its error range on the
// resting stack for E ≥ 1e8 (paper protocol)
static void st_theta_model_text(FILE *md, const xp_file *f) {
  st_grid g;
  slice_grid(f, "foundation100", &g);
  const double e_hi = g.nE >= 2 ? g.E[g.nE - 1] : NAN, e_lo = g.nE >= 2 ? g.E[g.nE - 2] : NAN;
  const double d_lo = case_stat(f, "foundation100", e_lo, "theta-implicit", "paper",
                                "penetration_max"),
               d_hi = case_stat(f, "foundation100", e_hi, "theta-implicit", "paper",
                                "penetration_max");
  slice_grid(f, "stack", &g);
  double err_min = INFINITY, err_max = -INFINITY;
  for (size_t k = 0; k < g.nE; k++) {
    if (g.E[k] < 1e8) continue;
    const double e = case_stat(f, "stack", g.E[k], "theta-implicit", "paper", "error_abs");
    if (e == e) err_min = fmin(err_min, e), err_max = fmax(err_max, e);
  }
  fprintf(md,
          "\nThe θ-methods integrate paper B's convex compliant contact (regularised with "
          "β = 1, σ = 1e-3), not the penalty ODE of the reference, so their error includes "
          "the model difference");
  char lo_txt[32], hi_txt[32];
  xp_format_compact(lo_txt, sizeof lo_txt, e_lo);
  xp_format_compact(hi_txt, sizeof hi_txt, e_hi);
  if (d_lo == d_lo && d_hi == d_hi)
    fprintf(md,
            ": theta-implicit's largest overlap on the 100-element foundation is %.2g m at E = "
            "%s Pa and %.2g m at %s Pa (the penalty model's shrinks as 1/E)",
            d_lo, lo_txt, d_hi, hi_txt);
  if (err_min <= err_max)
    fprintf(md, "%sits error ‖q − q_ref‖ on the resting stack is %.2g … %.2g for E ≥ 1e8 Pa",
            d_lo == d_lo && d_hi == d_hi ? "; " : ": ", err_min, err_max);
  fprintf(md, ".\n");
}

// the REPORT section in reading order: text, crossover table, speed-up table, per-scenario tables
int st_report(const char *path, FILE *md, xp_error *err) {
  xp_file *f = xp_file_open(path, err);
  if (!f) return XP_ERR_RUN;
  const char *methods[ST_MAX_METHODS];
  const size_t nm = file_methods(f, methods);
  st_report_intro(md, f);
  st_crossover_table(md, f);
  st_theta_model_text(md, f);
  st_cost_ratio_table(md, f, methods, nm);
  st_slice_tables(md, f, methods, nm);
  xp_file_close(f);
  return XP_OK;
}
