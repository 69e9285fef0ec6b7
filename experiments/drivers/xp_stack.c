// SPDX-License-Identifier: MIT
// Stack of spheres (paper A §6.5, Fig 10): wall time to simulate T = 1 s against the number of
// spheres N, the per-step cost with its fitted exponent, and the statics of a settled stack.
//
// Cases:  cost_N=<N>   one run of T from the mid-air release: stats wall_time [s], us_per_step,
//                      contacts_final, vmax_final (largest speed at T), settled (vmax_final <
//                      settle_v and every contact loaded), load_err_max (if settled), steps_not_ok,
//                      flops_step (paper A's methods: operations of the factorisations and
//                      triangular solves per step, common/sc_work.h; NaN for other methods) and
//                      its factors flops_step = N · rows_per_sphere · factorizations_step ·
//                      flops_per_factorization_row (active rows per sphere, sparse factorisations
//                      per step, operations per factorisation and active row, its solves and
//                      the bodies' blocks included), with resolved_share (steps re-solved: rows
//                      joining or stiffening) and the factorisations per re-solved and per other
//                      step
//         rest_N=<N>   the same from the resting stack
//         scaling      series N, wall_time, us_per_step (dropped), wall_time_rest,
//                      us_per_step_rest, flops_per_step(_rest), and the factors' series
//                      (rows_per_sphere, factorizations_step, flops_per_factorization_row,
//                      resolved_share; _rest); stats fitted_exponent(_rest) (least squares of
//                      log us_per_step on log N over N ≥ fit_n_min), fitted_exponent_flops(_rest)
//                      (of log flops_per_step: the cost exponent that the machine's load does
//                      not move) and the factors' exponents fitted_exponent_<factor>(_rest),
//                      which with 1 sum to it (a least-squares slope is linear in log y)
//         settle_N=<N> a longer run (settle_T) of settle_n spheres: series contact, lambda_n,
//                      statics ((N − c) m g: the weight above contact c), rel_err; time series
//                      t, vmax, top_height; stats load_err_max, settled
//         pile_N=<N>   pile_n spheres dropped between four walls for pile_T (the simulate loop's
//                      series and statistics)
// The dropped cost run of the largest N and the pile keep `frames` per-body frames (the
// case's bodies group: the scene snapshots of `stabcon plot`, `export --xdmf`).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbs/mbs.h"
#include "scenarios/stack.h"
#include "sim/sim.h"
#include "xp/xp.h"
#include "xp/xp_common.h"
#include "xp/xp_file.h"
#include "xp/xp_report.h"
// what this study measures beside the simulate loop: the largest speed, the top sphere's height
// and, at the end, each contact's load against the weight above it
typedef struct st_meas {
  int n;
  double m, g, vsettle;
  double vmax, load_err, top;
  int contacts, settled;
  double *lam, *stat, *rel;  // n each (settle case), owned by the caller or NULL
  double *tt, *vm, *th;      // steps + 1 each or NULL
  // settle case (or NULL): total energy per step (steps + 1), and at the end each sphere's height
  // and speed and each contact's overlap (n each); the largest rise of the energy over a step
  double *en, *zf, *sf, *df;
  // settle case (or NULL): every sphere's height and speed every `stride` steps (and at the last
  // step), sample-major (n per sample), at the times ht; nh samples taken, at most hcap
  double *ht, *hz, *hs;
  size_t stride, nh, hcap, last;
  size_t frames;  // per-body frames the case stores (0: none)
  const stack *s;
  double e_prev, e_rise;
  // the cost breakdown over the steps: active rows, sparse factorisations, and those of the steps
  // re-solved (speculative activation: rows joining or stiffening as the column lands)
  double rows_sum, fact_sum, fact_resolved, steps, steps_resolved;
} st_meas;

static double st_vmax(const double *v, int n) {
  double vm = 0;
  for (int j = 0; j < 6 * n; j++)  // largest linear speed [m/s] (angular rates excluded)
    if (j % 6 < 3) vm = fmax(vm, fabs(v[j]));
  return vm;
}

// statics after the last step: the contact below sphere c carries the weight of spheres c … n−1
static void st_statics(st_meas *o, const sim_step_report *rep) {
  const mdl_rows *rows = rep->rows;
  o->contacts = 0, o->load_err = 0;
  int loaded = 0;
  for (int r = 0; r < rows->n; r++) {
    if (rows->kind[r] != MDL_ROW_NORMAL) continue;
    const int c = rows->contact[r], active = rows->phi[r] <= 0;  // paper A §5.2
    // normal force on the upper sphere c: λ times the norm of its translational Jacobian entries
    // (1 with the default Hertz row; (3/2)√d with hertz=paper, whose λ is a pseudo-force)
    double g2 = 0;
    for (int k = rows->start[r]; k < rows->start[r + 1]; k++)
      if (rows->col[k] >= 6 * c && rows->col[k] < 6 * c + 3) g2 += rows->val[k] * rows->val[k];
    const double force = rep->force[r] * sqrt(g2);
    const double w = (double)(o->n - c) * o->m * o->g, e = fabs(force - w) / w;
    o->contacts += active;
    loaded += active && rep->force[r] > 0;
    o->load_err = fmax(o->load_err, e);
    if (o->lam) o->lam[c] = force, o->stat[c] = w, o->rel[c] = (force - w) / w;
  }
  o->settled = o->vmax < o->vsettle && loaded == o->n;
}

