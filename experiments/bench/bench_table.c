// SPDX-License-Identifier: MIT
// `stabcon bench stack|foundation|pile`: the cost per step of a registry method on a registry
// scenario against its size, from one table of entries (after Box2D v3's benchmark table: a
// name, what to build, what to step, the default sizes). Every entry goes through the matrix's
// public interface (sim.h): the scenario builds its instance from "key=value" settings, the
// method is a stepper type (create / step / free); the bench only times each step, the thread's
// CPU time (CLOCK_THREAD_CPUTIME_ID) beside the wall time. With --peer, a peer method steps the
// same instance in the same run, the two alternating repeat by repeat.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "mdl/mdl_scene.h"
#include "sim/sim.h"
#include "xp/xp_common.h"

// One benchmark: a scenario of the registry, the method it times and its sizes.
typedef struct bench_entry {
  const char *name;      // `stabcon bench NAME`
  const char *scenario;  // the registry's scenario
  const char *method;    // the method timed unless --method
  const char *about;     // what is timed, for --help
  int sizes[8];          // the scenario's n by default (0-terminated)
  int size_power;        // the size column and the fit's x: n^size_power (n² foundation elements)
  const char *size_label;   // the size column's heading
  const char *settings[4];  // the entry's own settings (scenario or method), NULL-terminated
  int no_bias;              // 1: paper A's step without the bias p = M̂Ġv (the foundation's)
  long steps;               // timed steps per repeat by default, from t = 0
  const char *landing;      // a setting under which the default window is landing_steps
  long landing_steps;       // (a window that holds the landing)
  const char *rest;         // a setting giving the scene at rest: the reference overlap
  const char *fit_target;   // what the fitted exponent is compared with
} bench_entry;

static const bench_entry bench_entries[] = {
    {.name = "stack",
     .scenario = "stack",
     .method = "paperA-coulomb",
     .about = "paper A's step on the column of N Hertz spheres (E = 1e11, B = 1, mu = 0.5), "
              "resting at its static overlaps (--initial dropped: released in mid-air, the "
              "first 2 s: the landing)",
     .sizes = {10, 20, 50, 100, 200, 500, 1000},
     .size_power = 1,
     .size_label = "N",
     .settings = {"initial=resting"},
     .steps = 30,
     .landing = "initial=dropped",
     .landing_steps = 200,
     .rest = "initial=resting",
     .fit_target = "target ≤ 1.2"},
    {.name = "foundation",
     .scenario = "foundation",
     .method = "paperA-relaxed",
     .about = "paper A's constraint solver (no bias) on the cube resting on n×n foundation "
              "elements under a 50 N load; paper A reports cubic growth",
     .sizes = {10, 20, 30, 50, 70, 100},
     .size_power = 2,
     .size_label = "elements",
     .settings = {"F=50"},
     .no_bias = 1,
     .steps = 30,
     .fit_target = "paper A: 3"},
    {.name = "pile",
     .scenario = "pile",
     .method = "paperA-relaxed",
     .about = "N Hertz spheres dropped between four walls, the first 3 s (falling and landing)",
     .sizes = {20, 50, 100, 200},
     .size_power = 1,
     .size_label = "N",
     .steps = 300,
     .fit_target = "linear: 1"},
};
enum { N_ENTRIES = sizeof bench_entries / sizeof bench_entries[0], BENCH_MAX_SETTINGS = 32 };

static const bench_entry *entry_find(const char *name) {
  for (size_t i = 0; i < N_ENTRIES; i++)
    if (strcmp(bench_entries[i].name, name) == 0) return &bench_entries[i];
  return NULL;
}

int bench_table_has(const char *name) { return entry_find(name) != NULL; }

// the command line of one bench run
typedef struct bench_args {
  int help, only_n, repeats;
  long steps;      // 0: the entry's window
  double from, h;  // start of the timed window [s]; step (0: the scenario's)
  const char *method, *peer;
  char method_buf[64];
  const char *settings[BENCH_MAX_SETTINGS];  // entry's, then the command line's ("key=value")
  size_t n_settings;
  char text[BENCH_MAX_SETTINGS][128];
} bench_args;

