// SPDX-License-Identifier: MIT
// The conic solver's Maros–Mészáros score from the results files of `stabcon bench maros`: the
// README's maros block and REPORT.md's section. Per problem the files hold the exact check
// (failure_kind "ok": said solved and the double-double residuals ≤ tol), the float64 one
// (pass_f64, summed as the field's tables sum), each measure in both sums and its rounding scale,
// and the float64 passes among 16 one-ulp neighbours of the returned point.
#include "xp/xp_maros.h"
#include "xp/xp_claim.h"
#include "xp/xp_file.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const double xp_maros_tols[XP_MAROS_NTOL] = {1e-9, 1e-6};

// bench maros's --time-limit default (seconds), for files that do not store theirs
#define BENCH_TIME_LIMIT_DEFAULT 1000.0
// qpbenchmark's shifted geometric mean: shift 10 s, failures counted at the time limit
#define SGM_SHIFT 10.0

void xp_maros_file_name(char *buf, size_t len, double tol) {
  snprintf(buf, len, "maros_%.0e.h5", tol);
}

// one measure of the check: its name and its statistics in the file
static const char *const measure[3] = {"pres", "dres", "gap"};

typedef struct maros_sums {
  size_t n;                          // problems
  int exact, f64;                    // passes of each check
  int solved;                        // said solved (failure kind ok or wrong_solved)
  int wrong_exact;                   // said solved, failing the exact check
  int mismatched;                    // cases whose tol differs from the file's name
  int differ, differ_at_scale;       // the checks disagree; of those, at a measure's rounding scale
  double expect, var;                // float64 passes expected of one-ulp neighbours, variance
  int ulp_cases;                     // solved problems with stored neighbours
  double expect_x, var_x;            // exact passes expected likewise (solved or inaccurate)
  int ulp_cases_x;                   // their problems with stored neighbours
  double sgm_f64, sgm_exact, limit;  // shifted geometric mean times (s), the time limit (s)
} maros_sums;

static double stat_of(const xp_file *f, const char *c, const char *key) {
  double v = NAN;
  xp_file_case_stat(f, c, key, &v);
  return v;
}

// the time limit of the run: the case parameter, else the recorded command line's --time-limit,
// else bench maros's default
static double time_limit_of(const xp_file *f) {
  double lim = NAN;
  if (xp_file_case_count(f) > 0) xp_file_case_param(f, xp_file_case_name(f, 0), "time_limit", &lim);
  if (lim == lim) return lim;
  char cmd[2048];
  if (xp_file_attr(f, "command_line", cmd, sizeof cmd) == 0) {
    const char *p = strstr(cmd, "--time-limit ");
    if (p && sscanf(p + strlen("--time-limit "), "%lf", &lim) == 1 && lim >= 0) return lim;
  }
  return BENCH_TIME_LIMIT_DEFAULT;
}

static void sums_of(const xp_file *f, double tol, maros_sums *s) {
  *s = (maros_sums){.n = xp_file_case_count(f), .limit = time_limit_of(f)};
  // a limit of 0 means none: failures then count at the default, as bench maros prints
  const double lim = s->limit > 0 ? s->limit : BENCH_TIME_LIMIT_DEFAULT;
  double acc64 = 0, accx = 0;
  for (size_t i = 0; i < s->n; i++) {
    const char *c = xp_file_case_name(f, i);
    char kind[64] = "";
    xp_file_case_text(f, c, "params", "failure_kind", kind, sizeof kind);
    double ctol = NAN;
    xp_file_case_param(f, c, "tol", &ctol);
    s->mismatched += !(ctol == tol);
    const int ok = strcmp(kind, "ok") == 0, solved = ok || strcmp(kind, "wrong_solved") == 0;
    const int f64 = stat_of(f, c, "pass_f64") == 1;
    s->exact += ok, s->f64 += f64, s->solved += solved;
    s->wrong_exact += solved && !ok;
    // thread CPU of setup and solve, the clock the time limit uses (wall time measures the
    // machine's load); files without it give the `time` statistic
    double t = stat_of(f, c, "cpu");
    if (t != t) t = stat_of(f, c, "time");
    acc64 += log(SGM_SHIFT + (f64 && t == t ? t : lim));
    accx += log(SGM_SHIFT + (ok && t == t ? t : lim));
    const double draws = stat_of(f, c, "ulp_neighbours");
    const double pass_nb = stat_of(f, c, "ulp_neighbours_passing_f64");
    if (solved && draws >= 1 && pass_nb == pass_nb) {
      const double share = pass_nb / draws;
      s->expect += share, s->var += share * (1 - share), s->ulp_cases++;
    }
    // the exact count's: over the problems the solver called solved or solved_inaccurate (its
    // label follows its own check, recomputed exactly where rounding could decide it)
    char status[64] = "";
    xp_file_case_text(f, c, "params", "qcp_status", status, sizeof status);
    const double pass_x = stat_of(f, c, "ulp_neighbours_passing");
    if ((!strcmp(status, "solved") || !strcmp(status, "solved_inaccurate")) && draws >= 1 &&
        pass_x == pass_x) {
      const double share = pass_x / draws;
      s->expect_x += share, s->var_x += share * (1 - share), s->ulp_cases_x++;
    }
    if (ok == f64) continue;
    s->differ++;
    int at_scale = 0;  // over the measures that decide: one check passes them, the other not
    for (int k = 0; k < 3; k++) {
      char key[32];
      snprintf(key, sizeof key, "%s_f64", measure[k]);
      if ((stat_of(f, c, measure[k]) <= tol) == (stat_of(f, c, key) <= tol)) continue;
      snprintf(key, sizeof key, "%s_scale", measure[k]);
      at_scale |= stat_of(f, c, key) >= tol;
    }
    s->differ_at_scale += at_scale;
  }
  if (s->n) s->sgm_f64 = exp(acc64 / s->n) - SGM_SHIFT, s->sgm_exact = exp(accx / s->n) - SGM_SHIFT;
}

