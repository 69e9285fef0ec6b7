// SPDX-License-Identifier: MIT
// Two-sided QPs (l ≤ Ax ≤ u, the Maros–Mészáros / OSQP form) in qcp's conic form, and the
// benchmark's independent score.
//
// Conversion. Row i with l_i = u_i is the equality a_i x = l_i (multiplier y_eq, free). Otherwise
// each finite side is one orthant row of Gx + s = h, s ≥ 0: a_i x ≤ u_i gives (a_i, u_i) and
// a_i x ≥ l_i gives (−a_i, −l_i); a row with both sides infinite is dropped (it constrains
// nothing). The bounds on x are rows of A in this set (A = [A_general; I]) and are converted the
// same way. The Lagrangian Px + q + A_eqᵀy + Gᵀz = 0 then gives the row multipliers of the
// two-sided form as y_i = y_eq (equality), z_upper − z_lower (inequality).
//
// Score (qpbenchmark, S. Caron et al., "qpbenchmark: benchmark for quadratic programming solvers",
// 2024; qpsolvers' Problem.primal_residual / dual_residual / duality_gap): at (x, y)
//   pres = max_i max(a_i x − u_i, l_i − a_i x, 0),   dres = ‖Px + q + Aᵀy‖∞,
//   gap  = |xᵀPx + qᵀx + Σ_i (u_i y_i⁺ + l_i y_i⁻)|,
// all absolute. The gap is the difference of the primal and the dual objective; at an optimum it
// is a difference of numbers as large as the objective, so every sum is accumulated in
// double-double (sc_dd.h, ~106 bits) from the original data. Long double (64 bits) was not enough:
// on HUESTIS (objective 3.5e11) its gap was off by 1.3e-6, on HUES-MOD by 1.4e-10 — enough to pass
// a point whose gap is 1.06e-9 at 1e-9 (checked against __float128).
#include "qcp/qcp_mm.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/sc_dd.h"
#include "qcp_internal.h"

void qcp_mm_free(qcp_mm *mm) {
  free(mm->Pp), free(mm->Pi), free(mm->Pv), free(mm->Ap), free(mm->Ai), free(mm->Av);
  free(mm->q), free(mm->l), free(mm->u);
  memset(mm, 0, sizeof *mm);
}

void qcp_mm_conic_free(qcp_mm_conic *c) {
  free(c->Pp), free(c->Pi), free(c->Pv), free(c->Ap), free(c->Ai), free(c->Av);
  free(c->Gp), free(c->Gi), free(c->Gv), free(c->c), free(c->b), free(c->h);
  free(c->eq_row), free(c->g_row), free(c->g_sign);
  memset(c, 0, sizeof *c);
}

#ifndef QCP_HAVE_MATIO
int qcp_mm_read_mat(const char *path, qcp_mm *out, qcp_error *err) {
  memset(out, 0, sizeof *out);
  return qcp_fail(err, QCP_ERR_IO,
                  "%s: stabcon was built without libmatio (apt-get install "
                  "libmatio-dev, then rebuild)",
                  path);
}
#endif

static void *zalloc(size_t n, size_t size) { return calloc(n ? n : 1, size); }

// The upper triangle of the full symmetric P (entries with row ≤ column).
static int upper_triangle(const qcp_mm *mm, qcp_mm_conic *c) {
  int n = mm->n, k = 0;
  c->Pp = zalloc((size_t)n + 1, sizeof *c->Pp);
  c->Pi = zalloc((size_t)mm->Pp[n], sizeof *c->Pi);
  c->Pv = zalloc((size_t)mm->Pp[n], sizeof *c->Pv);
  if (!c->Pp || !c->Pi || !c->Pv) return -1;
  for (int j = 0; j < n; j++) {
    for (int t = mm->Pp[j]; t < mm->Pp[j + 1]; t++)
      if (mm->Pi[t] <= j && mm->Pv[t] != 0.0) c->Pi[k] = mm->Pi[t], c->Pv[k++] = mm->Pv[t];
    c->Pp[j + 1] = k;
  }
  return 0;
}

