// SPDX-License-Identifier: MIT
// The values of a two-sided QP read from a file, checked before any use (qcp_mm.h). The same
// rules as the HDF5 problem reader (qcp_io.c): CSC column pointers start at 0, never decrease and
// end at the stored entries; row indices lie in range and are unique per column (sorted here:
// some files of the set store them unsorted); every value is finite except a bound that means
// "no bound" (l = −∞, u = +∞, stored as |v| >= 1e19). NaN anywhere is refused, as is l = +∞ or
// u = −∞ (no point satisfies them; reading them as "no bound" would solve another problem).
// P must be symmetric (both triangles are stored; the solver uses one, the score both).
#include <math.h>
#include <stdlib.h>

#include "qcp/qcp_mm.h"
#include "qcp_internal.h"

// Sorts the rows of one column; insertion sort: columns are short. 1 if a row repeats.
static int sort_column(int *ri, double *val, int beg, int end) {
  for (int k = beg + 1; k < end; k++) {
    int r = ri[k], t = k;
    double v = val[k];
    for (; t > beg && ri[t - 1] > r; t--) ri[t] = ri[t - 1], val[t] = val[t - 1];
    ri[t] = r, val[t] = v;
  }
  for (int k = beg + 1; k < end; k++)
    if (ri[k] == ri[k - 1]) return 1;
  return 0;
}

// a nrows×ncols CSC matrix whose cp[ncols] entries are allocated: structure, order, values
static int check_csc(const char *path, const char *name, int nrows, int ncols, const int *cp,
                     int *ri, double *val, qcp_error *err) {
  if (cp[0] != 0)
    return qcp_fail(err, QCP_ERR_INPUT, "%s: %s column pointers start at %d, not 0", path, name,
                    cp[0]);
  for (int j = 0; j < ncols; j++)
    if (cp[j + 1] < cp[j])
      return qcp_fail(err, QCP_ERR_INPUT, "%s: %s column pointer %d = %d is below the one before",
                      path, name, j + 1, cp[j + 1]);
  for (int k = 0; k < cp[ncols]; k++) {
    if (ri[k] < 0 || ri[k] >= nrows)
      return qcp_fail(err, QCP_ERR_INPUT, "%s: %s row index %d = %d outside 0..%d", path, name, k,
                      ri[k], nrows - 1);
    if (!isfinite(val[k]))
      return qcp_fail(err, QCP_ERR_INPUT, "%s: %s entry %d is %g (not finite)", path, name, k,
                      val[k]);
  }
  for (int j = 0; j < ncols; j++)
    if (sort_column(ri, val, cp[j], cp[j + 1]))
      return qcp_fail(err, QCP_ERR_INPUT, "%s: %s column %d holds a row twice", path, name, j);
  return QCP_OK;
}

// P(j, i) for a checked, sorted P (0 if not stored)
static double entry_at(const qcp_mm *mm, int i, int j) {
  int lo = mm->Pp[j], hi = mm->Pp[j + 1];
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (mm->Pi[mid] < i)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < mm->Pp[j + 1] && mm->Pi[lo] == i ? mm->Pv[lo] : 0.0;
}

static int check_symmetric(const qcp_mm *mm, const char *path, qcp_error *err) {
  for (int j = 0; j < mm->n; j++)
    for (int k = mm->Pp[j]; k < mm->Pp[j + 1]; k++) {
      int i = mm->Pi[k];
      double mirror = entry_at(mm, j, i);
      if (mirror != mm->Pv[k])
        return qcp_fail(err, QCP_ERR_INPUT,
                        "%s: P is not symmetric: P(%d,%d) = %.17g but P(%d,%d) = %.17g", path,
                        i + 1, j + 1, mm->Pv[k], j + 1, i + 1, mirror);
    }
  return QCP_OK;
}

// NaN refused; ±1e19 and beyond are infinite, allowed only as "no bound"
static int check_bounds(qcp_mm *mm, const char *path, qcp_error *err) {
  for (int i = 0; i < mm->m; i++) {
    double l = mm->l[i], u = mm->u[i];
    if (isnan(l) || isnan(u))
      return qcp_fail(err, QCP_ERR_INPUT, "%s: %s[%d] is NaN", path, isnan(l) ? "l" : "u", i);
    if (l >= QCP_MM_INF)
      return qcp_fail(err, QCP_ERR_INPUT,
                      "%s: l[%d] = %g is +infinite (a lower bound no point satisfies)", path, i, l);
    if (u <= -QCP_MM_INF)
      return qcp_fail(err, QCP_ERR_INPUT,
                      "%s: u[%d] = %g is -infinite (an upper bound no point satisfies)", path, i,
                      u);
    if (l <= -QCP_MM_INF) mm->l[i] = -INFINITY;
    if (u >= QCP_MM_INF) mm->u[i] = INFINITY;
  }
  return QCP_OK;
}

int qcp_mm_check(qcp_mm *mm, const char *path, qcp_error *err) {
  if (mm->n < 1 || mm->m < 0 || !mm->Pp || !mm->Ap || !mm->q || (mm->m && (!mm->l || !mm->u)))
    return qcp_fail(err, QCP_ERR_INPUT, "%s: sizes n = %d, m = %d or arrays missing", path, mm->n,
                    mm->m);
  if (!isfinite(mm->r))
    return qcp_fail(err, QCP_ERR_INPUT, "%s: r = %g is not finite", path, mm->r);
  for (int j = 0; j < mm->n; j++)
    if (!isfinite(mm->q[j]))
      return qcp_fail(err, QCP_ERR_INPUT, "%s: q[%d] = %g is not finite", path, j, mm->q[j]);
  int rc = check_bounds(mm, path, err);
  rc = rc ? rc : check_csc(path, "P", mm->n, mm->n, mm->Pp, mm->Pi, mm->Pv, err);
  rc = rc ? rc : check_csc(path, "A", mm->m, mm->n, mm->Ap, mm->Ai, mm->Av, err);
  return rc ? rc : check_symmetric(mm, path, err);
}