// everything a repeat needs, resolved from the arguments
typedef struct bench_setup {
  const bench_entry *e;
  const sim_scenario *sc;
  const sim_method *method, *peer;
  sim_method_options opt;                    // its strings point into mp
  xp_params mp;                              // the method settings as given
  const char *scen[BENCH_MAX_SETTINGS + 1];  // the scenario's settings, "n=…" last
  size_t n_scen;
  long skip, steps;  // untimed steps before the window; timed steps
  int repeats;
} bench_setup;

// per-step times pooled over the repeats [µs] and the counts; the end state of the last repeat
typedef struct bench_sample {
  double *cpu, *wall;
  size_t n;
  long steps, iterations, solves, predicted, retried, degraded;
  int failed;             // 1 if a step failed in some repeat (that repeat stopped there)
  double overlap, speed;  // largest overlap [m] and largest body speed [m/s] at the end
  char stats[400];        // the method's own statistics, "key=value …" (peers: its settings)
} bench_sample;

static int add_setting(bench_args *a, const char *key, const char *value, xp_error *err) {
  if (a->n_settings == BENCH_MAX_SETTINGS)
    return xp_fail(err, XP_ERR_USAGE, "more than %d settings", BENCH_MAX_SETTINGS);
  char *t = a->text[a->n_settings];
  if (key)
    snprintf(t, sizeof a->text[0], "%s=%s", key, value);
  else
    snprintf(t, sizeof a->text[0], "%s", value);
  if (!strchr(t, '=') || t[0] == '=')
    return xp_fail(err, XP_ERR_USAGE, "--set %s: expected key=value", value);
  a->settings[a->n_settings++] = t;
  return XP_OK;
}

// a whole number in [lo, hi], or XP_ERR_USAGE naming the option
static int parse_count(const char *opt, const char *text, long lo, long hi, long *out,
                       xp_error *err) {
  char *end = NULL;
  const long v = strtol(text, &end, 10);
  if (!*text || *end || v < lo || v > hi)
    return xp_fail(err, XP_ERR_USAGE, "--%s %s: expected a whole number in %ld..%ld", opt, text, lo,
                   hi);
  return *out = v, XP_OK;
}

static int parse_time(const char *opt, const char *text, int positive, double *out, xp_error *err) {
  char *end = NULL;
  const double v = strtod(text, &end);
  if (!*text || *end || !isfinite(v) || v < 0 || (positive && !(v > 0)))
    return xp_fail(err, XP_ERR_USAGE, "--%s %s: expected a finite time %s 0 s", opt, text,
                   positive ? ">" : ">=");
  return *out = v, XP_OK;
}

// one option KEY with its value
static int parse_option(const char *key, const char *val, bench_args *a, xp_error *err) {
  long v = 0;
  int rc = XP_OK;
  if (strcmp(key, "n") == 0) {
    rc = parse_count(key, val, 1, 100000, &v, err), a->only_n = (int)v;
  } else if (strcmp(key, "steps") == 0) {
    rc = parse_count(key, val, 2, 1000000, &a->steps, err);
  } else if (strcmp(key, "repeats") == 0) {
    rc = parse_count(key, val, 1, 1000, &v, err), a->repeats = (int)v;
  } else if (strcmp(key, "from") == 0) {
    rc = parse_time(key, val, 0, &a->from, err);
  } else if (strcmp(key, "h") == 0) {
    rc = parse_time(key, val, 1, &a->h, err);
  } else if (strcmp(key, "method") == 0) {
    a->method = val;
  } else if (strcmp(key, "peer") == 0) {
    a->peer = val;
  } else if (strcmp(key, "formulation") == 0) {  // paper A's formulation: its method's name
    snprintf(a->method_buf, sizeof a->method_buf, "paperA-%s", val);
    a->method = a->method_buf;
  } else if (strcmp(key, "set") == 0) {
    rc = add_setting(a, NULL, val, err);
  } else {  // any scenario parameter or method setting: --KEY VALUE is --set KEY=VALUE
    rc = add_setting(a, key, val, err);
  }
  return rc;
}

