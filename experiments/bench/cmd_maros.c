// SPDX-License-Identifier: MIT
// The conic solver on the Maros–Mészáros set: one .mat problem, or the whole set as a benchmark.
//
// Protocol (qpbenchmark, as the data README describes): cold start, 200 iterations, absolute
// tolerance eps_abs = tol with the relative tolerance off; a problem is solved when qcp says
// "solved" AND the independent score (qcp_mm.h: primal residual, dual residual and duality gap of
// the two-sided problem, absolute, from the original data) is ≤ tol for all three. The score is
// computed twice: with exact (double-double) sums, and summed in float64 the way the field's
// published tables sum it; both counts are reported, the float64 one first. Every other outcome
// is sorted into one failure kind (by the exact score), so the summary says what to fix.
#include "cmd_maros.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qcp/qcp.h"
#include "qcp/qcp_mm.h"
#include "stabcon_config.h"
#include "xp/xp.h"
#include "xp/xp_file.h"
#include "xp/xp_maros.h"
#include "xp/xp_path.h"

// relative tolerance "off": eps_rel must be > 0, and this never exceeds eps_abs in max(abs, rel·s)
#define REL_OFF 1e-300

// ---- one problem ---------------------------------------------------------------------------

#define KIND_LIST(X)                                                                       \
  X(KIND_OK, "ok", "solved and passes the check")                                          \
  X(KIND_WRONG, "wrong_solved", "said solved but fails the check")                         \
  X(KIND_UNREPORTED, "converged_unreported", "passes the check, status not solved")        \
  X(KIND_INACCURATE, "inaccurate", "solved_inaccurate, fails the check")                   \
  X(KIND_MAXIT, "max_iterations", "iteration limit, fails the check")                      \
  X(KIND_NUMERICAL, "numerical_error", "numerical error or stall, fails the check")        \
  X(KIND_INFEAS, "infeasible", "certificate of infeasibility (all problems are feasible)") \
  X(KIND_TIME, "time_limit", "time limit")                                                 \
  X(KIND_STALLED, "stalled", "stall detected, fails the check")                            \
  X(KIND_ERROR, "error", "file or setup error")
#define KIND_ENUM(id, name, help) id,
typedef enum maros_kind { KIND_LIST(KIND_ENUM) KIND_COUNT } maros_kind;
#undef KIND_ENUM
#define KIND_NAME(id, name, help) name,
static const char *const kind_names[] = {KIND_LIST(KIND_NAME)};
#undef KIND_NAME
#define KIND_HELP(id, name, help) help,
static const char *const kind_help[] = {KIND_LIST(KIND_HELP)};
#undef KIND_HELP

typedef struct maros_options {
  double tol, time_limit;
  int max_iter, verbose;
  int lastbit;      // qcp_settings.lastbit (opt-in)
  double cold_rho;  // qcp_settings.cold_rho (the library's default unless --cold-rho)
  int proximal;     // qcp_settings.proximal (the library's default unless --proximal)
} maros_options;

typedef struct maros_row {
  char name[64];
  int n, m, p, l, iterations;
  int pass;      // solved and the exact score ≤ tol
  int pass_f64;  // solved and the float64 score ≤ tol
  int lastbit;   // 1 if the returned point is the last-bit selection's (qcp_info.lastbit)
  qcp_status status;
  maros_kind kind;
  double time, obj;
  double cpu, cpu_setup;   // thread CPU seconds of setup + solve, and of the setup alone
  int solves, refines;     // KKT solves and iterative-refinement steps of the solve
  qcp_mm_score score;      // exact sums
  qcp_mm_score score_f64;  // float64 sums, as the field's tables
  qcp_mm_ulp ulp;  // the score's moves under one-ulp moves of the point (ULP_DRAWS neighbours)
} maros_row;

// one-ulp neighbours per problem (qcp_mm_ulp_moves): 16 rescorings cost far less than the solve
#define ULP_DRAWS 16
#define ULP_SEED 1u

static maros_kind classify(qcp_status st, int pass) {
  if (st == QCP_SOLVED) return pass ? KIND_OK : KIND_WRONG;
  if (pass) return KIND_UNREPORTED;
  switch (st) {
    case QCP_SOLVED_INACCURATE:
      return KIND_INACCURATE;
    case QCP_MAX_ITERATIONS:
      return KIND_MAXIT;
    case QCP_PRIMAL_INFEASIBLE:
    case QCP_DUAL_INFEASIBLE:
      return KIND_INFEAS;
    case QCP_TIME_LIMIT:
      return KIND_TIME;
    case QCP_STALLED:
      return KIND_STALLED;
    default:
      return KIND_NUMERICAL;
  }
}

static qcp_settings bench_settings(const maros_options *o) {
  qcp_settings set = qcp_settings_default();
  set.max_iter = o->max_iter;
  set.eps_abs = o->tol;
  set.eps_rel = REL_OFF;
  set.time_limit = o->time_limit;
  set.time_limit_cpu = 1;  // load-independent: the same problems reach it on a busy machine
  set.verbose = o->verbose;
  set.lastbit = o->lastbit;
  set.strict_gap = 1;  // two-sided rows become orthant pairs: bound the two-sided gap
  set.cold_rho = o->cold_rho;
  set.proximal = o->proximal;
  return set;
}

static int score_meets(const qcp_mm_score *s, double tol) {
  return s->pres <= tol && s->dres <= tol && s->gap <= tol;
}

