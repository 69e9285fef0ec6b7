// SPDX-License-Identifier: MIT
// Experiment parameters: defaults from the paper, `--set key=value` parsing and validation.
#include "xp/xp.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int xp_fail(xp_error *err, int code, const char *fmt, ...) {
  if (err) {
    err->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return code;
}

// Levenshtein distance, letters compared without case; long words are never close
static size_t edit_distance(const char *a, const char *b) {
  enum { MAX = 64 };
  const size_t na = strlen(a), nb = strlen(b);
  if (na >= MAX || nb >= MAX) return MAX;
  size_t row[MAX + 1];
  for (size_t j = 0; j <= nb; j++) row[j] = j;
  for (size_t i = 1; i <= na; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= nb; j++) {
      const size_t up = row[j];
      const int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
      size_t best = diag + !same;
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[nb];
}

const char *xp_suggest(const char *word, const char *const *names, size_t n) {
  // a typo: one edit in a short word, two in a longer one, none for one or two letters
  const size_t len = strlen(word), limit = len >= 6 ? 2 : len >= 3 ? 1 : 0;
  const char *best = NULL;
  size_t best_d = limit + 1;
  for (size_t i = 0; i < n; i++) {
    const size_t d = edit_distance(word, names[i]);
    if (d < best_d) best = names[i], best_d = d;
  }
  return best;
}

void xp_did_you_mean(const char *suggestion, char out[XP_DID_YOU_MEAN_MAX]) {
  out[0] = '\0';
  if (suggestion) snprintf(out, XP_DID_YOU_MEAN_MAX, " (did you mean '%.60s'?)", suggestion);
}

static const xp_param_def *param_find(const xp_params *p, const char *key, size_t len,
                                      size_t *index) {
  for (size_t i = 0; i < p->n; i++) {
    if (strlen(p->defs[i].key) == len && strncmp(p->defs[i].key, key, len) == 0) {
      *index = i;
      return &p->defs[i];
    }
  }
  return NULL;
}

// parses one finite real; the whole token must be consumed
static int parse_real(const char *text, double *out) {
  char *end = NULL;
  errno = 0;
  double v = strtod(text, &end);
  if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v)) return -1;
  *out = v;
  return 0;
}

// value is the whole text given, entry the list entry being checked
static int check_range(const xp_param_def *d, double v, const char *value, const char *entry,
                       xp_error *err) {
  const char *limit = d->range == XP_POSITIVE && !(v > 0)       ? "> 0"
                      : d->range == XP_NONNEGATIVE && !(v >= 0) ? ">= 0"
                                                                : NULL;
  if (!limit) return XP_OK;
  if (strcmp(value, entry) == 0)
    return xp_fail(err, XP_ERR_USAGE, "parameter %s=%s: must be %s", d->key, value, limit);
  return xp_fail(err, XP_ERR_USAGE, "parameter %s=%s: entry '%s' must be %s", d->key, value, entry,
                 limit);
}

static int check_choice(const xp_param_def *d, const char *value, xp_error *err) {
  if (!d->choices) return XP_OK;
  size_t len = strlen(value);
  for (const char *c = d->choices; *c;) {
    const char *bar = strchr(c, '|');
    size_t clen = bar ? (size_t)(bar - c) : strlen(c);
    if (clen == len && strncmp(c, value, len) == 0) return XP_OK;
    if (!bar) break;
    c = bar + 1;
  }
  return xp_fail(err, XP_ERR_USAGE, "parameter %s=%s: must be one of %s", d->key, value,
                 d->choices);
}

// cuts the list item at tok at its comma; returns the next item or NULL after the last
static char *list_item_cut(char *tok) {
  char *comma = strchr(tok, ',');
  if (!comma) return NULL;
  *comma = '\0';
  return comma + 1;
}

static int empty_item(const xp_param_def *d, const char *value, xp_error *err) {
  return xp_fail(err, XP_ERR_USAGE, "parameter %s=%s: empty list item", d->key, value);
}