static int parse_args(const bench_entry *e, int argc, char **argv, bench_args *a, xp_error *err) {
  memset(a, 0, sizeof *a);
  a->repeats = 1;
  a->method = e->method;
  for (size_t k = 0; k < 4 && e->settings[k]; k++)
    if (add_setting(a, NULL, e->settings[k], err)) return XP_ERR_USAGE;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) return a->help = 1, XP_OK;
    if (strncmp(arg, "--", 2) != 0 || !arg[2])
      return xp_fail(err, XP_ERR_USAGE, "unexpected argument '%s'", arg);
    if (i + 1 >= argc) return xp_fail(err, XP_ERR_USAGE, "%s needs a value", arg);
    if (parse_option(arg + 2, argv[++i], a, err)) return XP_ERR_USAGE;
  }
  return XP_OK;
}

// the key of "key=value" into buf
static const char *setting_key(const char *s, char *buf, size_t len) {
  const size_t k = strcspn(s, "=");
  snprintf(buf, len, "%.*s", (int)k, s);
  return buf;
}

static int scenario_declares(const sim_scenario *sc, const char *key) {
  for (size_t i = 0; i < sc->n_params; i++)
    if (strcmp(sc->params[i].key, key) == 0) return 1;
  return 0;
}

static const xp_param_def option_defs[] = {SIM_OPTION_DEFS};
enum { N_OPTION_DEFS = sizeof option_defs / sizeof option_defs[0] };

// an unknown setting: the message names it with the closest known key
static int unknown_setting(const sim_scenario *sc, const char *key, xp_error *err) {
  const char *names[XP_MAX_PARAMS + N_OPTION_DEFS];
  size_t k = 0;
  for (size_t i = 0; i < sc->n_params && k < XP_MAX_PARAMS; i++) names[k++] = sc->params[i].key;
  for (size_t i = 0; i < N_OPTION_DEFS; i++) names[k++] = option_defs[i].key;
  char hint[XP_DID_YOU_MEAN_MAX];
  xp_did_you_mean(xp_suggest(key, names, k), hint);
  return xp_fail(err, XP_ERR_USAGE,
                 "'%s' is neither a parameter of scenario %s nor a method setting%s "
                 "(stabcon run %s --help)",
                 key, sc->name, hint, sc->name);
}

// the settings split into the scenario's and the method's; the method options from the
// defaults, the scenario's activation rule, then the settings
static int resolve_settings(const bench_args *a, bench_setup *b, xp_error *err) {
  xp_params *mp = &b->mp;
  if (xp_params_init(mp, option_defs, N_OPTION_DEFS, err)) return XP_ERR_USAGE;
  char buf[160];
  if (b->sc->activation) {
    snprintf(buf, sizeof buf, "activation=%s", b->sc->activation);
    if (xp_params_set(mp, buf, err)) return XP_ERR_USAGE;
  }
  for (size_t i = 0; i < a->n_settings; i++) {
    const char *key = setting_key(a->settings[i], buf, sizeof buf);
    if (strcmp(key, "n") == 0)
      return xp_fail(err, XP_ERR_USAGE, "set the size with --n (not %s)", a->settings[i]);
    if (scenario_declares(b->sc, key))
      b->scen[b->n_scen++] = a->settings[i];
    else if (xp_params_has(mp, key)) {
      if (xp_params_set(mp, a->settings[i], err)) return XP_ERR_USAGE;
    } else
      return unknown_setting(b->sc, key, err);
  }
  b->opt = sim_method_options_default();
  sim_method_options_read(mp, &b->opt);
  b->opt.h = a->h > 0 ? a->h : b->sc->default_h;
  b->opt.no_bias = b->e->no_bias;
  return XP_OK;
}

// 1 if the scenario settings put the entry's `landing` setting in force (the last one counts)
static int landing_in_force(const bench_setup *b) {
  if (!b->e->landing) return 0;
  char key[64], k2[64];
  setting_key(b->e->landing, key, sizeof key);
  int on = 0;
  for (size_t i = 0; i < b->n_scen; i++)
    if (strcmp(setting_key(b->scen[i], k2, sizeof k2), key) == 0)
      on = strcmp(b->scen[i], b->e->landing) == 0;
  return on;
}

