// SPDX-License-Identifier: MIT
// Cost across stiffness regimes: every applicable method on the
// foundation (100 and 900 elements), the incline and the resting stack while the contact
// stiffness sweeps 1e5 … 1e12 Pa, under two protocols side by side:
//   (a) paper A's: fixed h = 0.01 s for the fixed-step methods; the ODE integrators at MATLAB's
//       default tolerances rtol = 1e-3, atol = 1e-6 with output every 0.01 s (paper A §5.5);
//   (b) matched accuracy (SPEC §8, xp_matched_select): for each method and stiffness, the
//       cheapest run whose error at T is at or below `target` and stays there for every tighter
//       rung of a ladder of step sizes (fixed-step methods) or tolerances rtol = atol (ODE
//       integrators), run from cheap to expensive until its end or the budget (the rungs that
//       check a met target share check_budget); "not-decidable" when the target is below the
//       reference floor.
// The error is ‖q(T) − q_ref(T)‖₂ over every generalised coordinate (positions [m], unit
// quaternions [1]; paper A Table 2's norm). The reference is CVODE BDF at ref_tol; its own error
// floor is measured first, against RK45 at ref_tol where RK45 finishes within ref_budget, else
// against CVODE BDF at 10·ref_tol (self-convergence; stated in the case's floor_kind).
//
// Every run goes through the one simulate loop (sim.h); fixed-step runs have no wall budget of
// their own, so a rung whose predicted cost (previous rung × step ratio) exceeds `budget` is not
// run and the method is "not reached" at that stiffness.
//
// Cases:  <scenario>_E=<E>_reference            stats floor_abs, wall_time (BDF reference)
//         <scenario>_E=<E>_<method>_paper       protocol (a): the loop's statistics plus
//                                               error_abs, wall_min, wall_median, cpu_min
//         <scenario>_E=<E>_<method>_matched     protocol (b): the chosen rung (knob = h or tol),
//                                               error_abs, wall_min/median, cpu_min, rungs_run
// Parameters of each case: scenario, method, protocol, E.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xp_stiffness.h"

#include "sim/sim.h"
#include "xp/xp.h"
#include "xp/xp_common.h"
#include "xp/xp_file.h"
#include "xp/xp_matched.h"
#include "xp/xp_report.h"

// ---- the studied slices of the matrix ---------------------------------------------------------

const st_slice st_slices[ST_NSLICES] = {
    {"foundation100",
     "foundation",
     "E",
     {"n=10", "F=5", NULL},
     "cube on a Winkler foundation, 100 elements, 5 N rotating load (paper A §5.5)"},
    {"foundation900",
     "foundation",
     "E",
     {"n=30", "F=5", NULL},
     "cube on a Winkler foundation, 900 elements, 5 N rotating load (paper A §5.5)"},
    {"incline",
     "incline",
     "Estar",
     {"mu=0", NULL},
     "box on four Hertz feet on a 15° ramp, μ = 0 (paper A §6.4; frictionless so that the "
     "stiffness swept is the only stiff term: B_t = 1e6/h would dominate otherwise)"},
    {"stack",
     "stack",
     "E",
     {"n=10", "initial=resting", "mu=0", NULL},
     "resting column of N = 10 Hertz spheres, μ = 0 (paper A §6.5)"},
};

static const st_slice *slice_find(const char *label) {
  for (size_t i = 0; i < ST_NSLICES; i++)
    if (strcmp(st_slices[i].label, label) == 0) return &st_slices[i];
  return NULL;
}

// builds the slice's instance at stiffness E for step h (B_t and similar defaults follow h)
static int slice_instance(const st_slice *s, double E, double h, const sim_scenario **sc,
                          sim_instance *inst, xp_error *err) {
  *sc = sim_scenario_find(s->scenario);
  if (!*sc) return xp_fail(err, XP_ERR_RUN, "scenario %s is not built in", s->scenario);
  xp_params p;
  int rc = xp_params_init(&p, (*sc)->params, (*sc)->n_params, err);
  for (size_t k = 0; rc == XP_OK && s->settings[k]; k++)
    rc = xp_params_set(&p, s->settings[k], err);
  char kv[64];
  snprintf(kv, sizeof kv, "%s=%.17g", s->stiffness, E);
  if (rc == XP_OK) rc = xp_params_set(&p, kv, err);
  if (rc == XP_OK) rc = (*sc)->create(&p, h, inst, err);
  return rc;
}

