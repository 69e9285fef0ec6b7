// SPDX-License-Identifier: MIT
// Hostile MATLAB problem files: sparse matrices whose structure lies (column pointers short,
// backwards, past the entries, not starting at 0), vectors that declare more than they store,
// NaN and wrongly signed infinite bounds, sizes that claim gigabytes, cells nested 30000 deep,
// an empty file and a directory. Each file is written here from a small valid QP (n = 2, m = 1)
// and must be refused by `qcp solve` with exit 2, a message naming the variable, within 60 s.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
// cmocka.h needs the four headers above first
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <zlib.h>
#include <cmocka.h>

#include "cli_test_util.h"
#include "hostile_util.h"

// ---- a minimal level-5 MAT writer (little endian, uncompressed unless asked) ------------------

typedef struct sub {
  uint32_t type;  // 5 int32, 9 double
  const void *data;
  uint32_t nbytes;
} sub;

static size_t pad8(size_t n) { return (n + 7) & ~(size_t)7; }

static void w32(FILE *f, uint32_t v) { fwrite(&v, 4, 1, f); }

static void wpad(FILE *f, size_t n) {
  static const char zero[8];
  fwrite(zero, 1, pad8(n) - n, f);
}

static void mat_header(FILE *f) {
  char head[128];
  memset(head, ' ', sizeof head);
  memcpy(head, "MATLAB 5.0 MAT-file, written by the hostile-input tests", 55);
  memset(head + 116, 0, 8);
  head[124] = 0x00, head[125] = 0x01, head[126] = 'I', head[127] = 'M';
  fwrite(head, 1, sizeof head, f);
}

// one variable of class cls (5 sparse, 6 double) with the given dimensions and sub-elements
static void mat_var(FILE *f, uint32_t cls, uint32_t rows, uint32_t cols, uint32_t nzmax,
                    const char *name, const sub *subs, int nsubs) {
  size_t len = strlen(name), total = 16 + 16 + 8 + pad8(len);
  for (int k = 0; k < nsubs; k++) total += 8 + pad8(subs[k].nbytes);
  w32(f, 14), w32(f, (uint32_t)total);
  w32(f, 6), w32(f, 8), w32(f, cls), w32(f, nzmax);
  w32(f, 5), w32(f, 8), w32(f, rows), w32(f, cols);
  w32(f, 1), w32(f, (uint32_t)len), fwrite(name, 1, len, f), wpad(f, len);
  for (int k = 0; k < nsubs; k++) {
    w32(f, subs[k].type), w32(f, subs[k].nbytes);
    fwrite(subs[k].data, 1, subs[k].nbytes, f), wpad(f, subs[k].nbytes);
  }
}

static void mat_dense(FILE *f, const char *name, uint32_t rows, const double *v, uint32_t stored) {
  sub s = {9, v, 8 * stored};
  mat_var(f, 6, rows, 1, 0, name, &s, 1);
}

typedef struct csc {
  uint32_t jc[4], ir[4];
  double pr[4];
  uint32_t njc, nnz;
} csc;

static void mat_sparse(FILE *f, const char *name, uint32_t rows, uint32_t cols, const csc *m) {
  sub s[3] = {{5, m->ir, 4 * m->nnz}, {5, m->jc, 4 * m->njc}, {9, m->pr, 8 * m->nnz}};
  mat_var(f, 5, rows, cols, m->nnz, name, s, 3);
}

// the QP min x1² + x2² + x1 + x2 s.t. x1 + x2 >= 1 (P = 2I, A = [1 1], l = 1, u = +inf)
typedef struct qp {
  double q[2], l, u;
  uint32_t q_rows, q_stored;
  csc P, A;
} qp;

static qp qp_valid(void) {
  return (qp){.q = {1, 1},
              .l = 1,
              .u = 1e20,
              .q_rows = 2,
              .q_stored = 2,
              .P = {{0, 1, 2}, {0, 1}, {2, 2}, 3, 2},
              .A = {{0, 1, 2}, {0, 0}, {1, 1}, 3, 2}};
}