static int resolve(const bench_entry *e, const bench_args *a, bench_setup *b, xp_error *err) {
  memset(b, 0, sizeof *b);
  b->e = e, b->repeats = a->repeats;
  b->sc = sim_scenario_find(e->scenario);
  if (!b->sc) return xp_fail(err, XP_ERR_RUN, "scenario %s is not built in", e->scenario);
  size_t k = 0;
  if (sim_methods_parse(a->method, b->sc->methods, b->sc, &b->method, 1, &k, err))
    return XP_ERR_USAGE;
  if (a->peer) {
    if (sim_methods_parse(a->peer, SIM_FAMILY_PEER, b->sc, &b->peer, 1, &k, err))
      return XP_ERR_USAGE;
    if (b->peer->family != SIM_FAMILY_PEER)
      return xp_fail(err, XP_ERR_USAGE, "--peer %s: not a peer simulator (stabcon list --methods)",
                     a->peer);
  }
  if (resolve_settings(a, b, err)) return XP_ERR_USAGE;
  b->skip = lround(a->from / b->opt.h);
  b->steps = a->steps ? a->steps : landing_in_force(b) ? e->landing_steps : e->steps;
  return XP_OK;
}

// largest overlap −φ of the gap rows (mdl_rows_is_gap) at (t, q, v) [m]; NaN if not evaluated
static double largest_overlap(const mdl_model *m, mdl_rows *rows, double t, const double *q,
                              const double *v) {
  if (m->rows(t, q, v, rows, m->ctx)) return NAN;
  double pen = 0;
  for (int r = 0; r < rows->n; r++)
    if (mdl_rows_is_gap(rows, r)) pen = fmax(pen, -rows->phi[r]);
  return pen;
}

// largest linear speed of the scene's bodies [m/s] (mdl_rigid.h layout); NaN without a scene
static double largest_speed(const mdl_model *m, const double *v) {
  if (!m->scene) return NAN;
  double s = 0;
  for (int b = 0; b < m->scene->nbodies; b++) {
    const double *u = v + 6 * b;
    s = fmax(s, sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]));
  }
  return s;
}

// appends "key=value " to the sample's statistics text
static void stats_append(void *ctx, const char *key, double value, const char *unit) {
  bench_sample *s = ctx;
  const size_t at = strlen(s->stats);
  snprintf(s->stats + at, sizeof s->stats - at, "%s%s=%g%s", at ? " " : "", key, value,
           unit && unit[0] ? unit : "");
}

// the instance of size n with the scenario settings and `extra` (NULL: none) in force
static int make_instance(const bench_setup *b, int n, const char *extra, sim_instance *inst,
                         xp_error *err) {
  char nset[32];
  snprintf(nset, sizeof nset, "n=%d", n);
  const char *list[BENCH_MAX_SETTINGS + 2];
  size_t k = 0;
  for (; k < b->n_scen; k++) list[k] = b->scen[k];
  if (extra) list[k++] = extra;
  list[k++] = nset;
  const sim_scenario *sc = NULL;
  return sim_instance_make(b->e->scenario, list, k, b->opt.h, &sc, inst, err);
}

// the timed steps of one repeat on a fresh instance: the steps before the window untimed, each
// step of the window timed alone (the first step of a repeat never: it sets the pattern up)
static void time_steps(const bench_setup *b, const sim_method *m, void *state, double *q, double *v,
                       bench_sample *s) {
  const double h = b->opt.h;
  sim_step_report rep;
  for (long k = 0; k < b->skip + b->steps; k++) {
    memset(&rep, 0, sizeof rep);
    rep.residual = rep.cone_residual = NAN;
    const double w0 = xp_now(), c0 = xp_thread_cpu_now();
    const int oc = m->step(state, (double)k * h, (double)(k + 1) * h, q, v, &rep);
    const double c1 = xp_thread_cpu_now(), w1 = xp_now();
    if (oc < 0) {
      s->failed = 1;
      fprintf(stderr, "stabcon bench %s: %s: %s at t = %g s%s%s\n", b->e->name, m->name,
              rep.status ? rep.status : "failed", (double)k * h, rep.message[0] ? ": " : "",
              rep.message);
      return;
    }
    if (k < b->skip || k == 0) continue;
    s->degraded += oc > 0;
    s->cpu[s->n] = 1e6 * (c1 - c0), s->wall[s->n++] = 1e6 * (w1 - w0);
    s->steps++, s->iterations += rep.iterations, s->solves += rep.solves;
    s->predicted += rep.predicted, s->retried += rep.retried;
  }
}