// solves the conic form of mm and scores the returned point; 0, or a qcp error code
static int solve_scored(const qcp_mm *mm, const maros_options *o, maros_row *row, qcp_error *err) {
  qcp_mm_conic cf;
  int rc = qcp_mm_to_conic(mm, &cf, err);
  if (rc) return rc;
  qcp_settings set = bench_settings(o);
  qcp_workspace *ws = NULL;
  row->n = mm->n, row->m = mm->m, row->p = cf.prob.p, row->l = cf.prob.l;
  double c0 = xp_thread_cpu_now();  // thread CPU: on a shared machine wall time measures the load
  if (!(rc = qcp_setup(&ws, &cf.prob, &set, err))) {
    row->cpu_setup = xp_thread_cpu_now() - c0;
    rc = qcp_solve(ws, QCP_START_COLD, NULL, NULL, NULL, NULL, err);
  }
  row->cpu = xp_thread_cpu_now() - c0;
  double *yrow = malloc(((size_t)mm->m + 1) * sizeof *yrow);
  if (!rc && !yrow) {
    snprintf(err->message, sizeof err->message, "out of memory");
    rc = err->code = QCP_ERR_ALLOC;
  }
  if (!rc) {
    const qcp_info *info = qcp_info_get(ws);
    qcp_mm_row_duals(&cf, mm->m, qcp_solution_y(ws), qcp_solution_z(ws), yrow);
    qcp_mm_score_point(mm, qcp_solution_x(ws), yrow, &row->score);
    qcp_mm_score_point_f64(mm, qcp_solution_x(ws), yrow, &row->score_f64);
    row->status = info->status;
    row->iterations = info->iterations;
    row->solves = info->kkt_solves, row->refines = info->refine_steps;
    row->lastbit = info->lastbit;
    row->time = info->setup_time + info->solve_time;
    row->obj = row->score.obj;
    row->pass = score_meets(&row->score, o->tol);
    row->pass_f64 = info->status == QCP_SOLVED && score_meets(&row->score_f64, o->tol);
    row->kind = classify(info->status, row->pass);
    qcp_mm_ulp_moves(mm, qcp_solution_x(ws), yrow, &row->score, o->tol, ULP_DRAWS, ULP_SEED,
                     &row->ulp);
  }
  free(yrow);
  qcp_workspace_free(ws);
  qcp_mm_conic_free(&cf);
  return rc;
}

// reads and solves one file into row (an unreadable file is a row of kind "error")
// the case name of a problem file: its base name up to the first '.'
static void case_name(const char *path, char *name, size_t len) {
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  snprintf(name, len, "%.*s", (int)strcspn(base, "."), base);
}

// reads and solves one file into row (an unreadable file is a row of kind "error"); errors are
// printed after "cmd: "
static void run_problem(const char *cmd, const char *path, const maros_options *o, maros_row *row) {
  memset(row, 0, sizeof *row);
  case_name(path, row->name, sizeof row->name);
  row->kind = KIND_ERROR;
  row->status = QCP_UNSOLVED;
  row->score = (qcp_mm_score){INFINITY, INFINITY, INFINITY, NAN, NAN, NAN, NAN};
  row->score_f64 = row->score;
  row->ulp = (qcp_mm_ulp){.pres_move = NAN, .dres_move = NAN, .gap_move = NAN};
  qcp_mm mm;
  qcp_error err = {0, ""};
  if (qcp_mm_read_mat(path, &mm, &err))  // the message names the file
    fprintf(stderr, "%s: %s\n", cmd, err.message);
  else if (solve_scored(&mm, o, row, &err))
    fprintf(stderr, "%s: %s: %s\n", cmd, path, err.message);
  qcp_mm_free(&mm);
}

// ---- option parsing ---------------------------------------------------------------------------

static int parse_real(const char *s, double lo, double *v) {
  char *end;
  errno = 0;
  double x = strtod(s, &end);
  if (errno || *end || end == s || !(x >= lo) || !isfinite(x)) return -1;
  *v = x;
  return 0;
}

static int parse_int(const char *s, int lo, int hi, int *v) {
  char *end;
  errno = 0;
  long x = strtol(s, &end, 10);
  if (errno || *end || end == s || x < lo || x > hi) return -1;
  *v = (int)x;
  return 0;
}

// one shared option (--tol, --max-iter, --time-limit, --cold-rho, --proximal, --verbose); 1
// taken, 0 not
// ours, -1 bad
static int parse_common(int argc, char **argv, int *i, maros_options *o, const char *cmd) {
  const char *a = argv[*i];
  if (!strcmp(a, "--verbose")) return o->verbose = 1, 1;
  if (!strcmp(a, "--lastbit")) return o->lastbit = 1, 1;
  int is_tol = !strcmp(a, "--tol"), is_it = !strcmp(a, "--max-iter");
  int is_time = !strcmp(a, "--time-limit"), is_rho = !strcmp(a, "--cold-rho");
  int is_prox = !strcmp(a, "--proximal");
  if (!is_tol && !is_it && !is_time && !is_rho && !is_prox) return 0;
  if (++*i >= argc) return fprintf(stderr, "%s: %s needs a value\n", cmd, a), -1;
  const char *v = argv[*i];
  if (is_tol && (parse_real(v, 1e-300, &o->tol) || o->tol > 1e-1))
    return fprintf(stderr, "%s: --tol '%s' must be a number in (0, 0.1]\n", cmd, v), -1;
  if (is_it && parse_int(v, 1, 1000, &o->max_iter))
    return fprintf(stderr, "%s: --max-iter '%s' must be an integer in 1..1000\n", cmd, v), -1;
  if (is_time && parse_real(v, 0.0, &o->time_limit))
    return fprintf(stderr, "%s: --time-limit '%s' must be a number >= 0 (s)\n", cmd, v), -1;
  if (is_rho && (parse_real(v, 1e-300, &o->cold_rho) || o->cold_rho > 1e300))
    return fprintf(stderr, "%s: --cold-rho '%s' must be a finite number > 0\n", cmd, v), -1;
  if (is_prox && parse_int(v, 0, 1, &o->proximal))
    return fprintf(stderr, "%s: --proximal '%s' must be 0 or 1\n", cmd, v), -1;
  return 1;
}

