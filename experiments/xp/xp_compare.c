// SPDX-License-Identifier: MIT
// A full comparison of two results files (`stabcon compare`): every difference, not only the
// first, so a change of behaviour can be explained line by line. Timings (is_timing) are left
// out: they differ between any two runs.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xp/xp_file.h"
#include "xp/xp_sweep.h"

// a text value of a results file has at most 1 MiB (XP_ATTR_MAX_STRING): nothing is cut short
enum { VALUE_MAX = (1 << 20) + 64 };

typedef struct compare_ctx {
  const xp_file *a, *b;
  FILE *out;
  long diffs;
} compare_ctx;

static void differ(compare_ctx *c, const char *fmt, const char *case_name, const char *what) {
  c->diffs++;
  if (c->out) fprintf(c->out, fmt, case_name, what);
}

// a timing (differs between any two runs): statistics and series named *time*, *wall*, *cpu*
// or us_per_step
static int is_timing(const char *name) {
  return strstr(name, "time") || strstr(name, "wall") || strstr(name, "cpu") ||
         strstr(name, "us_per_step");
}

static int in_list(char (*names)[256], size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(names[i], name) == 0) return 1;
  return 0;
}

// every entry name of a case's group (no cap: the buffer grows until all fit); NULL if out of
// memory, which the caller reports as "not compared"
static char (*all_entries(const xp_file *f, const char *case_name, const char *group,
                          size_t *n))[256] {
  for (size_t cap = 64;; cap *= 2) {
    char(*names)[256] = malloc(cap * sizeof *names);
    if (!names) return NULL;
    *n = xp_file_case_entries(f, case_name, group, names, cap);
    if (*n < cap) return names;
    free(names);
  }
}

// the case's own attributes (status, message; group ""), params or stats of one case: changed
// values, entries only in A or only in B
static void compare_group(compare_ctx *c, const char *case_name, const char *group) {
  static char va[VALUE_MAX], vb[VALUE_MAX];
  const char *label = group[0] ? group : "attribute";
  size_t ka = 0, kb = 0;
  char(*na)[256] = all_entries(c->a, case_name, group, &ka);
  char(*nb)[256] = all_entries(c->b, case_name, group, &kb);
  const int stats = strcmp(group, "stats") == 0;
  if (!na || !nb) {
    c->diffs++;
    if (c->out) fprintf(c->out, "not compared %s: %s (out of memory)\n", case_name, label);
    ka = kb = 0;
  }
  for (size_t i = 0; i < ka; i++) {
    if (stats && is_timing(na[i])) continue;
    if (!in_list(nb, kb, na[i])) {
      c->diffs++;
      if (c->out) fprintf(c->out, "only in A  %s: %s %s\n", case_name, label, na[i]);
      continue;
    }
    va[0] = vb[0] = '\0';
    if (xp_file_case_text(c->a, case_name, group, na[i], va, sizeof va) != 0 ||
        xp_file_case_text(c->b, case_name, group, na[i], vb, sizeof vb) != 0) {
      c->diffs++;
      if (c->out) fprintf(c->out, "not compared %s: %s %s (unreadable)\n", case_name, label, na[i]);
      continue;
    }
    if (strcmp(va, vb) == 0) continue;
    c->diffs++;
    if (c->out) fprintf(c->out, "changed    %s: %s %s: %s → %s\n", case_name, label, na[i], va, vb);
  }
  for (size_t i = 0; i < kb; i++)
    if (!(stats && is_timing(nb[i])) && !in_list(na, ka, nb[i])) {
      c->diffs++;
      if (c->out) fprintf(c->out, "only in B  %s: %s %s\n", case_name, label, nb[i]);
    }
  free(na);
  free(nb);
}

// largest absolute difference of two series of one length (NaN = NaN counts as equal)
static double series_gap(const double *x, const double *y, long n) {
  double gap = 0;
  for (long i = 0; i < n; i++) {
    if (isnan(x[i]) && isnan(y[i])) continue;
    const double d = fabs(x[i] - y[i]);
    gap = isnan(d) ? INFINITY : fmax(gap, d);
  }
  return gap;
}