// ---- one run: the simulate loop with a probe that keeps the final state ---------------------

typedef struct st_final {
  double *q;
  int nq;
} st_final;

static void final_sample(void *ctx, size_t k, double t, const double *q, const double *v,
                         const sim_step_report *rep) {
  (void)k, (void)t, (void)v, (void)rep;
  st_final *f = ctx;
  memcpy(f->q, q, (size_t)f->nq * sizeof *q);
}

// outcome of one run of one method at one setting
typedef struct st_run {
  int ok;            // reached T with every step taken
  char status[32];   // the loop's case status
  double wall, cpu;  // [s]
  double error;      // ‖q(T) − q_ref(T)‖ (NaN if not ok or no reference)
  size_t steps;
} st_run;

static double q_distance(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
  return sqrt(s);
}

// Runs method m on a fresh instance; q_out (nq entries, may be NULL) receives q(T); the error
// is measured against q_ref when given. c (may be NULL) receives the loop's case data.
static int st_run_once(const st_slice *s, double E, const sim_method *m,
                       const sim_method_options *opt, double T, const double *q_ref, double *q_out,
                       xp_case *c, st_run *run, xp_error *err) {
  const sim_scenario *sc;
  sim_instance inst = {0};
  int rc = slice_instance(s, E, opt->h, &sc, &inst, err);
  if (rc != XP_OK) return rc;
  const int nq = inst.model->nq;
  double *q = malloc((size_t)nq * sizeof *q);
  if (!q) {
    sc->free(&inst);
    return xp_fail(err, XP_ERR_RUN, "out of memory");
  }
  st_final fin = {.q = q, .nq = nq};
  sim_probe probe = {.ctx = &fin, .sample = final_sample};
  sim_outcome oc;
  rc = sim_simulate(m, opt, &inst, T, 2, &probe, c, &oc, err);
  if (rc == XP_OK) {
    *run = (st_run){.ok = !oc.failed,
                    .wall = oc.wall_time,
                    .cpu = oc.cpu_time,
                    .steps = oc.steps_taken,
                    .error = NAN};
    snprintf(run->status, sizeof run->status, "%s", oc.status ? oc.status : "failed");
    if (run->ok && q_ref) run->error = q_distance(q, q_ref, nq);
    if (q_out) memcpy(q_out, q, (size_t)nq * sizeof *q);
  }
  free(q);
  sc->free(&inst);
  return rc;
}

// timing of a run repeated (runs under repeat_max seconds only): min and median wall, min CPU
typedef struct st_timing {
  double wall_min, wall_median, cpu_min;
  int timed;
} st_timing;

static int st_time(const st_slice *s, double E, const sim_method *m, const sim_method_options *opt,
                   double T, const st_run *first, int repeats, double repeat_max, st_timing *tm,
                   xp_error *err) {
  double w[32];
  int n = 0;
  w[n++] = first->wall;
  tm->cpu_min = first->cpu;
  for (int r = 1; r < repeats && r < 32 && first->ok && first->wall < repeat_max; r++) {
    st_run again;
    int rc = st_run_once(s, E, m, opt, T, NULL, NULL, NULL, &again, err);
    if (rc != XP_OK) return rc;
    w[n++] = again.wall;
    tm->cpu_min = fmin(tm->cpu_min, again.cpu);
  }
  tm->wall_median = xp_min_median(w, (size_t)n, &tm->wall_min);
  tm->timed = n;
  return XP_OK;
}

// ---- the study ------------------------------------------------------------------------------

typedef struct st_config {
  double T, h, rtol, atol, budget, check_budget, target, ref_tol, ref_budget, repeat_max;
  int repeats, matched, no_bias;
  const double *hs, *tols;
  size_t nh, ntol;
  sim_method_options base;  // the study's method settings (SIM_OPTION_DEFS)
} st_config;

static int is_fixed_step(const sim_method *m) { return m->family != SIM_FAMILY_ODE; }