static const char *sample_status(const bench_sample *s) {
  return s->failed ? "failed" : s->degraded ? "degraded" : "ok";
}

static int bench_repeat(const bench_setup *b, const sim_method *m, int n, bench_sample *s,
                        xp_error *err) {
  sim_instance inst = {0};
  int rc = make_instance(b, n, NULL, &inst, err);
  if (rc) return rc;
  const mdl_model *model = inst.model;
  double *q = malloc((size_t)(model->nq + model->nv) * sizeof *q);
  mdl_rows *rows = mdl_rows_create(model->max_rows > 0 ? model->max_rows : 1,
                                   model->max_nnz > 0 ? model->max_nnz : 1);
  void *state = NULL;
  if (q && rows) {
    memcpy(q, inst.q0, (size_t)model->nq * sizeof *q);
    memcpy(q + model->nq, inst.v0, (size_t)model->nv * sizeof *q);
    const double t_end = (double)(b->skip + b->steps) * b->opt.h;
    state = m->create(m, model, &b->opt, 0.0, q, q + model->nq, t_end, err);
    rc = state ? XP_OK : err->code ? err->code : XP_ERR_RUN;
  } else {
    rc = xp_fail(err, XP_ERR_RUN, "out of memory");
  }
  if (state) {
    double *v = q + model->nq;
    time_steps(b, m, state, q, v, s);
    s->overlap = largest_overlap(model, rows, (double)(b->skip + b->steps) * b->opt.h, q, v);
    s->speed = largest_speed(model, v);
    s->stats[0] = '\0';
    if (m->stats) m->stats(state, stats_append, s);
    m->free(state);
  }
  mdl_rows_free(rows);
  free(q);
  b->sc->free(&inst);
  return rc;
}

// largest overlap of the scene at rest (the entry's `rest` setting), NaN without one
static double rest_overlap(const bench_setup *b, int n) {
  if (!b->e->rest) return NAN;
  sim_instance inst = {0};
  xp_error err = {.code = 0};
  if (make_instance(b, n, b->e->rest, &inst, &err)) return NAN;
  const mdl_model *m = inst.model;
  mdl_rows *rows =
      mdl_rows_create(m->max_rows > 0 ? m->max_rows : 1, m->max_nnz > 0 ? m->max_nnz : 1);
  const double d = rows ? largest_overlap(m, rows, 0.0, inst.q0, inst.v0) : NAN;
  mdl_rows_free(rows);
  b->sc->free(&inst);
  return d;
}

// the summary of a sample's step times: median, mean, min, max of CPU; median, min of wall [µs]
typedef struct bench_times {
  double cpu_med, cpu_mean, cpu_min, cpu_max, wall_med, wall_min;
} bench_times;

static bench_times sample_times(bench_sample *s) {
  bench_times t = {NAN, NAN, NAN, NAN, NAN, NAN};
  if (s->n == 0) return t;
  double sum = 0;
  for (size_t i = 0; i < s->n; i++) sum += s->cpu[i];
  t.cpu_mean = sum / (double)s->n;
  t.cpu_med = xp_min_median(s->cpu, s->n, &t.cpu_min);
  t.cpu_max = s->cpu[s->n - 1];
  t.wall_med = xp_min_median(s->wall, s->n, &t.wall_min);
  return t;
}

static double per_step(long count, const bench_sample *s) {
  return s->steps > 0 ? (double)count / (double)s->steps : NAN;
}