static void st_sample(void *ctx, size_t k, double t, const double *q, const double *v,
                      const sim_step_report *rep) {
  st_meas *o = ctx;
  o->vmax = st_vmax(v, o->n), o->top = q[7 * (o->n - 1) + 2];
  if (rep) {
    const int resolved = rep->resolves > 0;
    o->steps++, o->rows_sum += rep->rows_active, o->fact_sum += rep->factorizations;
    o->steps_resolved += resolved, o->fact_resolved += resolved ? rep->factorizations : 0;
  }
  if (o->tt) o->tt[k] = t, o->vm[k] = o->vmax, o->th[k] = o->top;
  if (rep && rep->rows && rep->force) st_statics(o, rep);
  if (!o->en) return;
  const double e = stack_energy(o->s, q, v);
  o->en[k] = e;
  if (k > 0) o->e_rise = fmax(o->e_rise, e - o->e_prev);
  o->e_prev = e;
  for (int i = 0; i < o->n; i++) {  // overwritten every step: the last sample stays
    const double *vi = v + 6 * i;
    o->zf[i] = q[7 * i + 2], o->sf[i] = sqrt(vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2]);
    o->df[i] = stack_contact_depth(o->s, q, i);
  }
  if (o->ht && (k % o->stride == 0 || k == o->last) && o->nh < o->hcap) {
    o->ht[o->nh] = t;
    memcpy(o->hz + o->nh * (size_t)o->n, o->zf, sizeof(double) * (size_t)o->n);
    memcpy(o->hs + o->nh * (size_t)o->n, o->sf, sizeof(double) * (size_t)o->n);
    o->nh++;
  }
}

// one run of T through the simulate loop into case c (its series and statistics, then this
// study's measurements in o); XP_OK or an XP_ERR_* code (a failed step is the case's status)
static int st_simulate(const xp_params *prm, int n, double T, int rest, xp_case *c, st_meas *o,
                       sim_outcome *oc, xp_error *err) {
  const double h = xp_params_real(prm, "h");
  stack s;
  stack_params p = stack_params_default();
  p.n = n;
  if (stack_params_read(prm, h, &p, err)) return XP_ERR_USAGE;
  if (stack_init(&s, &p)) return xp_fail(err, XP_ERR_RUN, "out of memory (stack of %d)", n);
  double *q = malloc(13 * (size_t)n * sizeof *q), *v = q ? q + 7 * (size_t)n : NULL;
  if (!q) return stack_free(&s), xp_fail(err, XP_ERR_RUN, "out of memory");
  if (rest)
    stack_resting_state(&s, q, v);
  else
    stack_initial_state(&s, q, v);
  *o = (st_meas){.n = n,
                 .m = p.m,
                 .g = p.g,
                 .vsettle = xp_params_real(prm, "settle_v"),
                 .lam = o->lam,
                 .stat = o->stat,
                 .rel = o->rel,
                 .tt = o->tt,
                 .vm = o->vm,
                 .th = o->th,
                 .en = o->en,
                 .zf = o->zf,
                 .sf = o->sf,
                 .df = o->df,
                 .ht = o->ht,
                 .hz = o->hz,
                 .hs = o->hs,
                 .stride = o->stride,
                 .hcap = o->hcap,
                 .last = o->last,
                 .frames = o->frames,
                 .s = &s,
                 .e_rise = -INFINITY};
  sim_method_options opt = sim_method_options_default();
  sim_method_options_read(prm, &opt);
  opt.h = h, opt.frames = o->frames;
  const sim_instance inst = {.model = &s.model, .q0 = q, .v0 = v, .data = &s};
  sim_probe probe = {.ctx = o, .sample = st_sample};
  const size_t steps = (size_t)llround(T / h);
  int rc = sim_simulate(sim_method_find(xp_params_string(prm, "method")), &opt, &inst, T,
                        o->tt ? steps + 1 : 201, &probe, c, oc, err);
  free(q), stack_free(&s);
  return rc;
}

// the exponent p of y ∝ N^p over the sizes N ≥ nmin
static double fit_exponent(const double *n, const double *y, size_t k, double nmin) {
  double xs[XP_MAX_LIST], ys[XP_MAX_LIST];
  size_t m = 0;
  for (size_t i = 0; i < k && m < XP_MAX_LIST; i++)
    if (n[i] >= nmin) xs[m] = n[i], ys[m++] = y[i];
  return xp_loglog_slope(xs, ys, m, NULL);
}

// the study's case label of its method: paper A's formulation name for paper A's step
static const char *st_label(const xp_params *prm) {
  static const char *const names[] = {"paperA-coulomb", "paperA-relaxed", "paperA-paper"};
  static const char *const labels[] = {"coulomb", "relaxed", "paper"};
  return sim_study_label(sim_method_find(xp_params_string(prm, "method")), names, labels, 3);
}

// the factors of flops_step (their product with N) and the share of steps re-solved: the
// scaling case's series and the report's breakdown
enum { ST_ROWS, ST_FACT, ST_FPR, ST_RESOLVED, ST_FACTORS };
static const char *const st_factor_keys[ST_FACTORS] = {
    "rows_per_sphere", "factorizations_step", "flops_per_factorization_row", "resolved_share"};

// the breakdown of a run's counted work into case c and fac (NaN where not counted)
static void cost_factors(xp_case *c, const st_meas *o, int n, double flops,
                         double fac[ST_FACTORS]) {
  const double steps = o->steps > 0 ? o->steps : NAN, rows = o->rows_sum / steps;
  const double fact = o->fact_sum / steps, other = o->steps - o->steps_resolved;
  const int counted = isfinite(flops);
  fac[ST_ROWS] = counted ? rows / n : NAN;
  fac[ST_FACT] = counted ? fact : NAN;
  fac[ST_FPR] = counted && fact * rows > 0 ? flops / (fact * rows) : NAN;
  fac[ST_RESOLVED] = counted ? o->steps_resolved / steps : NAN;
  for (int k = 0; k < ST_FACTORS; k++) xp_case_stat_real(c, st_factor_keys[k], fac[k], "");
  xp_case_stat_real(c, "factorizations_resolved",
                    counted && o->steps_resolved > 0 ? o->fact_resolved / o->steps_resolved : NAN,
                    "");
  xp_case_stat_real(c, "factorizations_other",
                    counted && other > 0 ? (o->fact_sum - o->fact_resolved) / other : NAN, "");
}