// the problems on which the checks disagree, each with the measures that decide it: exact and
// float64 value beside the measure's rounding scale
static void differ_list(FILE *out, const xp_file *f, double tol) {
  for (size_t i = 0, first = 1; i < xp_file_case_count(f); i++) {
    const char *c = xp_file_case_name(f, i);
    char kind[64] = "";
    xp_file_case_text(f, c, "params", "failure_kind", kind, sizeof kind);
    const int ok = strcmp(kind, "ok") == 0, f64 = stat_of(f, c, "pass_f64") == 1;
    if (ok == f64) continue;
    fprintf(out, "%s%s (passes %s only:", first ? "" : "; ", c, ok ? "exactly" : "in float64");
    first = 0;
    for (int k = 0, shown = 0; k < 3; k++) {
      char key[32];
      snprintf(key, sizeof key, "%s_f64", measure[k]);
      const double x = stat_of(f, c, measure[k]), y = stat_of(f, c, key);
      if ((x <= tol) == (y <= tol)) continue;
      snprintf(key, sizeof key, "%s_scale", measure[k]);
      fprintf(out, "%s %s %.1e exact, %.1e float64, rounding scale %.1e", shown++ ? "," : "",
              measure[k], x, y, stat_of(f, c, key));
    }
    fprintf(out, ")");
  }
}

// the tolerance's row of the table, and its lines below (differ, absent) into notes
static void tol_row(FILE *out, const xp_file *f, double tol, const maros_sums *s) {
  char sha[96] = "?", when[64] = "?", load[64] = "";
  xp_file_attr(f, "git_sha", sha, sizeof sha);
  xp_file_attr(f, "utc_time", when, sizeof when);
  xp_file_attr(f, "load_average", load, sizeof load);
  fprintf(out, "| %.0e | **%d / %zu** | %d / %zu | %d / %d | ", tol, s->f64, s->n, s->exact, s->n,
          s->solved - s->f64, s->wrong_exact);
  if (s->ulp_cases_x)
    fprintf(out, "%.1f ± %.1f", s->expect_x, sqrt(s->var_x));
  else
    fprintf(out, "not stored");
  fprintf(out, " | ");
  if (s->ulp_cases)
    fprintf(out, "%.1f ± %.1f", s->expect, sqrt(s->var));
  else
    fprintf(out, "not stored");
  fprintf(out, " | %.3g s (exact: %.3g s) | stabcon %s, %s", s->sgm_f64, s->sgm_exact, sha, when);
  char opts[512] = "";
  if (xp_file_attr(f, "build_options", opts, sizeof opts) == 0 && !strncmp(opts, "buildtype=", 10))
    fprintf(out, ", %.*s build", (int)strcspn(opts + 10, " "), opts + 10);
  if (load[0]) fprintf(out, ", load average %s", load);
  if (s->limit > 0)
    fprintf(out, ", time limit %g s", s->limit);
  else
    fprintf(out, ", no time limit (failures at %g s)", BENCH_TIME_LIMIT_DEFAULT);
  fprintf(out, " |\n");
}

// the block's closing paragraph: why the two checks differ, what the expectations and times are
static void why_paragraph(FILE *out) {
  fprintf(out,
          "Why the two checks differ: both score the same returned point. A float64 sum rounds "
          "by up to about 1e-16 times the magnitudes that cancel in it, which on large rows "
          "and objectives exceeds the tolerance; the double-double sum rounds far below it. The "
          "rounding "
          "scale of a measure (`pres_scale`, `dres_scale`, `gap_scale` in the files) is "
          "another guide: what rounding the point's components to double changes it by; where "
          "it reaches the tolerance even the exact solution rounded to double passes or fails "
          "by rounding. The expected float64 passes sum, over the problems said solved, the "
          "share of 16 one-ulp neighbours of the returned point that pass in float64 (± its "
          "standard deviation): how far two float64 counts may differ "
          "by rounding alone; the expected exact passes likewise sum the share passing the "
          "exact check over the problems said solved or solved_inaccurate (the solver's own "
          "check, recomputed exactly where rounding could decide it, labels such a neighbour "
          "solved). Times are the solving thread's CPU time of setup and solve (the "
          "`cpu` statistic, the clock of the time limit: wall time on a shared machine measures "
          "its load), a failure counted at the time limit, shift 10 s.\n");
}