static void print_header(const bench_setup *b) {
  const char *peer = b->peer ? b->peer->name : NULL;
  if (!peer) {
    printf(
        "| %s | CPU median µs/step | CPU mean | CPU min | CPU max | wall median µs/step | wall "
        "min | iterations/step | solves/step | steps predicted | steps retried | steps degraded | "
        "status |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
        b->e->size_label);
    return;
  }
  printf(
      "| %s | %s CPU median µs/step | %s CPU mean | %s CPU min | %s CPU median µs/step | %s CPU "
      "mean | %s CPU min | ratio of CPU means | ratio of CPU medians | %s wall median | %s wall "
      "median | %s steps predicted | largest overlap at rest [m] | %s largest overlap at end [m] "
      "| %s largest overlap at end [m] | %s max speed at end [m/s] | %s max speed at end [m/s] "
      "|\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
      b->e->size_label, b->method->name, b->method->name, b->method->name, peer, peer, peer,
      b->method->name, peer, b->method->name, b->method->name, peer, b->method->name, peer);
}

static void print_row(const bench_setup *b, int n, long size, bench_sample *a, bench_sample *p) {
  const bench_times ta = sample_times(a);
  if (!p) {
    printf(
        "| %ld | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.0f %% | %ld | %ld | %s "
        "|\n",
        size, ta.cpu_med, ta.cpu_mean, ta.cpu_min, ta.cpu_max, ta.wall_med, ta.wall_min,
        per_step(a->iterations, a), per_step(a->solves, a), 100 * per_step(a->predicted, a),
        a->retried, a->degraded, sample_status(a));
    return;
  }
  const bench_times tp = sample_times(p);
  printf(
      "| %ld | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.1f | %.1f | %.0f %% | "
      "%.3e | %.3e | %.3e | %.1e | %.1e |\n",
      size, ta.cpu_med, ta.cpu_mean, ta.cpu_min, tp.cpu_med, tp.cpu_mean, tp.cpu_min,
      ta.cpu_mean / tp.cpu_mean, ta.cpu_med / tp.cpu_med, ta.wall_med, tp.wall_med,
      100 * per_step(a->predicted, a), rest_overlap(b, n), a->overlap, p->overlap, a->speed,
      p->speed);
}

// one size: the repeats (the method, then the peer, alternating) and the table row; the CPU
// median into *median
static int bench_size(const bench_setup *b, int n, double *median, char *peer_stats, size_t len,
                      xp_error *err) {
  const size_t cap = (size_t)b->steps * (size_t)b->repeats;
  bench_sample a = {.cpu = malloc(2 * cap * sizeof(double))};
  bench_sample p = {.cpu = b->peer ? malloc(2 * cap * sizeof(double)) : NULL};
  int rc = !a.cpu || (b->peer && !p.cpu) ? xp_fail(err, XP_ERR_RUN, "out of memory") : XP_OK;
  a.wall = a.cpu ? a.cpu + cap : NULL, p.wall = p.cpu ? p.cpu + cap : NULL;
  for (int r = 0; rc == XP_OK && r < b->repeats; r++) {
    rc = bench_repeat(b, b->method, n, &a, err);
    if (rc == XP_OK && b->peer) rc = bench_repeat(b, b->peer, n, &p, err);
  }
  if (rc == XP_OK) {
    long size = n;
    for (int k = 1; k < b->e->size_power; k++) size *= n;
    print_row(b, n, size, &a, b->peer ? &p : NULL);
    fflush(stdout);
    double cpu_min;
    *median = xp_min_median(a.cpu, a.n, &cpu_min);
    snprintf(peer_stats, len, "%s", p.stats);
  }
  free(a.cpu), free(p.cpu);
  return rc;
}