// ---- stabcon qcp solve NAME.mat
// ------------------------------------------------------------------

// the solver options qcp solve NAME.mat and bench maros share
#define SOLVER_OPTIONS_HELP                                                                     \
  "  --lastbit        when the solve ends inaccurate, move the best polished point's\n"         \
  "                   components one at a time against its exact residuals (off by default;\n"  \
  "                   moves of many ulps, not one-ulp)\n"                                       \
  "  --cold-rho R     weight of the cone rows in the cold start (default 1, the library's\n"    \
  "                   and CVXOPT's; 1e4, what contact solves set, puts x near the all-active\n" \
  "                   solution, which centres general QPs worse: more iterations)\n"            \
  "  --proximal 0|1   1 (default): each Newton system is solved with the regularised KKT\n"     \
  "                   matrix (its delta a proximal term at the iterate), refined only where\n"  \
  "                   that error exceeds a share of the residuals (half; after a long step\n"   \
  "                   what the step left); 0: every Newton solve refined against the\n"         \
  "                   unregularised matrix\n"                                                   \
  "  --verbose        one line per iteration on stderr\n"

static const char solve_mat_help[] =
    "usage: stabcon qcp solve NAME.mat [--tol T] [--max-iter N] [--time-limit S] [--lastbit]\n"
    "                                 [--cold-rho R] [--proximal 0|1] [--verbose]\n"
    "\n"
    "Solves one Maros-Meszaros problem (MATLAB file: min 1/2 x'Px + q'x + r, l <= Ax <= u) from\n"
    "a cold start with eps_abs = T and the relative tolerance off, and scores the\n"
    "point as the benchmark does (absolute primal/dual residual and duality gap from the\n"
    "original data), summed exactly (double-double) and in float64 as the field's published\n"
    "tables sum them.\n"
    "\n"
    "  --tol T          tolerance (default 1e-9)\n"
    "  --max-iter N     iteration limit (default 200)\n"
    "  --time-limit S   limit of the solve in seconds of CPU time (the solving thread's: a\n"
    "                   loaded machine does not change which problems reach it; default 0: "
    "none)\n" SOLVER_OPTIONS_HELP;

int cli_cmd_qcp_solve_mat(int argc, char **argv) {
  maros_options o = {
      1e-9, 0.0, 200, 0, 0, qcp_settings_default().cold_rho, qcp_settings_default().proximal};
  const char *path = NULL;
  for (int i = 0; i < argc; i++) {
    int r = parse_common(argc, argv, &i, &o, "qcp solve");
    if (r < 0) return XP_ERR_USAGE;
    if (r) continue;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
      return fputs(solve_mat_help, stdout), XP_OK;
    if (argv[i][0] == '-' || path)
      return fprintf(stderr, "qcp solve: unexpected argument '%s' (see --help)\n", argv[i]),
             XP_ERR_USAGE;
    path = argv[i];
  }
  if (!path)
    return fprintf(stderr, "qcp solve: no problem file given (see --help)\n"), XP_ERR_USAGE;
  maros_row row;
  run_problem("qcp solve", path, &o, &row);
  if (row.kind == KIND_ERROR) return XP_ERR_USAGE;
  printf("problem     %s (n = %d, rows = %d: %d equalities, %d inequalities)\n", row.name, row.n,
         row.m, row.p, row.l);
  printf("status      %s\niterations  %d\nobjective   %.15g\ntime        %.3f s\n",
         qcp_status_string(row.status), row.iterations, row.obj, row.time);
  printf("cpu         %.6f s (setup %.6f s); %d KKT solves, %d refinement steps\n", row.cpu,
         row.cpu_setup, row.solves, row.refines);
  printf("score       pres %.2e  dres %.2e  gap %.2e  (tol %.0e; exact sums)\n", row.score.pres,
         row.score.dres, row.score.gap, o.tol);
  printf("float64     pres %.2e  dres %.2e  gap %.2e  (summed as the field's tables sum)\n",
         row.score_f64.pres, row.score_f64.dres, row.score_f64.gap);
  printf("rounding    pres %.2e  dres %.2e  gap %.2e  (each measure's rounding scale here)\n",
         row.score.pres_scale, row.score.dres_scale, row.score.gap_scale);
  printf(
      "one ulp     pres %.2e  dres %.2e  gap %.2e  (median move of each measure when every "
      "component moves by one ulp; %d of %d such neighbours pass, %d summed in float64)\n",
      row.ulp.pres_move, row.ulp.dres_move, row.ulp.gap_move, row.ulp.passing, row.ulp.draws,
      row.ulp.passing_f64);
  if (row.lastbit) printf("moved       components moved against the exact residuals (--lastbit)\n");
  printf("result      %s (%s); float64 score: %s\n", row.pass ? "pass" : "fail",
         kind_names[row.kind], row.pass_f64 ? "pass" : "fail");
  return XP_OK;
}

