// SPDX-License-Identifier: MIT
// Reader of the Maros–Mészáros MATLAB v5 files (libmatio; built only when libmatio is found).
// Variables n, m, r (1×1), P (n×n sparse, both triangles), q (n), A (m×n sparse), l, u (m);
// |bound| >= 1e19 is infinite (see ../shared/data/maros_meszaros_full/README.md).
// The file's structure is checked before libmatio parses it (qcp_mat_scan.c), the values after
// (qcp_mm_check, qcp_mm_check.c): together they say what a valid problem file is.
#include <limits.h>
#include <math.h>
#include <matio.h>
#include <stdlib.h>
#include <string.h>

#include "qcp/qcp_mm.h"
#include "qcp_internal.h"
#include "qcp_mat_scan.h"

static int is_real_double(const matvar_t *v) {
  return v->class_type == MAT_C_DOUBLE && v->data_type == MAT_T_DOUBLE && !v->isComplex &&
         v->rank == 2 && v->data;
}

// a real dense variable of `len` entries copied into *out (QCP_OK), else an error naming it
static int read_dense(mat_t *mat, const char *path, const char *name, size_t len, double **out,
                      qcp_error *err) {
  matvar_t *v = Mat_VarRead(mat, name);
  int rc = QCP_OK;
  if (!v)
    rc = qcp_fail(err, QCP_ERR_INPUT, "%s: variable %s missing", path, name);
  else if (!is_real_double(v) && !(v->class_type == MAT_C_DOUBLE && len == 0))
    rc = qcp_fail(err, QCP_ERR_INPUT, "%s: variable %s is not a real double array", path, name);
  else if (v->dims[0] * v->dims[1] != len)
    rc = qcp_fail(err, QCP_ERR_INPUT, "%s: variable %s has %zux%zu entries, expected %zu", path,
                  name, v->dims[0], v->dims[1], len);
  else if (!(*out = calloc(len ? len : 1, sizeof **out)))
    rc = qcp_fail(err, QCP_ERR_ALLOC, "%s: out of memory reading %s", path, name);
  else if (len)
    memcpy(*out, v->data, len * sizeof **out);
  Mat_VarFree(v);
  return rc;
}

// a real sparse nrows×ncols variable as CSC (its order and ranges are checked by qcp_mm_check)
static int read_sparse(mat_t *mat, const char *path, const char *name, size_t nrows, size_t ncols,
                       int **cp, int **ri, double **val, qcp_error *err) {
  matvar_t *v = Mat_VarRead(mat, name);
  int rc = QCP_OK;
  const mat_sparse_t *sp = v ? v->data : NULL;
  if (!v) return qcp_fail(err, QCP_ERR_INPUT, "%s: variable %s missing", path, name);
  if (v->class_type != MAT_C_SPARSE || v->isComplex || v->data_type != MAT_T_DOUBLE ||
      v->rank != 2 || !sp)
    rc = qcp_fail(err, QCP_ERR_INPUT, "%s: variable %s is not a real sparse double matrix", path,
                  name);
  else if (v->dims[0] != nrows || v->dims[1] != ncols)
    rc = qcp_fail(err, QCP_ERR_INPUT, "%s: variable %s is %zux%zu, expected %zux%zu", path, name,
                  v->dims[0], v->dims[1], nrows, ncols);
  else if (sp->njc != ncols + 1 || !sp->jc)
    rc = qcp_fail(err, QCP_ERR_INPUT, "%s: %s has %u column pointers, expected %zu", path, name,
                  (unsigned)sp->njc, ncols + 1);
  else if (sp->jc[0] != 0 || sp->jc[ncols] > sp->nir || sp->jc[ncols] > sp->ndata ||
           sp->jc[ncols] > INT_MAX)
    rc = qcp_fail(err, QCP_ERR_INPUT,
                  "%s: %s column pointers run from %u to %u, outside the %u row indices and %u "
                  "values",
                  path, name, (unsigned)sp->jc[0], (unsigned)sp->jc[ncols], (unsigned)sp->nir,
                  (unsigned)sp->ndata);
  size_t nnz = rc ? 0 : sp->jc[ncols];
  if (!rc) {
    *cp = calloc(ncols + 1, sizeof **cp);
    *ri = calloc(nnz ? nnz : 1, sizeof **ri);
    *val = calloc(nnz ? nnz : 1, sizeof **val);
    if (!*cp || !*ri || !*val) rc = qcp_fail(err, QCP_ERR_ALLOC, "%s: out of memory", path);
  }
  for (size_t j = 0; !rc && j <= ncols; j++) {
    if (sp->jc[j] > nnz)
      rc = qcp_fail(err, QCP_ERR_INPUT, "%s: %s column pointer %zu = %u past the %zu entries", path,
                    name, j, (unsigned)sp->jc[j], nnz);
    else
      (*cp)[j] = (int)sp->jc[j];
  }
  for (size_t k = 0; !rc && k < nnz; k++) {
    if (sp->ir[k] >= nrows)
      rc = qcp_fail(err, QCP_ERR_INPUT, "%s: %s row index %zu = %u outside 0..%zu", path, name, k,
                    (unsigned)sp->ir[k], nrows ? nrows - 1 : 0);
    (*ri)[k] = (int)sp->ir[k];
    (*val)[k] = ((const double *)sp->data)[k];
  }
  Mat_VarFree(v);
  return rc;
}

