// SPDX-License-Identifier: MIT
// `stabcon bench stack`: per-step cost of paper A's step on the resting sphere stack (paper A
// §6.5) against the number of spheres N (10 … 1000, 3 contact rows each: one Q³ friction cone per
// contact), with the fitted exponent of time ∝ N^p (target p ≤ 1.2). With --initial dropped the
// same from paper A's mid-air release (the landing phase), under --activation. With
// --peer mujoco, MuJoCo on the same column in the same run, the two alternating
// repeat by repeat, with the physics beside the cost: bottom overlap against Hertz statics and
// the largest speed at the end.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "mbs/mbs.h"
#include "scenarios/stack.h"
#include "sim/sim_mujoco.h"
#include "xp/xp.h"

typedef struct bench_opts {
  int steps, repeats, dropped, only_n, peer;
  int help;  // 1: --help printed, nothing to run
  mbs_formulation form;
  mbs_activation act;
  mbs_start start;
} bench_opts;

// per-step times of every repeat (µs; each repeat's first step excluded: setup), and the state
// measures of the last repeat
typedef struct bench_row {
  double *t;
  int nt;
  long iters, fp, predicted, steps;
  const char *status;
  double overlap, vmax;  // bottom overlap [m], largest speed at the end [m/s]
} bench_row;

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void row_min_median(bench_row *r, double *min, double *median) {
  *min = *median = NAN;
  if (r->nt < 1) return;
  qsort(r->t, (size_t)r->nt, sizeof *r->t, cmp_double);
  *min = r->t[0], *median = r->t[r->nt / 2];
}

// largest linear speed of the n spheres [m/s]
static double max_speed(const double *v, int n) {
  double vmax = 0;
  for (int i = 0; i < n; i++)
    vmax = fmax(vmax, sqrt(v[6 * i] * v[6 * i] + v[6 * i + 1] * v[6 * i + 1] +
                           v[6 * i + 2] * v[6 * i + 2]));
  return vmax;
}

static void stack_state(const stack *s, const bench_opts *o, double *q, double *v) {
  if (o->dropped)
    stack_initial_state(s, q, v);
  else
    stack_resting_state(s, q, v);
}

// one repeat of paper A's step: `steps` steps appended to r (0, or 1 after a message)
static int repeat_stabcon(const stack *s, const bench_opts *o, bench_row *r) {
  const int n = s->p.n;
  mbs_settings set = mbs_settings_default();
  set.formulation = o->form, set.activation = o->act, set.start = o->start;
  sc_error serr = {0};
  mbs_workspace *ws = mbs_workspace_create(&s->model, &set, &serr);
  double *q = malloc(7 * (size_t)n * sizeof *q), *v = malloc(6 * (size_t)n * sizeof *v);
  if (!ws || !q || !v) {
    fprintf(stderr, "stabcon bench stack: setup failed for N = %d: %s\n", n,
            ws ? "out of memory" : serr.message);
    return free(q), free(v), mbs_workspace_free(ws), 1;
  }
  stack_state(s, o, q, v);
  mbs_status st = MBS_OK;
  for (int k = 0;
       k < o->steps && (st == MBS_OK || st == MBS_INACCURATE || st == MBS_MAX_ITERATIONS);
       k++) {  // a step the solver only met inaccurately is still taken
    double t0 = xp_now();
    st = mbs_step(ws, k * 0.01, 0.01, q, v, q, v);
    if (k > 0) r->t[r->nt++] = 1e6 * (xp_now() - t0);
    const mbs_info *info = mbs_step_info(ws);
    r->iters += info->iterations, r->fp += info->fp_iterations, r->steps++;
    r->predicted += info->predicted > 0;
  }
  r->status = mbs_status_name(st);
  r->overlap = stack_contact_depth(s, q, 0), r->vmax = max_speed(v, s->p.n);
  free(q), free(v);
  mbs_workspace_free(ws);
  return 0;
}

