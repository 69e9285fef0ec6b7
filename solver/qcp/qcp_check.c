// SPDX-License-Identifier: MIT
// Independent optimality checker: residuals, cone membership, complementarity and objectives
// recomputed from the original problem data, sharing no code with the solver's iteration.
//
// The KKT conditions of min ½xᵀPx + cᵀx s.t. Ax = b, Gx + s = h, s ∈ K are
//   Px + c + Aᵀy + Gᵀz = 0,  Ax = b,  Gx + s = h,  s ∈ K,  z ∈ K* = K,  sᵀz = 0,
// and the dual objective is −½xᵀPx − bᵀy − hᵀz (so pobj − dobj = sᵀz at a feasible point).
// Every quantity is accumulated in long double to keep the check itself from adding error.
// Cone violations are reported relative to max(1, scale of the vector), like the residuals.
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "qcp/qcp.h"

typedef long double ld;

// y += M x (M given by CSC), or y += Mᵀx when trans; sym adds the strict upper part mirrored
static void csc_apply(const qcp_csc *M, const double *x, ld *y, int trans, int sym) {
  if (!M->colptr || M->ncols == 0) return;
  for (int j = 0; j < M->ncols; j++)
    for (int k = M->colptr[j]; k < M->colptr[j + 1]; k++) {
      int i = M->rowind[k];
      ld v = M->values[k];
      if (!trans || sym) y[i] += v * x[j];
      if (trans || (sym && i != j)) y[j] += v * x[i];
    }
}

// the smallest eigenvalue per cone block, minimised
static ld cone_min(const qcp_problem *pr, const double *v) {
  ld r = INFINITY;
  for (int i = 0; i < pr->l; i++)
    if (v[i] < r) r = v[i];
  int o = pr->l;
  for (int k = 0; k < pr->nsoc; k++) {
    ld t = 0;
    for (int i = 1; i < pr->q[k]; i++) t += (ld)v[o + i] * v[o + i];
    ld e = v[o] - sqrtl(t);
    if (e < r) r = e;
    o += pr->q[k];
  }
  return r;
}

static ld vmax_abs(const ld *v, int n) {
  ld r = 0;
  for (int i = 0; i < n; i++) r = fmaxl(r, fabsl(v[i]));
  return r;
}

static ld dmax_abs(const double *v, int n) {
  ld r = 0;
  for (int i = 0; i < n; i++) r = fmaxl(r, fabsl((ld)v[i]));
  return r;
}

