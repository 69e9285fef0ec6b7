// SPDX-License-Identifier: MIT
// Cost per step against problem size: every applicable method on the
// foundation (n×n elements) and the resting sphere stack (N spheres), each run `repeats` times
// through the one simulate loop; the minimum and the median over the repeats of the wall and CPU
// time per step (per output interval of h for the adaptive integrators, whose own step count is
// stored beside it), and the least-squares exponent p of cost ∝ size^p per method.
//
// A run that spends its wall budget before T still measures its cost per completed interval
// (status did-not-finish, kept in the fit: the cost of an interval does not depend on finishing).
//
// Cases:  <scenario>_size=<size>_<method>   params scenario, method, size (elements or spheres);
//         stats wall_step_min, wall_step_median, cpu_step_min, cpu_step_median [s], repeats,
//         steps, iterations_mean (per step: solver iterations; an adaptive integrator's own
//         steps per output interval); paper A's methods also flops_step, the operations of the
//         step's factorisations and triangular solves (common/sc_work.h), the same in every
//         repeat: the cost measure the machine's load does not move
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "xp/xp.h"
#include "xp/xp_common.h"
#include "xp/xp_file.h"

enum { SC_MAX_REPEATS = 64, SC_MAX_METHODS = 16 };

// One scaled scenario: its size parameter and fixed settings.
typedef struct sc_family {
  const char *scenario;     // sim scenario
  const char *size_key;     // parameter that sets the size (n: elements per side; n: spheres)
  const char *list_key;     // this experiment's list of sizes
  int squared;              // 1: size = value² (foundation elements)
  const char *settings[4];  // fixed "key=value" (NULL-terminated)
  const char *what;
} sc_family;

static const sc_family sc_families[] = {
    {"foundation",
     "n",
     "foundation_n",
     1,
     {"E=1e7", "F=5", NULL},
     "foundation, E = 1e7 Pa, 5 N: size = elements (n²)"},
    {"stack",
     "n",
     "stack_n",
     0,
     {"initial=resting", NULL},
     "resting stack, E = 1e11 Pa, μ = 0.5, B_t = 1e6/h: size = spheres N (3 rows each)"},
};
enum { SC_NFAMILIES = sizeof sc_families / sizeof sc_families[0] };

static int sc_instance(const sc_family *fam, long value, double h, const sim_scenario **sc,
                       sim_instance *inst, xp_error *err) {
  const char *settings[5];
  size_t n = 0;
  while (n < 4 && fam->settings[n]) settings[n] = fam->settings[n], n++;
  char kv[64];
  snprintf(kv, sizeof kv, "%s=%ld", fam->size_key, value);
  settings[n++] = kv;
  return sim_instance_make(fam->scenario, settings, n, h, sc, inst, err);
}

// sums each step's iterations (interior-point or Newton iterations; an adaptive integrator's
// own steps in the output interval)
static void sum_iterations(void *ctx, size_t k, double t, const double *q, const double *v,
                           const sim_step_report *rep) {
  (void)k, (void)t, (void)q, (void)v;
  if (rep) *(double *)ctx += rep->iterations;
}

typedef struct sc_sample {
  double wall, cpu;   // per completed step [s]
  double iterations;  // per completed step
  double flops;       // per completed step
  size_t steps;
  int ok;
  char status[32];
} sc_sample;

// one run through the simulate loop; costs per completed step
static int sc_run_once(const sc_family *fam, long value, const sim_method *m,
                       const sim_method_options *opt, double T, sc_sample *out, xp_error *err) {
  const sim_scenario *sc;
  sim_instance inst = {0};
  int rc = sc_instance(fam, value, opt->h, &sc, &inst, err);
  if (rc != XP_OK) return rc;
  double iterations = 0;
  sim_probe probe = {.ctx = &iterations, .sample = sum_iterations};
  sim_outcome oc;
  rc = sim_simulate(m, opt, &inst, T, 2, &probe, NULL, &oc, err);
  sc->free(&inst);
  if (rc != XP_OK) return rc;
  const double n = oc.steps_taken ? (double)oc.steps_taken : NAN;
  *out = (sc_sample){.wall = oc.wall_time / n,
                     .cpu = oc.cpu_time / n,
                     .steps = oc.steps_taken,
                     .iterations = iterations / n,
                     .flops = oc.flops / n,
                     .ok = !oc.failed};
  snprintf(out->status, sizeof out->status, "%s", oc.status ? oc.status : "failed");
  return XP_OK;
}

