// SPDX-License-Identifier: MIT
// The structure of a MATLAB v5 problem file, checked before libmatio parses any of it
// (qcp_mat.c reads the values afterwards and checks them: qcp_mm_check). The format is MathWorks'
// "MAT-File Format" (level 5): a 128-byte header, then one data element per variable, either a
// miMATRIX or a zlib stream (miCOMPRESSED) holding one.
//
// A valid problem file, as this scan sees it:
//  * a regular file with a level-5 header (text "MATLAB 5.0 MAT-file", version 0x0100, either byte
//    order); the HDF5-based v7.3 files are not read;
//  * at most QCP_MAT_MAX_VARS variables with distinct names, each one element that ends inside
//    the file (a compressed one inflates to exactly its declared size, and declares no more than
//    QCP_MAT_MAX_RATIO bytes per stored byte, deflate's limit);
//  * every variable a numeric, logical, char or sparse array: cells, structs, objects and function
//    handles are refused before anything recurses into them, so nothing is nested (depth 1);
//  * a double or sparse variable is real (no imaginary part), of rank 2, and stores exactly what
//    its dimensions declare: prod(dims) values for a dense array; ncols + 1 column pointers, and no
//    more row indices than the element holds, for a sparse one.
// The values themselves (CSC order, row ranges, finiteness, bounds) are checked after reading,
// by the same rules as the HDF5 problem reader (qcp_mm_check in qcp_mat.c).
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "qcp_internal.h"
#include "qcp_mat_scan.h"

enum { MI_INT8 = 1, MI_UINT32 = 6, MI_DOUBLE = 9, MI_INT32 = 5, MI_MATRIX = 14, MI_COMPRESSED };
enum { MX_CELL = 1, MX_STRUCT, MX_OBJECT, MX_CHAR, MX_SPARSE, MX_DOUBLE, MX_UINT64 = 15 };

typedef struct mat_scan {
  const char *path;
  int swap;  // the file's byte order differs from ours
  qcp_error *err;
  int nvars;
  char names[QCP_MAT_MAX_VARS][QCP_MAT_NAME_MAX];
} mat_scan;

// a data element: its type, payload and the bytes it occupies with padding
typedef struct mat_elem {
  uint32_t type, nbytes;
  const unsigned char *data;
  size_t total;
} mat_elem;

static uint32_t get32(const mat_scan *s, const unsigned char *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return s->swap ? __builtin_bswap32(v) : v;
}

// bytes per value of a numeric element type (0 for anything else)
static size_t type_size(uint32_t t) {
  static const size_t size[] = {0, 1, 1, 2, 2, 4, 4, 4, 0, 8, 0, 0, 8, 8};
  return t < sizeof size / sizeof *size ? size[t] : 0;
}

static int type_is_integer(uint32_t t) { return type_size(t) && t != 7 && t != MI_DOUBLE; }

// the element at p within avail bytes (padded to 8 bytes when `padded`); -1 if it does not fit
static int elem_at(const mat_scan *s, const unsigned char *p, size_t avail, int padded,
                   mat_elem *e) {
  if (avail < 8) return -1;
  uint32_t w = get32(s, p);
  if (w >> 16) {  // small element: ≤ 4 bytes packed into the tag
    e->type = w & 0xffffu, e->nbytes = w >> 16, e->data = p + 4, e->total = 8;
    return e->nbytes <= 4 ? 0 : -1;
  }
  e->type = w, e->nbytes = get32(s, p + 4), e->data = p + 8;
  if (e->nbytes > avail - 8) return -1;
  size_t len = 8 + (size_t)e->nbytes;
  e->total = padded ? ((len + 7) & ~(size_t)7) : len;
  if (e->total > avail) e->total = avail;  // the last element may lack its padding
  return 0;
}

static const char *class_name(uint32_t cls) {
  static const char *names[] = {"?",      "cell array",      "struct",       "object", "char",
                                "sparse", "double",          "single",       "int8",   "uint8",
                                "int16",  "uint16",          "int32",        "uint32", "int64",
                                "uint64", "function handle", "opaque object"};
  return cls < sizeof names / sizeof *names ? names[cls] : "unknown class";
}