static void write_qp(const char *name, const qp *p) {
  char path[600];
  test_path(path, sizeof path, name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  mat_header(f);
  const double two = 2, one = 1, zero = 0;
  mat_dense(f, "n", 1, &two, 1);
  mat_dense(f, "m", 1, &one, 1);
  mat_dense(f, "r", 1, &zero, 1);
  mat_dense(f, "q", p->q_rows, p->q, p->q_stored);
  mat_dense(f, "l", 1, &p->l, 1);
  mat_dense(f, "u", 1, &p->u, 1);
  mat_sparse(f, "P", 2, 2, &p->P);
  mat_sparse(f, "A", 1, 2, &p->A);
  assert_int_equal(fclose(f), 0);
}

// `qcp solve name` exits 2 within 60 s and says every fragment; the file is left as it was
static void assert_mat_refused(const char *name, const char *first, ...) {
  file_state before = hostile_state(name);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int rc = test_run((const char *[]){"qcp", "solve", name, NULL});
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  printf("  qcp solve %s -> exit %d in %.2f s: %s", name, rc, secs, test_output);
  assert_int_equal(rc, 2);
  assert_true(secs < 60);
  assert_true(hostile_says("qcp solve: ", NULL));
  assert_null(strstr(test_output, "bench maros"));
  va_list ap;
  va_start(ap, first);
  for (const char *s = first; s; s = va_arg(ap, const char *)) assert_true(hostile_says(s, NULL));
  va_end(ap);
  assert_true(hostile_unchanged(name, &before));
}

// the valid file is solved: the refusals below are about what was changed
static void test_valid_file_solves(void **state) {
  (void)state;
  qp p = qp_valid();
  write_qp("ok.mat", &p);
  assert_int_equal(test_run((const char *[]){"qcp", "solve", "ok.mat", NULL}), 0);
  assert_true(hostile_says("result      pass", NULL));
}

// The sparse structure is checked before any entry is used
static void test_sparse_structure(void **state) {
  (void)state;
  qp p = qp_valid();
  p.P.njc = 2;  // one column pointer short
  write_qp("short.mat", &p);
  assert_mat_refused("short.mat", "P has 2 column pointers, expected ncols + 1 = 3", NULL);
  p = qp_valid();
  p.A.jc[1] = 2, p.A.jc[2] = 1;  // backwards: overlapping columns
  write_qp("back.mat", &p);
  assert_mat_refused("back.mat", "A column pointer 1 = 2 past the 1 entries", NULL);
  p = qp_valid();
  p.P.jc[2] = 7;  // past the stored entries
  write_qp("past.mat", &p);
  assert_mat_refused("past.mat", "P column pointers run from 0 to 7", NULL);
  p = qp_valid();
  p.P.jc[0] = 1;  // not starting at 0: entries silently dropped before
  write_qp("start.mat", &p);
  assert_mat_refused("start.mat", "P column pointers run from 1", NULL);
  p = qp_valid();
  p.P.ir[1] = 5;  // a row outside the matrix
  write_qp("row.mat", &p);
  assert_mat_refused("row.mat", "P row index 1 = 5 outside 0..1", NULL);
  p = qp_valid();
  p.A.jc[1] = 2, p.A.jc[2] = 2, p.A.ir[1] = 0;  // the same row twice in one column
  write_qp("twice.mat", &p);
  assert_mat_refused("twice.mat", "A column 0 holds a row twice", NULL);
  p = qp_valid();
  p.P.pr[0] = 3;  // P(1,1) = 3, P(2,2) = 2: still symmetric; make it not
  p.P.jc[1] = 2, p.P.ir[1] = 1, p.P.pr[1] = 1;  // P(2,1) = 1 without P(1,2)
  write_qp("asym.mat", &p);
  assert_mat_refused("asym.mat", "P is not symmetric", NULL);
}

// A vector must store what it declares
static void test_vector_short(void **state) {
  (void)state;
  qp p = qp_valid();
  p.q_stored = 1;
  write_qp("q.mat", &p);
  assert_mat_refused("q.mat", "variable q declares 2x1 = 2 entries but stores 1", NULL);
}

// NaN bounds and infinities that mean no bound at all
static void test_bounds(void **state) {
  (void)state;
  qp p = qp_valid();
  p.l = NAN;
  write_qp("lnan.mat", &p);
  assert_mat_refused("lnan.mat", "l[0] is NaN", NULL);
  p = qp_valid();
  p.u = -1e20;
  write_qp("uneg.mat", &p);
  assert_mat_refused("uneg.mat", "u[0] = -1e+20 is -infinite", NULL);
  p = qp_valid();
  p.l = 1e20;
  write_qp("lpos.mat", &p);
  assert_mat_refused("lpos.mat", "l[0] = 1e+20 is +infinite", NULL);
  p = qp_valid();
  p.q[1] = NAN;
  write_qp("qnan.mat", &p);
  assert_mat_refused("qnan.mat", "q[1] = nan is not finite", NULL);
}

// Declared sizes are tied to the bytes present (plain and compressed)
static void test_declared_sizes(void **state) {
  (void)state;
  qp p = qp_valid();
  p.q_rows = 100000000;
  write_qp("big.mat", &p);
  assert_mat_refused("big.mat", "variable q declares 100000000x1", "but stores 2", NULL);
  // a compressed variable whose stream declares 4 GB in a few bytes
  uint32_t tag[2] = {14, 0xfffffff0u};
  unsigned char z[64];
  uLongf zn = sizeof z;
  assert_int_equal(compress2(z, &zn, (const unsigned char *)tag, sizeof tag, 9), Z_OK);
  char path[600];
  test_path(path, sizeof path, "zbomb.mat");
  FILE *f = fopen(path, "wb");
  mat_header(f);
  w32(f, 15), w32(f, (uint32_t)zn), fwrite(z, 1, zn, f);
  fclose(f);
  assert_mat_refused("zbomb.mat", "declares 4294967280 bytes", "more than deflate can expand",
                     NULL);
}

// Nested cells are refused before anything recurses into them
static void test_nested_cells(void **state) {
  (void)state;
  enum { DEPTH = 30000 };
  char path[600];
  test_path(path, sizeof path, "cells.mat");
  FILE *f = fopen(path, "wb");
  mat_header(f);
  // level k: header (48 bytes with the name "n" at the top, 40 below) then level k + 1; the
  // innermost is an empty double array
  const size_t inner = 8 + 16 + 16 + 8;
  size_t *size = malloc((DEPTH + 1) * sizeof *size);
  size[DEPTH] = inner - 8;
  for (int k = DEPTH - 1; k >= 0; k--) size[k] = 16 + 16 + (k == 0 ? 16 : 8) + 8 + size[k + 1];
  for (int k = 0; k < DEPTH; k++) {
    w32(f, 14), w32(f, (uint32_t)size[k]);
    w32(f, 6), w32(f, 8), w32(f, 1), w32(f, 0);  // class 1: cell
    w32(f, 5), w32(f, 8), w32(f, 1), w32(f, 1);
    if (k == 0)
      w32(f, 1), w32(f, 1), fwrite("n\0\0\0\0\0\0\0", 1, 8, f);
    else
      w32(f, 1), w32(f, 0);
  }
  w32(f, 14), w32(f, (uint32_t)size[DEPTH]);
  w32(f, 6), w32(f, 8), w32(f, 6), w32(f, 0);
  w32(f, 5), w32(f, 8), w32(f, 0), w32(f, 0);
  w32(f, 1), w32(f, 0);
  fclose(f);
  free(size);
  assert_mat_refused("cells.mat", "variable n is a cell array", NULL);
}

// An empty file and a directory say what they are
static void test_not_a_file(void **state) {
  (void)state;
  char path[600];
  test_path(path, sizeof path, "empty.mat");
  fclose(fopen(path, "wb"));
  assert_mat_refused("empty.mat", "empty file", NULL);
  test_path(path, sizeof path, "dir.mat");
  mkdir(path, 0755);
  assert_mat_refused("dir.mat", "not a regular file", NULL);
}

static int setup(void **state) {
  (void)state;
  return test_dir_create("hostile-mat");
}

static int teardown(void **state) {
  (void)state;
  return test_dir_remove();
}

int main(int argc, char **argv) {
  if (argc < 2 || hostile_init(argv[1]) != 0) {
    fprintf(stderr, "usage: test_hostile_mat PATH-TO-STABCON\n");
    return 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_valid_file_solves), cmocka_unit_test(test_sparse_structure),
      cmocka_unit_test(test_vector_short),      cmocka_unit_test(test_bounds),
      cmocka_unit_test(test_declared_sizes),    cmocka_unit_test(test_nested_cells),
      cmocka_unit_test(test_not_a_file),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
