// SPDX-License-Identifier: MIT
// Helpers shared by experiment drivers: growable column series and case naming.
#ifndef XP_COMMON_H
#define XP_COMMON_H

#include <stddef.h>

#include "xp/xp.h"

#define XP_SERIES_MAX_COLS 16

// Columns of doubles that grow together (time, state, …); capacity chosen at init.
typedef struct xp_series {
  double *col[XP_SERIES_MAX_COLS];
  size_t ncols, n, cap;
} xp_series;

// Allocates ncols columns of capacity cap; 0 ok, -1 out of memory.
int xp_series_init(xp_series *s, size_t ncols, size_t cap);
// Appends one row (ncols values); grows the columns if needed. 0 ok, -1 out of memory.
int xp_series_push(xp_series *s, const double *row);
int xp_series_push3(xp_series *s, double a, double b, double c);
void xp_series_free(xp_series *s);

// Builds a filesystem-safe case name "k1=v1_k2=v2…" with compact numbers (1e-05 → 1e-5).
void xp_case_name(char *buf, size_t len, size_t n, const char *const *keys, const double *values);
// Compact %g formatting of v into buf (no '+', no leading exponent zeros).
void xp_format_compact(char *buf, size_t len, double v);

// Largest number of steps of one time-stepped run (T/h): rom_pendulum's paper run, h = 1e-8 over
// 1 s, is 1e8 steps; beyond 1e9 a run takes hours and h = 1e-251 would overflow the count.
#define XP_MAX_STEPS 1000000000.0

// Number of steps round(T/h), at least 1, of a run of duration T [s] with step h [s] into *n;
// XP_OK, or XP_ERR_USAGE (message naming h, T, the count and XP_MAX_STEPS) when the count is not
// finite or exceeds the cap.
int xp_step_count(double T, double h, size_t *n, xp_error *err);

// Timing summary of n repeated measurements (the timing protocol: min and median of repeats):
// sorts x[0..n) in place, returns the median (NaN if n = 0) and the minimum into *min if non-NULL.
double xp_min_median(double *x, size_t n, double *min);
// Runs first(first_arg) here and, at the same time, second(second_arg, out) in a child process
// (the machine's other core), whose result — out_size bytes, no pointers — is copied into
// second_out. If no child can be made or it dies, second runs here after first: the results are
// the same either way, only the wall time differs. For untimed work only (reference solutions):
// a timed run must not share the machine with it.
void xp_concurrently(void (*first)(void *arg), void *first_arg,
                     void (*second)(void *arg, void *out), void *second_arg, void *second_out,
                     size_t out_size);
// Least-squares slope of log y against log x — the fitted exponent p of y ∝ x^p, or the order of
// convergence — over the points with x and y finite and > 0 (the others are skipped); their count
// into *used if non-NULL. NaN under 2 such points or when their x are all equal.
double xp_loglog_slope(const double *x, const double *y, size_t n, size_t *used);
// Ascending order of two doubles for qsort (NaN compares equal to everything).
int xp_cmp_double(const void *a, const void *b);

#endif  // XP_COMMON_H
