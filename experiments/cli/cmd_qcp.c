// SPDX-License-Identifier: MIT
// CLI of the conic solver: solve a problem file, and the benchmark over the generated family.
#include "cmd_qcp.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qcp/qcp.h"
#include "qcp/qcp_io.h"
#include "qcp_gen.h"
#include "xp/xp.h"
#include "xp/xp_common.h"

static const char solve_help[] =
    "usage: stabcon qcp solve PROBLEM.h5 [-o SOLUTION.h5] [--max-iter N] [--eps E]\n"
    "                                     [--cold-rho R] [--verbose]\n"
    "\n"
    "Solves min 1/2 x'Px + c'x s.t. Ax = b, Gx + s = h, s in R+^l x Q^q1 x ... read from an\n"
    "HDF5 problem file (format: solver/qcp/README.md) from a cold start, prints the status and\n"
    "the independent checker's residuals, and optionally writes a solution file.\n"
    "\n"
    "  -o, --output FILE   write x, s, y, z, status, iterations, objective, checker residuals\n"
    "  --max-iter N        iteration limit (default 50, 1..1000)\n"
    "  --eps E             eps_abs = eps_rel = E (default 1e-8)\n"
    "  --cold-rho R        weight of the cone rows in the cold start (default 1, CVXOPT's, for\n"
    "                      general QPs; 1e4 puts x near the all-active solution, as the contact\n"
    "                      solves of the steps and of bench qcp do)\n"
    "  --verbose           one line per iteration on stderr\n"
    "\n"
    "A Maros-Meszaros problem (NAME.mat) is solved and scored with its own options:\n"
    "see stabcon qcp solve NAME.mat --help.\n"
    "\n"
    "exit status: 0 solved or any solver outcome, 2 bad usage or bad problem file, 1 failure\n";

// parses a positive integer / real option value; 0 on success
static int parse_int(const char *s, int *v) {
  char *end;
  errno = 0;
  long x = strtol(s, &end, 10);
  if (errno || *end || end == s || x < 1 || x > 1000) return -1;
  *v = (int)x;
  return 0;
}

static int parse_real(const char *s, double *v) {
  char *end;
  errno = 0;
  double x = strtod(s, &end);
  if (errno || *end || end == s || !(x > 0) || !isfinite(x)) return -1;
  *v = x;
  return 0;
}

// one solver setting of qcp solve (--max-iter, --eps, --cold-rho) from its value v (NULL: none);
// 0, or -1 with the message printed
static int solve_setting(const char *a, const char *v, qcp_settings *set) {
  if (!strcmp(a, "--max-iter")) {
    if (!v || parse_int(v, &set->max_iter))
      return fprintf(stderr, "qcp solve: --max-iter needs an integer in 1..1000\n"), -1;
  } else if (!strcmp(a, "--eps")) {
    if (!v || parse_real(v, &set->eps_abs))
      return fprintf(stderr, "qcp solve: --eps needs a positive number\n"), -1;
    set->eps_rel = set->eps_abs;
    if (set->eps_inacc < set->eps_abs) set->eps_inacc = set->eps_abs;
  } else if (!v || parse_real(v, &set->cold_rho)) {
    return fprintf(stderr, "qcp solve: --cold-rho needs a finite number > 0\n"), -1;
  }
  return 0;
}