// one cost run of N spheres (dropped or resting) into case cost_N / rest_N; the per-step cost
// into *us (NaN if a step failed), the factors of its operations into fac
static int cost_case(const xp_params *prm, int n, int rest, size_t frames, xp_results *out,
                     double *wall, double *us, double *flops, double fac[ST_FACTORS],
                     xp_error *err) {
  st_meas o = {.frames = frames};
  sim_outcome oc;
  char name[64];
  snprintf(name, sizeof name, "%s_N=%d", rest ? "rest" : "cost", n);
  xp_case *c = xp_case_begin(out, name);
  xp_case_param_real(c, "N", n, "");
  xp_case_param_string(c, "formulation", st_label(prm));
  xp_case_param_string(c, "qcp_start", xp_params_string(prm, "start"));
  xp_case_param_string(c, "activation", xp_params_string(prm, "activation"));
  xp_case_param_string(c, "start", rest ? "resting (static overlaps)" : "dropped (mid-air, gap)");
  int rc = st_simulate(prm, n, xp_params_real(prm, "T"), rest, c, &o, &oc, err);
  if (rc != XP_OK) return rc;
  xp_case_stat_real(c, "contacts_final", o.contacts, "");
  xp_case_stat_real(c, "vmax_final", o.vmax, "m/s");
  xp_case_stat_real(c, "settled", !oc.failed && o.settled, "");
  xp_case_stat_real(c, "load_err_max", !oc.failed && o.settled ? o.load_err : NAN, "");
  xp_case_stat_real(c, "top_height", o.top, "m");
  xp_case_stat_real(c, "steps_not_ok", (double)oc.steps_degraded, "");
  // every factorisation and solve of paper A's step goes through a counted kernel (sc_work.h);
  // other methods' linear algebra does not: no count for them
  const double steps = (double)(oc.steps_taken ? oc.steps_taken : 1);
  const int counted =
      sim_method_find(xp_params_string(prm, "method"))->family == SIM_FAMILY_PAPER_A;
  *flops = counted && !oc.failed ? oc.flops / steps : NAN;
  xp_case_stat_real(c, "flops_step", *flops, "");
  cost_factors(c, &o, n, *flops, fac);
  // the landing in free fall: sphere i, released (i + 1) gaps above its resting height, lands
  // at √(2 (i + 1) gap / g); from the bottom sphere's landing to the top one's, as a share of T
  // (the steps the column spends landing; NaN from rest or without gravity)
  const double T = xp_params_real(prm, "T"), gap = xp_params_real(prm, "gap");
  const double g = xp_params_real(prm, "g");
  const double land =
      !rest && g > 0 ? (fmin(T, sqrt(2 * n * gap / g)) - fmin(T, sqrt(2 * gap / g))) / T : NAN;
  xp_case_stat_real(c, "landing_share_fall", land, "");
  // the timing protocol: the written run and repeats − 1 more (writing nothing); the figure and
  // the fitted exponents take the minimum, the least disturbed by other load on the machine
  enum { REPEATS_MAX = 64 };
  double walls[REPEATS_MAX] = {oc.wall_time}, cpus[REPEATS_MAX] = {oc.cpu_time};
  size_t nr = 1;
  const long repeats = xp_params_int(prm, "repeats");
  for (; !oc.failed && nr < (size_t)repeats && nr < REPEATS_MAX; nr++) {
    st_meas o2 = {0};
    sim_outcome oc2;
    rc = st_simulate(prm, n, xp_params_real(prm, "T"), rest, NULL, &o2, &oc2, err);
    if (rc != XP_OK) return rc;
    walls[nr] = oc2.failed ? NAN : oc2.wall_time, cpus[nr] = oc2.failed ? NAN : oc2.cpu_time;
  }
  double wmin, cmin;
  const double wmed = xp_min_median(walls, nr, &wmin), cmed = xp_min_median(cpus, nr, &cmin);
  xp_case_stat_real(c, "repeats", (double)nr, "");
  xp_case_stat_real(c, "wall_time_min", wmin, "s");
  xp_case_stat_real(c, "wall_time_median", wmed, "s");
  xp_case_stat_real(c, "cpu_time_min", cmin, "s");
  xp_case_stat_real(c, "cpu_time_median", cmed, "s");
  if (xp_case_end(c)) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  *wall = oc.failed ? NAN : wmin, *us = oc.failed ? NAN : 1e6 * wmin / steps;
  return XP_OK;
}

// a case of n spheres from the given start with the study's contact settings
static xp_case *st_case_begin(const xp_params *prm, xp_results *out, const char *name, int n,
                              const char *start) {
  xp_case *c = xp_case_begin(out, name);
  xp_case_param_real(c, "N", n, "");
  xp_case_param_string(c, "start", start);
  xp_case_param_string(c, "formulation", st_label(prm));
  xp_case_param_string(c, "activation", xp_params_string(prm, "activation"));
  return c;
}

