// SPDX-License-Identifier: MIT
// HDF5 problem and solution files for qcp (format: solver/qcp/README.md).
#include "qcp/qcp_io.h"

#include <hdf5.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// errors are sc_errors (common/sc_error.h)
#define io_fail sc_error_set

// HDF5 prints its own error stacks by default; the library reports errors through qcp_error, so
// each public call silences HDF5 and restores the caller's handler on the way out
typedef struct hdf5_handler {
  H5E_auto2_t func;
  void *data;
} hdf5_handler;

static hdf5_handler hdf5_quiet(void) {
  hdf5_handler h = {NULL, NULL};
  H5Eget_auto2(H5E_DEFAULT, &h.func, &h.data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  return h;
}

static void hdf5_restore(hdf5_handler h) { H5Eset_auto2(H5E_DEFAULT, h.func, h.data); }

// ---- writing ----------------------------------------------------------------------

static int write_dataset(hid_t loc, const char *name, hid_t mem_type, hid_t file_type,
                         const void *data, hsize_t len) {
  hid_t space = H5Screate_simple(1, &len, NULL);
  if (space < 0) return -1;
  hid_t ds = H5Dcreate2(loc, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  int rc = -1;
  if (ds >= 0) {
    rc = (len == 0 || H5Dwrite(ds, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0) ? 0 : -1;
    if (H5Dclose(ds) < 0) rc = -1;  // the data may reach the file only here (a full disk)
  }
  if (H5Sclose(space) < 0) rc = -1;
  return rc;
}

static int write_attr(hid_t loc, const char *name, hid_t mem_type, hid_t file_type,
                      const void *data, hsize_t len) {
  hid_t space = len == 0 ? H5Screate(H5S_NULL) : H5Screate_simple(1, &len, NULL);
  if (space < 0) return -1;
  hid_t a = H5Acreate2(loc, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT);
  int rc = -1;
  if (a >= 0) {
    rc = (len == 0 || H5Awrite(a, mem_type, data) >= 0) ? 0 : -1;
    if (H5Aclose(a) < 0) rc = -1;
  }
  if (H5Sclose(space) < 0) rc = -1;
  return rc;
}

static int write_int_attr(hid_t loc, const char *name, long long v) {
  return write_attr(loc, name, H5T_NATIVE_LLONG, H5T_STD_I64LE, &v, 1);
}

static int write_dbl_attr(hid_t loc, const char *name, double v) {
  return write_attr(loc, name, H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, &v, 1);
}

static int write_str_attr(hid_t loc, const char *name, const char *s) {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, strlen(s) + 1);
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(loc, name, t, space, H5P_DEFAULT, H5P_DEFAULT);
  int rc = (a >= 0 && H5Awrite(a, t, s) >= 0) ? 0 : -1;
  if (a >= 0 && H5Aclose(a) < 0) rc = -1;
  if (H5Sclose(space) < 0 || H5Tclose(t) < 0) rc = -1;
  return rc;
}

static int write_dvec(hid_t loc, const char *name, const double *v, int n) {
  return write_dataset(loc, name, H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, v, (hsize_t)n);
}

// one CSC group: int64 colptr, rowind, double values, attribute nrows
static int write_csc(hid_t file, const char *name, const qcp_csc *M) {
  hid_t g = H5Gcreate2(file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (g < 0) return -1;
  int nnz = M->colptr[M->ncols], rc = 0;
  int64_t *buf = malloc(((size_t)(nnz > M->ncols ? nnz : M->ncols) + 1) * sizeof *buf);
  if (!buf) rc = -1;
  if (!rc) {
    for (int j = 0; j <= M->ncols; j++) buf[j] = M->colptr[j];
    rc |= write_dataset(g, "colptr", H5T_NATIVE_INT64, H5T_STD_I64LE, buf, (hsize_t)M->ncols + 1);
    for (int k = 0; k < nnz; k++) buf[k] = M->rowind[k];
    rc |= write_dataset(g, "rowind", H5T_NATIVE_INT64, H5T_STD_I64LE, buf, (hsize_t)nnz);
    rc |= write_dvec(g, "values", M->values, nnz);
    rc |= write_int_attr(g, "nrows", M->nrows);
  }
  free(buf);
  if (H5Gclose(g) < 0) rc = -1;
  return rc;
}

// creates path.partial; the caller renames it on success
static hid_t create_partial(const char *path, char *tmp, size_t cap, qcp_error *err) {
  snprintf(tmp, cap, "%s.partial", path);
  // O_EXCL (H5F_ACC_EXCL) never follows a symlink planted at the temporary name
  struct stat st;
  if (lstat(tmp, &st) == 0 && S_ISREG(st.st_mode)) unlink(tmp);
  hid_t f = H5Fcreate(tmp, H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) {
    // a file at tmp now was begun by H5Fcreate (the name was free): a full disk leaves none
    if (lstat(tmp, &st) == 0 && S_ISREG(st.st_mode)) unlink(tmp);
    io_fail(err, QCP_ERR_IO, "cannot create HDF5 file %s", tmp);
  }
  return f;
}

static int finish_partial(hid_t f, int rc, const char *tmp, const char *path, qcp_error *err) {
  if (H5Fflush(f, H5F_SCOPE_LOCAL) < 0) rc = -1;  // every byte on disk before the file counts
  if (H5Fclose(f) < 0) rc = -1;
  if (rc) {
    remove(tmp);
    return io_fail(err, QCP_ERR_IO, "writing HDF5 file %s failed", path);
  }
  if (rename(tmp, path) != 0) {
    remove(tmp);
    return io_fail(err, QCP_ERR_IO, "cannot rename %s to %s", tmp, path);
  }
  return QCP_OK;
}

static int problem_write(const char *path, const qcp_problem *prob, qcp_error *err) {
  int rc = qcp_problem_validate(prob, err);
  if (rc) return rc;
  char tmp[4096];
  hid_t f = create_partial(path, tmp, sizeof tmp, err);
  if (f < 0) return QCP_ERR_IO;
  int m = prob->G.nrows;
  rc = 0;
  rc |= write_int_attr(f, "n", prob->n);
  rc |= write_int_attr(f, "l", prob->l);
  {
    long long *q = malloc(((size_t)prob->nsoc + 1) * sizeof *q);
    if (!q) rc = -1;
    for (int k = 0; q && k < prob->nsoc; k++) q[k] = prob->q[k];
    if (q) rc |= write_attr(f, "q", H5T_NATIVE_LLONG, H5T_STD_I64LE, q, (hsize_t)prob->nsoc);
    free(q);
  }
  rc |= write_dvec(f, "c", prob->c, prob->n);
  rc |= write_dvec(f, "h", prob->h, m);
  rc |= write_csc(f, "P", &prob->P);
  rc |= write_csc(f, "G", &prob->G);
  if (prob->p > 0) {
    rc |= write_dvec(f, "b", prob->b, prob->p);
    rc |= write_csc(f, "A", &prob->A);
  }
  return finish_partial(f, rc, tmp, path, err);
}

static int solution_write(const char *path, const qcp_problem *prob, const double *x,
                          const double *s, const double *y, const double *z, const qcp_info *info,
                          const qcp_check_result *chk, qcp_error *err) {
  char tmp[4096];
  hid_t f = create_partial(path, tmp, sizeof tmp, err);
  if (f < 0) return QCP_ERR_IO;
  int m = prob->G.nrows, rc = 0;
  rc |= write_dvec(f, "x", x, prob->n);
  rc |= write_dvec(f, "s", s, m);
  rc |= write_dvec(f, "y", y, prob->p);
  rc |= write_dvec(f, "z", z, m);
  rc |= write_str_attr(f, "status", qcp_status_string(info->status));
  rc |= write_int_attr(f, "iterations", info->iterations);
  rc |= write_dbl_attr(f, "objective", info->pobj);
  rc |= write_dbl_attr(f, "solve_time", info->solve_time);
  if (chk) {
    rc |= write_dbl_attr(f, "check_pres_rel", chk->pres_rel);
    rc |= write_dbl_attr(f, "check_dres_rel", chk->dres_rel);
    rc |= write_dbl_attr(f, "check_gap_rel", chk->gap_rel);
    rc |= write_dbl_attr(f, "check_s_cone", chk->s_cone);
    rc |= write_dbl_attr(f, "check_z_cone", chk->z_cone);
    rc |= write_dbl_attr(f, "check_compl", chk->compl );
    rc |= write_dbl_attr(f, "check_pobj", chk->pobj);
    rc |= write_dbl_attr(f, "check_dobj", chk->dobj);
  }
  return finish_partial(f, rc, tmp, path, err);
}

// ---- reading ----------------------------------------------------------------------
//
// A problem file may come from anyone. Before libhdf5 is asked to open, convert or read an item,
// the reader checks that it is reached by a hard link (a soft or external link could point into
// another file), that its type is a plain integer or float, and that a dataset's declared length
// is backed by bytes the file really stores: a chunked dataset that was never written declares
// any size in a few bytes, and reading it would allocate what the file merely claims.

// Limits of a problem file (documented in solver/qcp/README.md). A second-order cone of dimension
// d couples d² KKT entries, so one huge cone exhausts memory in the ordering (AMD).
#define QCP_IO_MAX_CONE 2000
#define QCP_IO_MAX_CONE_SQ 20000000LL  // Σ q_k²
// deflate compresses at most about 1000:1; more declared bytes than this per stored byte is a lie
#define QCP_IO_MAX_RATIO 1100.0

// 1 if name is a hard link in loc, 0 if absent or another kind of link
static int link_is_hard(hid_t loc, const char *name) {
  H5L_info_t info;
  return H5Lexists(loc, name, H5P_DEFAULT) > 0 && H5Lget_info(loc, name, &info, H5P_DEFAULT) >= 0 &&
         info.type == H5L_TYPE_HARD;
}

// the declared entries of a dataset must be stored (allowing for compression)
static int storage_backs(hid_t ds, hssize_t np, size_t elsize) {
  if (np <= 0) return 1;
  hsize_t stored = H5Dget_storage_size(ds);
  return (double)np * (double)elsize <= QCP_IO_MAX_RATIO * (double)stored + 65536.0;
}

// reads a 1-D numeric dataset or attribute into a fresh array of doubles or int64; *len = size.
// A size above max is refused before anything is allocated ("expected max" when exact, else "at
// most max"), so a small file cannot make the reader allocate what it merely declares.
static int read_object(hid_t loc, const char *name, int is_attr, hid_t mem_type, size_t elsize,
                       long long max, int exact, void **out, long long *len, const char *path,
                       qcp_error *err) {
  if (!is_attr && H5Lexists(loc, name, H5P_DEFAULT) > 0 && !link_is_hard(loc, name))
    return io_fail(err, QCP_ERR_INPUT, "%s: '%s' is a soft or external link (not read)", path,
                   name);
  hid_t obj = is_attr ? H5Aopen(loc, name, H5P_DEFAULT) : H5Dopen2(loc, name, H5P_DEFAULT);
  if (obj < 0)
    return io_fail(err, QCP_ERR_INPUT, "%s: cannot open %s '%s'", path,
                   is_attr ? "attribute" : "dataset", name);
  hid_t space = is_attr ? H5Aget_space(obj) : H5Dget_space(obj);
  int rank = H5Sget_simple_extent_ndims(space);
  hssize_t np = H5Sget_simple_extent_npoints(space);
  H5S_class_t cls = H5Sget_simple_extent_type(space);
  hid_t ftype = is_attr ? H5Aget_type(obj) : H5Dget_type(obj);
  H5T_class_t tcls = H5Tget_class(ftype);
  size_t fsize = H5Tget_size(ftype);
  H5Tclose(ftype);
  H5Sclose(space);
  int rc = QCP_OK;
  if (cls != H5S_NULL && (rank > 1 || np < 0)) {
    rc = io_fail(err, QCP_ERR_INPUT, "%s: '%s' must be one-dimensional", path, name);
  } else if (tcls != H5T_INTEGER && tcls != H5T_FLOAT) {
    rc = io_fail(err, QCP_ERR_INPUT, "%s: '%s' is not numeric", path, name);
  } else if (fsize < 1 || fsize > 8 || (tcls == H5T_FLOAT && fsize != 4 && fsize != 8)) {
    rc = io_fail(err, QCP_ERR_INPUT, "%s: '%s' has %zu-byte elements (expected 1..8)", path, name,
                 fsize);
  } else if (cls != H5S_NULL && np > max) {
    rc = io_fail(err, QCP_ERR_INPUT, "%s: %s '%s' has %lld entries, expected %s%lld", path,
                 is_attr ? "attribute" : "dataset", name, (long long)np, exact ? "" : "at most ",
                 max);
  } else if (!is_attr && !storage_backs(obj, np, fsize)) {
    rc = io_fail(err, QCP_ERR_INPUT,
                 "%s: dataset '%s' declares %lld entries but the file stores only %llu bytes of it",
                 path, name, (long long)np, (unsigned long long)H5Dget_storage_size(obj));
  } else {
    if (cls == H5S_NULL) np = 0;
    void *buf = malloc(((size_t)np + 1) * elsize);
    herr_t st = 0;
    if (!buf) {
      rc = io_fail(err, QCP_ERR_ALLOC, "%s: out of memory reading '%s'", path, name);
    } else {
      if (np > 0)
        st = is_attr ? H5Aread(obj, mem_type, buf)
                     : H5Dread(obj, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
      if (st < 0) {
        free(buf);
        rc = io_fail(err, QCP_ERR_INPUT, "%s: reading '%s' failed", path, name);
      } else {
        *out = buf;
        *len = np;
      }
    }
  }
  if (is_attr)
    H5Aclose(obj);
  else
    H5Dclose(obj);
  return rc;
}

static int read_dvec(hid_t loc, const char *name, double **out, long long want, const char *path,
                     qcp_error *err) {
  long long len = 0;
  int rc = read_object(loc, name, 0, H5T_NATIVE_DOUBLE, sizeof(double), want, 1, (void **)out, &len,
                       path, err);
  if (rc) return rc;
  if (len != want)
    return io_fail(err, QCP_ERR_INPUT, "%s: dataset '%s' has %lld entries, expected %lld", path,
                   name, len, want);
  return QCP_OK;
}

static int read_scalar_int(hid_t loc, const char *name, long long *v, const char *path,
                           qcp_error *err) {
  long long *buf = NULL, len = 0;
  int rc = read_object(loc, name, 1, H5T_NATIVE_LLONG, sizeof(long long), 1, 1, (void **)&buf, &len,
                       path, err);
  if (rc) return rc;
  if (len != 1)
    rc = io_fail(err, QCP_ERR_INPUT, "%s: attribute '%s' must be one integer", path, name);
  else
    *v = buf[0];
  free(buf);
  return rc;
}

// reads one CSC group with ncols columns into int arrays; checks lengths and index ranges fit int
static int read_csc(hid_t file, const char *name, int ncols, int *nrows, int **cp, int **ri,
                    double **v, const char *path, qcp_error *err) {
  if (H5Lexists(file, name, H5P_DEFAULT) > 0 && !link_is_hard(file, name))
    return io_fail(err, QCP_ERR_INPUT, "%s: '%s' is a soft or external link (not read)", path,
                   name);
  hid_t g = H5Gopen2(file, name, H5P_DEFAULT);
  if (g < 0) return io_fail(err, QCP_ERR_INPUT, "%s: missing group '%s'", path, name);
  long long *colptr = NULL, *rowind = NULL, ncp = 0, nri = 0, nr = 0;
  char what[64];
  int rc = read_scalar_int(g, "nrows", &nr, path, err);
  snprintf(what, sizeof what, "%s/colptr", name);
  if (!rc)
    rc = read_object(g, "colptr", 0, H5T_NATIVE_LLONG, sizeof(long long), (long long)ncols + 1, 1,
                     (void **)&colptr, &ncp, path, err);
  // rowind may hold at most what colptr declares (checked exactly below)
  long long declared = !rc && ncp == (long long)ncols + 1 ? colptr[ncols] : 2000000000LL;
  if (declared < 0 || declared > 2000000000LL) declared = 2000000000LL;
  if (!rc)
    rc = read_object(g, "rowind", 0, H5T_NATIVE_LLONG, sizeof(long long), declared, 0,
                     (void **)&rowind, &nri, path, err);
  if (!rc && (nr < 0 || nr > 100000000LL))
    rc = io_fail(err, QCP_ERR_INPUT, "%s: %s nrows = %lld out of range", path, name, nr);
  if (!rc && ncp != (long long)ncols + 1)
    rc = io_fail(err, QCP_ERR_INPUT, "%s: %s has %lld entries, expected n+1 = %d", path, what, ncp,
                 ncols + 1);
  if (!rc && (colptr[ncols] != nri || colptr[0] != 0))
    rc = io_fail(err, QCP_ERR_INPUT, "%s: %s/colptr ends at %lld but rowind has %lld entries", path,
                 name, colptr[ncols], nri);
  if (!rc && nri > 2000000000LL)
    rc = io_fail(err, QCP_ERR_INPUT, "%s: %s has too many entries (%lld)", path, name, nri);
  if (!rc) rc = read_dvec(g, "values", v, nri, path, err);
  if (!rc) {
    *cp = malloc(((size_t)ncols + 1) * sizeof **cp);
    *ri = malloc(((size_t)nri + 1) * sizeof **ri);
    if (!*cp || !*ri) rc = io_fail(err, QCP_ERR_ALLOC, "%s: out of memory", path);
  }
  for (int j = 0; !rc && j <= ncols; j++) {
    if (colptr[j] < 0 || colptr[j] > nri)
      rc = io_fail(err, QCP_ERR_INPUT, "%s: %s/colptr[%d] = %lld outside 0..%lld", path, name, j,
                   colptr[j], nri);
    else
      (*cp)[j] = (int)colptr[j];
  }
  for (long long k = 0; !rc && k < nri; k++) {
    if (rowind[k] < 0 || rowind[k] >= nr)
      rc = io_fail(err, QCP_ERR_INPUT, "%s: %s/rowind[%lld] = %lld outside 0..%lld", path, name, k,
                   rowind[k], nr - 1);
    else
      (*ri)[k] = (int)rowind[k];
  }
  *nrows = (int)nr;
  free(colptr);
  free(rowind);
  H5Gclose(g);
  return rc;
}

void qcp_io_problem_free(qcp_io_problem *p) {
  void *ptrs[] = {p->Pp, p->Pi, p->Ap, p->Ai, p->Gp, p->Gi, p->q,
                  p->Pv, p->Av, p->Gv, p->c,  p->b,  p->h};
  for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++) free(ptrs[i]);
  memset(p, 0, sizeof *p);
}

// the sizes n (variables) and l (nonnegative-orthant rows), each checked against its range
static int read_sizes(hid_t f, const char *path, long long *n, long long *l, qcp_error *err) {
  int rc = read_scalar_int(f, "n", n, path, err);
  if (!rc) rc = read_scalar_int(f, "l", l, path, err);
  if (!rc && (*n < 1 || *n > 100000000LL))
    rc = io_fail(err, QCP_ERR_INPUT, "%s: n = %lld out of range 1..1e8", path, *n);
  if (!rc && (*l < 0 || *l > 100000000LL))
    rc = io_fail(err, QCP_ERR_INPUT, "%s: l = %lld out of range 0..1e8", path, *l);
  return rc;
}

// the second-order cone dimensions q[0..nq) into out->q, each and their coupling checked; *m =
// l + sum(q), the rows of G
static int read_cones(hid_t f, const char *path, long long l, qcp_io_problem *out, long long *nq,
                      long long *m, qcp_error *err) {
  long long *q = NULL;
  int rc = read_object(f, "q", 1, H5T_NATIVE_LLONG, sizeof(long long), 100000000LL, 0, (void **)&q,
                       nq, path, err);
  *m = l;
  if (!rc) {
    out->q = malloc(((size_t)*nq + 1) * sizeof *out->q);
    if (!out->q) rc = io_fail(err, QCP_ERR_ALLOC, "%s: out of memory", path);
  }
  long long sq = 0;
  for (long long k = 0; !rc && k < *nq; k++) {
    if (q[k] < 1 || q[k] > QCP_IO_MAX_CONE)
      rc = io_fail(err, QCP_ERR_INPUT, "%s: cone dimension q[%lld] = %lld outside 1..%d", path, k,
                   q[k], QCP_IO_MAX_CONE);
    else
      out->q[k] = (int)q[k], *m += q[k], sq += q[k] * q[k];
  }
  if (!rc && sq > QCP_IO_MAX_CONE_SQ)
    rc = io_fail(err, QCP_ERR_INPUT,
                 "%s: the cones couple %lld KKT entries (sum of q^2), limit %lld", path, sq,
                 QCP_IO_MAX_CONE_SQ);
  free(q);
  if (!rc && *m > 100000000LL) rc = io_fail(err, QCP_ERR_INPUT, "%s: m = %lld too large", path, *m);
  return rc;
}

// the equality constraints A x = b, optional as a pair: *p rows (0 without A); b without A is
// accepted only empty
static int read_equalities(hid_t f, const char *path, long long n, qcp_io_problem *out, int *p,
                           qcp_error *err) {
  int rc = 0, nrA = 0;
  htri_t hasA = H5Lexists(f, "A", H5P_DEFAULT), hasb = H5Lexists(f, "b", H5P_DEFAULT);
  if (hasA > 0) {
    rc = read_csc(f, "A", (int)n, &nrA, &out->Ap, &out->Ai, &out->Av, path, err);
    *p = nrA;
    if (!rc && hasb <= 0 && *p > 0)
      rc = io_fail(err, QCP_ERR_INPUT, "%s: group A present but dataset b missing", path);
    if (!rc && hasb > 0) rc = read_dvec(f, "b", &out->b, *p, path, err);
  } else if (hasb > 0) {
    long long len = 0;
    double *tmp = NULL;
    rc = read_object(f, "b", 0, H5T_NATIVE_DOUBLE, sizeof(double), 100000000LL, 0, (void **)&tmp,
                     &len, path, err);
    free(tmp);
    if (!rc && len > 0)
      rc = io_fail(err, QCP_ERR_INPUT, "%s: dataset b has %lld entries but group A is missing",
                   path, len);
  }
  return rc;
}

// out->prob over the arrays read (an empty A when the file has none), validated; a validation
// message is prefixed with the path
static int problem_assemble(const char *path, long long n, int p, long long l, long long nq,
                            long long m, qcp_io_problem *out, qcp_error *err) {
  if (!out->Ap) out->Ap = calloc((size_t)n + 1, sizeof *out->Ap);
  out->prob = (qcp_problem){.n = (int)n,
                            .p = p,
                            .l = (int)l,
                            .nsoc = (int)nq,
                            .q = out->q,
                            .P = {(int)n, (int)n, out->Pp, out->Pi, out->Pv},
                            .A = {p, (int)n, out->Ap, out->Ai, out->Av},
                            .G = {(int)m, (int)n, out->Gp, out->Gi, out->Gv},
                            .c = out->c,
                            .b = out->b,
                            .h = out->h};
  int rc = qcp_problem_validate(&out->prob, err);
  if (rc && err) {
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%s", err->message);
    io_fail(err, rc, "%s: %s", path, msg);
  }
  return rc;
}

// Each dataset is checked (type, shape, size against the stored bytes) before it is read, in the
// file format's order, with one cleanup path.
static int problem_read(const char *path, qcp_io_problem *out, qcp_error *err) {
  memset(out, 0, sizeof *out);
  FILE *probe = fopen(path, "rb");
  if (!probe) return io_fail(err, QCP_ERR_IO, "cannot open problem file %s", path);
  fclose(probe);
  if (H5Fis_hdf5(path) <= 0) return io_fail(err, QCP_ERR_INPUT, "%s is not an HDF5 file", path);
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return io_fail(err, QCP_ERR_IO, "cannot open HDF5 file %s", path);
  long long n = 0, l = 0, nq = 0, m = 0;
  int rc = read_sizes(f, path, &n, &l, err);
  if (!rc) rc = read_cones(f, path, l, out, &nq, &m, err);
  int nrP = 0, nrG = 0, p = 0;
  if (!rc) rc = read_dvec(f, "c", &out->c, n, path, err);
  if (!rc) rc = read_dvec(f, "h", &out->h, m, path, err);
  if (!rc) rc = read_csc(f, "P", (int)n, &nrP, &out->Pp, &out->Pi, &out->Pv, path, err);
  if (!rc) rc = read_csc(f, "G", (int)n, &nrG, &out->Gp, &out->Gi, &out->Gv, path, err);
  if (!rc && nrP != n)
    rc = io_fail(err, QCP_ERR_INPUT, "%s: P has nrows = %d, expected n = %lld", path, nrP, n);
  if (!rc && nrG != m)
    rc = io_fail(err, QCP_ERR_INPUT, "%s: G has nrows = %d, expected m = l + sum(q) = %lld", path,
                 nrG, m);
  if (!rc) rc = read_equalities(f, path, n, out, &p, err);
  H5Fclose(f);
  if (!rc) rc = problem_assemble(path, n, p, l, nq, m, out, err);
  if (rc) qcp_io_problem_free(out);
  return rc;
}

// ---- public entry points (HDF5 error printing silenced for their duration) ------------------

int qcp_io_problem_write(const char *path, const qcp_problem *prob, qcp_error *err) {
  hdf5_handler h = hdf5_quiet();
  int rc = problem_write(path, prob, err);
  hdf5_restore(h);
  return rc;
}

int qcp_io_solution_write(const char *path, const qcp_problem *prob, const double *x,
                          const double *s, const double *y, const double *z, const qcp_info *info,
                          const qcp_check_result *chk, qcp_error *err) {
  hdf5_handler h = hdf5_quiet();
  int rc = solution_write(path, prob, x, s, y, z, info, chk, err);
  hdf5_restore(h);
  return rc;
}

int qcp_io_problem_read(const char *path, qcp_io_problem *out, qcp_error *err) {
  hdf5_handler h = hdf5_quiet();
  int rc = problem_read(path, out, err);
  hdf5_restore(h);
  return rc;
}