// ---- stabcon bench maros
// -------------------------------------------------------------------------

static const char bench_help[] =
    "usage: stabcon bench maros [--tol T] [--only A,B,...] [--max-iter N] [--time-limit S]\n"
    "                           [--dir DIR] [--output FILE.h5] [--plot DIR] [--lastbit]\n"
    "                           [--cold-rho R] [--proximal 0|1] [--verbose]\n"
    "       stabcon bench maros --readme FILE [--results DIR]\n"
    "\n"
    "Solves every NAME.mat of the Maros-Meszaros set with qcp (cold start, eps_abs = T,\n"
    "relative tolerance off) and scores each as qpbenchmark does: success =\n"
    "status solved AND absolute primal residual, dual residual and duality gap <= T,\n"
    "recomputed from the original data\n"
    "twice: summed in float64 as the field's tables sum (the headline count) and summed exactly\n"
    "(double-double; failure kinds use this one). Where a measure is below its rounding scale\n"
    "the two differ by rounding alone. Prints a Markdown table and the counts per failure kind;\n"
    "writes one HDF5\n"
    "case per problem and, with --plot, the figures (fraction solved vs time, iterations).\n"
    "Each returned point is also rescored at 16 one-ulp neighbours (every component moved by\n"
    "one ulp, seeded): the failures whose measures rounding alone moves past T, and the passes\n"
    "that most neighbours would fail, are listed, and the passes expected of points as\n"
    "accurate (exact and float64: the neighbours' passing shares, summed) are printed.\n"
    "\n"
    "  --tol T          tolerance (default 1e-9; the field also reports 1e-6)\n"
    "  --only A,B       only these problems (names without .mat)\n"
    "  --max-iter N     iteration limit (default 200)\n"
    "  --time-limit S   per-problem limit of the solve in seconds of CPU time (the solving\n"
    "                   thread's: the same problems reach it on a loaded machine; default 1000)\n"
    "  --dir DIR        data folder (default <source>/../shared/data/maros_meszaros_full)\n"
    "  --output F.h5    results file (default results/maros_<T>.h5)\n"
    "  --plot DIR       write maros_<T>.csv and the figures into DIR "
    "(gnuplot)\n" SOLVER_OPTIONS_HELP
    "\n"
    "  --readme FILE    solve nothing: rewrite FILE's generated maros block (the lines\n"
    "                   <!-- maros: ... --> ... <!-- maros: end -->) with the scores read from\n"
    "                   DIR/maros_1e-09.h5 and DIR/maros_1e-06.h5 (the default outputs): per\n"
    "                   tolerance the float64 pass count (the headline) and the exact one out\n"
    "                   of the problems run, those said solved but failing, the problems on\n"
    "                   which the two checks differ with their measures' rounding scales, the\n"
    "                   exact and float64 passes expected of one-ulp neighbours, the shifted\n"
    "                   geometric mean of the thread CPU time (shift 10 s, failures at the time\n"
    "                   limit) and each file's provenance (commit, date, build, load average,\n"
    "                   time limit); a missing file is named in the block. `stabcon reproduce`\n"
    "                   writes the same as REPORT.md's Maros-Meszaros section when its\n"
    "                   results directory holds either file\n"
    "  --results DIR    with --readme: the directory of the files (default results)\n";

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

// sorted list of NAME.mat files of dir (filtered by only, a comma list); returns the count or -1
static int list_problems(const char *dir, const char *only, char ***out) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int cap = 256, n = 0;
  char **names = malloc((size_t)cap * sizeof *names);
  struct dirent *e;
  while (names && (e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 4, ".mat")) continue;
    if (only) {
      char key[80];
      snprintf(key, sizeof key, ",%.*s,", (int)(len - 4), e->d_name);
      char list[4096];
      snprintf(list, sizeof list, ",%s,", only);
      if (!strstr(list, key)) continue;
    }
    if (n == cap && !(names = realloc(names, (size_t)(cap *= 2) * sizeof *names))) break;
    names[n++] = strdup(e->d_name);
  }
  closedir(d);
  if (!names) return -1;
  qsort(names, (size_t)n, sizeof *names, cmp_str);
  *out = names;
  return n;
}

// 1 if the point fails the check only in measures at their rounding scale (qcp_mm_score): a
// scale at or above tol and the value within ROUNDING_BAND of it — what rounding alone leaves at
// this point. A guide to where the failures lie, not a proof that they cannot pass: a point
// refined in extended precision can go below its scale (qcp_mm.h)
#define ROUNDING_BAND 10.0
static int at_rounding(double value, double scale, double tol) {
  return value <= tol || (scale >= tol && value <= ROUNDING_BAND * scale);
}

static int below_rounding(const maros_row *r, double tol) {
  const qcp_mm_score *s = &r->score;
  return !r->pass && at_rounding(s->pres, s->pres_scale, tol) &&
         at_rounding(s->dres, s->dres_scale, tol) && at_rounding(s->gap, s->gap_scale, tol);
}