static xp_case *st_case_begin(xp_results *out, const st_slice *s, double E, const char *method,
                              const char *protocol) {
  char e_txt[32], name[160];
  xp_format_compact(e_txt, sizeof e_txt, E);
  snprintf(name, sizeof name, "%s_E=%s_%s%s%s", s->label, e_txt, method, protocol[0] ? "_" : "",
           protocol);
  xp_case *c = xp_case_begin(out, name);
  if (!c) return NULL;
  xp_case_param_string(c, "scenario", s->label);
  xp_case_param_string(c, "protocol", protocol[0] ? protocol : "reference");
  xp_case_param_real(c, "E", E, "Pa");
  return c;
}

static int st_case_end(xp_results *out, xp_case *c, xp_error *err) {
  if (xp_case_end(c)) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  return XP_OK;
}

static void write_timing(xp_case *c, const st_timing *tm) {
  xp_case_stat_real(c, "wall_min", tm->wall_min, "s");
  xp_case_stat_real(c, "wall_median", tm->wall_median, "s");
  xp_case_stat_real(c, "cpu_min", tm->cpu_min, "s");
  xp_case_stat_real(c, "repeats", tm->timed, "");
}

// The reference at (slice, E): CVODE BDF at ref_tol within ref_budget; its floor against RK45
// at ref_tol (a quarter of the budget), else against CVODE BDF at 10·ref_tol. *have is 0 when
// the reference did not reach T (the errors at this stiffness are then not measured).
static int st_reference(const st_slice *s, double E, const st_config *cf, xp_results *out,
                        double *q_ref, double *floor_abs, int *have, xp_error *err) {
  const sim_method *bdf = sim_method_find("cvode-bdf"), *rk = sim_method_find("rk45");
  sim_method_options o = cf->base;
  o.h = cf->h, o.rtol = o.atol = cf->ref_tol, o.wall_budget = cf->ref_budget;
  st_run a, b = {0};
  int rc = st_run_once(s, E, bdf, &o, cf->T, NULL, q_ref, NULL, &a, err);
  if (rc != XP_OK) return rc;
  const char *kind = "rk45";
  *have = a.ok, *floor_abs = NAN;
  if (a.ok) {
    o.wall_budget = 0.25 * cf->ref_budget;
    rc = st_run_once(s, E, rk, &o, cf->T, q_ref, NULL, NULL, &b, err);
    if (rc == XP_OK && !b.ok) {
      kind = "cvode-bdf at 10 ref_tol";
      o.rtol = o.atol = 10 * cf->ref_tol, o.wall_budget = cf->ref_budget;
      rc = st_run_once(s, E, bdf, &o, cf->T, q_ref, NULL, NULL, &b, err);
    }
    if (rc != XP_OK) return rc;
    *floor_abs = b.error;
  }
  xp_case *c = st_case_begin(out, s, E, "reference", "");
  if (!c) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  xp_case_param_string(c, "method", "cvode-bdf");
  xp_case_param_string(c, "floor_kind", kind);
  xp_case_param_real(c, "ref_tol", cf->ref_tol, "");
  xp_case_stat_real(c, "floor_abs", *floor_abs, "");
  xp_case_stat_real(c, "wall_time", a.wall, "s");
  xp_case_stat_real(c, "floor_wall_time", b.wall, "s");
  xp_case_status(c, a.ok ? "ok" : "no-reference",
                 a.ok ? NULL : "CVODE BDF at ref_tol did not reach T within ref_budget");
  return st_case_end(out, c, err);
}

// protocol (a): the paper's settings
static int st_paper(const st_slice *s, double E, const sim_method *m, const st_config *cf,
                    const double *q_ref, double floor_abs, xp_results *out, st_run *run,
                    xp_error *err) {
  sim_method_options o = cf->base;
  o.h = cf->h;
  xp_case *c = st_case_begin(out, s, E, m->name, "paper");
  if (!c) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  int rc = st_run_once(s, E, m, &o, cf->T, q_ref, NULL, c, run, err);
  if (rc != XP_OK) return rc;
  st_timing tm;
  rc = st_time(s, E, m, &o, cf->T, run, cf->repeats, cf->repeat_max, &tm, err);
  if (rc != XP_OK) return rc;
  write_timing(c, &tm);
  run->wall = tm.wall_min;
  xp_case_param_real(c, "rtol", cf->rtol, "");
  xp_case_param_real(c, "atol", cf->atol, "");
  xp_case_param_real(c, "budget", cf->budget, "s");
  xp_case_stat_real(c, "error_abs", run->error, "");
  xp_case_stat_real(c, "at_floor", run->error <= 10 * floor_abs, "");
  return st_case_end(out, c, err);
}

