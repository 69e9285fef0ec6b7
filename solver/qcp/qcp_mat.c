// SPDX-License-Identifier: MIT
// Reader of the Maros–Mészáros MATLAB v5 files (libmatio; built only when libmatio is found).
// Variables n, m, r (1×1), P (n×n sparse, both triangles), q (n), A (m×n sparse), l, u (m);
// |bound| >= 1e19 is infinite (see ../shared/data/maros_meszaros_full/README.md).
#include <math.h>
#include <matio.h>
#include <stdlib.h>
#include <string.h>

#include "qcp/qcp_mm.h"
#include "qcp_internal.h"

// a real dense variable of `len` entries copied into a fresh array (NULL on mismatch)
static double *read_dense(mat_t *mat, const char *name, size_t len) {
  matvar_t *v = Mat_VarRead(mat, name);
  double *out = NULL;
  if (v && v->class_type == MAT_C_DOUBLE && v->data_type == MAT_T_DOUBLE && !v->isComplex &&
      v->rank == 2 && v->dims[0] * v->dims[1] == len) {
    out = calloc(len ? len : 1, sizeof *out);
    if (out && len) memcpy(out, v->data, len * sizeof *out);
  }
  Mat_VarFree(v);
  return out;
}

// Sorts the rows of one column (some files, e.g. QPILOTNO, store them unsorted); insertion sort:
// columns are short. A repeated row is refused (-1).
static int sort_column(int *ri, double *val, int beg, int end) {
  for (int k = beg + 1; k < end; k++) {
    int r = ri[k], t = k;
    double v = val[k];
    for (; t > beg && ri[t - 1] > r; t--) ri[t] = ri[t - 1], val[t] = val[t - 1];
    ri[t] = r, val[t] = v;
  }
  for (int k = beg + 1; k < end; k++)
    if (ri[k] == ri[k - 1]) return -1;
  return 0;
}

// a real sparse nrows×ncols variable as CSC with sorted rows (0 on success)
static int read_sparse(mat_t *mat, const char *name, size_t nrows, size_t ncols, int **cp, int **ri,
                       double **val) {
  matvar_t *v = Mat_VarRead(mat, name);
  int rc = -1;
  if (v && v->class_type == MAT_C_SPARSE && !v->isComplex && v->data_type == MAT_T_DOUBLE &&
      v->rank == 2 && v->dims[0] == nrows && v->dims[1] == ncols) {
    const mat_sparse_t *sp = v->data;
    size_t nnz = sp->njc > 0 ? sp->jc[ncols] : 0;
    *cp = calloc(ncols + 1, sizeof **cp);
    *ri = calloc(nnz ? nnz : 1, sizeof **ri);
    *val = calloc(nnz ? nnz : 1, sizeof **val);
    rc =
        (*cp && *ri && *val && sp->njc == ncols + 1 && nnz <= sp->nir && nnz <= sp->ndata) ? 0 : -1;
    for (size_t j = 0; !rc && j <= ncols; j++) (*cp)[j] = (int)sp->jc[j];
    for (size_t k = 0; !rc && k < nnz; k++) {
      (*ri)[k] = (int)sp->ir[k];
      (*val)[k] = ((const double *)sp->data)[k];
      if (sp->ir[k] >= nrows || !isfinite((*val)[k])) rc = -1;
    }
    for (size_t j = 0; !rc && j < ncols; j++) rc = sort_column(*ri, *val, (*cp)[j], (*cp)[j + 1]);
  }
  Mat_VarFree(v);
  return rc;
}

static double read_scalar(mat_t *mat, const char *name) {
  double *v = read_dense(mat, name, 1);
  double x = v ? v[0] : NAN;
  free(v);
  return x;
}

int qcp_mm_read_mat(const char *path, qcp_mm *out, qcp_error *err) {
  memset(out, 0, sizeof *out);
  mat_t *mat = Mat_Open(path, MAT_ACC_RDONLY);
  if (!mat) return qcp_fail(err, QCP_ERR_IO, "%s: cannot open as a MATLAB file", path);
  double n = read_scalar(mat, "n"), m = read_scalar(mat, "m");
  const char *bad = NULL;
  if (!(n >= 1 && n < 1e8 && n == floor(n))) bad = "n";
  if (!bad && !(m >= 0 && m < 1e8 && m == floor(m))) bad = "m";
  if (!bad) {
    out->n = (int)n;
    out->m = (int)m;
    out->r = read_scalar(mat, "r");
    if (!isfinite(out->r)) out->r = 0.0;  // r is optional in some exports
    size_t N = (size_t)n, M = (size_t)m;
    if (!(out->q = read_dense(mat, "q", N)))
      bad = "q";
    else if (!(out->l = read_dense(mat, "l", M)))
      bad = "l";
    else if (!(out->u = read_dense(mat, "u", M)))
      bad = "u";
    else if (read_sparse(mat, "P", N, N, &out->Pp, &out->Pi, &out->Pv))
      bad = "P";
    else if (read_sparse(mat, "A", M, N, &out->Ap, &out->Ai, &out->Av))
      bad = "A";
  }
  Mat_Close(mat);
  if (bad) {
    qcp_mm_free(out);
    return qcp_fail(err, QCP_ERR_INPUT, "%s: variable %s missing or malformed", path, bad);
  }
  for (int i = 0; i < out->m; i++) {
    if (out->l[i] <= -QCP_MM_INF) out->l[i] = -INFINITY;
    if (out->u[i] >= QCP_MM_INF) out->u[i] = INFINITY;
  }
  for (int j = 0; j < out->n; j++)
    if (!isfinite(out->q[j])) {
      qcp_mm_free(out);
      return qcp_fail(err, QCP_ERR_INPUT, "%s: q[%d] is not finite", path, j);
    }
  return QCP_OK;
}