static void print_help(const bench_entry *e) {
  printf(
      "usage: stabcon bench %s [--n N] [--steps S] [--from T0] [--repeats R] [--h H]\n"
      "                  [--method NAME] [--peer NAME] [--set KEY=VALUE]... [--KEY VALUE]...\n\n"
      "Thread CPU time (CLOCK_THREAD_CPUTIME_ID: median, mean, min, max) and wall time (median,\n"
      "min) per step of a method on scenario %s (stabcon run %s --help): %s.\n"
      "Sizes n = ",
      e->name, e->scenario, e->scenario, e->about);
  for (int k = 0; k < 8 && e->sizes[k]; k++) printf("%s%d", k ? ", " : "", e->sizes[k]);
  printf(
      "; the least-squares exponent p of CPU time ∝ %s^p. Prints a Markdown table.\n"
      "  --n N            only this size\n"
      "  --steps S        timed steps per repeat (default %ld",
      e->size_label, e->steps);
  if (e->landing) printf("; %ld with %s", e->landing_steps, e->landing);
  printf(
      "); the first step of a repeat is never timed (setup)\n"
      "  --from T0        start of the timed window [s]: the steps before it run untimed "
      "(default 0)\n"
      "  --repeats R      repeats per size, pooled for the statistics (default 1)\n"
      "  --h H            step size [s] (default: the scenario's)\n"
      "  --method NAME    the method timed (default %s; stabcon list --methods); --formulation F\n"
      "                   is --method paperA-F\n"
      "  --peer NAME      a peer simulator (mujoco, …) on the same instance in the same run,\n"
      "                   alternating repeat by repeat; adds its times, the ratios, the largest\n"
      "                   overlaps and speeds at the end\n"
      "  --set KEY=VALUE  a parameter of the scenario or a method setting (start, activation, …);\n"
      "                   --KEY VALUE is the same (e.g. --initial dropped)\n",
      e->method);
  if (e->settings[0]) {
    printf("Settings of this benchmark (overridable):");
    for (int k = 0; k < 4 && e->settings[k]; k++) printf(" %s", e->settings[k]);
    printf("\n");
  }
}

static void print_intro(const bench_setup *b) {
  printf(
      "scenario %s, method %s, h = %g s, timed window t = %g … %g s: %ld steps × %d repeats per "
      "size (the first step of a repeat excluded: setup)",
      b->e->scenario, b->method->name, b->opt.h, (double)b->skip * b->opt.h,
      (double)(b->skip + b->steps) * b->opt.h, b->steps, b->repeats);
  if (b->method->family == SIM_FAMILY_PAPER_A)
    printf(", activation %s, start %s", b->opt.activation, b->opt.start);
  printf("; settings:");
  for (size_t k = 0; k < b->n_scen; k++) printf(" %s", b->scen[k]);
  printf("\n\n");
}

static int run_table(const bench_setup *b, int only_n, xp_error *err) {
  print_intro(b);
  print_header(b);
  double xs[8], ys[8];
  size_t k = 0;
  char peer_stats[400] = "";
  for (int i = 0; i < 8 && b->e->sizes[i]; i++) {
    if (only_n && i > 0) break;
    const int n = only_n ? only_n : b->e->sizes[i];
    double median = NAN;
    int rc = bench_size(b, n, &median, peer_stats, sizeof peer_stats, err);
    if (rc) return rc;
    xs[k] = pow(n, b->e->size_power), ys[k++] = median;
  }
  if (b->peer) printf("\npeer: %s — %s\n%s\n", b->peer->name, b->peer->description, peer_stats);
  size_t used = 0;
  const double e = xp_loglog_slope(xs, ys, k, &used);
  if (used >= 2)
    printf("\nfitted exponent: %s CPU time per step ∝ %s^%.2f over %g … %g (%s)\n", b->method->name,
           b->e->size_label, e, xs[0], xs[k - 1], b->e->fit_target);
  return XP_OK;
}

int cli_cmd_bench_table(int argc, char **argv) {
  const bench_entry *e = argc >= 1 ? entry_find(argv[0]) : NULL;
  if (!e)
    return fprintf(stderr, "stabcon bench: no benchmark '%s'\n", argc ? argv[0] : ""), XP_ERR_USAGE;
  bench_args a;
  bench_setup b;
  xp_error err = {.code = 0};
  int rc = parse_args(e, argc, argv, &a, &err);
  if (rc == XP_OK && a.help) return print_help(e), XP_OK;
  if (rc == XP_OK) rc = resolve(e, &a, &b, &err);
  if (rc == XP_OK) rc = run_table(&b, a.only_n, &err);
  if (rc != XP_OK)  // the message points at the right --help, else this benchmark's
    fprintf(stderr, "stabcon bench %s: %s%s%s%s\n", e->name, err.message,
            strstr(err.message, "--help") ? "" : " (stabcon bench ",
            strstr(err.message, "--help") ? "" : e->name,
            strstr(err.message, "--help") ? "" : " --help)");
  return rc;
}