// the rungs of protocol (b)'s ladder and what they cost
typedef struct st_ladder {
  st_run runs[XP_MAX_LIST];
  xp_matched_point pts[XP_MAX_LIST];
  int rungs;
  double spent, best_err;
  const char *why;  // why no rung may be chosen (if none is)
} st_ladder;

// Runs the ladder from cheap to expensive, past the first rung that meets the target to check
// the tighter ones, until its end or the budget. *over_budget: the cheapest rung already ran out
// of the budget.
static int st_ladder_run(const st_slice *s, double E, const sim_method *m, const st_config *cf,
                         const double *q_ref, double floor_abs, sim_method_options *o, st_ladder *l,
                         int *over_budget, xp_error *err) {
  const int fixed = is_fixed_step(m);
  const double *knobs = fixed ? cf->hs : cf->tols;
  double prev_wall = NAN, prev_h = NAN, checking = 0;
  l->rungs = 0, l->spent = 0, l->best_err = INFINITY;
  l->why = "every rung missed the target or a tighter one missed it again";
  // a target below the reference floor is not decidable: nothing to run. Once a rung meets the
  // target, the tighter rungs that check it stays met share check_budget
  const size_t nrun = cf->target < floor_abs ? 0 : fixed ? cf->nh : cf->ntol;
  for (size_t k = 0; k < nrun; k++) {
    const int met = l->best_err <= cf->target;
    if (met && checking >= cf->check_budget) break;
    if (fixed) {
      // a step that divides T (3e-3 into 0.1 s would end at 0.099 s and measure the missing
      // millisecond of motion, not the step's accuracy)
      o->h = cf->T / fmax(1, round(cf->T / knobs[k]));
      // no wall budget inside a fixed-step run: predict its cost from the previous rung
      if (isfinite(prev_wall) && prev_wall * prev_h / o->h > cf->budget) {
        if (!met) l->why = "the next step size would exceed the budget";
        break;
      }
    } else {
      o->rtol = o->atol = knobs[k];
    }
    st_run *r = &l->runs[l->rungs];
    int rc = st_run_once(s, E, m, o, cf->T, q_ref, NULL, NULL, r, err);
    if (rc != XP_OK) return rc;
    l->spent += r->wall;
    if (!r->ok && strcmp(r->status, "did-not-finish") == 0) {
      // past the budget: the rungs not run are not part of the ladder
      if (!met) l->why = "the wall-time budget ran out";
      *over_budget = l->rungs == 0;
      break;
    }
    // cost within one method: a fixed-step run's step count (its single-run wall time of a few
    // µs is noise that would flip the choice between runs), an integrator's wall time
    l->pts[l->rungs++] = (xp_matched_point){fixed ? o->h : knobs[k], r->ok ? r->error : NAN,
                                            fixed ? (double)r->steps : r->wall};
    prev_wall = r->wall, prev_h = o->h;
    if (met) checking += r->wall;
    if (r->ok && r->error < l->best_err) l->best_err = r->error;
  }
  return XP_OK;
}

