// SPDX-License-Identifier: MIT
// qcp utilities: status strings, settings, allocation hooks and problem validation.
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qcp_internal.h"

#define QCP_STRING_ITEM(name, str) str,
static const char *const status_names[] = {QCP_STATUS_LIST(QCP_STRING_ITEM)};
#undef QCP_STRING_ITEM

const char *qcp_status_string(qcp_status status) {
  if ((int)status < 0 || status >= QCP_STATUS_COUNT) return "invalid";
  return status_names[status];
}

const char *qcp_error_string(int code) {
  switch (code) {
#define QCP_ERR_CASE(name, value, str) \
  case value:                          \
    return str;
    QCP_ERROR_LIST(QCP_ERR_CASE)
#undef QCP_ERR_CASE
    default:
      return "invalid";
  }
}

double qcp_clock(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double qcp_limit_clock(const qcp_settings *s) {
  if (!s->time_limit_cpu) return qcp_clock();
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// ---- memory ---------------------------------------------------------------------

void *qcp_alloc_uninit(const qcp_allocator *al, size_t n, size_t size) {
  if (n == 0) n = 1;  // a valid pointer even for empty arrays keeps the code branch-free
  if (size != 0 && n > SIZE_MAX / size) return NULL;
  return al->alloc ? al->alloc(n * size, al->ctx) : malloc(n * size);
}

void *qcp_calloc(const qcp_allocator *al, size_t n, size_t size) {
  // the C library's calloc knows which memory is zero already (fresh pages): no second pass
  if (!al->alloc) return calloc(n ? n : 1, size);
  void *p = qcp_alloc_uninit(al, n, size);
  if (p) memset(p, 0, (n ? n : 1) * size);
  return p;
}

void qcp_release(const qcp_allocator *al, void *ptr) {
  if (!ptr) return;
  if (al->release)
    al->release(ptr, al->ctx);
  else
    free(ptr);
}

// ---- vectors -----------------------------------------------------------------------

double qcp_vec_norm_inf(const double *v, int n) {
  // plain comparisons (fmax is a libm call here); a NaN anywhere makes the norm NaN
  double r = 0.0;
  int nan = 0;
  for (int i = 0; i < n; i++) {
    double a = fabs(v[i]);
    r = a > r ? a : r;
    nan |= a != a;
  }
  return nan ? NAN : r;
}

double qcp_vec_dot(const double *a, const double *b, int n) {
  double r = 0.0;
  for (int i = 0; i < n; i++) r += a[i] * b[i];
  return r;
}

// ---- settings ----------------------------------------------------------------------

qcp_settings qcp_settings_default(void) {
  qcp_settings s = {
      .max_iter = 50,
      .eps_abs = 1e-8,
      .eps_rel = 1e-8,
      .eps_inacc = 1e-4,
      .eps_infeas = 1e-8,
      .step_fraction = 0.99,
      .step_fraction_late = 0.999,
      .static_reg = 1e-8,
      .dyn_reg_eps = 1e-13,
      .dyn_reg_delta = 1e-7,
      .refine_iter = 10,
      .refine_tol = 1e-13,
      .cold_rho = 1.0,
      .start_switch = 1,
      .proximal = 1,
      .split_step = 1,
      .warm_push = 1e-3,
      .min_step = 1e-8,
      .max_stall = 3,
      .polish = 1,
      .polish_bound = 1,
      .polish_solved = 0,
      .verbose = 0,
      .allocator = {NULL, NULL, NULL},
      .equilibrate = 10,
      .stall_window = 25,
      .time_limit = 0.0,
      .time_limit_cpu = 0,
      .strict_gap = 0,
      .lastbit = 0,
  };
  return s;
}

// Contact and foundation solves start near the all-active solution, which carries their loads (a
// 1000-sphere stack: 5–10 iterations instead of 14–27 from ρ = 1), and keep that start: their cold
// solves crawl from the ρ = 1 point as well (the stiffness study's stack, E = 1e9: 28 → 35
// iterations per solve with the switch) or reach nonunique multipliers there. Their Newton solves
// are refined against the unregularised matrix: with the proximal solves paper A's foundation case
// (n = 10, E = 1e11, 50 N) degraded 13 steps instead of 10 and the stiffness study's incline
// degraded at E = 1e9, 1e11 and 1e12. Their polish runs all its rounds (polish_bound = 0):
// their active sets change by a few tens of rows whose corrections settle within the rounds at
// a rate that speeds up (31, 22, 17, 10, 5, 2, 1, 0), where the general QPs' large sets do not
// settle (GOULDQP2 634, 321, …, 7 after 8 rounds; LISWET's ~5000 rows halve per round), so the
// rate rule misjudges them; and the polished point is the step's result and next warm start, so
// solved points are polished too (polish_solved = 1; paper A's `relaxed` step needs the exact
// complementarity of the polished point).
// Paper A's foundation (E = 1e11, F = 50 N), n = 10: all 58 solved points' polishes reach a set
// that keeps every sign and 53 are accepted; the rule would stop 12, 7 of them accepted (3844
// solver iterations instead of 3839). n = 30: a polish during the iteration accepted after 16
// factorisations was stopped after 7, and the solve took one more iteration (2509 instead of
// 2508). They keep one step length for primal and dual (split_step = 0): with split steps `bench
// qcp` took 70 cold and 48 warm iterations over its 15 instances instead of 69 and 47.
qcp_settings qcp_settings_contact(void) {
  qcp_settings s = qcp_settings_default();
  s.cold_rho = 1e4;
  s.start_switch = 0;
  s.proximal = 0;
  s.split_step = 0;
  s.step_fraction_late = s.step_fraction;  // 0.99 near the solution too, as measured there
  s.polish_bound = 0;
  s.polish_solved = 1;
  return s;
}

// positive finite check with a message naming the field
static int check_pos(double v, const char *name, qcp_error *err) {
  if (!(v > 0.0) || !isfinite(v))
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting %s = %g must be finite and > 0", name, v);
  return QCP_OK;
}

int qcp_settings_validate(const qcp_settings *s, qcp_error *err) {
  int rc;
  if (s->max_iter < 1 || s->max_iter > 1000)
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting max_iter = %d must be in 1..1000", s->max_iter);
  if ((rc = check_pos(s->eps_abs, "eps_abs", err))) return rc;
  if ((rc = check_pos(s->eps_rel, "eps_rel", err))) return rc;
  if ((rc = check_pos(s->eps_inacc, "eps_inacc", err))) return rc;
  if ((rc = check_pos(s->eps_infeas, "eps_infeas", err))) return rc;
  if ((rc = check_pos(s->dyn_reg_eps, "dyn_reg_eps", err))) return rc;
  if ((rc = check_pos(s->dyn_reg_delta, "dyn_reg_delta", err))) return rc;
  if ((rc = check_pos(s->refine_tol, "refine_tol", err))) return rc;
  if ((rc = check_pos(s->warm_push, "warm_push", err))) return rc;
  if ((rc = check_pos(s->cold_rho, "cold_rho", err))) return rc;
  if (s->eps_inacc < s->eps_abs || s->eps_inacc < s->eps_rel)
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting eps_inacc = %g must be >= eps_abs and eps_rel",
                    s->eps_inacc);
  if (!(s->step_fraction > 0.0 && s->step_fraction < 1.0))
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting step_fraction = %g must be in (0, 1)",
                    s->step_fraction);
  if (!(s->step_fraction_late > 0.0 && s->step_fraction_late < 1.0))
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting step_fraction_late = %g must be in (0, 1)",
                    s->step_fraction_late);
  if (!(s->static_reg >= 0.0) || !isfinite(s->static_reg))
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting static_reg = %g must be finite and >= 0",
                    s->static_reg);
  if (s->refine_iter < 0 || s->refine_iter > 50)
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting refine_iter = %d must be in 0..50",
                    s->refine_iter);
  if (!(s->min_step >= 0.0 && s->min_step < 1.0))
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting min_step = %g must be in [0, 1)", s->min_step);
  if (s->max_stall < 1)
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting max_stall = %d must be >= 1", s->max_stall);
  if (s->polish != 0 && s->polish != 1)
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting polish = %d must be 0 or 1", s->polish);
  if (s->equilibrate < 0 || s->equilibrate > 50)
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting equilibrate = %d must be in 0..50",
                    s->equilibrate);
  if (s->stall_window < 1)
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting stall_window = %d must be >= 1",
                    s->stall_window);
  if (s->strict_gap != 0 && s->strict_gap != 1)
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting strict_gap = %d must be 0 or 1", s->strict_gap);
  if (s->start_switch != 0 && s->start_switch != 1)
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting start_switch = %d must be 0 or 1",
                    s->start_switch);
  if (s->polish_bound != 0 && s->polish_bound != 1)
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting polish_bound = %d must be 0 or 1",
                    s->polish_bound);
  if (s->polish_solved != 0 && s->polish_solved != 1)
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting polish_solved = %d must be 0 or 1",
                    s->polish_solved);
  if (s->proximal != 0 && s->proximal != 1)
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting proximal = %d must be 0 or 1", s->proximal);
  if (s->split_step != 0 && s->split_step != 1)
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting split_step = %d must be 0 or 1", s->split_step);
  if (s->lastbit != 0 && s->lastbit != 1)
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting lastbit = %d must be 0 or 1", s->lastbit);
  if (s->time_limit_cpu != 0 && s->time_limit_cpu != 1)
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting time_limit_cpu = %d must be 0 or 1",
                    s->time_limit_cpu);
  if (!(s->time_limit >= 0.0) || !isfinite(s->time_limit))
    return qcp_fail(err, QCP_ERR_SETTINGS, "setting time_limit = %g must be finite and >= 0",
                    s->time_limit);
  if ((s->allocator.alloc == NULL) != (s->allocator.release == NULL))
    return qcp_fail(err, QCP_ERR_SETTINGS,
                    "setting allocator needs both alloc and release or neither");
  return QCP_OK;
}

