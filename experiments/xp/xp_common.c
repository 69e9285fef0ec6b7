// SPDX-License-Identifier: MIT
// Helpers shared by experiment drivers: growable column series and case naming.
#include "xp/xp_common.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int xp_series_init(xp_series *s, size_t ncols, size_t cap) {
  assert(ncols <= XP_SERIES_MAX_COLS);
  memset(s, 0, sizeof *s);
  s->ncols = ncols;
  s->cap = cap ? cap : 16;
  for (size_t j = 0; j < ncols; j++) {
    s->col[j] = malloc(s->cap * sizeof(double));
    if (!s->col[j]) {
      xp_series_free(s);
      return -1;
    }
  }
  return 0;
}

int xp_series_push(xp_series *s, const double *row) {
  if (s->n == s->cap) {
    size_t cap = 2 * s->cap;
    for (size_t j = 0; j < s->ncols; j++) {
      double *grown = realloc(s->col[j], cap * sizeof(double));
      if (!grown) return -1;
      s->col[j] = grown;
    }
    s->cap = cap;
  }
  for (size_t j = 0; j < s->ncols; j++) s->col[j][s->n] = row[j];
  s->n++;
  return 0;
}

int xp_series_push3(xp_series *s, double a, double b, double c) {
  return xp_series_push(s, (const double[]){a, b, c});
}

void xp_series_free(xp_series *s) {
  for (size_t j = 0; j < XP_SERIES_MAX_COLS; j++) free(s->col[j]);
  memset(s, 0, sizeof *s);
}

void xp_format_compact(char *buf, size_t len, double v) {
  char tmp[64];
  snprintf(tmp, sizeof tmp, "%g", v);
  size_t o = 0;
  for (size_t i = 0; tmp[i] && o + 1 < len; i++) {
    if (tmp[i] == '+') continue;
    // drop leading zeros of the exponent
    if (tmp[i] == '0' && i > 0 && (tmp[i - 1] == 'e' || tmp[i - 1] == '-' || tmp[i - 1] == '+') &&
        strchr(tmp, 'e') && (size_t)(strchr(tmp, 'e') - tmp) < i && tmp[i + 1] != '\0')
      continue;
    buf[o++] = tmp[i];
  }
  buf[o] = '\0';
}

void xp_case_name(char *buf, size_t len, size_t n, const char *const *keys, const double *values) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < n && used < len; i++) {
    char num[64];
    xp_format_compact(num, sizeof num, values[i]);
    used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", i ? "_" : "", keys[i], num);
  }
}

int xp_step_count(double T, double h, size_t *n, xp_error *err) {
  const double steps = T / h;
  // the comparison is written so that NaN is refused too
  if (!(steps <= XP_MAX_STEPS))
    return xp_fail(
        err, XP_ERR_USAGE,
        "h = %g s over T = %g s is %.3g steps, more than the limit of %.0e steps per run", h, T,
        steps, XP_MAX_STEPS);
  const long long rounded = llround(steps);
  *n = rounded < 1 ? 1 : (size_t)rounded;
  return XP_OK;
}

int xp_cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double xp_loglog_slope(const double *x, const double *y, size_t n, size_t *used) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (!(x[i] > 0) || !(y[i] > 0) || !isfinite(x[i]) || !isfinite(y[i])) continue;
    const double lx = log(x[i]), ly = log(y[i]);
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly, k++;
  }
  if (used) *used = k;
  const double den = (double)k * sxx - sx * sx;
  return k >= 2 && den > 0 ? ((double)k * sxy - sx * sy) / den : NAN;
}

double xp_min_median(double *x, size_t n, double *min) {
  if (min) *min = NAN;
  if (n == 0) return NAN;
  qsort(x, n, sizeof *x, xp_cmp_double);
  if (min) *min = x[0];
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}