// the dropped stack of settle_n spheres over settle_T: speeds and top height over time, and each
// contact's load against the weight above it at the end
static int settle_case(const xp_params *prm, xp_results *out, xp_error *err) {
  const int n = (int)xp_params_int(prm, "settle_n");
  const double Ts = xp_params_real(prm, "settle_T");
  size_t steps;
  if (xp_step_count(Ts, xp_params_real(prm, "h"), &steps, err)) return XP_ERR_USAGE;
  // every sphere over time, decimated to at most ST_HISTORY samples (plus the last step)
  enum { ST_HISTORY = 50 };
  const size_t stride = steps / ST_HISTORY + 1, hcap = steps / stride + 2;
  const size_t nb = 7 * (size_t)n + 4 * (steps + 1) + hcap * (1 + 2 * (size_t)n);
  double *b = malloc(nb * sizeof *b);
  if (!b) return xp_fail(err, XP_ERR_RUN, "out of memory");
  for (size_t k = 0; k < nb; k++) b[k] = NAN;  // a run that stops early leaves NaN, not garbage
  st_meas o = {.lam = b,
               .stat = b + n,
               .rel = b + 2 * n,
               .tt = b + 3 * n,
               .vm = b + 3 * n + (steps + 1),
               .th = b + 3 * n + 2 * (steps + 1),
               .en = b + 3 * n + 3 * (steps + 1),
               .zf = b + 3 * n + 4 * (steps + 1),
               .sf = b + 4 * n + 4 * (steps + 1),
               .df = b + 5 * n + 4 * (steps + 1),
               .ht = b + 7 * n + 4 * (steps + 1),
               .stride = stride,
               .hcap = hcap,
               .last = steps};
  o.hz = o.ht + hcap, o.hs = o.hz + hcap * (size_t)n;
  double *cidx = b + 6 * n + 4 * (steps + 1);
  for (int i = 0; i < n; i++) cidx[i] = i;
  char name[64];
  snprintf(name, sizeof name, "settle_N=%d", n);
  xp_case *c = st_case_begin(prm, out, name, n, "dropped (mid-air, gap)");
  sim_outcome oc;
  int rc = st_simulate(prm, n, Ts, 0, c, &o, &oc, err);
  if (rc != XP_OK) return free(b), rc;
  xp_case_series(c, "vmax", "m/s", o.vm, steps + 1);
  xp_case_series(c, "top_height", "m", o.th, steps + 1);
  xp_case_series(c, "contact", "", cidx, (size_t)n);
  xp_case_series(c, "lambda_n", "N", o.lam, (size_t)n);
  xp_case_series(c, "statics", "N", o.stat, (size_t)n);
  xp_case_series(c, "rel_err", "", o.rel, (size_t)n);
  // what a reader checks: total energy per step (kinetic + gravity + Hertz, beside the
  // loop's `energy`, which by the model's contract leaves the contact springs out), each sphere
  // and contact at the end
  xp_case_series(c, "energy_total", "J", o.en, steps + 1);
  xp_case_series(c, "sphere_z_final", "m", o.zf, (size_t)n);
  xp_case_series(c, "sphere_speed_final", "m/s", o.sf, (size_t)n);
  xp_case_series(c, "overlap_final", "m", o.df, (size_t)n);
  // over time, decimated: sample j's sphere i at [j·N + i]
  xp_case_series(c, "history_t", "s", o.ht, o.nh);
  xp_case_series(c, "history_sphere_z", "m", o.hz, o.nh * (size_t)n);
  xp_case_series(c, "history_sphere_speed", "m/s", o.hs, o.nh * (size_t)n);
  xp_case_stat_real(c, "energy_total_rise_max", o.e_rise, "J");
  xp_case_stat_real(c, "load_err_max", o.load_err, "");
  xp_case_stat_real(c, "settled", !oc.failed && o.settled, "");
  xp_case_stat_real(c, "vmax_final", o.vmax, "m/s");
  xp_case_stat_real(c, "steps_not_ok", (double)oc.steps_degraded, "");
  free(b);
  if (xp_case_end(c)) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  return XP_OK;
}

// a pile of pile_n spheres dropped between four walls with the stack's contact settings, through
// the simulate loop (energy, load, … over time) with its per-body history
static int pile_case(const xp_params *prm, size_t frames, xp_results *out, xp_error *err) {
  const int n = (int)xp_params_int(prm, "pile_n");
  if (n < 1) return XP_OK;
  const double h = xp_params_real(prm, "h");
  char set[6][64];
  snprintf(set[0], sizeof set[0], "n=%d", n);
  const char *keys[5] = {"r", "m", "E", "B", "mu"};
  for (int k = 0; k < 5; k++)
    snprintf(set[k + 1], sizeof set[k + 1], "%s=%.17g", keys[k], xp_params_real(prm, keys[k]));
  const char *settings[6] = {set[0], set[1], set[2], set[3], set[4], set[5]};
  const sim_scenario *sc;
  sim_instance inst;
  int rc = sim_instance_make("pile", settings, 6, h, &sc, &inst, err);
  if (rc != XP_OK) return rc;
  char name[64];
  snprintf(name, sizeof name, "pile_N=%d", n);
  sim_method_options opt = sim_method_options_default();
  sim_method_options_read(prm, &opt);
  opt.h = h, opt.frames = frames;
  xp_case *c = st_case_begin(prm, out, name, n, "dropped between four walls (seeded offsets)");
  sim_outcome oc;
  rc = sim_simulate(sim_method_find(xp_params_string(prm, "method")), &opt, &inst,
                    xp_params_real(prm, "pile_T"), 2000, NULL, c, &oc, err);
  sc->free(&inst);
  if (rc != XP_OK) return rc;
  if (xp_case_end(c)) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  return XP_OK;
}