// a 1×1 double variable; *present = 0 if it is missing
static int read_scalar(mat_t *mat, const char *path, const char *name, double *x, int *present,
                       qcp_error *err) {
  matvar_t *v = Mat_VarReadInfo(mat, name);
  *present = v != NULL;
  Mat_VarFree(v);
  if (!*present) return QCP_OK;
  double *buf = NULL;
  int rc = read_dense(mat, path, name, 1, &buf, err);
  if (!rc) *x = buf[0];
  free(buf);
  return rc;
}

// n or m: a whole number in [lo, 1e8)
static int read_size(mat_t *mat, const char *path, const char *name, double lo, int *out,
                     qcp_error *err) {
  double x = NAN;
  int present = 0, rc = read_scalar(mat, path, name, &x, &present, err);
  if (rc) return rc;
  if (!present) return qcp_fail(err, QCP_ERR_INPUT, "%s: variable %s missing", path, name);
  if (!(x >= lo && x < 1e8 && x == floor(x)))
    return qcp_fail(err, QCP_ERR_INPUT, "%s: %s = %g is not a whole number in [%g, 1e8)", path,
                    name, x, lo);
  *out = (int)x;
  return QCP_OK;
}

static int read_all(mat_t *mat, const char *path, qcp_mm *out, qcp_error *err) {
  int rc = read_size(mat, path, "n", 1, &out->n, err), has_r = 0;
  rc = rc ? rc : read_size(mat, path, "m", 0, &out->m, err);
  rc = rc ? rc : read_scalar(mat, path, "r", &out->r, &has_r, err);
  if (rc) return rc;
  if (!has_r) out->r = 0.0;  // r is optional in some exports
  size_t N = (size_t)out->n, M = (size_t)out->m;
  rc = read_dense(mat, path, "q", N, &out->q, err);
  rc = rc ? rc : read_dense(mat, path, "l", M, &out->l, err);
  rc = rc ? rc : read_dense(mat, path, "u", M, &out->u, err);
  rc = rc ? rc : read_sparse(mat, path, "P", N, N, &out->Pp, &out->Pi, &out->Pv, err);
  rc = rc ? rc : read_sparse(mat, path, "A", M, N, &out->Ap, &out->Ai, &out->Av, err);
  return rc;
}

int qcp_mm_read_mat(const char *path, qcp_mm *out, qcp_error *err) {
  memset(out, 0, sizeof *out);
  int rc = qcp_mat_scan(path, err);
  if (rc) return rc;
  mat_t *mat = Mat_Open(path, MAT_ACC_RDONLY);
  if (!mat) return qcp_fail(err, QCP_ERR_IO, "%s: cannot open as a MATLAB file", path);
  rc = read_all(mat, path, out, err);
  Mat_Close(mat);
  rc = rc ? rc : qcp_mm_check(out, path, err);
  if (rc) qcp_mm_free(out);
  return rc;
}