// 1 if rounding decides a measure at this point: its median move under one-ulp moves of the
// point is at least the tolerance (qcp_mm_ulp)
static int rounding_decides(const maros_row *r, double tol) {
  const qcp_mm_ulp *u = &r->ulp;
  return u->draws > 0 && (u->pres_move >= tol || u->dres_move >= tol || u->gap_move >= tol);
}

static void write_case(xp_results *res, const maros_row *r, const maros_options *o) {
  const double tol = o->tol;
  xp_case *c = xp_case_begin(res, r->name);
  if (!c) return;
  xp_case_param_real(c, "n", r->n, "");
  xp_case_param_real(c, "m", r->m, "");
  xp_case_param_real(c, "tol", tol, "");
  xp_case_param_real(c, "time_limit", o->time_limit, "s");
  xp_case_param_real(c, "cold_rho", o->cold_rho, "");
  xp_case_param_real(c, "proximal", o->proximal, "");
  xp_case_param_string(c, "qcp_status", qcp_status_string(r->status));
  xp_case_param_string(c, "failure_kind", kind_names[r->kind]);
  xp_case_stat_real(c, "iterations", r->iterations, "");
  xp_case_stat_real(c, "time", r->time, "s");
  xp_case_stat_real(c, "cpu", r->cpu, "s");
  xp_case_stat_real(c, "cpu_setup", r->cpu_setup, "s");
  xp_case_stat_real(c, "kkt_solves", r->solves, "");
  xp_case_stat_real(c, "refine_steps", r->refines, "");
  xp_case_stat_real(c, "pres", r->score.pres, "");
  xp_case_stat_real(c, "dres", r->score.dres, "");
  xp_case_stat_real(c, "gap", r->score.gap, "");
  xp_case_stat_real(c, "pres_scale", r->score.pres_scale, "");
  xp_case_stat_real(c, "dres_scale", r->score.dres_scale, "");
  xp_case_stat_real(c, "gap_scale", r->score.gap_scale, "");
  xp_case_stat_real(c, "below_rounding", below_rounding(r, tol), "");
  xp_case_stat_real(c, "pres_ulp_move", r->ulp.pres_move, "");
  xp_case_stat_real(c, "dres_ulp_move", r->ulp.dres_move, "");
  xp_case_stat_real(c, "gap_ulp_move", r->ulp.gap_move, "");
  xp_case_stat_real(c, "ulp_neighbours", r->ulp.draws, "");
  xp_case_stat_real(c, "ulp_neighbours_passing", r->ulp.passing, "");
  xp_case_stat_real(c, "ulp_neighbours_passing_f64", r->ulp.passing_f64, "");
  xp_case_stat_real(c, "rounding_decides", rounding_decides(r, tol), "");
  xp_case_stat_real(c, "lastbit", r->lastbit, "");
  xp_case_stat_real(c, "pres_f64", r->score_f64.pres, "");
  xp_case_stat_real(c, "dres_f64", r->score_f64.dres, "");
  xp_case_stat_real(c, "gap_f64", r->score_f64.gap, "");
  xp_case_stat_real(c, "pass_f64", r->pass_f64, "");
  xp_case_stat_real(c, "objective", r->obj, "");
  xp_case_stat_real(c, "pass", r->pass, "");
  xp_case_status(c, r->pass ? "ok" : "failed", kind_names[r->kind]);
  xp_case_end(c);
}

static void print_row(const maros_row *r) {
  printf("| %-9s | %6d | %6d | %-17s | %3d | %8.3f | %.1e | %.1e | %.1e | %+.10e | %s | %s |\n",
         r->name, r->n, r->m, qcp_status_string(r->status), r->iterations, r->time, r->score.pres,
         r->score.dres, r->score.gap, r->obj, r->kind == KIND_OK ? "ok" : kind_names[r->kind],
         r->pass_f64 ? "ok" : "fail");
  fflush(stdout);
}