// Row roles: eq[i] = equality index or −1; up[i], lo[i] = orthant row index or −1.
static void classify_rows(const qcp_mm *mm, int *eq, int *up, int *lo, int *neq, int *nin) {
  *neq = *nin = 0;
  for (int i = 0; i < mm->m; i++) {
    eq[i] = up[i] = lo[i] = -1;
    if (mm->l[i] == mm->u[i]) {
      eq[i] = (*neq)++;
      continue;
    }
    if (isfinite(mm->u[i])) up[i] = (*nin)++;
    if (isfinite(mm->l[i])) lo[i] = (*nin)++;
  }
}

// A_eq and G column by column; new row indices grow with the original ones, so they stay sorted
static int split_rows(const qcp_mm *mm, const int *eq, const int *up, const int *lo,
                      qcp_mm_conic *c) {
  int n = mm->n, nnz = mm->Ap[n];
  c->Ap = zalloc((size_t)n + 1, sizeof *c->Ap);
  c->Gp = zalloc((size_t)n + 1, sizeof *c->Gp);
  c->Ai = zalloc((size_t)nnz, sizeof *c->Ai);
  c->Av = zalloc((size_t)nnz, sizeof *c->Av);
  c->Gi = zalloc(2 * (size_t)nnz, sizeof *c->Gi);
  c->Gv = zalloc(2 * (size_t)nnz, sizeof *c->Gv);
  if (!c->Ap || !c->Gp || !c->Ai || !c->Av || !c->Gi || !c->Gv) return -1;
  int na = 0, ng = 0;
  for (int j = 0; j < n; j++) {
    for (int t = mm->Ap[j]; t < mm->Ap[j + 1]; t++) {
      int i = mm->Ai[t];
      double v = mm->Av[t];
      if (eq[i] >= 0) c->Ai[na] = eq[i], c->Av[na++] = v;
      if (up[i] >= 0) c->Gi[ng] = up[i], c->Gv[ng++] = v;
      if (lo[i] >= 0) c->Gi[ng] = lo[i], c->Gv[ng++] = -v;
    }
    c->Ap[j + 1] = na;
    c->Gp[j + 1] = ng;
  }
  return 0;
}

static int fill_vectors(const qcp_mm *mm, const int *eq, const int *up, const int *lo, int neq,
                        int nin, qcp_mm_conic *c) {
  int n = mm->n;
  c->c = zalloc((size_t)n, sizeof *c->c);
  c->b = zalloc((size_t)neq, sizeof *c->b);
  c->h = zalloc((size_t)nin, sizeof *c->h);
  c->eq_row = zalloc((size_t)neq, sizeof *c->eq_row);
  c->g_row = zalloc((size_t)nin, sizeof *c->g_row);
  c->g_sign = zalloc((size_t)nin, sizeof *c->g_sign);
  if (!c->c || !c->b || !c->h || !c->eq_row || !c->g_row || !c->g_sign) return -1;
  memcpy(c->c, mm->q, (size_t)n * sizeof *c->c);
  for (int i = 0; i < mm->m; i++) {
    if (eq[i] >= 0) c->b[eq[i]] = mm->l[i], c->eq_row[eq[i]] = i;
    if (up[i] >= 0) c->h[up[i]] = mm->u[i], c->g_row[up[i]] = i, c->g_sign[up[i]] = 1;
    if (lo[i] >= 0) c->h[lo[i]] = -mm->l[i], c->g_row[lo[i]] = i, c->g_sign[lo[i]] = -1;
  }
  return 0;
}

int qcp_mm_to_conic(const qcp_mm *mm, qcp_mm_conic *out, qcp_error *err) {
  memset(out, 0, sizeof *out);
  int m = mm->m, n = mm->n, neq, nin, rc = -1;
  int *eq = zalloc((size_t)m, sizeof *eq), *up = zalloc((size_t)m, sizeof *up);
  int *lo = zalloc((size_t)m, sizeof *lo);
  if (eq && up && lo) {
    classify_rows(mm, eq, up, lo, &neq, &nin);
    rc = upper_triangle(mm, out);
    rc = rc ? rc : split_rows(mm, eq, up, lo, out);
    rc = rc ? rc : fill_vectors(mm, eq, up, lo, neq, nin, out);
  }
  free(eq), free(up), free(lo);
  if (rc) {
    qcp_mm_conic_free(out);
    return qcp_fail(err, QCP_ERR_ALLOC, "out of memory converting a %dx%d QP", m, n);
  }
  out->prob = (qcp_problem){.n = n,
                            .p = neq,
                            .l = nin,
                            .nsoc = 0,
                            .q = NULL,
                            .P = {n, n, out->Pp, out->Pi, out->Pv},
                            .A = {neq, n, out->Ap, out->Ai, out->Av},
                            .G = {nin, n, out->Gp, out->Gi, out->Gv},
                            .c = out->c,
                            .b = out->b,
                            .h = out->h};
  return QCP_OK;
}