static int cmd_solve(int argc, char **argv) {
  const char *in = NULL, *out = NULL;
  qcp_settings set = qcp_settings_default();
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(solve_help, stdout);
      return SC_OK;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
      if (++i >= argc) return fprintf(stderr, "qcp solve: %s needs a file name\n", a), SC_ERR_INPUT;
      out = argv[i];
    } else if (!strcmp(a, "--max-iter") || !strcmp(a, "--eps") || !strcmp(a, "--cold-rho")) {
      if (solve_setting(a, ++i < argc ? argv[i] : NULL, &set)) return SC_ERR_INPUT;
    } else if (!strcmp(a, "--verbose")) {
      set.verbose = 1;
    } else if (a[0] == '-') {
      fprintf(stderr, "qcp solve: unknown option '%s' (see --help)\n", a);
      return SC_ERR_INPUT;
    } else if (!in) {
      in = a;
    } else {
      fprintf(stderr, "qcp solve: unexpected argument '%s' (see --help)\n", a);
      return SC_ERR_INPUT;
    }
  }
  if (!in) {
    fprintf(stderr, "qcp solve: missing PROBLEM.h5 (see --help)\n");
    return SC_ERR_INPUT;
  }
  qcp_io_problem pf;
  qcp_error err = {0, ""};
  int rc = qcp_io_problem_read(in, &pf, &err);
  if (rc) {
    fprintf(stderr, "qcp solve: %s\n", err.message);
    return rc == QCP_ERR_ALLOC ? SC_ERR_RUN : SC_ERR_INPUT;
  }
  qcp_workspace *ws = NULL;
  rc = qcp_setup(&ws, &pf.prob, &set, &err);
  if (rc) {
    fprintf(stderr, "qcp solve: %s\n", err.message);
    qcp_io_problem_free(&pf);
    return rc == QCP_ERR_INPUT || rc == QCP_ERR_SETTINGS ? SC_ERR_INPUT : SC_ERR_RUN;
  }
  int ret = SC_OK;
  if (qcp_solve(ws, QCP_START_COLD, NULL, NULL, NULL, NULL, &err)) {
    fprintf(stderr, "qcp solve: %s\n", err.message);
    ret = SC_ERR_RUN;
  } else {
    const qcp_info *info = qcp_info_get(ws);
    qcp_check_result cr;
    qcp_check(&pf.prob, qcp_solution_x(ws), qcp_solution_s(ws), qcp_solution_y(ws),
              qcp_solution_z(ws), &cr);
    printf("problem     %s (n = %d, p = %d, l = %d, cones = %d, nnz(L) = %ld)\n", in, pf.prob.n,
           pf.prob.p, pf.prob.l, pf.prob.nsoc, info->nnz_l);
    printf("status      %s\niterations  %d\nobjective   %.15g\n", qcp_status_string(info->status),
           info->iterations, info->pobj);
    printf("time        setup %.3f ms, solve %.3f ms\n", info->setup_time * 1e3,
           info->solve_time * 1e3);
    printf("checker     pres %.2e  dres %.2e  gap %.2e  s-cone %.2e  z-cone %.2e\n", cr.pres_rel,
           cr.dres_rel, cr.gap_rel, cr.s_cone, cr.z_cone);
    if (out && qcp_io_solution_write(out, &pf.prob, qcp_solution_x(ws), qcp_solution_s(ws),
                                     qcp_solution_y(ws), qcp_solution_z(ws), info, &cr, &err)) {
      fprintf(stderr, "qcp solve: %s\n", err.message);
      ret = SC_ERR_RUN;
    } else if (out) {
      printf("solution    %s\n", out);
    }
  }
  qcp_workspace_free(ws);
  qcp_io_problem_free(&pf);
  return ret;
}

int cli_cmd_qcp_solve(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    fputs(solve_help, argc < 2 ? stderr : stdout);
    return argc < 2 ? SC_ERR_INPUT : SC_OK;
  }
  if (!strcmp(argv[1], "solve")) return cmd_solve(argc - 2, argv + 2);
  fprintf(stderr, "qcp: unknown subcommand '%s' (expected 'solve' or 'gen'; see --help)\n",
          argv[1]);
  return SC_ERR_INPUT;
}

// ---- benchmark -----------------------------------------------------------------------------

static const char bench_help[] =
    "usage: stabcon bench qcp [--repeats N] [--quick]\n"
    "\n"
    "Solves the seeded generated family (experiments/qcp_gen.c, seed 1): vertical sphere stacks\n"
    "with 10/100/300/1000 contacts and mu in {0.1, 0.5, 1}, and a 6-dof body on an elastic\n"
    "foundation of 100/900/2500 rows, with the settings the contact steps use (all-active cold\n"
    "start, cold_rho = 1e4, kept; fully refined Newton solves), from that cold start, the\n"
    "feasible centred start (normal\n"
    "forces large, tangential zero) and a warm start (the previous step's solution, next step's\n"
    "data via qcp_update). Prints a Markdown table: iterations, median wall times of N repeats,\n"
    "nnz(L), the worst independent-checker measure over the three starts, and the calling\n"
    "thread's CPU time of setup and of each start's solve (min/median of the N repeats; on a\n"
    "shared machine these are the times to compare).\n"
    "\n"
    "  --repeats N   timing repeats, min and median reported (default 5)\n"
    "  --quick       only the instances with <= 300 contacts / <= 900 rows\n";

static double median(double *v, int n) { return xp_min_median(v, (size_t)n, NULL); }