// protocol (b)'s case: the rule's choice from the ladder, timed, with every rung run
static int st_matched_write(const st_slice *s, double E, const sim_method *m, const st_config *cf,
                            double floor_abs, const st_ladder *l, sim_method_options *o,
                            xp_results *out, xp_error *err) {
  const int fixed = is_fixed_step(m);
  const int rungs = l->rungs;
  const char *why = l->why;
  const int pick = xp_matched_select(l->pts, (size_t)rungs, cf->target, floor_abs);
  if (pick == XP_MATCHED_UNDECIDABLE) why = xp_matched_outcome_name(pick);
  const double knob = pick >= 0 ? l->pts[pick].knob : NAN;
  xp_case *c = st_case_begin(out, s, E, m->name, "matched");
  if (!c) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  xp_case_param_string(c, "method", m->name);
  xp_case_param_real(c, "target", cf->target, "");
  xp_case_param_string(c, "knob", fixed ? "h" : "tol");
  xp_case_stat_real(c, fixed ? "h" : "tol", knob, fixed ? "s" : "");
  xp_case_stat_real(c, "rungs_run", rungs, "");
  xp_case_stat_real(c, "search_wall_time", l->spent, "s");
  // every rung run, so the choice can be checked against the rule
  double lk[XP_MAX_LIST], le[XP_MAX_LIST];
  for (int k = 0; k < rungs; k++) lk[k] = l->pts[k].knob, le[k] = l->pts[k].error;
  xp_case_series(c, "ladder_knob", fixed ? "s" : "", lk, (size_t)rungs);
  xp_case_series(c, "ladder_error", "", le, (size_t)rungs);
  xp_case_stat_real(c, "error_best", isfinite(l->best_err) ? l->best_err : NAN, "");
  if (pick >= 0) {
    if (fixed)
      o->h = knob;
    else
      o->rtol = o->atol = knob;
    const st_run best = l->runs[pick];
    st_timing tm;
    int rc = st_time(s, E, m, o, cf->T, &best, cf->repeats, cf->repeat_max, &tm, err);
    if (rc != XP_OK) return rc;
    write_timing(c, &tm);
    xp_case_stat_real(c, "wall_time", tm.wall_min, "s");
    xp_case_stat_real(c, "error_abs", best.error, "");
    xp_case_stat_real(c, "steps", (double)best.steps, "");
    xp_case_stat_real(c, "at_floor", best.error <= 10 * floor_abs, "");
    xp_case_status(c, "ok", NULL);
  } else {
    xp_case_stat_real(c, "wall_time", NAN, "s");
    xp_case_stat_real(c, "error_abs", NAN, "");
    xp_case_status(c, pick == XP_MATCHED_UNDECIDABLE ? "not-decidable" : "not-reached", why);
  }
  return st_case_end(out, c, err);
}

// protocol (b): the ladder's rung chosen by the one matched-accuracy rule (xp_matched_select),
// then timed
static int st_matched(const st_slice *s, double E, const sim_method *m, const st_config *cf,
                      const double *q_ref, double floor_abs, xp_results *out, int *over_budget,
                      xp_error *err) {
  sim_method_options o = cf->base;
  o.h = cf->h;
  st_ladder *l = malloc(sizeof *l);
  if (!l) return xp_fail(err, XP_ERR_RUN, "out of memory");
  int rc = st_ladder_run(s, E, m, cf, q_ref, floor_abs, &o, l, over_budget, err);
  if (rc == XP_OK) rc = st_matched_write(s, E, m, cf, floor_abs, l, &o, out, err);
  free(l);
  return rc;
}

// parses the comma list of slices into labels
static int parse_slices(const char *text, const st_slice **list, size_t *n, xp_error *err) {
  char buf[256], *save = NULL;
  snprintf(buf, sizeof buf, "%s", text);
  *n = 0;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    const st_slice *s = slice_find(tok);
    if (!s || *n == ST_NSLICES)
      return xp_fail(err, XP_ERR_USAGE,
                     "parameter scenarios=%s: '%s' is not one of foundation100, foundation900, "
                     "incline, stack (each at most once)",
                     text, tok);
    list[(*n)++] = s;
  }
  return *n ? XP_OK : xp_fail(err, XP_ERR_USAGE, "parameter scenarios: empty list");
}

// the methods to run: "applicable" is every method but the rigid-DAE reference (ida): these
// scenarios all have contact rows
static int parse_methods(const char *text, const sim_method **list, size_t *n, xp_error *err) {
  return sim_methods_parse(text, SIM_FAMILY_COMPLIANT, NULL, list, ST_MAX_METHODS, n, err);
}

// a run that is recorded, not run (its outcome is known from a lower stiffness, or there is no
// reference): NaN time and error, the status and why
static int st_not_run(xp_results *out, const st_slice *slice, double E, const sim_method *m,
                      const char *protocol, const char *time_key, const char *status,
                      const char *why, xp_error *err) {
  xp_case *c = st_case_begin(out, slice, E, m->name, protocol);
  if (!c) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  xp_case_param_string(c, "method", m->name);
  xp_case_stat_real(c, time_key, NAN, "s");
  xp_case_stat_real(c, "error_abs", NAN, "");
  xp_case_status(c, status, why);
  return st_case_end(out, c, err);
}