static int stack_run(const xp_params *prm, xp_results *out, xp_progress *progress, xp_error *err) {
  int ns[XP_MAX_LIST];
  const long count = xp_params_counts(prm, "n", 1, STACK_MAX_SPHERES, ns, err);
  if (count < 0) return XP_ERR_USAGE;
  const size_t nn = (size_t)count;
  double wall[2][XP_MAX_LIST], us[2][XP_MAX_LIST], fl[2][XP_MAX_LIST], nv[XP_MAX_LIST];
  double fac[2][ST_FACTORS][XP_MAX_LIST], f1[ST_FACTORS];
  const double T = xp_params_real(prm, "T"), h = xp_params_real(prm, "h");
  if (xp_step_count(T, h, &(size_t){0}, err)) return XP_ERR_USAGE;
  const sim_method *methods[32];
  size_t nm = 0;
  if (sim_study_methods(xp_params_string(prm, "method"), "stack", SIM_FAMILY_ALL | SIM_FAMILY_PEER,
                        "", methods, 32, &nm, err))
    return XP_ERR_USAGE;
  if (nm != 1)
    return xp_fail(err, XP_ERR_USAGE,
                   "parameter method=%s: the stack study times one method per run (its cost "
                   "against N is the figure); run it once per method",
                   xp_params_string(prm, "method"));
  // the dropped run of the largest N keeps its per-body history (the scene snapshots)
  double nlargest = 0;
  for (size_t k = 0; k < nn; k++) nlargest = fmax(nlargest, ns[k]);
  const size_t frames = (size_t)xp_params_int(prm, "frames");
  if (frames > SIM_FRAMES_MAX)
    return xp_fail(err, XP_ERR_USAGE, "parameter frames=%zu: at most %d", frames, SIM_FRAMES_MAX);
  for (int rest = 0; rest < 2; rest++)
    for (size_t k = 0; k < nn; k++) {
      const int n = ns[k];
      const size_t fr = !rest && ns[k] == nlargest ? frames : 0;
      int rc =
          cost_case(prm, n, rest, fr, out, &wall[rest][k], &us[rest][k], &fl[rest][k], f1, err);
      if (rc != XP_OK) return rc;
      for (int j = 0; j < ST_FACTORS; j++) fac[rest][j][k] = f1[j];
      nv[k] = n;
      xp_progress_update(progress, 0.35 * (double)(rest * nn + k + 1) / (double)nn);
    }
  const double nmin = xp_params_real(prm, "fit_n_min");
  xp_case *c = xp_case_begin(out, "scaling");
  xp_case_param_real(c, "fit_n_min", nmin, "");
  xp_case_series(c, "N", "", nv, nn);
  xp_case_series(c, "wall_time", "s", wall[0], nn);
  xp_case_series(c, "us_per_step", "us", us[0], nn);
  xp_case_series(c, "wall_time_rest", "s", wall[1], nn);
  xp_case_series(c, "us_per_step_rest", "us", us[1], nn);
  xp_case_series(c, "flops_per_step", "", fl[0], nn);
  xp_case_series(c, "flops_per_step_rest", "", fl[1], nn);
  xp_case_stat_real(c, "fitted_exponent", fit_exponent(nv, us[0], nn, nmin), "");
  xp_case_stat_real(c, "fitted_exponent_rest", fit_exponent(nv, us[1], nn, nmin), "");
  xp_case_stat_real(c, "fitted_exponent_flops", fit_exponent(nv, fl[0], nn, nmin), "");
  xp_case_stat_real(c, "fitted_exponent_flops_rest", fit_exponent(nv, fl[1], nn, nmin), "");
  // the factors of flops_per_step: their series and exponents (with 1 for N, the exponents sum
  // to fitted_exponent_flops: a least-squares slope is linear in log y); the re-solved share is
  // a series only (0 on the resting stack)
  for (int rest = 0; rest < 2; rest++)
    for (int j = 0; j < ST_FACTORS; j++) {
      char key[80];
      snprintf(key, sizeof key, "%s%s", st_factor_keys[j], rest ? "_rest" : "");
      xp_case_series(c, key, "", fac[rest][j], nn);
      if (j == ST_RESOLVED) continue;
      snprintf(key, sizeof key, "fitted_exponent_%s%s", st_factor_keys[j], rest ? "_rest" : "");
      xp_case_stat_real(c, key, fit_exponent(nv, fac[rest][j], nn, nmin), "");
    }
  xp_case_status(c, "ok", NULL);
  if (xp_case_end(c)) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  int rc = settle_case(prm, out, err);
  if (rc == XP_OK) rc = pile_case(prm, frames, out, err);
  xp_progress_update(progress, 1);
  return rc;
}

// the pile's row (its scene snapshots follow the section)
static void pile_report(const xp_file *f, FILE *md) {
  double pile_t = NAN;
  for (size_t i = 0; i < xp_file_case_count(f); i++)
    if (strncmp(xp_file_case_name(f, i), "pile_", 5) == 0)
      xp_file_case_param(f, xp_file_case_name(f, i), "T", &pile_t);
  if (isfinite(pile_t)) {
    static const char *const pkeys[] = {"steps", "steps_degraded", "penetration_max",
                                        "energy_rise_max", "cpu_time"};
    static const char *const pheads[] = {"steps", "steps degraded", "largest overlap [m]",
                                         "largest energy rise over a step [J]", "CPU time [s]"};
    fprintf(md,
            "A pile dropped between four walls with the same contact settings, over %g s "
            "(its scene snapshots below):\n\n",
            pile_t);
    xp_report_stats_table(md, f, "pile_", 5, pkeys, pheads);
  }
}

// the cost tables' columns: resting and dropped runs
static const char *const st_rest_keys[] = {"wall_time",  "us_per_step",  "flops_step",  "settled",
                                           "vmax_final", "load_err_max", "steps_not_ok"};