// a repeated value would run the same case twice under one name
static int duplicate_item(const xp_param_def *d, const char *value, const char *item,
                          xp_error *err) {
  return xp_fail(err, XP_ERR_USAGE, "parameter %s=%s: '%s' is listed twice", d->key, value, item);
}

// comma-separated words (methods, formulations): no empty and no repeated item
static int check_word_list(const xp_param_def *d, const char *value, xp_error *err) {
  if (!strchr(value, ',')) return XP_OK;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", value);
  char *items[XP_MAX_LIST];
  size_t n = 0;
  for (char *tok = buf, *next; tok; tok = next) {
    next = list_item_cut(tok);
    if (!tok[0]) return empty_item(d, value, err);
    if (n == XP_MAX_LIST)
      return xp_fail(err, XP_ERR_USAGE, "parameter %s: more than %d values", d->key, XP_MAX_LIST);
    for (size_t k = 0; k < n; k++)
      if (strcmp(items[k], tok) == 0) return duplicate_item(d, value, tok, err);
    items[n++] = tok;
  }
  return XP_OK;
}

// parses and validates value into slot i
static int param_assign(xp_params *p, size_t i, const char *value, xp_error *err) {
  const xp_param_def *d = &p->defs[i];
  if (strlen(value) >= sizeof p->text[i])
    return xp_fail(err, XP_ERR_USAGE, "parameter %s: value too long", d->key);
  // parse into scratch first: a refused value leaves the previous one in place
  double list[XP_MAX_LIST];
  size_t n = 0;
  switch (d->kind) {
    case XP_STRING:
      if (value[0] == '\0') return xp_fail(err, XP_ERR_USAGE, "parameter %s: empty value", d->key);
      if (check_choice(d, value, err)) return XP_ERR_USAGE;
      if (check_word_list(d, value, err)) return XP_ERR_USAGE;
      break;
    case XP_INT: {
      char *end = NULL;
      errno = 0;
      long v = strtol(value, &end, 10);
      if (end == value || *end != '\0' || errno == ERANGE)
        return xp_fail(err, XP_ERR_USAGE, "parameter %s=%s: not an integer", d->key, value);
      // counts multiply into array sizes: keep every integer parameter far from overflow
      if (v > XP_INT_MAX || v < -XP_INT_MAX)
        return xp_fail(err, XP_ERR_USAGE, "parameter %s=%s: must be within ±%d", d->key, value,
                       XP_INT_MAX);
      if (check_range(d, (double)v, value, value, err)) return XP_ERR_USAGE;
      list[n++] = (double)v;
      break;
    }
    case XP_REAL:
    case XP_REAL_LIST:
    case XP_REAL_TUPLE: {
      char buf[256];
      strcpy(buf, value);
      for (char *tok = buf, *next; tok; tok = next) {
        next = list_item_cut(tok);
        if (!tok[0] && value[0]) return empty_item(d, value, err);
        if (!tok[0]) break;
        if (n == XP_MAX_LIST)
          return xp_fail(err, XP_ERR_USAGE, "parameter %s: more than %d values", d->key,
                         XP_MAX_LIST);
        if (parse_real(tok, &list[n]))
          return xp_fail(err, XP_ERR_USAGE, "parameter %s=%s: '%s' is not a finite number", d->key,
                         value, tok);
        if (check_range(d, list[n], value, tok, err)) return XP_ERR_USAGE;
        for (size_t k = 0; k < n && d->kind == XP_REAL_LIST; k++)
          if (list[k] == list[n]) return duplicate_item(d, value, tok, err);
        n++;
      }
      if (n == 0) return xp_fail(err, XP_ERR_USAGE, "parameter %s: empty value", d->key);
      // a list names several cases; this experiment runs one value of it (its --help marks
      // the parameters that take lists)
      if (d->kind == XP_REAL && n != 1)
        return xp_fail(err, XP_ERR_USAGE,
                       "parameter %s=%s: takes one number here, not a list (this experiment does "
                       "not sweep %s; its --help marks the parameters that take lists)",
                       d->key, value, d->key);
      break;
    }
  }
  strcpy(p->text[i], value);
  memcpy(p->list[i], list, n * sizeof list[0]);
  p->list_len[i] = n;
  return XP_OK;
}

