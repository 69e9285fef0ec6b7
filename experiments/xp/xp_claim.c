// SPDX-License-Identifier: MIT
// Paper claims as data: measurements read from results files, a rule, the computed verdict and
// the table that shows them (SPEC §8).
#include "xp/xp_claim.h"
#include "xp/xp_common.h"
#include "xp/xp_file.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { CLAIM_MAX_FILES = 32 };

struct xp_claim_files {
  char dir[1024];
  size_t n;
  char stem[CLAIM_MAX_FILES][64];
  xp_file *file[CLAIM_MAX_FILES];  // NULL: absent or unreadable
};

const char *xp_verdict_name(xp_verdict v) {
  switch (v) {
    case XP_VERDICT_REPRODUCED:
      return "reproduced";
    case XP_VERDICT_DIFFERENT:
      return "measured different";
    case XP_VERDICT_NOT_REPRODUCED:
      return "not reproduced";
    case XP_VERDICT_NOT_RUN:
      break;
  }
  return "not run";
}

xp_claim_files *xp_claim_files_open(const char *dir) {
  xp_claim_files *fs = calloc(1, sizeof *fs);
  if (fs) snprintf(fs->dir, sizeof fs->dir, "%s", dir);
  return fs;
}

void xp_claim_files_close(xp_claim_files *fs) {
  if (!fs) return;
  for (size_t i = 0; i < fs->n; i++)
    if (fs->file[i]) xp_file_close(fs->file[i]);
  free(fs);
}

// the results file <dir>/<stem>.h5, opened once (NULL if absent)
static const xp_file *claim_file(xp_claim_files *fs, const char *stem) {
  if (!stem) return NULL;
  for (size_t i = 0; i < fs->n; i++)
    if (strcmp(fs->stem[i], stem) == 0) return fs->file[i];
  if (fs->n == CLAIM_MAX_FILES) return NULL;
  char path[1200];
  snprintf(path, sizeof path, "%s/%s.h5", fs->dir, stem);
  xp_error err;
  snprintf(fs->stem[fs->n], sizeof fs->stem[0], "%s", stem);
  fs->file[fs->n] = access(path, R_OK) == 0 ? xp_file_open(path, &err) : NULL;
  return fs->file[fs->n++];
}

static double file_stat(const xp_file *f, const char *cas, const char *stat) {
  double v = NAN;
  if (f && cas && stat) xp_file_case_stat(f, cas, stat, &v);
  return v;
}

static int name_matches(const char *name, const char *prefix, const char *suffix) {
  const size_t ln = strlen(name), ls = suffix ? strlen(suffix) : 0;
  if (strncmp(name, prefix, strlen(prefix)) != 0) return 0;
  return !suffix || (ln >= ls && strcmp(name + ln - ls, suffix) == 0);
}

// least-squares slope of log y against log x over the matching cases (NaN if fewer than 2)
static double file_slope(const xp_file *f, const xp_meas *m) {
  const size_t n = f ? xp_file_case_count(f) : 0;
  double *x = malloc((2 * n + 1) * sizeof *x), *y = x ? x + n : NULL;
  if (!x) return NAN;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    const char *c = xp_file_case_name(f, i);
    if (!name_matches(c, m->cas, m->cas2)) continue;
    x[k] = NAN, y[k] = file_stat(f, c, m->stat);
    xp_file_case_param(f, c, m->stat2, &x[k++]);
  }
  const double slope = xp_loglog_slope(x, y, k, NULL);
  free(x);
  return slope;
}

static double file_extreme(const xp_file *f, const xp_meas *m, int largest) {
  double best = NAN;
  for (size_t i = 0; f && i < xp_file_case_count(f); i++) {
    const char *c = xp_file_case_name(f, i);
    if (!name_matches(c, m->cas, NULL)) continue;
    const double v = file_stat(f, c, m->stat);
    if (v == v && (best != best || (largest ? v > best : v < best))) best = v;
  }
  return best;
}

double xp_meas_value(xp_claim_files *fs, const xp_meas *m) {
  const xp_file *f = m->op == XP_MEAS_FORMULA ? NULL : claim_file(fs, m->file);
  double v = NAN;
  char status[64];
  switch (m->op) {
    case XP_MEAS_STAT:
      v = file_stat(f, m->cas, m->stat);
      break;
    case XP_MEAS_RATIO:
      v = file_stat(f, m->cas, m->stat) /
          file_stat(claim_file(fs, m->file2 ? m->file2 : m->file), m->cas2, m->stat2);
      break;
    case XP_MEAS_OK:
      if (f && xp_file_case_status(f, m->cas, status, sizeof status) == 0)
        v = strcmp(status, "ok") == 0;
      break;
    case XP_MEAS_SLOPE:
      v = file_slope(f, m);
      break;
    case XP_MEAS_MAX:
    case XP_MEAS_MIN:
      v = file_extreme(f, m, m->op == XP_MEAS_MAX);
      break;
    case XP_MEAS_FORMULA:
      v = m->formula ? m->formula() : NAN;
      break;
  }
  return m->scale != 0 ? v * m->scale : v;
}