static const char *const st_rest_heads[] = {
    "wall time for T [s]",      "µs/step",     "flops/step", "settled at T", "max speed at T [m/s]",
    "max load error (settled)", "steps not ok"};
static const char *const st_drop_keys[] = {"wall_time",      "us_per_step", "flops_step",
                                           "contacts_final", "settled",     "vmax_final",
                                           "load_err_max",   "steps_not_ok"};
static const char *const st_drop_heads[] = {"wall time for T [s]",
                                            "µs/step",
                                            "flops/step",
                                            "contacts at T",
                                            "settled at T",
                                            "max speed at T [m/s]",
                                            "max load error (settled)",
                                            "steps not ok"};

// the cost tables' breakdown columns: the factors of flops/step and the re-solved steps
static const char *const st_break_keys[] = {"flops_step",
                                            "rows_per_sphere",
                                            "factorizations_step",
                                            "flops_per_factorization_row",
                                            "resolved_share",
                                            "landing_share_fall",
                                            "factorizations_resolved",
                                            "factorizations_other"};
static const char *const st_break_heads[] = {"flops/step",
                                             "active rows per sphere",
                                             "sparse factorisations per step",
                                             "flops per factorisation and row",
                                             "share of steps re-solved",
                                             "landing in free fall, share of T",
                                             "factorisations per re-solved step",
                                             "per other step"};

// the smallest and largest of a cost statistic over the cases of prefix with N ≥ nmin
static void st_stat_range(const xp_file *f, const char *prefix, const char *key, double nmin,
                          double *lo, double *hi) {
  *lo = INFINITY, *hi = -INFINITY;
  for (size_t i = 0; i < xp_file_case_count(f); i++) {
    const char *name = xp_file_case_name(f, i);
    double n = NAN, v = NAN;
    if (strncmp(name, prefix, strlen(prefix)) != 0) continue;
    if (xp_file_case_param(f, name, "N", &n) || !(n >= nmin)) continue;
    if (xp_file_case_stat(f, name, key, &v) || !isfinite(v)) continue;
    *lo = fmin(*lo, v), *hi = fmax(*hi, v);
  }
}

// the factors' exponents, dropped and resting, and their sum (the operations' own exponent)
static void st_exponent_table(FILE *md, const char *const names[3], double ex[2][3],
                              const double tot[2]) {
  static const char *const heads[] = {"exponent against N (N ≥ fit_n_min)", "dropped", "resting"};
  xp_table t;
  xp_table_init(&t, 3, heads, "lrr");
  xp_table_cell(&t, "N");
  xp_table_cell(&t, "1");
  xp_table_cell(&t, "1");
  for (int j = 0; j < 3; j++) {
    xp_table_cell(&t, "%s", names[j]);
    xp_table_cell(&t, "%.3f", ex[0][j]);
    xp_table_cell(&t, "%.3f", ex[1][j]);
  }
  xp_table_cell(&t, "**flops/step** (their sum)");
  xp_table_cell(&t, "**%.3f**", tot[0]);
  xp_table_cell(&t, "**%.3f**", tot[1]);
  xp_table_write(&t, md);
  xp_table_free(&t);
}

// the re-solved share beside the landing time in free fall (from the bottom sphere's landing to
// the top one's): the landing accounts for the re-solved steps where the share rises with N and
// stays within two steps of it at the fit's smallest and largest N
static void st_landing_match(const xp_file *f, FILE *md, double s_lo, double s_hi, double l_lo,
                             double l_hi) {
  if (!isfinite(l_lo) || !isfinite(l_hi)) return;
  char buf[64];
  const double T = xp_file_param(f, "T", buf, sizeof buf) ? NAN : strtod(buf, NULL);
  const double h = xp_file_param(f, "h", buf, sizeof buf) ? NAN : strtod(buf, NULL);
  const double within = 2 * h / T, dev = fmax(fabs(s_lo - l_lo), fabs(s_hi - l_hi));
  fprintf(md, "; the landing in free fall, √(2 N gap / g) − √(2 gap / g), takes %.2f and %.2f of T",
          l_lo, l_hi);
  if (s_hi > s_lo && dev <= within)
    fprintf(md,
            ": the re-solved share follows it within %.3f (two steps: %.3f), so the work per "
            "sphere grows with the share of T a taller column spends landing",
            dev, within);
  else
    fprintf(md, ": the re-solved share departs from it by %.3f (two steps: %.3f)", dev, within);
}