// the study's method settings (SIM_OPTION_DEFS and its bias)
static sim_method_options st_options(const xp_params *prm) {
  sim_method_options o = sim_method_options_default();
  sim_method_options_read(prm, &o);
  o.no_bias = xp_params_int(prm, "bias") == 0;
  return o;
}

static int st_run_all(const xp_params *prm, xp_results *out, xp_progress *progress, xp_error *err) {
  const st_slice *slices[ST_NSLICES];
  const sim_method *methods[ST_MAX_METHODS];
  size_t ns, nm;
  if (parse_slices(xp_params_string(prm, "scenarios"), slices, &ns, err)) return XP_ERR_USAGE;
  if (parse_methods(xp_params_string(prm, "method"), methods, &nm, err)) return XP_ERR_USAGE;
  st_config cf = {.T = xp_params_real(prm, "T"),
                  .h = xp_params_real(prm, "h"),
                  .rtol = xp_params_real(prm, "rtol"),
                  .atol = xp_params_real(prm, "atol"),
                  .budget = xp_params_real(prm, "budget"),
                  .check_budget = xp_params_real(prm, "check_budget"),
                  .target = xp_params_real(prm, "target"),
                  .ref_tol = xp_params_real(prm, "ref_tol"),
                  .ref_budget = xp_params_real(prm, "ref_budget"),
                  .repeat_max = xp_params_real(prm, "repeat_max"),
                  .repeats = (int)xp_params_int(prm, "repeats"),
                  .matched = (int)xp_params_int(prm, "matched"),
                  .no_bias = xp_params_int(prm, "bias") == 0,
                  .base = st_options(prm)};
  if (!(cf.budget > 0))
    return xp_fail(err, XP_ERR_USAGE,
                   "parameter budget=%g: this study needs a budget > 0 (it "
                   "predicts each rung's cost against it)",
                   cf.budget);
  cf.nh = xp_params_list(prm, "h_ladder", &cf.hs);
  cf.ntol = xp_params_list(prm, "tol_ladder", &cf.tols);
  const double *Es;
  const size_t nE = xp_params_list(prm, "E", &Es);
  const size_t total = ns * nE;
  size_t done = 0;
  for (size_t i = 0; i < ns; i++) {
    // RK45's step is bounded by stability (h ≲ 3/ω, ω ∝ √E): once a run exceeds the budget at
    // one stiffness it exceeds it at every larger one, so those runs are recorded, not run
    int rk45_over[2] = {0, 0};
    for (size_t k = 0; k < nE; k++) {
      const sim_scenario *sc;
      sim_instance probe_inst = {0};
      int rc = slice_instance(slices[i], Es[k], cf.h, &sc, &probe_inst, err);
      if (rc != XP_OK) return rc;
      const int nq = probe_inst.model->nq;
      sc->free(&probe_inst);
      double *q_ref = malloc((size_t)nq * sizeof *q_ref), floor_abs = NAN;
      if (!q_ref) return xp_fail(err, XP_ERR_RUN, "out of memory");
      int have = 0;
      rc = st_reference(slices[i], Es[k], &cf, out, q_ref, &floor_abs, &have, err);
      const double *qr = have ? q_ref : NULL;
      for (size_t j = 0; rc == XP_OK && j < nm; j++) {
        const sim_method *m = methods[j];
        if (!(sc->methods & m->family)) continue;
        const int rk45 = strcmp(m->name, "rk45") == 0;
        st_run run = {0};
        if (rk45 && rk45_over[0]) {
          rc = st_not_run(out, slices[i], Es[k], m, "paper", "wall_min", "did-not-finish",
                          "skipped: over the budget at a lower stiffness", err);
        } else {
          rc = st_paper(slices[i], Es[k], m, &cf, qr, floor_abs, out, &run, err);
          if (rk45 && strcmp(run.status, "did-not-finish") == 0) rk45_over[0] = 1;
        }
        if (rc == XP_OK && cf.matched) {
          if (!have || (rk45 && rk45_over[1])) {
            rc = st_not_run(out, slices[i], Es[k], m, "matched", "wall_time",
                            have ? "not-reached" : "no-reference",
                            have ? "skipped: over the budget at a lower stiffness"
                                 : "skipped: no reference at this stiffness",
                            err);
          } else {
            int over = 0;
            rc = st_matched(slices[i], Es[k], m, &cf, q_ref, floor_abs, out, &over, err);
            if (rk45 && over) rk45_over[1] = 1;
          }
        }
      }
      free(q_ref);
      if (rc != XP_OK) return rc;
      xp_progress_update(progress, (double)++done / (double)total);
    }
  }
  return XP_OK;
}