// the failures and passes that rounding decides: by the scales (a guide) and by one-ulp moves
static void print_rounding(const maros_row *rows, int n, const maros_options *o) {
  // the failures whose failing measures are all at or below their rounding scale
  int nb = 0;
  for (int i = 0; i < n; i++) nb += below_rounding(&rows[i], o->tol);
  printf(
      "\nfailures only in measures at their rounding scale (the returned point's unit roundoff "
      "times the magnitudes that cancel, `pres_scale`, `dres_scale`, `gap_scale` in the "
      "results, at least the tolerance, and the measure within %g× of it; what rounding the "
      "exact solution typically leaves — a guide, not a bound): **%d**",
      ROUNDING_BAND, nb);
  for (int i = 0, first = 1; i < n; i++) {
    const qcp_mm_score *sc = &rows[i].score;
    if (!below_rounding(&rows[i], o->tol)) continue;
    printf("%s%s (", first ? ": " : ", ", rows[i].name), first = 0;
    const char *sep = "";
    if (sc->pres > o->tol) printf("pres %.1e/%.1e", sc->pres, sc->pres_scale), sep = ", ";
    if (sc->dres > o->tol) printf("%sdres %.1e/%.1e", sep, sc->dres, sc->dres_scale), sep = ", ";
    if (sc->gap > o->tol) printf("%sgap %.1e/%.1e", sep, sc->gap, sc->gap_scale);
    printf(")");
  }
  printf("\n");
  int nd = 0, nf = 0;
  for (int i = 0; i < n; i++) {
    nd += !rows[i].pass && rounding_decides(&rows[i], o->tol);
    nf += rows[i].pass && 2 * rows[i].ulp.passing < rows[i].ulp.draws;
  }
  printf(
      "\nfailures that rounding decides (a measure moves by at least the tolerance when every "
      "component of the point moves by one ulp, median of %d neighbours): **%d**",
      ULP_DRAWS, nd);
  for (int i = 0, first = 1; i < n; i++) {
    const qcp_mm_ulp *u = &rows[i].ulp;
    if (rows[i].pass || !rounding_decides(&rows[i], o->tol)) continue;
    printf("%s%s (moves pres %.1e, dres %.1e, gap %.1e)", first ? ": " : ", ", rows[i].name,
           u->pres_move, u->dres_move, u->gap_move);
    first = 0;
  }
  printf(
      "\n\npasses that rounding could flip (fewer than half of the %d one-ulp neighbours "
      "pass): **%d**",
      ULP_DRAWS, nf);
  for (int i = 0, first = 1; i < n; i++)
    if (rows[i].pass && 2 * rows[i].ulp.passing < rows[i].ulp.draws) {
      printf("%s%s (%d/%d)", first ? ": " : ", ", rows[i].name, rows[i].ulp.passing,
             rows[i].ulp.draws);
      first = 0;
    }
  int nl = 0;
  for (int i = 0; i < n; i++) nl += rows[i].pass && rows[i].lastbit;
  printf(
      "\npasses whose point had its components moved against the exact residuals after every "
      "polish pass missed (--lastbit): **%d**",
      nl);
  for (int i = 0, first = 1; i < n; i++)
    if (rows[i].pass && rows[i].lastbit)
      printf("%s%s", first ? ": " : ", ", rows[i].name), first = 0;
  printf("\n");
}

// The counts' share of luck. A problem whose one-ulp neighbours pass the check only in part passes
// or fails by rounding: the exact check by where rounding put its point, the float64 one also by
// the rounding of the scorer's sums. So each count is a draw; its expectation over the neighbours
// (each problem's passing share, summed) and that draw's standard deviation say how far two
// counts may differ by luck. Whose shares: for the float64 count the problems said solved; for
// the exact count those said solved_inaccurate too, as the solver's label follows its own check,
// recomputed exactly where rounding could decide it (a passing neighbour is a point it would have
// called solved; a run stopped by a limit is not).
static int row_counted(const maros_row *r, int exact) {
  return r->ulp.draws >= 1 &&
         (r->status == QCP_SOLVED || (exact && r->status == QCP_SOLVED_INACCURATE));
}
static int neighbours_passing(const maros_row *r, int exact) {
  return exact ? r->ulp.passing : r->ulp.passing_f64;
}

// the expected passes (*expect), the draw's variance (*var); returns the problems whose
// neighbours split
static int luck_of(const maros_row *rows, int n, int exact, double *expect, double *var) {
  int unsure = 0;
  *expect = *var = 0.0;
  for (int i = 0; i < n; i++) {
    if (!row_counted(&rows[i], exact)) continue;
    const double share = (double)neighbours_passing(&rows[i], exact) / rows[i].ulp.draws;
    *expect += share, *var += share * (1.0 - share);
    unsure += share > 0.0 && share < 1.0;
  }
  return unsure;
}

static void print_luck(const maros_row *rows, int n) {
  double expect, var;
  int unsure = luck_of(rows, n, 1, &expect, &var);
  printf(
      "\nexact passes expected of points as accurate as these (each solved or solved_inaccurate "
      "problem's share of its %d one-ulp neighbours passing the exact check, summed): **%.1f ± "
      "%.1f**; problems whose neighbours split: **%d**\n",
      ULP_DRAWS, expect, sqrt(var), unsure);
  unsure = luck_of(rows, n, 0, &expect, &var);
  printf(
      "\nfloat64 passes expected of points as accurate as these (each solved problem's share of "
      "its %d one-ulp neighbours passing in float64, summed): **%.1f ± %.1f**; problems whose "
      "neighbours split: **%d**",
      ULP_DRAWS, expect, sqrt(var), unsure);
  for (int i = 0, first = 1; i < n; i++) {
    const qcp_mm_ulp *u = &rows[i].ulp;
    if (!row_counted(&rows[i], 0) || u->passing_f64 == 0 || u->passing_f64 == u->draws) continue;
    printf("%s%s (%d/%d, this point %s)", first ? ": " : ", ", rows[i].name, u->passing_f64,
           u->draws, rows[i].pass_f64 ? "passes" : "fails");
    first = 0;
  }
  printf("\n");
}