// the dropped stack's factorisations in words: per re-solved and per other step, the share of
// re-solved steps at the fit's smallest and largest N beside the landing time in free fall
static void st_landing_words(const xp_file *f, FILE *md, double nmin) {
  double s_lo, s_hi, r_lo, r_hi, o_lo, o_hi, f_lo, f_hi, n_lo = NAN, n_hi = NAN;
  double *nv = NULL, *sh = NULL;
  const long nn = xp_file_series_read(f, "scaling", "N", &nv);
  const long ns = xp_file_series_read(f, "scaling", "resolved_share", &sh);
  st_stat_range(f, "cost_", "factorizations_step", nmin, &f_lo, &f_hi);
  st_stat_range(f, "cost_", "factorizations_resolved", nmin, &r_lo, &r_hi);
  st_stat_range(f, "cost_", "factorizations_other", nmin, &o_lo, &o_hi);
  s_lo = s_hi = NAN;
  for (long k = 0; k < nn && k < ns; k++)  // the share at the fit's smallest and largest N
    if (nv[k] >= nmin && isfinite(sh[k])) {
      if (!(nv[k] >= n_lo)) n_lo = nv[k], s_lo = sh[k];
      if (!(nv[k] <= n_hi)) n_hi = nv[k], s_hi = sh[k];
    }
  free(nv), free(sh);
  double z_lo, z_hi;
  st_stat_range(f, "rest_", "resolved_share", nmin, &z_lo, &z_hi);
  if (isfinite(s_lo) && isfinite(r_lo) && isfinite(o_lo)) {
    fprintf(md,
            ": %.2f to %.2f factorisations per step. A step that is re-solved (speculative "
            "activation: rows joining, or stiffening as the load on them grows) takes %.1f–%.1f of "
            "them, any other step %.2f–%.2f, and the share of re-solved "
            "steps in T goes from %.2f at N = %g to %.2f at N = %g",
            f_lo, f_hi, r_lo, r_hi, o_lo, o_hi, s_lo, n_lo, s_hi, n_hi);
    double l_lo = NAN, l_hi = NAN;
    char name[64];
    snprintf(name, sizeof name, "cost_N=%g", n_lo);
    xp_file_case_stat(f, name, "landing_share_fall", &l_lo);
    snprintf(name, sizeof name, "cost_N=%g", n_hi);
    xp_file_case_stat(f, name, "landing_share_fall", &l_hi);
    st_landing_match(f, md, s_lo, s_hi, l_lo, l_hi);
    if (z_hi == 0) fprintf(md, "; the resting stack re-solves no step");
  }
  fprintf(md, ".\n\n");
}

// where the operations per step grow: flops/step = N · rows/sphere · factorisations/step ·
// flops/(factorisation · row), the factors' exponents side by side (they sum to the fitted one),
// and in words the factor that grows most on the dropped stack
static void st_breakdown_report(const xp_file *f, FILE *md, double nmin) {
  static const char *const names[] = {"active rows per sphere", "sparse factorisations per step",
                                      "flops per factorisation and active row"};
  double ex[2][3], tot[2] = {NAN, NAN};
  int have = 1;
  for (int rest = 0; rest < 2; rest++) {
    char key[96];
    snprintf(key, sizeof key, "fitted_exponent_flops%s", rest ? "_rest" : "");
    xp_file_case_stat(f, "scaling", key, &tot[rest]);
    for (int j = 0; j < 3; j++) {
      ex[rest][j] = NAN;
      snprintf(key, sizeof key, "fitted_exponent_%s%s", st_factor_keys[j], rest ? "_rest" : "");
      if (xp_file_case_stat(f, "scaling", key, &ex[rest][j])) have = 0;
    }
  }
  if (!have) return;  // a file from before the breakdown was recorded
  fprintf(md,
          "Where the operations grow: flops/step = N × active rows per sphere × sparse "
          "factorisations per step (qcp's LDLᵀ and its partial refactors, KLU) × flops per "
          "factorisation and active row (its solves and the bodies' 6 × 6 blocks included). "
          "Dropped:\n\n");
  xp_report_stats_table(md, f, "cost_", sizeof st_break_keys / sizeof *st_break_keys, st_break_keys,
                        st_break_heads);
  fprintf(md, "Resting:\n\n");
  xp_report_stats_table(md, f, "rest_", sizeof st_break_keys / sizeof *st_break_keys, st_break_keys,
                        st_break_heads);
  st_exponent_table(md, names, ex, tot);
  int big = 0;
  for (int j = 1; j < 3; j++)
    if (ex[0][j] > ex[0][big]) big = j;
  fprintf(md, "\nOn the dropped stack the factor that grows most with N is the %s (exponent %.3f",
          names[big], ex[0][big]);
  for (int j = 0; j < 3; j++)
    if (j != big) fprintf(md, "; %s %.3f", names[j], ex[0][j]);
  fprintf(md, ")");
  if (big == ST_FACT)
    st_landing_words(f, md, nmin);
  else
    fprintf(md, ".\n\n");
}

