// SPDX-License-Identifier: MIT
// `stabcon bench foundation`: per-step cost of paper A's constraint solver against the number of
// foundation elements (100 … 10 000), with the fitted exponent of time ∝ elements^p, beside one
// penalty-ODE evaluation. Paper A reports cubic growth (it forms the dense Delassus matrix); the
// sparse lifted step should grow about linearly.
#include "bench.h"
#include "xp/xp.h"

#include "mbs/mbs.h"
#include "scenarios/foundation.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int cli_cmd_bench_foundation(int argc, char **argv) {
  int steps = 30;
  double E = 1e7, load = 50;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      puts(
          "usage: stabcon bench foundation [--steps N] [--E PA] [--load N]\n\n"
          "Median wall time per step of the constraint solver (relaxed, h = 0.01) on the cube\n"
          "resting on n×n foundation elements, n = 10, 20, 30, 50, 70, 100 (100 … 10 000 rows),\n"
          "and the least-squares exponent p of time ∝ elements^p (paper A: cubic). Prints a\n"
          "Markdown table.");
      return XP_OK;
    } else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
      steps = atoi(argv[++i]);
      if (steps < 3 || steps > 100000)
        return fprintf(stderr, "--steps must be 3..100000\n"), XP_ERR_USAGE;
    } else if (strcmp(argv[i], "--E") == 0 && i + 1 < argc) {
      E = atof(argv[++i]);
      if (!(E > 0)) return fprintf(stderr, "--E must be > 0\n"), XP_ERR_USAGE;
    } else if (strcmp(argv[i], "--load") == 0 && i + 1 < argc) {
      load = atof(argv[++i]);
      if (!(load >= 0)) return fprintf(stderr, "--load must be >= 0\n"), XP_ERR_USAGE;
    } else {
      return fprintf(stderr, "stabcon bench foundation: unexpected argument '%s'\n", argv[i]),
             XP_ERR_USAGE;
    }
  }
  const int ns[] = {10, 20, 30, 50, 70, 100};
  enum { NN = sizeof ns / sizeof ns[0] };
  double xs[NN], ys[NN];
  printf(
      "| elements | median µs/step | min µs/step | qcp iterations/step | steps predicted | status "
      "|\n|---:|---:|---:|---:|---:|---|\n");
  for (int k = 0; k < NN; k++) {
    foundation_params p = foundation_params_default();
    p.n = ns[k], p.E = E, p.load = load;
    foundation fd;
    foundation_init(&fd, &p);
    mbs_settings set = mbs_settings_default();
    set.use_bias = 0;
    sc_error serr = {0};
    mbs_workspace *ws = mbs_workspace_create(&fd.model, &set, &serr);
    if (!ws) return fprintf(stderr, "setup failed: %s\n", serr.message), XP_ERR_RUN;
    double q[7], v[6], *t = malloc((size_t)steps * sizeof *t);
    foundation_initial_state(&fd, q, v);
    long iters = 0, predicted = 0;
    mbs_status st = MBS_OK;
    for (int s = 0; s < steps && st == MBS_OK; s++) {
      double t0 = xp_now();
      st = mbs_step(ws, s * 0.01, 0.01, q, v, q, v);
      t[s] = 1e6 * (xp_now() - t0);
      iters += mbs_step_info(ws)->iterations;
      predicted += mbs_step_info(ws)->predicted > 0;
    }
    // the first step sets the pattern up (allocation): time the steady state
    qsort(t + 1, (size_t)steps - 1, sizeof *t, cmp_double);
    double median = t[1 + (steps - 1) / 2], fastest = t[1];
    printf("| %d | %.1f | %.1f | %.1f | %.0f %% | %s |\n", p.n * p.n, median, fastest,
           (double)iters / steps, 100.0 * (double)predicted / steps, mbs_status_name(st));
    xs[k] = log((double)(p.n * p.n)), ys[k] = log(median);
    free(t);
    mbs_workspace_free(ws);
  }
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int k = 0; k < NN; k++) sx += xs[k], sy += ys[k], sxx += xs[k] * xs[k], sxy += xs[k] * ys[k];
  double p = (NN * sxy - sx * sy) / (NN * sxx - sx * sx);
  printf(
      "\nfitted exponent: time per step ∝ elements^%.2f over 100 … 10000 elements (paper A: 3)\n",
      p);
  return XP_OK;
}