static double worst_check(qcp_workspace *ws, const qcp_problem *pr) {
  qcp_check_result cr;
  qcp_check(pr, qcp_solution_x(ws), qcp_solution_s(ws), qcp_solution_y(ws), qcp_solution_z(ws),
            &cr);
  return fmax(fmax(fmax(cr.pres_rel, cr.dres_rel), cr.gap_rel), fmax(cr.s_cone, cr.z_cone));
}

// the timings of one instance's repeats: wall (info) and the calling thread's CPU per phase
typedef struct bench_times {
  double wall[4][64];  // setup, cold, feasible, warm [s]
  double cpu[4][64];
} bench_times;

// "min/median" of a phase's thread CPU in ms
static void cpu_cell(char *buf, size_t len, double *v, int n) {
  double mn, md = xp_min_median(v, (size_t)n, &mn);
  snprintf(buf, len, "%.3f/%.3f", mn * 1e3, md * 1e3);
}

// one solve from the given start, timed (wall from info, CPU around the call); 1 if not solved
static int timed_solve(qcp_workspace *ws, qcp_start st, const double *x, const double *s,
                       const double *y, const double *z, double *wall, double *cpu, int *it) {
  qcp_error err;
  const double c0 = xp_thread_cpu_now();
  qcp_solve(ws, st, x, s, y, z, &err);
  *cpu = xp_thread_cpu_now() - c0;
  const qcp_info *info = qcp_info_get(ws);
  *wall = info->solve_time;
  *it = info->iterations;
  return info->status != QCP_SOLVED;
}

// the repeated setups (all but the last workspace freed); NULL on failure
static qcp_workspace *bench_setups(const qcp_gen *g, int repeats, bench_times *t) {
  qcp_error err;
  qcp_workspace *ws = NULL;
  qcp_settings set = qcp_settings_contact();  // what the contact and foundation steps run
  for (int r = 0; r < repeats; r++) {
    const double c0 = xp_thread_cpu_now();
    if (qcp_setup(&ws, &g->prob, &set, &err)) {
      fprintf(stderr, "bench qcp: %s: %s\n", g->name, err.message);
      return NULL;
    }
    t->cpu[0][r] = xp_thread_cpu_now() - c0;
    t->wall[0][r] = qcp_info_get(ws)->setup_time;
    if (r + 1 < repeats) qcp_workspace_free(ws);
  }
  return ws;
}

// one table row; returns 0 or 1 on failure
static int bench_instance(qcp_gen *g0, qcp_gen *g1, const char *mu, int repeats) {
  qcp_error err;
  bench_times *t = malloc(sizeof *t);
  qcp_workspace *ws = t ? bench_setups(g0, repeats, t) : NULL;
  if (!ws) return free(t), 1;
  const qcp_info *info = qcp_info_get(ws);
  int n = g0->prob.n, p = g0->prob.p, m = g0->prob.G.nrows, it[3] = {0, 0, 0}, bad = 0;
  double worst = 0.0;
  double *x = malloc((size_t)n * sizeof *x), *s = malloc((size_t)m * sizeof *s);
  double *y = malloc((size_t)p * sizeof *y), *z = malloc((size_t)m * sizeof *z);
  if (!x || !s || !y || !z) return free(x), free(s), free(y), free(z), free(t), 1;
  for (int r = 0; r < repeats; r++) {
    qcp_update(ws, g0->Pv, g0->Av, g0->Gv, g0->c, g0->b, g0->h, &err);
    bad |= timed_solve(ws, QCP_START_COLD, NULL, NULL, NULL, NULL, &t->wall[1][r], &t->cpu[1][r],
                       &it[0]);
    worst = fmax(worst, worst_check(ws, &g0->prob));
    bad |= timed_solve(ws, QCP_START_FEASIBLE, g0->x_feas, NULL, NULL, NULL, &t->wall[2][r],
                       &t->cpu[2][r], &it[1]);
    worst = fmax(worst, worst_check(ws, &g0->prob));
    // the previous step's solution, then the next step's data
    memcpy(x, qcp_solution_x(ws), (size_t)n * sizeof *x);
    memcpy(s, qcp_solution_s(ws), (size_t)m * sizeof *s);
    memcpy(y, qcp_solution_y(ws), (size_t)p * sizeof *y);
    memcpy(z, qcp_solution_z(ws), (size_t)m * sizeof *z);
    qcp_update(ws, g1->Pv, g1->Av, g1->Gv, g1->c, g1->b, g1->h, &err);
    bad |= timed_solve(ws, QCP_START_WARM, x, s, y, z, &t->wall[3][r], &t->cpu[3][r], &it[2]);
    worst = fmax(worst, worst_check(ws, &g1->prob));
  }
  double mc = median(t->wall[1], repeats) * 1e3;
  char cell[5][40];
  for (int k = 0; k < 4; k++) cpu_cell(cell[k], sizeof cell[k], t->cpu[k], repeats);
  // setup + cold solve: the sums of the phases' minima and of their medians
  double smin, cmin, smed = xp_min_median(t->cpu[0], (size_t)repeats, &smin);
  double cmed = xp_min_median(t->cpu[1], (size_t)repeats, &cmin);
  snprintf(cell[4], sizeof cell[4], "%.3f/%.3f", (smin + cmin) * 1e3, (smed + cmed) * 1e3);
  printf(
      "| %-16s | %3s | %6d | %6d | %7ld | %7.3f | %4d | %8.3f | %6.3f | %4d | %8.3f | %4d | "
      "%8.3f | %.1e | %s | %s | %s | %s | %s | %s |\n",
      g0->name, mu, n + p + m, m, info->nnz_l, median(t->wall[0], repeats) * 1e3, it[0], mc,
      mc / (it[0] > 0 ? it[0] : 1), it[1], median(t->wall[2], repeats) * 1e3, it[2],
      median(t->wall[3], repeats) * 1e3, worst, bad ? "FAIL" : "ok", cell[0], cell[1], cell[2],
      cell[3], cell[4]);
  qcp_workspace_free(ws);
  free(x), free(s), free(y), free(z), free(t);
  return bad;
}