// does one measurement hold (strict) or come near (loose) under the rule?
static void rule_test(const xp_rule *r, double m, double p, int *holds, int *near) {
  switch (r->kind) {
    case XP_RULE_RATIO:
      if (r->strict) {
        *holds = r->upper ? m < r->a : m > r->a;
        *near = r->upper ? m < r->b : m > r->b;
      } else {
        *holds = r->upper ? m <= r->a : m >= r->a;
        *near = r->upper ? m <= r->b : m >= r->b;
      }
      break;
    case XP_RULE_RELATIVE:
      *holds = fabs(m / p - 1) <= r->a;
      *near = m / p <= r->b && p / m <= r->b && m / p > 0;
      break;
    case XP_RULE_INTERVAL:
      *holds = m >= r->a && m <= r->b;
      *near = m >= r->la && m <= r->lb;
      break;
    case XP_RULE_ALL_OK:
    case XP_RULE_MONOTONE:
      *holds = m == 1, *near = 0;
      break;
  }
}

xp_verdict xp_rule_decide(const xp_rule *r, const xp_meas *meas, const double *values, size_t n) {
  if (n == 0) return XP_VERDICT_NOT_RUN;
  size_t decided = 0;
  for (size_t i = 0; i < n; i++) {
    const int skip = r->kind != XP_RULE_MONOTONE && meas && meas[i].undecided_ok;
    if (values[i] != values[i] && !skip) return XP_VERDICT_NOT_RUN;
    decided += values[i] == values[i];
  }
  if (decided == 0) return XP_VERDICT_NOT_RUN;
  int all = 1, some = 0, all_near = 1;
  if (r->kind == XP_RULE_MONOTONE) {
    for (size_t i = 1; i < n; i++) all &= (values[i] - values[i - 1]) * r->upper > 0;
    some = 0, all_near = n > 1 && (values[n - 1] - values[0]) * r->upper > 0;
    all &= n > 1;
  } else {
    for (size_t i = 0; i < n; i++) {
      if (values[i] != values[i]) continue;  // undecided (checked above)
      int holds = 0, near = 0;
      rule_test(r, values[i], meas[i].paper, &holds, &near);
      all &= holds, some |= holds, all_near &= near || holds;
    }
  }
  if (all) return XP_VERDICT_REPRODUCED;
  return some || all_near ? XP_VERDICT_DIFFERENT : XP_VERDICT_NOT_REPRODUCED;
}

int xp_rule_holds(const xp_rule *r, const xp_meas *meas, double value) {
  return xp_rule_decide(r, meas, &value, 1) == XP_VERDICT_REPRODUCED;
}

xp_verdict xp_claim_verdict(xp_claim_files *fs, const xp_claim *c) {
  double v[64];
  const size_t n = c->n_meas < 64 ? c->n_meas : 64;
  for (size_t i = 0; i < n; i++) v[i] = xp_meas_value(fs, &c->meas[i]);
  return xp_rule_decide(&c->rule, c->meas, v, n);
}

// the rule in words; the verdicts it names are xp_verdict_name's, never retyped
void xp_rule_describe(const xp_rule *r, char *buf, size_t len) {
  const char *yes = xp_verdict_name(XP_VERDICT_REPRODUCED);
  const char *near = xp_verdict_name(XP_VERDICT_DIFFERENT);
  switch (r->kind) {
    case XP_RULE_RATIO: {
      const char *op = r->upper ? (r->strict ? "<" : "≤") : (r->strict ? ">" : "≥");
      snprintf(buf, len, "%s if every value %s %g, %s if some is or all are %s %g", yes, op, r->a,
               near, op, r->b);
      break;
    }
    case XP_RULE_RELATIVE:
      snprintf(buf, len,
               "%s if every |measured/paper − 1| ≤ %g, %s if some is or all are within a "
               "factor %g",
               yes, r->a, near, r->b);
      break;
    case XP_RULE_INTERVAL:
      snprintf(buf, len, "%s if every value is in [%g, %g], %s if some is or all are in [%g, %g]",
               yes, r->a, r->b, near, r->la, r->lb);
      break;
    case XP_RULE_ALL_OK:
      snprintf(buf, len, "%s if every case is ok, %s if some is", yes, near);
      break;
    case XP_RULE_MONOTONE:
      snprintf(buf, len, "%s if the values %s at every step, %s if only from first to last", yes,
               r->upper > 0 ? "rise" : "fall", near);
      break;
  }
}