// ---- problem validation ----------------------------------------------------------------

// checks one CSC matrix: sizes, monotone colptr, sorted in-range rows, finite values, upper
static int check_csc(const qcp_csc *M, int nrows, int ncols, const char *name, int upper,
                     int need_values, qcp_error *err) {
  if (M->nrows != nrows || M->ncols != ncols)
    return qcp_fail(err, QCP_ERR_INPUT, "matrix %s is %dx%d, expected %dx%d", name, M->nrows,
                    M->ncols, nrows, ncols);
  if (!M->colptr) return qcp_fail(err, QCP_ERR_INPUT, "matrix %s has no colptr", name);
  if (M->colptr[0] != 0)
    return qcp_fail(err, QCP_ERR_INPUT, "matrix %s colptr[0] = %d, expected 0", name, M->colptr[0]);
  for (int j = 0; j < ncols; j++)
    if (M->colptr[j + 1] < M->colptr[j])
      return qcp_fail(err, QCP_ERR_INPUT, "matrix %s colptr decreases at column %d (%d -> %d)",
                      name, j, M->colptr[j], M->colptr[j + 1]);
  int nnz = M->colptr[ncols];
  if (nnz > 0 && !M->rowind)
    return qcp_fail(err, QCP_ERR_INPUT, "matrix %s has %d entries but no rowind", name, nnz);
  if (nnz > 0 && need_values && !M->values)
    return qcp_fail(err, QCP_ERR_INPUT, "matrix %s has %d entries but no values", name, nnz);
  for (int j = 0; j < ncols; j++) {
    for (int k = M->colptr[j]; k < M->colptr[j + 1]; k++) {
      int i = M->rowind[k];
      if (i < 0 || i >= nrows)
        return qcp_fail(err, QCP_ERR_INPUT, "matrix %s row index %d in column %d outside 0..%d",
                        name, i, j, nrows - 1);
      if (k > M->colptr[j] && i <= M->rowind[k - 1])
        return qcp_fail(err, QCP_ERR_INPUT,
                        "matrix %s row indices not strictly increasing in column %d (%d after %d)",
                        name, j, i, M->rowind[k - 1]);
      if (upper && i > j)
        return qcp_fail(err, QCP_ERR_INPUT,
                        "matrix %s is not upper triangular: entry (%d, %d) below the diagonal",
                        name, i, j);
      if (need_values && M->values && !isfinite(M->values[k]))
        return qcp_fail(err, QCP_ERR_INPUT, "matrix %s entry (%d, %d) is not finite (%g)", name, i,
                        j, M->values[k]);
    }
  }
  return QCP_OK;
}