// one repeat of MuJoCo on the same column and initial state (0, or 1 after a message)
static int repeat_mujoco(const stack *s, const bench_opts *o, bench_row *r, char *describe,
                         size_t len) {
  double *q = malloc(7 * (size_t)s->p.n * sizeof *q), *v = malloc(6 * (size_t)s->p.n * sizeof *v);
  char msg[1200] = "out of memory";
  sim_mujoco *mj = NULL;
  if (q && v)
    stack_state(s, o, q, v), mj = sim_mujoco_create(&s->model, q, v, 0.01, msg, sizeof msg);
  if (!mj) return free(q), free(v), fprintf(stderr, "stabcon bench stack: %s\n", msg), 1;
  for (int k = 0; k < o->steps; k++) {
    double t0 = xp_now();
    sim_mujoco_step(mj, q, v);
    if (k > 0) r->t[r->nt++] = 1e6 * (xp_now() - t0);
    r->steps++;
  }
  r->status = "ok";
  r->overlap = stack_contact_depth(s, q, 0), r->vmax = max_speed(v, s->p.n);
  snprintf(describe, len, "%s", sim_mujoco_describe(mj));
  sim_mujoco_free(mj);
  free(q), free(v);
  return 0;
}

// one N: the repeats (stabcon, then the peer, alternating); the median into *median
static int bench_n(int n, const bench_opts *o, double *median, char *describe, size_t len) {
  stack_params p = stack_params_default();
  p.n = n;
  stack s;
  if (stack_init(&s, &p)) return fprintf(stderr, "out of memory\n"), 1;
  const size_t cap = (size_t)o->steps * (size_t)o->repeats;
  bench_row a = {.t = malloc(cap * sizeof(double))}, b = {.t = malloc(cap * sizeof(double))};
  int rc = !a.t || !b.t;
  for (int k = 0; !rc && k < o->repeats; k++) {
    rc = repeat_stabcon(&s, o, &a);
    if (!rc && o->peer) rc = repeat_mujoco(&s, o, &b, describe, len);
  }
  double amin, amed, bmin, bmed;
  if (!rc) {
    row_min_median(&a, &amin, &amed);
    *median = amed;
    const double steps = (double)(a.steps > 0 ? a.steps : 1);
    if (!o->peer) {
      printf("| %d | %d | %.1f | %.1f | %.2f | %.2f | %.2f | %.0f %% | %s |\n", n, 3 * n, amed,
             amin, amed / n, (double)a.iters / steps, (double)a.fp / steps,
             100.0 * (double)a.predicted / steps, a.status);
    } else {
      row_min_median(&b, &bmin, &bmed);
      const double hertz = hertz_static_overlap(p.hertz, p.E, p.r, n * p.m * p.g);
      printf(
          "| %d | %.1f | %.1f | %.1f | %.1f | %.2f | %.0f %% | %.3e | %.3e | %.3e | %.1e | %.1e "
          "|\n",
          n, amed, amin, bmed, bmin, amed / bmed, 100.0 * (double)a.predicted / steps, hertz,
          a.overlap, b.overlap, a.vmax, b.vmax);
    }
    fflush(stdout);
  }
  free(a.t), free(b.t);
  stack_free(&s);
  return rc;
}

static const char usage[] =
    "usage: stabcon bench stack [--steps N] [--repeats R] [--formulation coulomb|relaxed|paper]\n"
    "                           [--activation overlap|speculative] [--start cold|warm|feasible]\n"
    "                           [--initial resting|dropped] [--n N] [--peer mujoco]\n\n"
    "Median and minimum wall time per step (h = 0.01, every contact active) of paper A's step on\n"
    "the resting stack of N Hertz spheres (E = 1e11, B = 1, mu = 0.5), N = 10, 20, 50, 100, 200,\n"
    "500, 1000, and the least-squares exponent p of time ∝ N^p. Prints a Markdown table.\n"
    "  --steps N        steps per repeat (default 30; the first is excluded: setup)\n"
    "  --repeats R      repeats per N, pooled for min and median (default 1)\n"
    "  --activation     activation rule (SPEC §1.5; default overlap)\n"
    "  --start          first conic solve of a step (default: the solver's)\n"
    "  --initial        start at the static overlaps (default) or in mid-air (paper A §6.5:\n"
    "                   the landing phase's cost per step)\n"
    "  --n N            only this N\n"
    "  --peer mujoco    time MuJoCo (libmujoco-dev) on the same column in the same run,\n"
    "                   alternating repeat by repeat; adds bottom overlaps against Hertz statics\n"
    "                   and the largest speed at the end";