// the element after *off inside (p, len), of type `want` (0: any numeric); -1 with a message
static int sub_elem(mat_scan *s, const unsigned char *p, size_t len, size_t *off, uint32_t want,
                    const char *name, const char *what, mat_elem *e) {
  if (*off >= len || elem_at(s, p + *off, len - *off, 1, e))
    return qcp_fail(s->err, QCP_ERR_INPUT, "%s: variable %s: %s missing or past its end", s->path,
                    name, what);
  *off += e->total;
  if (want ? e->type != want : !type_size(e->type))
    return qcp_fail(s->err, QCP_ERR_INPUT, "%s: variable %s: %s has element type %u", s->path, name,
                    what, (unsigned)e->type);
  return 0;
}

// number of values of a numeric element (whose size is a multiple of its type's)
static int elem_count(mat_scan *s, const mat_elem *e, const char *name, const char *what,
                      uint64_t *count) {
  size_t sz = type_size(e->type);
  if (!sz || e->nbytes % sz)
    return qcp_fail(s->err, QCP_ERR_INPUT, "%s: variable %s: %s holds %u bytes, not whole values",
                    s->path, name, what, (unsigned)e->nbytes);
  *count = e->nbytes / sz;
  return 0;
}

// a sparse variable's ir, jc and pr: jc has ncols + 1 entries, pr no more than ir
static int scan_sparse(mat_scan *s, const unsigned char *p, size_t len, size_t off,
                       const char *name, uint64_t ncols) {
  mat_elem ir, jc, pr;
  uint64_t nir = 0, njc = 0, npr = 0;
  if (sub_elem(s, p, len, &off, 0, name, "row indices", &ir) ||
      elem_count(s, &ir, name, "row indices", &nir) ||
      sub_elem(s, p, len, &off, 0, name, "column pointers", &jc) ||
      elem_count(s, &jc, name, "column pointers", &njc) ||
      sub_elem(s, p, len, &off, 0, name, "values", &pr) || elem_count(s, &pr, name, "values", &npr))
    return -1;
  if (!type_is_integer(ir.type) || !type_is_integer(jc.type))
    return qcp_fail(s->err, QCP_ERR_INPUT, "%s: variable %s: indices are not integers", s->path,
                    name);
  if (njc != ncols + 1)
    return qcp_fail(s->err, QCP_ERR_INPUT,
                    "%s: variable %s has %llu column pointers, expected ncols + 1 = %llu", s->path,
                    name, (unsigned long long)njc, (unsigned long long)ncols + 1);
  if (npr > nir)
    return qcp_fail(s->err, QCP_ERR_INPUT, "%s: variable %s has %llu values but %llu row indices",
                    s->path, name, (unsigned long long)npr, (unsigned long long)nir);
  return 0;
}

