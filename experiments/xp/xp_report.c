// SPDX-License-Identifier: MIT
// results/REPORT.md: every regenerated figure and table beside what the paper reports.
#include "xp/xp_report.h"
#include "xp/xp_file.h"
#include "xp_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void xp_report_begin(FILE *md, int full) {
  char when[64];
  time_t now = time(NULL);
  struct tm utc;
  gmtime_r(&now, &utc);
  strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &utc);
  fprintf(md, "# stabcon — regenerated figures and tables\n\n");
  fprintf(md,
          "Written by `stabcon reproduce%s` on %s. Each section names the paper figure or "
          "table it regenerates, links the figure, and sets the measured numbers beside what "
          "the paper reports. The results files are in the directory of this report; `stabcon "
          "info FILE` shows the provenance of each (with the machine's load average when the "
          "file was written).\n\n",
          full ? " --full" : "", when);
}

// generic section: one row per case with its status and statistics
static void generic_table(FILE *md, const char *path) {
  xp_error err;
  xp_file *f = xp_file_open(path, &err);
  if (!f) {
    fprintf(md, "_results file unreadable: %s_\n\n", err.message);
    return;
  }
  fprintf(md, "| case | status |\n|---|---|\n");
  for (size_t i = 0; i < xp_file_case_count(f); i++) {
    char status[64] = "?";
    xp_file_case_status(f, xp_file_case_name(f, i), status, sizeof status);
    fprintf(md, "| `%s` | %s |\n", xp_file_case_name(f, i), status);
  }
  fprintf(md, "\n");
  xp_file_close(f);
}

void xp_report_stats_table(FILE *md, const xp_file *f, const char *filter, size_t nkeys,
                           const char *const *keys, const char *const *headers) {
  fprintf(md, "| case | status |");
  for (size_t k = 0; k < nkeys; k++) fprintf(md, " %s |", headers[k]);
  fprintf(md, "\n|---|---|");
  for (size_t k = 0; k < nkeys; k++) fprintf(md, "---|");
  fprintf(md, "\n");
  for (size_t i = 0; i < xp_file_case_count(f); i++) {
    const char *c = xp_file_case_name(f, i);
    if (filter && !strstr(c, filter)) continue;
    char status[64] = "?";
    xp_file_case_status(f, c, status, sizeof status);
    fprintf(md, "| `%s` | %s |", c, status);
    for (size_t k = 0; k < nkeys; k++) {
      double v;
      if ((xp_file_case_stat(f, c, keys[k], &v) == 0 ||
           xp_file_case_param(f, c, keys[k], &v) == 0) &&
          v == v)
        fprintf(md, " %.4g |", v);
      else
        fprintf(md, " |");
    }
    fprintf(md, "\n");
  }
  fprintf(md, "\n");
}

void xp_table_init(xp_table *t, size_t ncols, const char *const *headings, const char *align) {
  *t = (xp_table){.ncols = ncols, .headings = headings, .align = align};
}

void xp_table_cell(xp_table *t, const char *fmt, ...) {
  if (t->cells == t->cap) {
    const size_t cap = t->cap ? 2 * t->cap : 16 * (t->ncols ? t->ncols : 1);
    char(*grown)[XP_TABLE_CELL] = realloc(t->cell, cap * sizeof *grown);
    if (!grown) {
      t->failed = 1;
      return;
    }
    t->cell = grown, t->cap = cap;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t->cell[t->cells++], XP_TABLE_CELL, fmt, ap);
  va_end(ap);
}

void xp_table_write(const xp_table *t, FILE *md) {
  fputc('|', md);
  for (size_t j = 0; j < t->ncols; j++) fprintf(md, " %s |", t->headings[j]);
  fputs("\n|", md);
  for (size_t j = 0; j < t->ncols; j++)
    fputs(t->align && t->align[j] == 'r' ? "---:|" : "---|", md);
  fputc('\n', md);
  for (size_t r = 0; t->ncols && (r + 1) * t->ncols <= t->cells; r++) {
    fputc('|', md);
    for (size_t j = 0; j < t->ncols; j++) fprintf(md, " %s |", t->cell[r * t->ncols + j]);
    fputc('\n', md);
  }
  if (t->failed) fputs("\n_(table incomplete: out of memory)_\n", md);
}

void xp_table_free(xp_table *t) {
  free(t->cell);
  *t = (xp_table){0};
}

void xp_report_experiment(FILE *md, const xp_experiment *x, const char *results_path,
                          const char *figure_rel, int failed, double seconds) {
  fprintf(md, "## %s — %s\n\n%s. ", x->paper_ref, x->name, x->summary);
  if (failed) {
    fprintf(md, "**The run failed** (see the `reproduce` output); nothing to report.\n\n");
    return;
  }
  fprintf(md, "Run time %.2f s; data `%s`.\n\n", seconds, results_path);
  if (figure_rel) fprintf(md, "![%s](%s)\n\n", x->name, figure_rel);
  xp_error err = {.code = 0};
  if (x->report) {
    if (x->report(results_path, md, &err) != XP_OK)
      fprintf(md, "_report failed: %s_\n\n", err.message);
  } else {
    generic_table(md, results_path);
  }
}

void xp_report_end(FILE *md, double total_seconds) {
  char env[2048];
  xp_environment_describe(env, sizeof env);
  char load[64] = "unknown";
  FILE *f = fopen("/proc/loadavg", "r");
  double a = 0, b = 0, c = 0;
  if (f && fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3)
    snprintf(load, sizeof load, "%.2f %.2f %.2f", a, b, c);
  if (f) fclose(f);
  fprintf(md,
          "---\n\n### Environment\n\nTotal time %.1f s, single thread. Timing protocol: every "
          "time in the `stiffness` and `scaling` sections and the stack's cost is the minimum "
          "(median beside it in the results files) over repeated runs, the foundation tables "
          "and work-precision diagrams the median after a warm-up; wall and CPU time are both "
          "recorded. The build type is in the build options below: `./bootstrap.sh reproduce` "
          "builds with `-Dbuildtype=release` (-O3, NDEBUG) in `build-release/`; against the "
          "default `debugoptimized` (-O2) it gives bit-identical results (`stabcon compare` on "
          "the two runs' files) and is at most a few per cent faster. The load "
          "average (1, 5, 15 min) was %s at the end of this run and is stored in every results "
          "file (`load_average`), so a timing taken on a loaded machine can be recognised.\n\n%s",
          total_seconds, load, env);
}