// "label = value unit (paper p)" of one measurement
static void meas_text(xp_claim_files *fs, const xp_meas *m, int ok_flag, char *buf, size_t len) {
  const double v = xp_meas_value(fs, m);
  char val[48];
  if (v != v)
    snprintf(val, sizeof val, "%s", m->undecided_ok ? "undecidable" : "absent");
  else if (ok_flag || m->op == XP_MEAS_OK)
    snprintf(val, sizeof val, "%s", v == 1 ? "ok" : "not ok");
  else
    snprintf(val, sizeof val, "%.*g%s%s", m->digits > 0 ? m->digits : 3, v,
             m->unit && m->unit[0] ? " " : "", m->unit ? m->unit : "");
  int k = snprintf(buf, len, "%s %s", m->label, val);
  if (k > 0 && (size_t)k < len && m->paper == m->paper)
    snprintf(buf + k, len - (size_t)k, " (paper %.3g)", m->paper);
}

// one table cell: the measurements (judged, then context), the rule, the note, the sources
static void claim_evidence(FILE *out, xp_claim_files *fs, const xp_claim *c) {
  char buf[512];
  for (size_t i = 0; i < c->n_meas; i++) {
    meas_text(fs, &c->meas[i], c->rule.kind == XP_RULE_ALL_OK, buf, sizeof buf);
    fprintf(out, "%s%s", i ? "; " : "", buf);
  }
  for (size_t i = 0; i < c->n_context; i++) {
    meas_text(fs, &c->context[i], 0, buf, sizeof buf);
    fprintf(out, "%s%s", i ? "; " : ". Beside it: ", buf);
  }
  xp_rule_describe(&c->rule, buf, sizeof buf);
  fprintf(out, ". Rule: %s.", buf);
  if (c->note && c->note[0]) fprintf(out, " %s.", c->note);
  // the sources, grouped by file
  const size_t nm = c->n_meas + c->n_context;
  int formula = 0;
  for (size_t i = 0; i < nm; i++) {
    const xp_meas *m = i < c->n_meas ? &c->meas[i] : &c->context[i - c->n_meas];
    formula |= m->op == XP_MEAS_FORMULA;
    int first = 1;
    for (size_t j = 0; j < i && first; j++) {
      const xp_meas *p = j < c->n_meas ? &c->meas[j] : &c->context[j - c->n_meas];
      first = !(p->file && m->file && strcmp(p->file, m->file) == 0);
    }
    if (!first || !m->file) continue;
    fprintf(out, " From `%s`:", m->file);
    for (size_t j = i, k = 0; j < nm; j++) {
      const xp_meas *p = j < c->n_meas ? &c->meas[j] : &c->context[j - c->n_meas];
      if (!p->file || strcmp(p->file, m->file) != 0) continue;
      fprintf(out, "%s %s%s%s", k++ ? "," : "", p->cas ? p->cas : "",
              p->op == XP_MEAS_OK      ? " status"
              : p->op == XP_MEAS_SLOPE ? "… "
                                       : ".",
              p->op == XP_MEAS_OK ? "" : p->stat);
      if (p->op == XP_MEAS_RATIO) fprintf(out, " ÷ %s.%s", p->cas2, p->stat2);
      if (p->op == XP_MEAS_SLOPE) fprintf(out, " against %s (cases …%s)", p->stat2, p->cas2);
    }
    fprintf(out, ".");
  }
  if (formula) fprintf(out, " Theory: closed form.");
}

void xp_claims_table(FILE *out, const xp_claim *claims, size_t n, const char *dir) {
  xp_claim_files *fs = xp_claim_files_open(dir);
  if (!fs) {
    fprintf(out, "_out of memory_\n\n");
    return;
  }
  // the files the claims read, and which are absent
  fprintf(out, "Results files read:");
  const char *seen[CLAIM_MAX_FILES];
  size_t ns = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < claims[i].n_meas + claims[i].n_context; j++) {
      const xp_meas *m =
          j < claims[i].n_meas ? &claims[i].meas[j] : &claims[i].context[j - claims[i].n_meas];
      const char *stems[2] = {m->file, m->file2};
      for (size_t s = 0; s < 2; s++) {
        size_t k = 0;
        while (stems[s] && k < ns && strcmp(seen[k], stems[s]) != 0) k++;
        if (!stems[s] || k < ns || ns == CLAIM_MAX_FILES) continue;
        seen[ns++] = stems[s];
        fprintf(out, "%s %s%s", ns > 1 ? "," : "", stems[s],
                claim_file(fs, stems[s]) ? "" : " (absent)");
      }
    }
  fprintf(out,
          ". Each verdict is computed by the rule in its row from the measured values; a "
          "missing measurement makes it \"%s\".\n\n",
          xp_verdict_name(XP_VERDICT_NOT_RUN));
  fprintf(out, "| claim | verdict | measured |\n|---|---|---|\n");
  for (size_t i = 0; i < n; i++) {
    fprintf(out, "| %s: %s | **%s** | ", claims[i].where, claims[i].words,
            xp_verdict_name(xp_claim_verdict(fs, &claims[i])));
    claim_evidence(out, fs, &claims[i]);
    fprintf(out, " |\n");
  }
  fprintf(out, "\n");
  xp_claim_files_close(fs);
}

