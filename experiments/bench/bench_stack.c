// SPDX-License-Identifier: MIT
// `stabcon bench stack`: per-step cost of paper A's step on the resting sphere stack (paper A
// §6.5) against the number of spheres N (10 … 1000, 3 contact rows each: one Q³ friction cone per
// contact), with the fitted exponent of time ∝ N^p. Issue 5: p ≤ 1.2. With --initial dropped the
// same from paper A's mid-air release (the landing phase, issue 14), under --activation.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_commands.h"
#include "mbs/mbs.h"
#include "scenarios/stack.h"
#include "xp/xp.h"

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

// one row of the table: `steps` steps of the stack of n spheres; the median µs per step
// (first step excluded: qcp setup) into *median. 0, or 1 after a message (setup failed)
static int bench_one(int n, mbs_formulation form, mbs_activation act, mbs_start start, int dropped,
                     int steps, double *median) {
  stack_params p = stack_params_default();
  p.n = n;
  stack s;
  if (stack_init(&s, &p)) return fprintf(stderr, "out of memory\n"), 1;
  mbs_settings set = mbs_settings_default();
  set.formulation = form;
  set.activation = act;
  set.start = start;
  sc_error serr = {0};
  mbs_workspace *ws = mbs_workspace_create(&s.model, &set, &serr);
  double *q = malloc(7 * (size_t)p.n * sizeof *q), *v = malloc(6 * (size_t)p.n * sizeof *v);
  double *t = malloc((size_t)steps * sizeof *t);
  if (!ws || !q || !v || !t) {
    fprintf(stderr, "stabcon bench stack: setup failed for N = %d: %s\n", p.n,
            ws ? "out of memory" : serr.message);
    free(q), free(v), free(t), mbs_workspace_free(ws), stack_free(&s);
    return 1;
  }
  if (dropped)
    stack_initial_state(&s, q, v);
  else
    stack_resting_state(&s, q, v);
  long iters = 0, fp = 0, predicted = 0;
  mbs_status st = MBS_OK;
  int done = 0;  // steps taken (a step the solver only met inaccurately is still taken)
  while (done < steps && (st == MBS_OK || st == MBS_INACCURATE || st == MBS_MAX_ITERATIONS)) {
    double t0 = xp_now();
    st = mbs_step(ws, done * 0.01, 0.01, q, v, q, v);
    t[done++] = 1e6 * (xp_now() - t0);
    iters += mbs_step_info(ws)->iterations, fp += mbs_step_info(ws)->fp_iterations;
    predicted += mbs_step_info(ws)->predicted > 0;
  }
  double fastest = NAN;
  *median = NAN;
  if (done >= 2) {
    qsort(t + 1, (size_t)done - 1, sizeof *t, cmp_double);
    *median = t[1 + (done - 1) / 2], fastest = t[1];
  }
  printf("| %d | %d | %.1f | %.1f | %.2f | %.1f | %.2f | %.0f %% | %s |\n", p.n, 3 * p.n, *median,
         fastest, *median / p.n, (double)iters / done, (double)fp / done,
         100.0 * (double)predicted / done, mbs_status_name(st));
  fflush(stdout);
  free(q), free(v), free(t);
  mbs_workspace_free(ws);
  stack_free(&s);
  return 0;
}

int cli_bench_stack(int argc, char **argv) {
  int steps = 30;
  mbs_formulation form = MBS_COULOMB;
  mbs_activation act = MBS_ACTIVATION_OVERLAP;
  mbs_start start = mbs_settings_default().start;
  int dropped = 0, only_n = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      puts(
          "usage: stabcon bench stack [--steps N] [--formulation coulomb|relaxed|paper]\n\n"
          "Median wall time per step (h = 0.01, every contact active) on the resting stack of N\n"
          "Hertz spheres (E = 1e11, B = 1, mu = 0.5), N = 10, 20, 50, 100, 200, 500, 1000, and "
          "the\n"
          "least-squares exponent p of time ∝ N^p. Prints a Markdown table.\n"
          "  --activation overlap|speculative  activation rule (SPEC §1.5; default overlap)\n"
          "  --start cold|warm|feasible  first conic solve of a step (default: the solver's)\n"
          "  --initial resting|dropped  start at the static overlaps (default) or in mid-air\n"
          "                             (paper A §6.5: the landing phase's cost per step)\n"
          "  --n N                      only this N");
      return 0;
    } else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
      steps = atoi(argv[++i]);
      if (steps < 3 || steps > 100000) return fprintf(stderr, "--steps must be 3..100000\n"), 2;
    } else if (strcmp(argv[i], "--formulation") == 0 && i + 1 < argc) {
      if (mbs_formulation_parse(argv[++i], &form))
        return fprintf(stderr, "--formulation must be coulomb, relaxed or paper\n"), 2;
    } else if (strcmp(argv[i], "--activation") == 0 && i + 1 < argc) {
      if (mbs_activation_parse(argv[++i], &act))
        return fprintf(stderr, "--activation must be overlap or speculative\n"), 2;
    } else if (strcmp(argv[i], "--start") == 0 && i + 1 < argc) {
      if (mbs_start_parse(argv[++i], &start))
        return fprintf(stderr, "--start must be cold, warm or feasible\n"), 2;
    } else if (strcmp(argv[i], "--initial") == 0 && i + 1 < argc) {
      const char *w = argv[++i];
      if (strcmp(w, "dropped") && strcmp(w, "resting"))
        return fprintf(stderr, "--initial must be resting or dropped\n"), 2;
      dropped = strcmp(w, "dropped") == 0;
    } else if (strcmp(argv[i], "--n") == 0 && i + 1 < argc) {
      only_n = atoi(argv[++i]);
      if (only_n < 1 || only_n > 100000) return fprintf(stderr, "--n must be 1..100000\n"), 2;
    } else {
      return fprintf(stderr, "stabcon bench stack: unexpected argument '%s'\n", argv[i]), 2;
    }
  }
  const int ns[] = {10, 20, 50, 100, 200, 500, 1000};
  enum { NN = sizeof ns / sizeof ns[0] };
  double xs[NN], ys[NN];
  printf(
      "formulation %s, activation %s, %s start, solver start %s, %d steps per N (first step "
      "excluded: qcp setup)\n\n",
      mbs_formulation_name(form), mbs_activation_name(act), dropped ? "dropped" : "resting",
      mbs_start_name(start), steps);
  printf(
      "| N | rows | median µs/step | min µs/step | µs/step/N | qcp iterations/step | "
      "fixed-point solves/step | steps predicted | status |\n"
      "|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
  int nk = 0;
  for (int k = 0; k < NN; k++) {
    if (only_n && k > 0) break;  // --n: one row
    const int n = only_n ? only_n : ns[k];
    double median = NAN;
    if (bench_one(n, form, act, start, dropped, steps, &median)) return 1;
    xs[nk] = log((double)n), ys[nk++] = log(median);
  }
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int k = 0; k < nk; k++) sx += xs[k], sy += ys[k], sxx += xs[k] * xs[k], sxy += xs[k] * ys[k];
  if (nk < 2) return 0;
  const double e = (nk * sxy - sx * sy) / (nk * sxx - sx * sx);
  printf("\nfitted exponent: time per step ∝ N^%.2f over N = 10 … 1000 (issue 5: ≤ 1.2)\n", e);
  return 0;
}