void qcp_mm_row_duals(const qcp_mm_conic *c, int m, const double *y, const double *z,
                      double *yrow) {
  memset(yrow, 0, (size_t)m * sizeof *yrow);
  for (int k = 0; k < c->prob.p; k++) yrow[c->eq_row[k]] = y[k];
  for (int k = 0; k < c->prob.l; k++) yrow[c->g_row[k]] += c->g_sign[k] * z[k];
}

// the rounding scales of the score (qcp_mm.h): root sums of squares of the terms of each row and
// column, then the measures
static void score_scales(const qcp_mm *mm, const double *x, const double *yrow, double *rowsq,
                         qcp_mm_score *out) {
  const double u = DBL_EPSILON / 2;
  double pmax = 0.0, dmax = 0.0, g = 0.0;
  for (int i = 0; i < mm->m; i++) rowsq[i] = 0.0;
  for (int j = 0; j < mm->n; j++) {
    double t = mm->q[j] * mm->q[j];
    for (int k = mm->Pp[j]; k < mm->Pp[j + 1]; k++) t += pow(mm->Pv[k] * x[mm->Pi[k]], 2);
    for (int k = mm->Ap[j]; k < mm->Ap[j + 1]; k++) {
      t += pow(mm->Av[k] * yrow[mm->Ai[k]], 2);
      rowsq[mm->Ai[k]] += pow(mm->Av[k] * x[j], 2);
    }
    dmax = fmax(dmax, t), g += x[j] * x[j] * t;
  }
  for (int i = 0; i < mm->m; i++) {
    const double bound =
        fmax(isfinite(mm->l[i]) ? fabs(mm->l[i]) : 0.0, isfinite(mm->u[i]) ? fabs(mm->u[i]) : 0.0);
    rowsq[i] += bound * bound, pmax = fmax(pmax, rowsq[i]), g += yrow[i] * yrow[i] * rowsq[i];
  }
  out->pres_scale = u * sqrt(pmax), out->dres_scale = u * sqrt(dmax), out->gap_scale = u * sqrt(g);
}