// ---- declaration ----------------------------------------------------------------------------

static const xp_param_def st_params[] = {
    {"scenarios", XP_STRING, "foundation100,incline,stack", XP_ANY, "", NULL,
     "comma list of foundation100, foundation900, incline, stack (foundation900, in --full: "
     "the longest)"},
    {"E", XP_REAL_LIST, "1e5,1e6,1e7,1e8,1e9,1e10,1e11,1e12", XP_POSITIVE, "Pa", NULL,
     "contact stiffness: the foundation's E, the Hertz modulus of the incline and stack"},
    {"method", XP_STRING, "applicable", XP_ANY, "", NULL,
     "comma list of methods (stabcon list --methods) or 'applicable'"},
    {"T", XP_REAL, "0.1", XP_POSITIVE, "s", NULL, "simulated time (paper: 1; --full: 1)"},
    {"h", XP_REAL, "0.01", XP_POSITIVE, "s", NULL,
     "protocol (a): fixed step; the ODE integrators' output interval (paper A)"},
    {"matched", XP_INT, "1", XP_NONNEGATIVE, "", NULL, "1: also protocol (b), matched accuracy"},
    {"target", XP_REAL, "1e-6", XP_POSITIVE, "", NULL,
     "protocol (b): error target for ‖q(T) − q_ref(T)‖ [m, 1]"},
    {"h_ladder", XP_REAL_LIST, "1e-2,3e-3,1e-3,3e-4,1e-4,3e-5,1e-5", XP_POSITIVE, "s", NULL,
     "protocol (b): step sizes tried by the fixed-step methods, cheap first"},
    {"tol_ladder", XP_REAL_LIST, "1e-3,1e-4,1e-5,1e-6,1e-7,1e-8", XP_POSITIVE, "", NULL,
     "protocol (b): rtol = atol tried by the ODE integrators, cheap first"},
    {"ref_tol", XP_REAL, "1e-8", XP_POSITIVE, "", NULL,
     "reference: CVODE BDF at rtol = atol = ref_tol"},
    {"ref_budget", XP_REAL, "20", XP_POSITIVE, "s", NULL,
     "wall budget of the reference (a quarter of it for the RK45 floor check)"},
    {"check_budget", XP_REAL, "0.5", XP_POSITIVE, "s", NULL,
     "protocol (b): wall time shared by the tighter rungs that check a met target stays met "
     "(rungs past it are not part of the ladder)"},
    {"repeats", XP_INT, "3", XP_POSITIVE, "", NULL,
     "timed runs of each short setting (min and median reported; --full: 5)"},
    {"repeat_max", XP_REAL, "0.5", XP_POSITIVE, "s", NULL, "runs longer than this are timed once"},
    {"bias", XP_INT, "0", XP_NONNEGATIVE, "", NULL,
     "1: paper A's step and the penalty ODE include the bias p = M̂Ġv; 0: p = 0 (the "
     "foundation study's default; a dense solve per right-hand side otherwise)"},
    SIM_OPTION_DEFS  // rtol, atol (protocol a), budget (every timed run), start, …
};

// protocol (a): MATLAB's default tolerances (paper A §5.5); each timed run's budget
// (--full: 20); every conic solve starts cold
static const char *const st_defaults[] = {"rtol=1e-3", "atol=1e-6", "budget=2", "start=cold", NULL};

static const char *const st_full[] = {"scenarios=foundation100,foundation900,incline,stack", "T=1",
                                      "budget=20", "repeats=5", NULL};

const xp_experiment xp_experiment_stiffness = {
    .name = "stiffness",
    .paper_ref = "Paper A §5.5-6.5 across stiffness (not a paper figure)",
    .summary = "wall time and error vs contact stiffness 1e5…1e12, paper and matched accuracy",
    .params = st_params,
    .n_params = sizeof st_params / sizeof st_params[0],
    .run = st_run_all,
    .plot_script = "stiffness.gp",
    .error_stat = "error_abs",
    .report = st_report,
    .full_size = st_full,
    .defaults = st_defaults,
    .in_reproduce = 1,
};