void xp_maros_scores_write(FILE *out, const char *dir) {
  xp_file *f[XP_MAROS_NTOL] = {NULL};
  char name[XP_MAROS_NTOL][64], why[XP_MAROS_NTOL][320];
  int any = 0;
  for (int t = 0; t < XP_MAROS_NTOL; t++) {
    xp_maros_file_name(name[t], sizeof name[t], xp_maros_tols[t]);
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name[t]);
    xp_error err = {.code = 0};
    why[t][0] = '\0';
    if (access(path, R_OK) != 0)
      snprintf(why[t], sizeof why[t], "absent");
    else if (!(f[t] = xp_file_open(path, &err)))
      snprintf(why[t], sizeof why[t], "unreadable (%.280s)", err.message);
    any |= f[t] != NULL;
  }
  fprintf(out,
          "The conic solver `qcp` on the Maros–Mészáros convex QPs, scored as the field scores "
          "them (cold start, absolute tolerance, success = status solved and primal residual, "
          "dual residual and duality gap recomputed from the original data ≤ the tolerance), "
          "computed by `stabcon bench maros --readme` from the results files of `stabcon bench "
          "maros` (");
  for (int t = 0; t < XP_MAROS_NTOL; t++) fprintf(out, "%s`%s`", t ? ", " : "", name[t]);
  fprintf(out,
          "). The check is summed twice: in float64 as the field's published tables sum it (the "
          "headline) and exactly (double-double).\n\n");
  maros_sums s[XP_MAROS_NTOL];
  if (any)
    fprintf(out,
            "| tolerance | solved, float64 check | solved, exact check | said solved but "
            "failing (float64 / exact) | exact passes expected of one-ulp neighbours | float64 "
            "passes expected of one-ulp neighbours | shifted geometric mean CPU time, float64 "
            "check (exact) | run |\n"
            "|---|--:|--:|--:|--:|--:|--:|---|\n");
  for (int t = 0; t < XP_MAROS_NTOL; t++)
    if (f[t]) {
      sums_of(f[t], xp_maros_tols[t], &s[t]);
      tol_row(out, f[t], xp_maros_tols[t], &s[t]);
    }
  if (any) fprintf(out, "\n");
  for (int t = 0; t < XP_MAROS_NTOL; t++) {
    const double tol = xp_maros_tols[t];
    if (!f[t]) {
      fprintf(out, "At %.0e: `%s` is %s in the results directory; no score.\n\n", tol, name[t],
              why[t]);
      continue;
    }
    if (s[t].mismatched)
      fprintf(out, "At %.0e: **%d of `%s`'s problems were solved at another tolerance**.\n\n", tol,
              s[t].mismatched, name[t]);
    fprintf(out, "At %.0e the two checks differ on %d problem%s", tol, s[t].differ,
            s[t].differ == 1 ? "" : "s");
    if (s[t].differ) {
      fprintf(out,
              " (the same point: the float64 sums' own rounding moves a measure across the "
              "tolerance; in %d of them a deciding measure's rounding scale reaches the tolerance "
              "too): ",
              s[t].differ_at_scale);
      differ_list(out, f[t], tol);
    }
    fprintf(out, ".\n\n");
  }
  if (any) why_paragraph(out);
  for (int t = 0; t < XP_MAROS_NTOL; t++)
    if (f[t]) xp_file_close(f[t]);
}

int xp_maros_report(FILE *md, const char *dir) {
  int any = 0;
  for (int t = 0; t < XP_MAROS_NTOL; t++) {
    char name[64], path[1200];
    xp_maros_file_name(name, sizeof name, xp_maros_tols[t]);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    any |= access(path, F_OK) == 0;
  }
  if (!any) return 0;
  fprintf(md, "## Maros–Mészáros convex QP set — the conic solver's score\n\n");
  xp_maros_scores_write(md, dir);
  fprintf(md, "\n");
  return 1;
}

static void maros_block_body(FILE *out, const void *ctx) { xp_maros_scores_write(out, ctx); }

int xp_maros_readme_update(const char *readme, const char *dir, xp_error *err) {
  return xp_readme_block_replace(readme, XP_MAROS_BEGIN, XP_MAROS_END, maros_block_body, dir, err);
}