// the measures of the score (not the scales), with the caller's scratch ax (m) and rd (n)
static void score_measures(const qcp_mm *mm, const double *x, const double *yrow, sc_dd *ax,
                           double *rd, qcp_mm_score *out) {
  int n = mm->n, m = mm->m;
  for (int i = 0; i < m; i++) ax[i] = (sc_dd){0.0, 0.0};
  sc_dd xpx = {0.0, 0.0}, qx = {0.0, 0.0}, dual = {0.0, 0.0};
  for (int j = 0; j < n; j++) {
    sc_dd px = {0.0, 0.0}, r = {0.0, 0.0};
    for (int t = mm->Pp[j]; t < mm->Pp[j + 1]; t++) sc_dd_add_prod(&px, mm->Pv[t], x[mm->Pi[t]]);
    for (int t = mm->Ap[j]; t < mm->Ap[j + 1]; t++) {
      sc_dd_add_prod(&ax[mm->Ai[t]], mm->Av[t], x[j]);
      sc_dd_add_prod(&r, mm->Av[t], yrow[mm->Ai[t]]);
    }
    // P is symmetric: (Px)_j is column j's dot product with x
    sc_dd_add_dd_prod(&xpx, px, x[j]);
    sc_dd_add_prod(&qx, mm->q[j], x[j]);
    sc_dd_add_dd(&r, px);
    sc_dd_add(&r, mm->q[j]);
    rd[j] = sc_dd_value(r);
  }
  double pres = 0.0, dres = 0.0;
  int infinite_bound = 0;  // a multiplier on an infinite bound: the dual objective is −∞
  for (int i = 0; i < m; i++) {
    sc_dd above = ax[i], below = ax[i];
    if (isfinite(mm->u[i])) sc_dd_add(&above, -mm->u[i]), pres = fmax(pres, sc_dd_value(above));
    if (isfinite(mm->l[i])) sc_dd_add(&below, -mm->l[i]), pres = fmax(pres, -sc_dd_value(below));
    double yi = yrow[i], bound = yi > 0.0 ? mm->u[i] : mm->l[i];
    if (yi == 0.0) continue;
    if (isfinite(bound))
      sc_dd_add_prod(&dual, bound, yi);
    else
      infinite_bound = 1;
  }
  for (int j = 0; j < n; j++) dres = fmax(dres, fabs(rd[j]));
  int finite = 1;  // fmax drops NaN: a non-finite point must not score well
  for (int j = 0; j < n; j++) finite &= isfinite(x[j]) != 0;
  for (int i = 0; i < m; i++) finite &= isfinite(yrow[i]) != 0;
  sc_dd gap = xpx, obj = {mm->r, 0.0};
  sc_dd_add_dd(&gap, qx);
  sc_dd_add_dd(&gap, dual);
  sc_dd_add_dd(&obj, qx);
  sc_dd_add_dd_prod(&obj, xpx, 0.5);
  out->pres = finite ? pres : INFINITY;
  out->dres = finite ? dres : INFINITY;
  out->gap = finite && !infinite_bound ? fabs(sc_dd_value(gap)) : INFINITY;
  out->obj = sc_dd_value(obj);
}

void qcp_mm_score_point(const qcp_mm *mm, const double *x, const double *yrow, qcp_mm_score *out) {
  int n = mm->n, m = mm->m;
  sc_dd *ax = malloc(((size_t)m + 1) * sizeof *ax);
  double *rd = malloc(((size_t)n + 1) * sizeof *rd);
  double *rowsq = malloc(((size_t)m + 1) * sizeof *rowsq);
  if (ax && rd && rowsq) {
    score_measures(mm, x, yrow, ax, rd, out);
    score_scales(mm, x, yrow, rowsq, out);
  } else {
    *out = (qcp_mm_score){NAN, NAN, NAN, NAN, NAN, NAN, NAN};
  }
  free(ax), free(rd), free(rowsq);
}

// the float64 measures (qcp_mm.h) with the caller's scratch ax (m) and px (n), zeroed here
static void score_measures_f64(const qcp_mm *mm, const double *x, const double *yrow, double *ax,
                               double *px, qcp_mm_score *out) {
  int n = mm->n, m = mm->m;
  memset(ax, 0, (size_t)m * sizeof *ax);
  memset(px, 0, (size_t)n * sizeof *px);
  // scipy's csc_matvec: column j scatters x_j into every row it touches
  for (int j = 0; j < n; j++) {
    for (int t = mm->Pp[j]; t < mm->Pp[j + 1]; t++) px[mm->Pi[t]] += mm->Pv[t] * x[j];
    for (int t = mm->Ap[j]; t < mm->Ap[j + 1]; t++) ax[mm->Ai[t]] += mm->Av[t] * x[j];
  }
  double pres = 0.0, dres = 0.0, xpx = 0.0, qx = 0.0, dual = 0.0;
  int finite = 1, infinite_bound = 0;
  for (int j = 0; j < n; j++) {
    double aty = 0.0;  // Aᵀ as CSR: row j of Aᵀ is column j of A, summed in order
    for (int t = mm->Ap[j]; t < mm->Ap[j + 1]; t++) aty += mm->Av[t] * yrow[mm->Ai[t]];
    dres = fmax(dres, fabs((px[j] + mm->q[j]) + aty));
    xpx += x[j] * px[j], qx += mm->q[j] * x[j];
    finite &= isfinite(x[j]) != 0;
  }
  for (int i = 0; i < m; i++) {
    if (isfinite(mm->u[i])) pres = fmax(pres, ax[i] - mm->u[i]);
    if (isfinite(mm->l[i])) pres = fmax(pres, mm->l[i] - ax[i]);
    double yi = yrow[i], bound = yi > 0.0 ? mm->u[i] : mm->l[i];
    finite &= isfinite(yi) != 0;
    if (yi == 0.0) continue;
    if (isfinite(bound))
      dual += bound * yi;
    else
      infinite_bound = 1;
  }
  out->pres = finite ? pres : INFINITY;
  out->dres = finite ? dres : INFINITY;
  out->gap = finite && !infinite_bound ? fabs(xpx + qx + dual) : INFINITY;
  out->obj = 0.5 * xpx + qx + mm->r;
  out->pres_scale = out->dres_scale = out->gap_scale = NAN;
}