static void print_summary(const maros_row *rows, int n, const maros_options *o) {
  int count[KIND_COUNT] = {0}, n64 = 0, wrong64 = 0, only_exact = 0, only_f64 = 0;
  for (int i = 0; i < n; i++) {
    count[rows[i].kind]++;
    n64 += rows[i].pass_f64;
    wrong64 += rows[i].status == QCP_SOLVED && !rows[i].pass_f64;
    only_exact += rows[i].kind == KIND_OK && !rows[i].pass_f64;
    only_f64 += rows[i].kind != KIND_OK && rows[i].pass_f64;
  }
  printf(
      "\n## qcp on Maros-Meszaros, tol %.0e (%d iterations, cold start rho = %g, proximal "
      "%d%s)\n\n",
      o->tol, o->max_iter, o->cold_rho, o->proximal, o->lastbit ? ", --lastbit" : "");
  printf(
      "solved and passing the check summed in float64 (as the field's tables): **%d / %d (%.0f "
      "%%)**; with exact sums: **%d / %d (%.0f %%)**\n\n"
      "said solved but fails the check: **%d** (float64), **%d** (exact)\n\n"
      "the two scores differ on %d problems (%d pass only exactly, %d only in float64): a "
      "float64 sum rounds by about 1e-16 times the magnitudes that cancel in it (the "
      "`*_scale` statistics), which on objectives near 1e11 is far above a 1e-9 gap\n\n"
      "| failure kind (exact score) | count | problems |\n|---|--:|---|\n",
      n64, n, n ? 100.0 * n64 / n : 0.0, count[KIND_OK], n, n ? 100.0 * count[KIND_OK] / n : 0.0,
      wrong64, count[KIND_WRONG], only_exact + only_f64, only_exact, only_f64);
  for (int k = 1; k < KIND_COUNT; k++) {
    if (!count[k]) continue;
    printf("| %s (%s) | %d | ", kind_names[k], kind_help[k], count[k]);
    for (int i = 0, first = 1; i < n; i++)
      if (rows[i].kind == (maros_kind)k) printf("%s%s", first ? "" : ", ", rows[i].name), first = 0;
    printf(" |\n");
  }
  print_rounding(rows, n, o);
  print_luck(rows, n);
  // shifted geometric mean of the time (shift 10 s, failures at the time limit), as qpbenchmark
  double lim = o->time_limit > 0 ? o->time_limit : 1000.0, acc = 0.0;
  for (int i = 0; i < n; i++) acc += log(10.0 + (rows[i].kind == KIND_OK ? rows[i].time : lim));
  printf("\nshifted geometric mean time (10 s shift, failures at %.0f s): %.2f s\n", lim,
         n ? exp(acc / n) - 10.0 : 0.0);
}

// CSV for gnuplot and the figures; returns 0 or -1. The paths and the tolerance reach gnuplot
// as datablock lines of a meta file (xp_plot_block_line), never spliced into a command: the
// directory comes from the command line
static int write_plots(const char *plot_dir, const maros_row *rows, int n, double tol) {
  char csv[1100], meta[1100], stem[1100], tol_txt[32], dir[1024];
  xp_error err = {.code = 0};
  // every path reaching gnuplot is one it cannot take as a pipe or an option (xp_gnuplot_path)
  if (xp_gnuplot_path(dir, sizeof dir, plot_dir, &err) != XP_OK)
    return fprintf(stderr, "bench maros: --plot: %s\n", err.message), -1;
  if (xp_mkdir_p(dir) != 0)
    return fprintf(stderr, "bench maros: --plot: cannot create '%s': %s\n", plot_dir,
                   strerror(errno)),
           -1;
  snprintf(tol_txt, sizeof tol_txt, "%.0e", tol);
  snprintf(csv, sizeof csv, "%s/maros_%s.csv", dir, tol_txt);
  snprintf(stem, sizeof stem, "%s/maros_%s", dir, tol_txt);
  snprintf(meta, sizeof meta, "%s/maros_%s.meta.gp", dir, tol_txt);
  FILE *f = fopen(csv, "w");
  if (!f) return -1;
  fprintf(f, "name,iterations,time,pass,pass_f64,cpu,cpu_setup\n");
  for (int i = 0; i < n; i++)
    fprintf(f, "%s,%d,%.6g,%d,%d,%.6g,%.6g\n", rows[i].name, rows[i].iterations, rows[i].time,
            rows[i].pass, rows[i].pass_f64, rows[i].cpu, rows[i].cpu_setup);
  if (fclose(f) != 0) return -1;
  FILE *m = fopen(meta, "w");
  if (!m) return -1;
  const char *fields[3] = {csv, stem, tol_txt};
  fputs("$maros_meta << EOD\n", m);
  for (int i = 0; i < 3; i++) xp_plot_block_line(m, &fields[i], 1);
  fputs("EOD\ncsv = $maros_meta[1][2:]; out = $maros_meta[2][2:]; tol = $maros_meta[3][2:]\n", m);
  if (fclose(m) != 0) return -1;
  char script[1024];
  snprintf(script, sizeof script, "%s/plots/maros.gp", STABCON_SOURCE_DIR);
  return xp_plot_run_gnuplot(meta, script) == 0 ? 0 : -1;
}

typedef struct bench_args {
  maros_options o;
  const char *only, *dir, *output, *plot, *readme, *results;
  int help;  // 1: --help printed, nothing to run
  char dir_buf[1024], out_buf[1024];
} bench_args;

