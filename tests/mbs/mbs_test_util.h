// SPDX-License-Identifier: MIT
// Helpers shared by the mbs tests: least-squares order fits, order tables, checked assertions.
#ifndef MBS_TEST_UTIL_H
#define MBS_TEST_UTIL_H

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "xp/xp_common.h"

// Least-squares slope of log(e) against log(h) over n points (the observed order, the harness's
// one fit); NaN unless every point counts (each error finite and > 0), so a test cannot pass on
// a subset.
static inline double fit_order(const double *h, const double *e, size_t n) {
  size_t used = 0;
  const double order = xp_loglog_slope(h, e, n, &used);
  return used == n ? order : NAN;
}

// Prints the `h | error | observed order` table (order between consecutive rows).
static inline void print_order_table(const char *title, const double *h, const double *e,
                                     size_t n) {
  printf("%s\n%12s | %12s | %s\n", title, "h", "error", "observed order");
  for (size_t i = 0; i < n; i++) {
    if (i == 0)
      printf("%12.4e | %12.4e | %s\n", h[i], e[i], "-");
    else
      printf("%12.4e | %12.4e | %.3f\n", h[i], e[i], log(e[i] / e[i - 1]) / log(h[i] / h[i - 1]));
  }
  fflush(stdout);
}

#endif  // MBS_TEST_UTIL_H