// the header of one variable (p, len = a miMATRIX payload) and, for double and sparse arrays,
// what it stores
static int scan_matrix(mat_scan *s, const unsigned char *p, size_t len) {
  size_t off = 0;
  mat_elem flags = {0}, dims = {0}, name = {0};
  const char *where = "a variable";
  if (sub_elem(s, p, len, &off, MI_UINT32, where, "array flags", &flags) ||
      sub_elem(s, p, len, &off, MI_INT32, where, "dimensions", &dims) ||
      sub_elem(s, p, len, &off, MI_INT8, where, "name", &name))
    return -1;
  if (flags.nbytes != 8 || dims.nbytes < 8 || dims.nbytes % 4 || name.nbytes == 0 ||
      name.nbytes >= QCP_MAT_NAME_MAX)
    return qcp_fail(s->err, QCP_ERR_INPUT,
                    "%s: variable %d: malformed header (flags, dimensions or name)", s->path,
                    s->nvars + 1);
  char nm[QCP_MAT_NAME_MAX];
  for (uint32_t k = 0; k < name.nbytes; k++) {
    nm[k] = (char)name.data[k];
    if (name.data[k] < 0x21 || name.data[k] > 0x7e)
      return qcp_fail(s->err, QCP_ERR_INPUT, "%s: variable %d: name is not printable ASCII",
                      s->path, s->nvars + 1);
  }
  nm[name.nbytes] = '\0';
  for (int v = 0; v < s->nvars; v++)
    if (!strcmp(s->names[v], nm))
      return qcp_fail(s->err, QCP_ERR_INPUT, "%s: variable %s appears twice", s->path, nm);
  if (s->nvars == QCP_MAT_MAX_VARS)
    return qcp_fail(s->err, QCP_ERR_INPUT, "%s: more than %d variables", s->path, QCP_MAT_MAX_VARS);
  memcpy(s->names[s->nvars++], nm, name.nbytes + 1);
  uint32_t cls = get32(s, flags.data) & 0xffu, cplx = get32(s, flags.data) & 0x800u;
  if (cls < MX_CHAR || cls > MX_UINT64)
    return qcp_fail(s->err, QCP_ERR_INPUT,
                    "%s: variable %s is a %s (a problem file holds numeric arrays only)", s->path,
                    nm, class_name(cls));
  if (cls != MX_DOUBLE && cls != MX_SPARSE) return 0;  // not read: only its extent matters
  uint32_t rank = dims.nbytes / 4;
  uint64_t prod = 1, d[2] = {0, 0};
  for (uint32_t k = 0; k < rank; k++) {
    int32_t dk = (int32_t)get32(s, dims.data + 4 * k);
    if (dk < 0)
      return qcp_fail(s->err, QCP_ERR_INPUT, "%s: variable %s has dimension %d = %d", s->path, nm,
                      (int)k + 1, (int)dk);
    prod *= (uint64_t)dk;  // < 2^31 per factor; rank 2 is required below before prod is used
    if (k < 2) d[k] = (uint64_t)dk;
  }
  if (rank != 2)
    return qcp_fail(s->err, QCP_ERR_INPUT, "%s: variable %s has rank %u (expected 2)", s->path, nm,
                    (unsigned)rank);
  if (cplx) return qcp_fail(s->err, QCP_ERR_INPUT, "%s: variable %s is complex", s->path, nm);
  if (cls == MX_SPARSE) return scan_sparse(s, p, len, off, nm, d[1]);
  mat_elem re;
  uint64_t count = 0;
  if (sub_elem(s, p, len, &off, 0, nm, "values", &re) || elem_count(s, &re, nm, "values", &count))
    return -1;
  if (count != prod)
    return qcp_fail(s->err, QCP_ERR_INPUT,
                    "%s: variable %s declares %llux%llu = %llu entries but stores %llu", s->path,
                    nm, (unsigned long long)d[0], (unsigned long long)d[1],
                    (unsigned long long)prod, (unsigned long long)count);
  return 0;
}

// inflates one miCOMPRESSED payload (z, zlen) into a fresh buffer holding exactly one element
static int scan_compressed(mat_scan *s, const unsigned char *z, size_t zlen, size_t at) {
  unsigned char tag[8];
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  if (inflateInit(&zs) != Z_OK)
    return qcp_fail(s->err, QCP_ERR_ALLOC, "%s: cannot start zlib", s->path);
  zs.next_in = (unsigned char *)(uintptr_t)z, zs.avail_in = (uInt)zlen;
  zs.next_out = tag, zs.avail_out = 8;
  int zr = inflate(&zs, Z_SYNC_FLUSH);
  unsigned char *buf = NULL;
  int rc = 0;
  if ((zr != Z_OK && zr != Z_STREAM_END) || zs.avail_out) {
    rc = qcp_fail(s->err, QCP_ERR_INPUT, "%s: compressed variable at byte %zu does not inflate",
                  s->path, at);
  } else if (get32(s, tag) != MI_MATRIX) {
    rc = qcp_fail(s->err, QCP_ERR_INPUT,
                  "%s: compressed element at byte %zu holds element type %u, not an array", s->path,
                  at, (unsigned)get32(s, tag));
  } else {
    double declared = get32(s, tag + 4), bound = QCP_MAT_MAX_RATIO * (double)zlen + 65536.0;
    uInt n = get32(s, tag + 4);
    if (declared > bound)
      rc = qcp_fail(s->err, QCP_ERR_INPUT,
                    "%s: compressed variable at byte %zu declares %.0f bytes but stores %zu "
                    "(more than deflate can expand)",
                    s->path, at, declared, zlen);
    else if (!(buf = malloc((size_t)n + 1)))
      rc = qcp_fail(s->err, QCP_ERR_ALLOC, "%s: out of memory inflating a variable", s->path);
    if (!rc) {
      zs.next_out = buf, zs.avail_out = n + 1;  // one spare byte detects a longer stream
      zr = zr == Z_STREAM_END ? Z_STREAM_END : inflate(&zs, Z_FINISH);
      if (zr != Z_STREAM_END || zs.total_out != 8 + (uLong)n)
        rc = qcp_fail(s->err, QCP_ERR_INPUT,
                      "%s: compressed variable at byte %zu inflates to %lu bytes, declared %lu",
                      s->path, at, (unsigned long)zs.total_out, 8 + (unsigned long)n);
    }
    if (!rc) rc = scan_matrix(s, buf, n);
  }
  inflateEnd(&zs);
  free(buf);
  return rc;
}