void qcp_mm_score_point_f64(const qcp_mm *mm, const double *x, const double *yrow,
                            qcp_mm_score *out) {
  double *ax = malloc(((size_t)mm->m + 1) * sizeof *ax);
  double *px = malloc(((size_t)mm->n + 1) * sizeof *px);
  if (ax && px)
    score_measures_f64(mm, x, yrow, ax, px, out);
  else
    *out = (qcp_mm_score){NAN, NAN, NAN, NAN, NAN, NAN, NAN};
  free(ax), free(px);
}

// ---- one-ulp neighbours (qcp_mm.h)

static int cmp_double(const void *a, const void *b) {
  double u = *(const double *)a, v = *(const double *)b;
  return (u > v) - (u < v);
}

// v moved one ulp up or down by the next bit of the generator (0 stays 0)
static double ulp_step(double v, unsigned *state) {
  *state ^= *state << 13, *state ^= *state >> 17, *state ^= *state << 5;  // xorshift32
  return v == 0.0 ? 0.0 : nextafter(v, (*state & 1u) ? INFINITY : -INFINITY);
}

static double median_of(double *v, int k) {
  qsort(v, (size_t)k, sizeof *v, cmp_double);
  return v[k / 2];
}

int qcp_mm_ulp_moves(const qcp_mm *mm, const double *x, const double *yrow, const qcp_mm_score *at,
                     double tol, int draws, unsigned seed, qcp_mm_ulp *out) {
  *out = (qcp_mm_ulp){.pres_move = NAN, .dres_move = NAN, .gap_move = NAN};
  int n = mm->n, m = mm->m;
  double *xp = malloc(((size_t)n + 1) * sizeof *xp), *yp = malloc(((size_t)m + 1) * sizeof *yp);
  double *mv = malloc(3 * ((size_t)draws + 1) * sizeof *mv);
  sc_dd *ax = malloc(((size_t)m + 1) * sizeof *ax);
  double *rd = malloc(((size_t)n + 1) * sizeof *rd);
  double *axf = malloc(((size_t)m + 1) * sizeof *axf), *pxf = malloc(((size_t)n + 1) * sizeof *pxf);
  int rc = xp && yp && mv && ax && rd && axf && pxf && draws >= 1 ? 0 : -1;
  unsigned state = seed ? seed : 1u;
  for (int d = 0; !rc && d < draws; d++) {
    for (int j = 0; j < n; j++) xp[j] = ulp_step(x[j], &state);
    for (int i = 0; i < m; i++) yp[i] = ulp_step(yrow[i], &state);
    qcp_mm_score s;
    score_measures(mm, xp, yp, ax, rd, &s);  // the scales are not needed: measures only
    mv[d] = fabs(s.pres - at->pres);
    mv[draws + d] = fabs(s.dres - at->dres);
    mv[2 * draws + d] = fabs(s.gap - at->gap);
    out->passing += s.pres <= tol && s.dres <= tol && s.gap <= tol;
    score_measures_f64(mm, xp, yp, axf, pxf, &s);
    out->passing_f64 += s.pres <= tol && s.dres <= tol && s.gap <= tol;
  }
  if (!rc) {
    out->draws = draws;
    out->pres_move = median_of(mv, draws);
    out->dres_move = median_of(mv + draws, draws);
    out->gap_move = median_of(mv + 2 * draws, draws);
  }
  free(xp), free(yp), free(mv), free(ax), free(rd), free(axf), free(pxf);
  return rc;
}