int xp_params_init(xp_params *p, const xp_param_def *defs, size_t n, xp_error *err) {
  assert(n <= XP_MAX_PARAMS);
  memset(p, 0, sizeof *p);
  p->defs = defs;
  p->n = n;
  for (size_t i = 0; i < n; i++) {
    int rc = param_assign(p, i, defs[i].default_value, err);
    if (rc) return rc;
  }
  return XP_OK;
}

int xp_params_set(xp_params *p, const char *assignment, xp_error *err) {
  const char *eq = strchr(assignment, '=');
  if (!eq || eq == assignment)
    return xp_fail(err, XP_ERR_USAGE, "--set '%s': expected key=value", assignment);
  size_t index = 0;
  if (!param_find(p, assignment, (size_t)(eq - assignment), &index)) {
    char key[64], hint[XP_DID_YOU_MEAN_MAX];
    snprintf(key, sizeof key, "%.*s", (int)(eq - assignment), assignment);
    const char *keys[XP_MAX_PARAMS];
    for (size_t i = 0; i < p->n; i++) keys[i] = p->defs[i].key;
    xp_did_you_mean(xp_suggest(key, keys, p->n), hint);
    return xp_fail(err, XP_ERR_USAGE, "--set '%s': unknown parameter '%s'%s", assignment, key,
                   hint);
  }
  return param_assign(p, index, eq + 1, err);
}

int xp_params_has(const xp_params *p, const char *key) {
  size_t index = 0;
  return param_find(p, key, strlen(key), &index) != NULL;
}

int xp_experiment_params_init(const xp_experiment *x, xp_params *p, xp_error *err) {
  int rc = xp_params_init(p, x->params, x->n_params, err);
  for (size_t k = 0; rc == XP_OK && x->defaults && x->defaults[k]; k++)
    rc = xp_params_set(p, x->defaults[k], err);
  return rc;
}

static size_t param_index(const xp_params *p, const char *key) {
  size_t index = 0;
  const xp_param_def *d = param_find(p, key, strlen(key), &index);
  assert(d && "undeclared parameter");
  (void)d;
  return index;
}

double xp_params_real(const xp_params *p, const char *key) {
  size_t i = param_index(p, key);
  assert(p->defs[i].kind == XP_REAL || p->defs[i].kind == XP_INT);
  return p->list[i][0];
}

long xp_params_int(const xp_params *p, const char *key) {
  size_t i = param_index(p, key);
  assert(p->defs[i].kind == XP_INT);
  return (long)p->list[i][0];
}

const char *xp_params_string(const xp_params *p, const char *key) {
  return p->text[param_index(p, key)];
}

size_t xp_params_list(const xp_params *p, const char *key, const double **values) {
  size_t i = param_index(p, key);
  assert(p->defs[i].kind != XP_STRING);
  *values = p->list[i];
  return p->list_len[i];
}

long xp_params_counts(const xp_params *p, const char *key, long lo, long hi, int *out,
                      xp_error *err) {
  const double *v;
  const size_t n = xp_params_list(p, key, &v);
  for (size_t k = 0; k < n; k++) {
    if (!(v[k] >= (double)lo && v[k] <= (double)hi && v[k] == floor(v[k])))
      return xp_fail(err, XP_ERR_USAGE,
                     "parameter %s: entry %.17g must be a whole number in %ld..%ld", key, v[k], lo,
                     hi),
             -1;
    out[k] = (int)v[k];
  }
  return (long)n;
}