static int scan_body(mat_scan *s, const unsigned char *f, size_t len) {
  if (len < 128 || memcmp(f, "MATLAB 5.0 MAT-file", 19) != 0)
    return qcp_fail(s->err, QCP_ERR_INPUT,
                    "%s: not a MATLAB 5 file (%zu bytes; the HDF5-based v7.3 format is not read)",
                    s->path, len);
  int file_le = f[126] == 'I' && f[127] == 'M';
  if (!file_le && !(f[126] == 'M' && f[127] == 'I'))
    return qcp_fail(s->err, QCP_ERR_INPUT, "%s: no byte-order mark in the MATLAB header", s->path);
  const uint16_t one = 1;
  s->swap = file_le != (*(const unsigned char *)&one == 1);
  unsigned version = file_le ? (unsigned)(f[124] | f[125] << 8) : (unsigned)(f[124] << 8 | f[125]);
  if (version != 0x0100)
    return qcp_fail(s->err, QCP_ERR_INPUT, "%s: MATLAB file version 0x%04x (0x0100 is read)",
                    s->path, version);
  for (size_t off = 128; off < len;) {
    mat_elem e;
    if (elem_at(s, f + off, len - off, 0, &e))
      return qcp_fail(s->err, QCP_ERR_INPUT, "%s: element at byte %zu runs past the end (%zu)",
                      s->path, off, len);
    int rc = e.type == MI_MATRIX       ? scan_matrix(s, e.data, e.nbytes)
             : e.type == MI_COMPRESSED ? scan_compressed(s, e.data, e.nbytes, off)
                                       : qcp_fail(s->err, QCP_ERR_INPUT,
                                                  "%s: element at byte %zu has type %u (not a "
                                                  "variable)",
                                                  s->path, off, (unsigned)e.type);
    if (rc) return rc;
    off += e.total;
  }
  return 0;
}

int qcp_mat_scan(const char *path, qcp_error *err) {
  mat_scan *s = calloc(1, sizeof *s);
  if (!s) return qcp_fail(err, QCP_ERR_ALLOC, "%s: out of memory", path);
  s->path = path, s->err = err;
  struct stat st;
  FILE *f = NULL;
  unsigned char *buf = NULL;
  int rc = 0;
  if (stat(path, &st) != 0)
    rc = qcp_fail(err, QCP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  else if (!S_ISREG(st.st_mode))
    rc = qcp_fail(err, QCP_ERR_IO, "%s: not a regular file", path);
  else if (!(f = fopen(path, "rb")))
    rc = qcp_fail(err, QCP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  else if (st.st_size == 0)
    rc = qcp_fail(err, QCP_ERR_INPUT, "%s: empty file (not a MATLAB problem file)", path);
  else if (!(buf = malloc((size_t)st.st_size)))
    rc = qcp_fail(err, QCP_ERR_ALLOC, "%s: out of memory reading %lld bytes", path,
                  (long long)st.st_size);
  else if (fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size)
    rc = qcp_fail(err, QCP_ERR_IO, "%s: read error", path);
  else
    rc = scan_body(s, buf, (size_t)st.st_size);
  if (f) fclose(f);
  free(buf);
  free(s);
  return rc;
}