// parses the options into o; 0, 1 (--help printed) or 2 after a message
static int parse_options(int argc, char **argv, bench_opts *o) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return puts(usage), o->help = 1, XP_OK;
    if (!val)
      return fprintf(stderr, "stabcon bench stack: unexpected argument '%s'\n", a), XP_ERR_USAGE;
    i++;
    if (strcmp(a, "--steps") == 0) {
      o->steps = atoi(val);
      if (o->steps < 3 || o->steps > 100000)
        return fprintf(stderr, "--steps must be 3..100000\n"), XP_ERR_USAGE;
    } else if (strcmp(a, "--repeats") == 0) {
      o->repeats = atoi(val);
      if (o->repeats < 1 || o->repeats > 1000)
        return fprintf(stderr, "--repeats must be 1..1000\n"), XP_ERR_USAGE;
    } else if (strcmp(a, "--formulation") == 0) {
      if (mbs_formulation_parse(val, &o->form))
        return fprintf(stderr, "--formulation must be coulomb, relaxed or paper\n"), XP_ERR_USAGE;
    } else if (strcmp(a, "--activation") == 0) {
      if (mbs_activation_parse(val, &o->act))
        return fprintf(stderr, "--activation must be overlap or speculative\n"), XP_ERR_USAGE;
    } else if (strcmp(a, "--start") == 0) {
      if (mbs_start_parse(val, &o->start))
        return fprintf(stderr, "--start must be cold, warm or feasible\n"), XP_ERR_USAGE;
    } else if (strcmp(a, "--initial") == 0) {
      if (strcmp(val, "dropped") && strcmp(val, "resting"))
        return fprintf(stderr, "--initial must be resting or dropped\n"), XP_ERR_USAGE;
      o->dropped = strcmp(val, "dropped") == 0;
    } else if (strcmp(a, "--n") == 0) {
      o->only_n = atoi(val);
      if (o->only_n < 1 || o->only_n > 100000)
        return fprintf(stderr, "--n must be 1..100000\n"), XP_ERR_USAGE;
    } else if (strcmp(a, "--peer") == 0) {
      if (strcmp(val, "mujoco")) return fprintf(stderr, "--peer must be mujoco\n"), XP_ERR_USAGE;
      o->peer = 1;
    } else {
      return fprintf(stderr, "stabcon bench stack: unexpected argument '%s'\n", a), XP_ERR_USAGE;
    }
  }
  return XP_OK;
}

int cli_cmd_bench_stack(int argc, char **argv) {
  bench_opts o = {.steps = 30,
                  .repeats = 1,
                  .form = MBS_COULOMB,
                  .act = MBS_ACTIVATION_OVERLAP,
                  .start = mbs_settings_default().start};
  int rc = parse_options(argc, argv, &o);
  if (rc || o.help) return rc;
  const int ns[] = {10, 20, 50, 100, 200, 500, 1000};
  enum { NN = sizeof ns / sizeof ns[0] };
  double xs[NN], ys[NN];
  printf(
      "formulation %s, activation %s, %s start, solver start %s, %d steps × %d repeats per N "
      "(each repeat's first step excluded: setup)\n\n",
      mbs_formulation_name(o.form), mbs_activation_name(o.act), o.dropped ? "dropped" : "resting",
      mbs_start_name(o.start), o.steps, o.repeats);
  if (!o.peer)
    printf(
        "| N | rows | median µs/step | min µs/step | µs/step/N | qcp iterations/step | "
        "fixed-point solves/step | steps predicted | status |\n"
        "|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
  else
    printf(
        "| N | stabcon median µs/step | stabcon min | MuJoCo median µs/step | MuJoCo min | "
        "ratio (medians) | stabcon steps predicted | Hertz static bottom overlap [m] | "
        "stabcon bottom overlap [m] | MuJoCo bottom overlap [m] | stabcon max speed at end "
        "[m/s] | MuJoCo max speed at end [m/s] |\n"
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  char describe[400] = "";
  int nk = 0;
  for (int k = 0; k < NN; k++) {
    if (o.only_n && k > 0) break;  // --n: one row
    const int n = o.only_n ? o.only_n : ns[k];
    double median = NAN;
    if (bench_n(n, &o, &median, describe, sizeof describe)) return XP_ERR_RUN;
    xs[nk] = log((double)n), ys[nk++] = log(median);
  }
  if (o.peer) printf("\npeer: %s\n", describe);
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int k = 0; k < nk; k++) sx += xs[k], sy += ys[k], sxx += xs[k] * xs[k], sxy += xs[k] * ys[k];
  if (nk < 2) return XP_OK;
  const double e = (nk * sxy - sx * sy) / (nk * sxx - sx * sx);
  printf("\nfitted exponent: stabcon time per step ∝ N^%.2f over N = 10 … 1000 (target ≤ 1.2)\n",
         e);
  return XP_OK;
}