void xp_claim_sets_write(FILE *out, const xp_claim_set *sets, size_t nsets, const char *dir) {
  for (size_t i = 0; i < nsets; i++) {
    fprintf(out, "#### %s\n\n", sets[i].title);
    xp_claims_table(out, sets[i].claims, sets[i].n, dir);
  }
}

void xp_claims_readme_block(FILE *out, const xp_claim_set *sets, size_t nsets, const char *dir) {
  // provenance: the claims study's file (the last written by reproduce)
  char path[1200], sha[96] = "?", when[64] = "?";
  snprintf(path, sizeof path, "%s/claims.h5", dir);
  xp_error err;
  xp_file *f = access(path, R_OK) == 0 ? xp_file_open(path, &err) : NULL;
  if (f) {
    xp_file_attr(f, "git_sha", sha, sizeof sha);
    xp_file_attr(f, "utc_time", when, sizeof when);
    xp_file_close(f);
  }
  fprintf(out,
          "Verdicts on the papers' claims, computed by `stabcon verdicts` from the results files "
          "of a `stabcon reproduce` run (stabcon %s, %s); `results/REPORT.md` has every "
          "section's numbers.\n\n",
          sha, when);
  xp_claim_sets_write(out, sets, nsets, dir);
}

// the whole file into a new buffer (NULL on failure)
static char *file_slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  size_t cap = 0, n = 0, k;
  do {
    if (n + 4096 > cap) {
      char *nb = realloc(buf, cap = 2 * cap + 8192);
      if (!nb) break;
      buf = nb;
    }
    k = fread(buf + n, 1, cap - n - 1, f);
    n += k;
  } while (k > 0);
  const int bad = ferror(f) || !buf;
  fclose(f);
  if (bad) {
    free(buf);
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

int xp_readme_block_replace(const char *readme, const char *begin, const char *end,
                            void (*body)(FILE *out, const void *ctx), const void *ctx,
                            xp_error *err) {
  size_t len = 0;
  char *text = file_slurp(readme, &len);
  if (!text) return xp_fail(err, XP_ERR_RUN, "cannot read '%s'", readme);
  const size_t lb = strlen(begin), le = strlen(end);
  // each marker alone on its line
  char *b = strstr(text, begin);
  while (b && ((b > text && b[-1] != '\n') || b[lb] != '\n')) b = strstr(b + 1, begin);
  char *e = b ? strstr(b + lb, end) : NULL;
  while (e && (e[-1] != '\n' || (e[le] != '\n' && e[le] != '\0'))) e = strstr(e + 1, end);
  if (!b || !e) {
    free(text);
    return xp_fail(err, XP_ERR_USAGE, "'%s' has no generated block (the lines %s … %s)", readme,
                   begin, end);
  }
  char tmp[1200];
  snprintf(tmp, sizeof tmp, "%s.partial", readme);
  FILE *out = fopen(tmp, "wb");
  if (!out) {
    free(text);
    return xp_fail(err, XP_ERR_RUN, "cannot write '%s'", tmp);
  }
  const size_t head = (size_t)(b - text) + lb + 1;
  fwrite(text, 1, head, out);
  body(out, ctx);
  fwrite(e, 1, len - (size_t)(e - text), out);
  free(text);
  if (fclose(out) != 0 || rename(tmp, readme) != 0) {
    remove(tmp);
    return xp_fail(err, XP_ERR_RUN, "cannot write '%s'", readme);
  }
  return XP_OK;
}

typedef struct claims_block {
  const xp_claim_set *sets;
  size_t nsets;
  const char *dir;
} claims_block;

static void claims_block_body(FILE *out, const void *ctx) {
  const claims_block *c = ctx;
  xp_claims_readme_block(out, c->sets, c->nsets, c->dir);
}

int xp_claims_readme_update(const char *readme, const xp_claim_set *sets, size_t nsets,
                            const char *dir, xp_error *err) {
  const claims_block c = {sets, nsets, dir};
  return xp_readme_block_replace(readme, XP_README_BEGIN, XP_README_END, claims_block_body, &c,
                                 err);
}