static void compare_series(compare_ctx *c, const char *case_name) {
  size_t ka = 0, kb = 0;
  char(*na)[256] = all_entries(c->a, case_name, "series", &ka);
  char(*nb)[256] = all_entries(c->b, case_name, "series", &kb);
  if (!na || !nb) {
    c->diffs++;
    if (c->out) fprintf(c->out, "not compared %s: series (out of memory)\n", case_name);
    ka = kb = 0;
  }
  for (size_t i = 0; i < ka; i++) {
    if (is_timing(na[i])) continue;
    if (!in_list(nb, kb, na[i])) {
      differ(c, "only in A  %s: series %s\n", case_name, na[i]);
      continue;
    }
    double *x = NULL, *y = NULL;
    const long lx = xp_file_series_read(c->a, case_name, na[i], &x);
    const long ly = xp_file_series_read(c->b, case_name, na[i], &y);
    if (lx < 0 || ly < 0) {
      c->diffs++;
      if (c->out) fprintf(c->out, "not compared %s: series %s (unreadable)\n", case_name, na[i]);
    } else if (lx != ly) {
      c->diffs++;
      if (c->out)
        fprintf(c->out, "changed    %s: series %s: length %ld → %ld\n", case_name, na[i], lx, ly);
    } else if (lx > 0 && memcmp(x, y, (size_t)lx * sizeof *x) != 0) {
      const double gap = series_gap(x, y, lx);
      if (gap > 0) {  // bitwise unequal but equal as numbers: NaN payloads, signed zeros
        c->diffs++;
        if (c->out)
          fprintf(c->out, "changed    %s: series %s: largest difference %.3g\n", case_name, na[i],
                  gap);
      }
    }
    free(x);
    free(y);
  }
  for (size_t i = 0; i < kb; i++)
    if (!is_timing(nb[i]) && !in_list(na, ka, nb[i]))
      differ(c, "only in B  %s: series %s\n", case_name, nb[i]);
  free(na);
  free(nb);
}

static int has_case(const xp_file *f, const char *name) {
  for (size_t i = 0; i < xp_file_case_count(f); i++)
    if (strcmp(xp_file_case_name(f, i), name) == 0) return 1;
  return 0;
}

long xp_results_compare_report(const char *path_a, const char *path_b, FILE *report,
                               xp_error *err) {
  xp_file *a = xp_file_open(path_a, err), *b = a ? xp_file_open(path_b, err) : NULL;
  if (!a || !b) {
    xp_file_close(a);
    return -1;
  }
  compare_ctx c = {.a = a, .b = b, .out = report};
  for (size_t i = 0; i < xp_file_case_count(a); i++) {
    const char *name = xp_file_case_name(a, i);
    if (!has_case(b, name)) {
      differ(&c, "only in A  %s%s\n", name, " (case)");
      continue;
    }
    compare_group(&c, name, "");  // status, message
    compare_group(&c, name, "params");
    compare_group(&c, name, "stats");
    compare_series(&c, name);
  }
  for (size_t i = 0; i < xp_file_case_count(b); i++)
    if (!has_case(a, xp_file_case_name(b, i)))
      differ(&c, "only in B  %s%s\n", xp_file_case_name(b, i), " (case)");
  xp_file_close(a);
  xp_file_close(b);
  return c.diffs;
}

// the sweeps' yes/no form (resume, determinism, MPI): the full comparison, its first line kept
int xp_results_compare(const char *path_a, const char *path_b, xp_compare_summary *sum,
                       xp_error *err) {
  memset(sum, 0, sizeof *sum);
  char *text = NULL;
  size_t size = 0;
  FILE *report = open_memstream(&text, &size);
  if (!report) return xp_fail(err, XP_ERR_RUN, "out of memory");
  const long n = xp_results_compare_report(path_a, path_b, report, err);
  fclose(report);
  if (n >= 0) {
    sum->differences = n;
    snprintf(sum->first, sizeof sum->first, "%.*s", (int)strcspn(text, "\n"), text);
    xp_file *f = xp_file_open(path_a, err);
    sum->cases = f ? xp_file_case_count(f) : 0;
    xp_file_close(f);
  }
  free(text);
  return n < 0 ? XP_ERR_RUN : n > 0;
}