static double median_sorted(const double *x, int n) {
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

static int sc_case(const sc_family *fam, long value, const sim_method *m,
                   const sim_method_options *opt, double T, int repeats, xp_results *out,
                   xp_error *err) {
  double wall[SC_MAX_REPEATS], cpu[SC_MAX_REPEATS];
  sc_sample s = {0};
  int n = 0;
  for (int r = 0; r < repeats && r < SC_MAX_REPEATS; r++) {
    int rc = sc_run_once(fam, value, m, opt, T, &s, err);
    if (rc != XP_OK) return rc;
    if (!(s.steps > 0)) break;
    wall[n] = s.wall, cpu[n] = s.cpu, n++;
    if (!s.ok) break;  // a run over the budget is timed once
  }
  qsort(wall, (size_t)n, sizeof *wall, xp_cmp_double);
  qsort(cpu, (size_t)n, sizeof *cpu, xp_cmp_double);
  const double size = fam->squared ? (double)(value * value) : (double)value;
  char name[128], sz[32];
  xp_format_compact(sz, sizeof sz, size);
  snprintf(name, sizeof name, "%s_size=%s_%s", fam->scenario, sz, m->name);
  xp_case *c = xp_case_begin(out, name);
  if (!c) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  xp_case_param_string(c, "scenario", fam->scenario);
  xp_case_param_string(c, "method", m->name);
  xp_case_param_real(c, "size", size, "");
  xp_case_param_real(c, "h", opt->h, "s");
  xp_case_stat_real(c, "wall_step_min", n ? wall[0] : NAN, "s");
  xp_case_stat_real(c, "wall_step_median", n ? median_sorted(wall, n) : NAN, "s");
  xp_case_stat_real(c, "cpu_step_min", n ? cpu[0] : NAN, "s");
  xp_case_stat_real(c, "cpu_step_median", n ? median_sorted(cpu, n) : NAN, "s");
  xp_case_stat_real(c, "repeats", n, "");
  xp_case_stat_real(c, "steps", (double)s.steps, "");
  xp_case_stat_real(c, "iterations_mean", s.iterations, "");
  // every factorisation and solve of paper A's step goes through a counted kernel; the other
  // families' linear algebra (SUNDIALS, GSL, the θ-method's cone stage, the peers) does not
  if (m->family == SIM_FAMILY_PAPER_A) xp_case_stat_real(c, "flops_step", s.flops, "");
  xp_case_status(c, n ? s.status : "failed", n ? NULL : "no step completed");
  if (xp_case_end(c)) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  return XP_OK;
}

// the methods to run: "applicable" is every method but the rigid-DAE reference (ida): these
// scenarios all have contact rows; a peer (mujoco, when built) runs where the scenario has a scene
static int parse_methods(const char *text, const sim_method **list, size_t *n, xp_error *err) {
  return sim_methods_parse(text, SIM_FAMILY_COMPLIANT | SIM_FAMILY_PEER, NULL, list, SC_MAX_METHODS,
                           n, err);
}

// whether method m applies to family f's scenario (the peer: only the stack)
static int sc_applies(const sc_family *fam, const sim_method *m) {
  const sim_scenario *sc = sim_scenario_find(fam->scenario);
  return sc && (sc->methods & m->family);
}

static int sc_run_all(const xp_params *prm, xp_results *out, xp_progress *progress, xp_error *err) {
  const sim_method *methods[SC_MAX_METHODS];
  size_t nm;
  if (parse_methods(xp_params_string(prm, "method"), methods, &nm, err)) return XP_ERR_USAGE;
  const double h = xp_params_real(prm, "h");
  const double T = h * (double)xp_params_int(prm, "steps");
  const int repeats = (int)xp_params_int(prm, "repeats");
  sim_method_options base = sim_method_options_default();
  sim_method_options_read(prm, &base);
  base.h = h, base.no_bias = xp_params_int(prm, "bias") == 0;
  size_t total = 0, done = 0;
  for (size_t f = 0; f < SC_NFAMILIES; f++) {
    const double *v;
    const size_t nv = xp_params_list(prm, sc_families[f].list_key, &v);
    for (size_t j = 0; j < nm; j++) total += sc_applies(&sc_families[f], methods[j]) ? nv : 0;
  }
  for (size_t f = 0; f < SC_NFAMILIES; f++) {
    const double *vals;
    const size_t nv = xp_params_list(prm, sc_families[f].list_key, &vals);
    for (size_t k = 0; k < nv; k++) {
      const long value = lround(vals[k]);
      if (value < 1 || (double)value != vals[k])
        return xp_fail(err, XP_ERR_USAGE, "parameter %s: %g is not a positive integer",
                       sc_families[f].list_key, vals[k]);
      for (size_t j = 0; j < nm; j++) {
        if (!sc_applies(&sc_families[f], methods[j])) continue;
        int rc = sc_case(&sc_families[f], value, methods[j], &base, T, repeats, out, err);
        if (rc != XP_OK) return rc;
        xp_progress_update(progress, (double)++done / (double)total);
      }
    }
  }
  return XP_OK;
}

// ---- report -----------------------------------------------------------------------------------

enum { SC_MAX_SIZES = 64 };

static int sc_report(const char *path, FILE *md, xp_error *err) {
  xp_file *f = xp_file_open(path, err);
  if (!f) return XP_ERR_RUN;
  char steps[32] = "?", repeats[32] = "?", h[32] = "?";
  xp_file_param(f, "steps", steps, sizeof steps),
      xp_file_param(f, "repeats", repeats, sizeof repeats);
  xp_file_param(f, "h", h, sizeof h);
  fprintf(md,
          "Cost per step (h = %s s; per output interval of h for the adaptive integrators) "
          "against problem size, %s steps per run, %s runs per point: minimum and median of the "
          "wall time per step, minimum CPU time; p is the least-squares exponent of the minimum "
          "wall time ∝ size^p over every size measured, and of the operations of paper A's "
          "factorisations and triangular solves per step (flops: the same on an idle or a loaded "
          "machine, which the times are not). Runs over the wall budget are timed "
          "once over the intervals they completed. Paper A §5.5 states that its constraint "
          "solver scales cubically with the number of elements.\n\n",
          h, steps, repeats);
  for (size_t fi = 0; fi < SC_NFAMILIES; fi++) {
    const sc_family *fam = &sc_families[fi];
    fprintf(md,
            "*%s* — %s.\n\n| method | p (wall min) | p (CPU min) | p (flops) | sizes: wall min "
            "/ median [µs/step] |\n|---|---|---|---|---|\n",
            fam->scenario, fam->what);
    for (size_t j = 0; sim_methods[j]; j++) {
      double x[SC_MAX_SIZES], w[SC_MAX_SIZES], cp[SC_MAX_SIZES], fl[SC_MAX_SIZES];
      size_t n = 0;
      char cells[1600] = "";
      for (size_t i = 0; i < xp_file_case_count(f) && n < SC_MAX_SIZES; i++) {
        const char *c = xp_file_case_name(f, i);
        const size_t ls = strlen(fam->scenario), lm = strlen(sim_methods[j]->name), lc = strlen(c);
        if (strncmp(c, fam->scenario, ls) != 0 || strncmp(c + ls, "_size=", 6) != 0 || lc <= lm ||
            strcmp(c + lc - lm, sim_methods[j]->name) != 0 || c[lc - lm - 1] != '_')
          continue;
        double med = NAN;
        x[n] = w[n] = cp[n] = fl[n] = NAN;
        xp_file_case_param(f, c, "size", &x[n]);
        xp_file_case_stat(f, c, "wall_step_min", &w[n]);
        xp_file_case_stat(f, c, "wall_step_median", &med);
        xp_file_case_stat(f, c, "cpu_step_min", &cp[n]);
        xp_file_case_stat(f, c, "flops_step", &fl[n]);
        char cell[80];
        snprintf(cell, sizeof cell, "%s%g: %.3g / %.3g", n ? "; " : "", x[n], 1e6 * w[n],
                 1e6 * med);
        if (strlen(cells) + strlen(cell) < sizeof cells) strcat(cells, cell);
        n++;
      }
      if (!n) continue;
      const double pf = xp_loglog_slope(x, fl, n, NULL);
      char pft[16] = "–";
      if (isfinite(pf)) snprintf(pft, sizeof pft, "%.2f", pf);
      fprintf(md, "| %s | %.2f | %.2f | %s | %s |\n", sim_methods[j]->name,
              xp_loglog_slope(x, w, n, NULL), xp_loglog_slope(x, cp, n, NULL), pft, cells);
    }
    fprintf(md, "\n");
  }
  xp_file_close(f);
  return XP_OK;
}

static const xp_param_def sc_params[] = {
    {"foundation_n", XP_REAL_LIST, "2,4,8,16,32", XP_POSITIVE, "", NULL,
     "foundation elements per side (n² elements; --full adds 48)"},
    {"stack_n", XP_REAL_LIST, "1,3,10,30", XP_POSITIVE, "", NULL,
     "spheres in the resting stack (--full adds 100, 300, 1000)"},
    {"method", XP_STRING, "applicable", XP_ANY, "", NULL,
     "comma list of methods (stabcon list --methods) or 'applicable'"},
    {"h", XP_REAL, "0.01", XP_POSITIVE, "s", NULL, "step; output interval of the integrators"},
    {"steps", XP_INT, "10", XP_POSITIVE, "", NULL, "steps (output intervals) per run"},
    {"repeats", XP_INT, "5", XP_POSITIVE, "", NULL, "runs per point (min and median)"},
    {"bias", XP_INT, "0", XP_NONNEGATIVE, "", NULL,
     "1: paper A's step and the penalty ODE include the bias p = M̂Ġv; 0: p = 0"},
    SIM_OPTION_DEFS  // rtol, atol, budget (each ODE run, then timed over the intervals done), …
};

// ODE tolerances of paper A §5.5; each ODE run's wall budget; every conic solve starts cold
static const char *const sc_defaults[] = {"rtol=1e-3", "atol=1e-6", "budget=0.5", "start=cold",
                                          NULL};

static const char *const sc_full[] = {"foundation_n=2,4,8,16,32,48",
                                      "stack_n=1,3,10,30,100,300,1000", "budget=5", NULL};

const xp_experiment xp_experiment_scaling = {
    .defaults = sc_defaults,
    .name = "scaling",
    .paper_ref = "Paper A §5.5-6.5 cost vs size (not a paper figure)",
    .summary = "cost per step vs element count and N, every method, min/median of repeats",
    .params = sc_params,
    .n_params = sizeof sc_params / sizeof sc_params[0],
    .run = sc_run_all,
    .plot_script = "scaling.gp",
    .error_stat = "wall_step_min",
    .report = sc_report,
    .full_size = sc_full,
    .in_reproduce = 1,
};