int cli_cmd_bench_qcp(int argc, char **argv) {
  int repeats = 5, quick = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(bench_help, stdout);
      return SC_OK;
    } else if (!strcmp(argv[i], "--repeats")) {
      if (++i >= argc || parse_int(argv[i], &repeats) || repeats > 64)
        return fprintf(stderr, "bench qcp: --repeats needs an integer in 1..64\n"), SC_ERR_INPUT;
    } else if (!strcmp(argv[i], "--quick")) {
      quick = 1;
    } else {
      fprintf(stderr, "bench qcp: unknown argument '%s' (see --help)\n", argv[i]);
      return SC_ERR_INPUT;
    }
  }
  printf(
      "| %-16s | %3s | %6s | %6s | %7s | %7s | %4s | %8s | %6s | %4s | %8s | %4s | %8s | %7s | "
      "%s | %s | %s | %s | %s | %s |\n",
      "instance", "mu", "KKT N", "m", "nnz(L)", "setup", "cold", "cold ms", "ms/it", "feas",
      "feas ms", "warm", "warm ms", "check", "status", "setup cpu", "cold cpu", "feas cpu",
      "warm cpu", "setup+cold cpu");
  printf("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|\n");
  int fails = 0;
  int Ns[] = {10, 100, 300, 1000};
  const char *mus[] = {"0.1", "0.5", "1"};
  for (int i = 0; i < 4; i++) {
    if (quick && Ns[i] > 300) continue;
    for (int k = 0; k < 3; k++) {
      qcp_gen g0, g1;
      double mu = atof(mus[k]);
      if (qcp_gen_stack(&g0, Ns[i], mu, 1, 0) || qcp_gen_stack(&g1, Ns[i], mu, 1, 1)) {
        fprintf(stderr, "bench qcp: generating stack %d failed\n", Ns[i]);
        return SC_ERR_RUN;
      }
      fails += bench_instance(&g0, &g1, mus[k], repeats);
      qcp_gen_free(&g0);
      qcp_gen_free(&g1);
    }
  }
  int Rs[] = {100, 900, 2500};
  for (int i = 0; i < 3; i++) {
    if (quick && Rs[i] > 900) continue;
    qcp_gen g0, g1;
    if (qcp_gen_foundation(&g0, Rs[i], 1, 0) || qcp_gen_foundation(&g1, Rs[i], 1, 1)) {
      fprintf(stderr, "bench qcp: generating foundation %d failed\n", Rs[i]);
      return SC_ERR_RUN;
    }
    fails += bench_instance(&g0, &g1, "-", repeats);
    qcp_gen_free(&g0);
    qcp_gen_free(&g1);
  }
  printf(
      "\ntimes in ms (median of %d); setup = AMD + symbolic factorisation + allocation; "
      "check = worst independent-checker measure over the three starts; the cpu columns are the "
      "calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), min/median over the repeats, the "
      "last one the sums of the setup's and the cold solve's\n",
      repeats);
  return fails ? SC_ERR_RUN : SC_OK;
}