// One pass over the problem's rows in extended precision (long on purpose: the residuals,
// the objectives and the complementarity are accumulated together).
void qcp_check(const qcp_problem *pr, const double *x, const double *s, const double *y,
               const double *z, qcp_check_result *out) {
  int n = pr->n, p = pr->p, m = pr->G.nrows;
  // the checker is not on the solver's allocation-free path: plain malloc is fine here
  ld *ax = calloc((size_t)p + 1, sizeof *ax), *gx = calloc((size_t)m + 1, sizeof *gx);
  ld *px = calloc((size_t)n, sizeof *px), *aty = calloc((size_t)n, sizeof *aty);
  ld *gtz = calloc((size_t)n, sizeof *gtz);
  double *hgx = calloc((size_t)m + 1, sizeof *hgx);
  if (!ax || !gx || !px || !aty || !gtz || !hgx) {
    out->pres_rel = out->dres_rel = out->gap_rel = NAN;
    goto done;
  }
  // fmaxl drops NaN and comparisons with NaN are false: a non-finite point must not pass, so
  // it fails every measure outright
  {
    const double *v[4] = {x, s, y, z};
    const int len[4] = {n, m, p, m};
    for (int k = 0; k < 4; k++)
      for (int i = 0; i < len[k]; i++)
        if (!isfinite(v[k][i])) {
          out->pres_eq = out->pres_cone = out->pres_rel = out->infeas_hgx = NAN;
          out->s_cone = out->z_cone = out->dres = out->dres_rel = NAN;
          out->compl = out->compl_max = out->pobj = out->dobj = out->gap_rel = NAN;
          goto done;
        }
  }
  if (p > 0) {
    csc_apply(&pr->A, x, ax, 0, 0);
    csc_apply(&pr->A, y, aty, 1, 0);
  }
  csc_apply(&pr->G, x, gx, 0, 0);
  csc_apply(&pr->G, z, gtz, 1, 0);
  csc_apply(&pr->P, x, px, 0, 1);

  ld pres_eq = 0, pres_cone = 0, dres = 0, xpx = 0, cx = 0, by = 0, hz = 0, sz = 0, szmax = 0;
  for (int i = 0; i < p; i++) {
    pres_eq = fmaxl(pres_eq, fabsl(ax[i] - pr->b[i]));
    by += (ld)pr->b[i] * y[i];
  }
  for (int i = 0; i < m; i++) {
    pres_cone = fmaxl(pres_cone, fabsl(gx[i] + s[i] - pr->h[i]));
    hgx[i] = (double)(pr->h[i] - gx[i]);
    hz += (ld)pr->h[i] * z[i];
  }
  for (int j = 0; j < n; j++) {
    dres = fmaxl(dres, fabsl(px[j] + pr->c[j] + aty[j] + gtz[j]));
    xpx += px[j] * x[j];
    cx += (ld)pr->c[j] * x[j];
  }
  // complementarity per cone block
  for (int blk = 0, o = 0; blk < pr->l + pr->nsoc; blk++) {
    int q = blk < pr->l ? 1 : pr->q[blk - pr->l];
    ld t = 0;
    for (int i = o; i < o + q; i++) t += (ld)s[i] * z[i];
    sz += t;
    szmax = fmaxl(szmax, fabsl(t));
    o += q;
  }
  ld smin = cone_min(pr, s), zmin = cone_min(pr, z), hmin = cone_min(pr, hgx);
  ld pscale = fmaxl(1, fmaxl(fmaxl(dmax_abs(pr->b, p), dmax_abs(pr->h, m)),
                             fmaxl(fmaxl(vmax_abs(ax, p), vmax_abs(gx, m)), dmax_abs(s, m))));
  ld dscale = fmaxl(1, fmaxl(fmaxl(dmax_abs(pr->c, n), vmax_abs(px, n)),
                             fmaxl(vmax_abs(aty, n), vmax_abs(gtz, n))));
  out->pres_eq = (double)pres_eq;
  out->pres_cone = (double)pres_cone;
  out->pres_rel = (double)(fmaxl(pres_eq, pres_cone) / pscale);
  out->infeas_hgx = (m > 0 && hmin < 0) ? (double)(-hmin / pscale) : 0.0;
  out->s_cone = (m > 0 && smin < 0) ? (double)(-smin / pscale) : 0.0;
  out->z_cone = (m > 0 && zmin < 0) ? (double)(-zmin / fmaxl(1, dmax_abs(z, m))) : 0.0;
  out->dres = (double)dres;
  out->dres_rel = (double)(dres / dscale);
  out->compl = (double)fabsl(sz);
  out->compl_max = (double)szmax;
  out->pobj = (double)(0.5L * xpx + cx);
  out->dobj = (double)(-0.5L * xpx - by - hz);
  out->gap_rel =
      (double)(fabsl(0.5L * xpx + cx - (-0.5L * xpx - by - hz)) / fmaxl(1, fabsl(0.5L * xpx + cx)));
done:
  free(ax);
  free(gx);
  free(px);
  free(aty);
  free(gtz);
  free(hgx);
}

int qcp_check_passes(const qcp_check_result *r, double tol) {
  // cone violations are relative to the vectors' scale (1 at least), like the residuals
  return r->pres_rel <= tol && r->dres_rel <= tol && r->gap_rel <= tol && r->s_cone <= tol &&
         r->z_cone <= tol && r->infeas_hgx <= tol;
}