// REPORT.md: paper A §6.5 claims the stack forms and stays, and Fig 10 plots the time to simulate
// 1 s against N (up to 100)
static int stack_report(const char *path, FILE *md, xp_error *err) {
  xp_file *f = xp_file_open(path, err);
  if (!f) return XP_ERR_RUN;
  fprintf(md,
          "Paper A (§6.5, Fig 10): stacks of up to 100 steel spheres (E = 1e11, B = 1, "
          "h = 0.01) released in mid-air form a stable stack; Fig 10 plots the time to "
          "simulate 1 s against N (MATLAB, the paper's machine). Measured (single thread):\n\n");
  fprintf(md, "Dropped in mid-air (the paper's start):\n\n");
  xp_report_stats_table(md, f, "cost_", sizeof st_drop_keys / sizeof *st_drop_keys, st_drop_keys,
                        st_drop_heads);
  fprintf(md,
          "From the resting stack (all N contacts active every step — the per-step cost the "
          "scaling claim is about):\n\n");
  xp_report_stats_table(md, f, "rest_", sizeof st_rest_keys / sizeof *st_rest_keys, st_rest_keys,
                        st_rest_heads);
  double ex = NAN, exr = NAN, fx = NAN, fxr = NAN, nmin = NAN;
  xp_file_case_stat(f, "scaling", "fitted_exponent", &ex);
  xp_file_case_stat(f, "scaling", "fitted_exponent_rest", &exr);
  xp_file_case_stat(f, "scaling", "fitted_exponent_flops", &fx);
  xp_file_case_stat(f, "scaling", "fitted_exponent_flops_rest", &fxr);
  xp_file_case_param(f, "scaling", "fit_n_min", &nmin);
  fprintf(md,
          "Fitted exponent against N (N ≥ %g) of the operations per step of the factorisations "
          "and triangular solves (flops/step, the cost measure the machine's load does not "
          "move): **%.3f** resting, %.3f dropped (target ≤ 1.2, near-linear); of µs/step, beside "
          "them: %.3f resting, %.3f dropped.\n\n",
          nmin, fxr, fx, exr, ex);
  st_breakdown_report(f, md, nmin);
  static const char *const skeys[] = {"settled", "load_err_max", "vmax_final",
                                      "energy_total_rise_max"};
  static const char *const sheads[] = {
      "settled", "max relative load error vs statics", "max speed at T [m/s]",
      "largest rise of kinetic + gravity + Hertz energy over a step [J]"};
  xp_report_stats_table(md, f, "settle_", 4, skeys, sheads);
  char rule[32] = "";
  xp_file_param(f, "activation", rule, sizeof rule);
  fprintf(md,
          "The settled stack's contact c carries (N − c) m g (statics), measured to the "
          "relative error shown. This run used `activation=%s`. ",
          rule[0] ? rule : "overlap");
  if (strcmp(rule, "speculative") == 0)
    fprintf(md,
            "With it (SPEC §1.5, a documented extension beside paper A §5.2: a contact joins the "
            "step when its gap could close within it, open rows are compliant, a row the step did "
            "not hold that ends penetrating joins and the step is solved again, and the stiffness "
            "is taken over the step) the table above shows, per N, whether the dropped column "
            "settled at T and its statics error. With paper A's own rule "
            "(`--set activation=overlap`) it does not, for the reason below.\n\n");
  fprintf(md,
          "Paper A's rule (`stabcon run stack --set activation=overlap`, not run by "
          "`reproduce`): a tall dropped column does not form within T. With Hertz stiffness at the "
          "overlap found "
          "at detection (up to v·h), h²K/m ≫ 1 and the step restores the whole overlap in one "
          "step (φ1 ≈ 0, so φ̇1 ≈ −φ0/h): an impact with a restitution between 0 and 1 and "
          "almost no dissipation (B = 1). A sphere that has bounced meets the one falling onto "
          "it head-on and the rebound speeds add up the column (the stacked-ball effect), "
          "launching the top spheres. A larger damping B or a smaller h does not remove it "
          "for tall columns (try `--set B=…`, `--set h=…`). Why the column acts rigid: a contact "
          "enters a step only "
          "if it overlapped at the step's start, so the step before lets the spheres overlap "
          "by up to the closing speed times h with no force; the next step removes that "
          "overlap (restitution ≈ 1) while the sphere below is held by its own still-active "
          "stiff contacts, so each bounce is off an effectively rigid column and relative "
          "speeds grow layer by layer; released touching (`--set gap=0`) or run longer "
          "(`--set T=5`, paper A's 500 steps) a tall column still does not settle.\n\n");
  pile_report(f, md);
  xp_file_close(f);
  return XP_OK;
}

static const xp_param_def stack_params_def[] = {
    {"n", XP_REAL_LIST, "1,2,5,10,20,50,100", XP_POSITIVE, "", NULL,
     "numbers of spheres N (paper A: up to 100)"},
    {"T", XP_REAL, "1", XP_POSITIVE, "s", NULL, "simulated time of the cost runs (paper A: 1 s)"},
    {"h", XP_REAL, "0.01", XP_POSITIVE, "s", NULL, "step size (paper A)"},
    {"repeats", XP_INT, "5", XP_POSITIVE, "", NULL,
     "timed runs per cost case (min and median; the figure and fits take the min)"},
    STACK_PARAM_DEFS  // r, m, gap, E, B, Bt, mu, g, hertz, dissipation, alpha, tau_d
    {"method", XP_STRING, "paperA-coulomb", XP_ANY, "", NULL,
     "the method timed (stabcon list --methods): paper A's exact Coulomb step by default, any "
     "other that applies to the stack (one per run: its cost against N is the figure)"},
    SIM_OPTION_DEFS  // start, activation (here speculative), …
    {"fit_n_min", XP_REAL, "10", XP_POSITIVE, "", NULL,
     "smallest N in the fit of the per-step cost exponent (default)"},
    {"settle_n", XP_INT, "10", XP_POSITIVE, "", NULL, "spheres in the statics run (default)"},
    {"settle_T", XP_REAL, "3", XP_POSITIVE, "s", NULL, "duration of the statics run (default)"},
    {"settle_v", XP_REAL, "1e-6", XP_POSITIVE, "m/s", NULL,
     "largest speed of a settled stack (default)"},
    {"pile_n", XP_INT, "20", XP_NONNEGATIVE, "", NULL,
     "spheres of the pile dropped between walls (0: no pile run)"},
    {"pile_T", XP_REAL, "2", XP_POSITIVE, "s", NULL, "duration of the pile run"},
    {"frames", XP_INT, "100", XP_NONNEGATIVE, "", NULL,
     "per-body frames stored by the dropped run of the largest N and the pile (0: none)"},
};

// activation: speculative (SPEC §1.5: the dropped column forms; with overlap, paper A §5.2,
// the column explodes from N = 21)
static const char *const stack_defaults[] = {"activation=speculative", NULL};

static const char *const stack_full[] = {"n=1,2,5,10,20,50,100,200,500,1000", NULL};

const xp_experiment xp_experiment_stack = {
    .name = "stack",
    .paper_ref = "Paper A §6.5, Fig 10 (stack of spheres)",
    .summary = "column of N Hertz spheres dropped in mid-air: cost per step against N, statics",
    .params = stack_params_def,
    .n_params = sizeof stack_params_def / sizeof stack_params_def[0],
    .run = stack_run,
    .plot_script = "stack.gp",
    .error_stat = "us_per_step",
    .report = stack_report,
    .full_size = stack_full,
    .defaults = stack_defaults,
    .in_reproduce = 1,
};