static int check_vec(const double *v, int n, const char *name, qcp_error *err) {
  if (n > 0 && !v) return qcp_fail(err, QCP_ERR_INPUT, "vector %s (length %d) is missing", name, n);
  for (int i = 0; i < n; i++)
    if (!isfinite(v[i]))
      return qcp_fail(err, QCP_ERR_INPUT, "vector %s entry %d is not finite (%g)", name, i, v[i]);
  return QCP_OK;
}

int qcp_problem_validate(const qcp_problem *prob, qcp_error *err) {
  int rc;
  if (prob->n < 1) return qcp_fail(err, QCP_ERR_INPUT, "n = %d must be >= 1", prob->n);
  if (prob->p < 0) return qcp_fail(err, QCP_ERR_INPUT, "p = %d must be >= 0", prob->p);
  if (prob->l < 0) return qcp_fail(err, QCP_ERR_INPUT, "l = %d must be >= 0", prob->l);
  if (prob->nsoc < 0) return qcp_fail(err, QCP_ERR_INPUT, "nsoc = %d must be >= 0", prob->nsoc);
  if (prob->nsoc > 0 && !prob->q)
    return qcp_fail(err, QCP_ERR_INPUT, "nsoc = %d but cone dimensions q missing", prob->nsoc);
  long m = prob->l;
  for (int k = 0; k < prob->nsoc; k++) {
    if (prob->q[k] < 1)
      return qcp_fail(err, QCP_ERR_INPUT, "cone dimension q[%d] = %d must be >= 1", k, prob->q[k]);
    m += prob->q[k];
  }
  if (m > 100000000L) return qcp_fail(err, QCP_ERR_INPUT, "cone rows m = %ld too large", m);
  if (prob->G.nrows != m)
    return qcp_fail(err, QCP_ERR_INPUT, "G has %d rows but l + sum(q) = %ld", prob->G.nrows, m);
  if ((rc = check_csc(&prob->P, prob->n, prob->n, "P", 1, 1, err))) return rc;
  if (prob->p > 0 && (rc = check_csc(&prob->A, prob->p, prob->n, "A", 0, 1, err))) return rc;
  if ((rc = check_csc(&prob->G, (int)m, prob->n, "G", 0, 1, err))) return rc;
  if ((rc = check_vec(prob->c, prob->n, "c", err))) return rc;
  if ((rc = check_vec(prob->b, prob->p, "b", err))) return rc;
  if ((rc = check_vec(prob->h, (int)m, "h", err))) return rc;
  // the KKT matrix (dense q(q+1)/2 block per cone) must be indexable by int, with room for fill
  long long N = (long long)prob->n + prob->p + m, nnzK = (long long)prob->P.colptr[prob->n] +
                                                         prob->n + prob->G.colptr[prob->n] +
                                                         prob->p + prob->l;
  if (prob->p > 0) nnzK += prob->A.colptr[prob->n];
  int big = -1;
  for (int k = 0; k < prob->nsoc; k++) {
    nnzK += (long long)prob->q[k] * (prob->q[k] + 1) / 2;
    if (big < 0 || prob->q[k] > prob->q[big]) big = k;
  }
  if (N > INT_MAX / 4 || nnzK > INT_MAX / 4)
    return qcp_fail(err, QCP_ERR_INPUT,
                    "KKT system too large: %lld rows, %lld entries (largest cone q[%d] = %d)", N,
                    nnzK, big, big >= 0 ? prob->q[big] : 0);
  return QCP_OK;
}