static int parse_bench(int argc, char **argv, bench_args *b) {
  memset(b, 0, sizeof *b);
  b->o = (maros_options){
      1e-9, 1000.0, 200, 0, 0, qcp_settings_default().cold_rho, qcp_settings_default().proximal};
  for (int i = 1; i < argc; i++) {
    int r = parse_common(argc, argv, &i, &b->o, "bench maros");
    if (r < 0) return XP_ERR_USAGE;
    if (r) continue;
    const char *a = argv[i];
    const char **slot = !strcmp(a, "--only")      ? &b->only
                        : !strcmp(a, "--dir")     ? &b->dir
                        : !strcmp(a, "--output")  ? &b->output
                        : !strcmp(a, "--plot")    ? &b->plot
                        : !strcmp(a, "--readme")  ? &b->readme
                        : !strcmp(a, "--results") ? &b->results
                                                  : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h"))
      return fputs(bench_help, stdout), b->help = 1, XP_OK;
    if (!slot)
      return fprintf(stderr, "bench maros: unknown argument '%s' (see --help)\n", a), XP_ERR_USAGE;
    if (++i >= argc) return fprintf(stderr, "bench maros: %s needs a value\n", a), XP_ERR_USAGE;
    *slot = argv[i];
  }
  if (b->results && !b->readme)
    return fprintf(stderr, "bench maros: --results goes with --readme (see --help)\n"),
           XP_ERR_USAGE;
  if (!b->dir) {
    snprintf(b->dir_buf, sizeof b->dir_buf, "%s/../shared/data/maros_meszaros_full",
             STABCON_SOURCE_DIR);
    b->dir = b->dir_buf;
  }
  if (!b->output && !b->readme) {
    snprintf(b->out_buf, sizeof b->out_buf, "results/maros_%.0e.h5", b->o.tol);
    xp_mkdir_p("results");
    b->output = b->out_buf;
  }
  return XP_OK;
}

// before anything is solved: case names (the file names up to the first '.') unique and not
// empty, and the output none of the problem files
static int check_inputs(const bench_args *b, char **names, int n, xp_error *err) {
  char(*cases)[64] = calloc((size_t)n, sizeof *cases);
  const char **paths = calloc((size_t)n, sizeof *paths);
  int rc = cases && paths ? XP_OK : xp_fail(err, XP_ERR_RUN, "out of memory");
  for (int i = 0; !rc && i < n; i++) {
    case_name(names[i], cases[i], sizeof cases[i]);
    if (strlen(names[i]) >= sizeof cases[i] - 1 || !cases[i][0])
      rc = xp_fail(err, XP_ERR_USAGE, "'%s/%s': a problem's name must have 1 to 62 characters",
                   b->dir, names[i]);
    for (int k = 0; !rc && k < i; k++)
      if (!strcmp(cases[k], cases[i]))
        rc = xp_fail(err, XP_ERR_USAGE,
                     "'%s/%s' and '%s/%s' would both be case '%s'; rename one or choose with "
                     "--only",
                     b->dir, names[k], b->dir, names[i], cases[i]);
    char *p = malloc(strlen(b->dir) + strlen(names[i]) + 2);
    if (p) sprintf(p, "%s/%s", b->dir, names[i]);
    paths[i] = p;
  }
  if (!rc) rc = xp_output_check("--output", b->output, paths, (size_t)n, err);
  for (int i = 0; paths && i < n; i++) free((void *)paths[i]);
  free(cases), free(paths);
  return rc;
}

int cli_cmd_bench_maros(int argc, char **argv) {
  bench_args b;
  int rc = parse_bench(argc, argv, &b);
  if (rc || b.help) return rc;
  if (b.readme) {  // the scores from stored files: nothing is solved
    xp_error err = {.code = 0};
    rc = xp_maros_readme_update(b.readme, b.results ? b.results : "results", &err);
    if (rc) fprintf(stderr, "bench maros: %s\n", err.message);
    return rc;
  }
  char **names = NULL;
  int n = list_problems(b.dir, b.only, &names);
  if (n <= 0) {
    fprintf(stderr, "bench maros: no NAME.mat problems in '%s'%s\n", b.dir,
            b.only ? " (--only)" : "");
    return XP_ERR_USAGE;
  }
  // the results file of a benchmark: named like an experiment, with no driver behind it
  static const xp_experiment bench_maros = {
      .name = "bench_maros",
      .paper_ref = "Maros-Meszaros convex QP test set (scored as its README describes)",
      .summary = "qcp on every problem, each scored by an independent residual check"};
  xp_error xerr = {.code = 0};
  if (check_inputs(&b, names, n, &xerr)) {
    fprintf(stderr, "bench maros: %s\n", xerr.message);
    for (int i = 0; i < n; i++) free(names[i]);
    return free(names), XP_ERR_USAGE;
  }
  xp_results *res = xp_results_create(b.output, &bench_maros, NULL, argc, argv, &xerr);
  maros_row *rows = calloc((size_t)n, sizeof *rows);
  if (!res || !rows) {
    fprintf(stderr, "bench maros: %s\n", res ? "out of memory" : xerr.message);
    return free(rows), XP_ERR_RUN;
  }
  printf(
      "| problem   |      n |   rows | status            |  it |    time s |  pres   |  dres   "
      "|  gap    | objective          | result | float64 |\n"
      "|---|--:|--:|---|--:|--:|--:|--:|--:|--:|---|---|\n");
  for (int i = 0; i < n; i++) {
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", b.dir, names[i]);
    run_problem("bench maros", path, &b.o, &rows[i]);
    print_row(&rows[i]);
    write_case(res, &rows[i], &b.o);
    free(names[i]);
  }
  free(names);
  print_summary(rows, n, &b.o);
  rc = xp_results_commit(res, &xerr) ? XP_ERR_RUN : XP_OK;
  if (rc)
    fprintf(stderr, "bench maros: %s\n", xerr.message);
  else
    printf("\nresults: %s\n", b.output);  // only a file that exists is announced
  if (b.plot && write_plots(b.plot, rows, n, b.o.tol)) {
    fprintf(stderr, "bench maros: the figures in '%s' could not be drawn\n", b.plot);
    rc = XP_ERR_RUN;
  }
  free(rows);
  return rc;
}
