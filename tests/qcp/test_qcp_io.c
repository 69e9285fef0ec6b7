// SPDX-License-Identifier: MIT
// HDF5 problem/solution files: round trip, and bad files (wrong sizes, non-upper-triangular P,
// unsorted indices, NaN, out-of-range indices, missing pieces, not HDF5) → a clear error.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>
#include <cmocka.h>

#include "qcp/qcp.h"
#include "qcp/qcp_io.h"
#include "qcp_gen.h"

static void write_valid(const char *path, qcp_gen *g) {
  qcp_error err;
  int rc = qcp_io_problem_write(path, &g->prob, &err);
  if (rc) print_error("write: %s\n", err.message);
  assert_int_equal(rc, QCP_OK);
}

static void test_roundtrip(void **state) {
  (void)state;
  qcp_gen g;
  assert_int_equal(qcp_gen_stack(&g, 10, 0.5, 2, 0), 0);
  write_valid("qcp_io_roundtrip.h5", &g);
  qcp_io_problem rp;
  qcp_error err;
  assert_int_equal(qcp_io_problem_read("qcp_io_roundtrip.h5", &rp, &err), QCP_OK);
  const qcp_problem *a = &g.prob, *b = &rp.prob;
  assert_int_equal(a->n, b->n);
  assert_int_equal(a->p, b->p);
  assert_int_equal(a->l, b->l);
  assert_int_equal(a->nsoc, b->nsoc);
  assert_memory_equal(a->q, b->q, (size_t)a->nsoc * sizeof *a->q);
  assert_memory_equal(a->G.values, b->G.values, (size_t)a->G.colptr[a->n] * sizeof(double));
  assert_memory_equal(a->A.rowind, b->A.rowind, (size_t)a->A.colptr[a->n] * sizeof(int));
  assert_memory_equal(a->c, b->c, (size_t)a->n * sizeof(double));
  // solve the read problem and write a solution file
  qcp_workspace *ws;
  assert_int_equal(qcp_setup(&ws, b, NULL, &err), QCP_OK);
  assert_int_equal(qcp_solve(ws, QCP_START_COLD, NULL, NULL, NULL, NULL, &err), QCP_OK);
  assert_int_equal(qcp_info_get(ws)->status, QCP_SOLVED);
  qcp_check_result cr;
  qcp_check(b, qcp_solution_x(ws), qcp_solution_s(ws), qcp_solution_y(ws), qcp_solution_z(ws), &cr);
  assert_int_equal(
      qcp_io_solution_write("qcp_io_solution.h5", b, qcp_solution_x(ws), qcp_solution_s(ws),
                            qcp_solution_y(ws), qcp_solution_z(ws), qcp_info_get(ws), &cr, &err),
      QCP_OK);
  hid_t f = H5Fopen("qcp_io_solution.h5", H5F_ACC_RDONLY, H5P_DEFAULT);
  assert_true(f >= 0);
  assert_true(H5Aexists(f, "status") > 0 && H5Aexists(f, "check_pres_rel") > 0);
  H5Fclose(f);
  qcp_workspace_free(ws);
  qcp_io_problem_free(&rp);
  // a problem without equalities and with an empty cone list round-trips too
  double P[4] = {1, 0, 0, 1}, G[4] = {1, 0, 0, 1}, h[2] = {1, 1}, c[2] = {-1, -1};
  qcp_gen d;
  assert_int_equal(qcp_gen_dense(&d, 2, 0, 2, 0, NULL, P, NULL, G, c, NULL, h), 0);
  write_valid("qcp_io_noeq.h5", &d);
  assert_int_equal(qcp_io_problem_read("qcp_io_noeq.h5", &rp, &err), QCP_OK);
  assert_int_equal(rp.prob.p, 0);
  assert_int_equal(rp.prob.nsoc, 0);
  qcp_io_problem_free(&rp);
  qcp_gen_free(&d);
  qcp_gen_free(&g);
  remove("qcp_io_roundtrip.h5");
  remove("qcp_io_solution.h5");
  remove("qcp_io_noeq.h5");
}

// replaces dataset `name` in the file by `len` values of the given type
static void replace(const char *path, const char *name, hid_t type, const void *data, hsize_t len) {
  hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
  assert_true(f >= 0);
  if (H5Lexists(f, name, H5P_DEFAULT) > 0) H5Ldelete(f, name, H5P_DEFAULT);
  hid_t sp = H5Screate_simple(1, &len, NULL);
  hid_t ds = H5Dcreate2(f, name, type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  assert_true(ds >= 0);
  if (len) assert_true(H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0);
  H5Dclose(ds);
  H5Sclose(sp);
  H5Fclose(f);
}

// the file must be rejected with `code` and a message containing `needle`
static void expect_error(const char *path, int code, const char *needle) {
  qcp_io_problem rp;
  qcp_error err = {0, ""};
  int rc = qcp_io_problem_read(path, &rp, &err);
  printf("  %-40s -> %s\n", needle, err.message);
  if (rc != code || !strstr(err.message, needle)) {
    print_error("expected code %d with '%s', got %d: %s\n", code, needle, rc, err.message);
    fail();
  }
  assert_null(rp.prob.c);
}

static void test_bad_files(void **state) {
  (void)state;
  // base: x ∈ R³, P = [2 1 0; 1 2 0; 0 0 1] (upper), G = I (3 orthant rows)
  double P[9] = {2, 1, 0, 1, 2, 0, 0, 0, 1}, G[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  double h[3] = {1, 1, 1}, c[3] = {1, 2, 3};
  qcp_gen d;
  assert_int_equal(qcp_gen_dense(&d, 3, 0, 3, 0, NULL, P, NULL, G, c, NULL, h), 0);
  const char *path = "qcp_io_bad.h5";
  // wrong size of c
  write_valid(path, &d);
  double c4[4] = {1, 2, 3, 4};
  replace(path, "c", H5T_NATIVE_DOUBLE, c4, 4);
  expect_error(path, QCP_ERR_INPUT, "dataset 'c' has 4 entries, expected 3");
  // wrong colptr length
  write_valid(path, &d);
  int64_t cp3[3] = {0, 1, 2};
  replace(path, "G/colptr", H5T_NATIVE_INT64, cp3, 3);
  expect_error(path, QCP_ERR_INPUT, "G/colptr has 3 entries");
  // non-upper-triangular P: entry (1, 0)
  write_valid(path, &d);
  int64_t pri[4] = {0, 1, 1, 2};  // columns: {0,1}, {1}, {2} with colptr 0,2,3,4
  int64_t pcp[4] = {0, 2, 3, 4};
  double pv[4] = {2, 1, 2, 1};
  replace(path, "P/colptr", H5T_NATIVE_INT64, pcp, 4);
  replace(path, "P/rowind", H5T_NATIVE_INT64, pri, 4);
  replace(path, "P/values", H5T_NATIVE_DOUBLE, pv, 4);
  expect_error(path, QCP_ERR_INPUT, "not upper triangular");
  // unsorted row indices in G
  write_valid(path, &d);
  int64_t gcp[4] = {0, 2, 2, 3}, gri[3] = {1, 0, 2};
  double gv[3] = {1, 1, 1};
  replace(path, "G/colptr", H5T_NATIVE_INT64, gcp, 4);
  replace(path, "G/rowind", H5T_NATIVE_INT64, gri, 3);
  replace(path, "G/values", H5T_NATIVE_DOUBLE, gv, 3);
  expect_error(path, QCP_ERR_INPUT, "not strictly increasing");
  // NaN in h
  write_valid(path, &d);
  double hn[3] = {1, NAN, 1};
  replace(path, "h", H5T_NATIVE_DOUBLE, hn, 3);
  expect_error(path, QCP_ERR_INPUT, "h entry 1 is not finite");
  // NaN in P values
  write_valid(path, &d);
  double pn[4] = {2, 1, NAN, 1};
  replace(path, "P/values", H5T_NATIVE_DOUBLE, pn, 4);
  expect_error(path, QCP_ERR_INPUT, "not finite");
  // row index out of range
  write_valid(path, &d);
  int64_t gbig[3] = {0, 1, 7};
  replace(path, "G/rowind", H5T_NATIVE_INT64, gbig, 3);
  expect_error(path, QCP_ERR_INPUT, "G/rowind[2] = 7 outside 0..2");
  // b without A
  write_valid(path, &d);
  double b1[1] = {1};
  replace(path, "b", H5T_NATIVE_DOUBLE, b1, 1);
  expect_error(path, QCP_ERR_INPUT, "group A is missing");
  // missing dataset
  write_valid(path, &d);
  hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
  H5Ldelete(f, "h", H5P_DEFAULT);
  H5Fclose(f);
  expect_error(path, QCP_ERR_INPUT, "cannot open dataset 'h'");
  // not an HDF5 file, and no file at all
  FILE *t = fopen(path, "w");
  fputs("not hdf5\n", t);
  fclose(t);
  expect_error(path, QCP_ERR_INPUT, "is not an HDF5 file");
  remove(path);
  expect_error("qcp_io_does_not_exist.h5", QCP_ERR_IO, "cannot open problem file");
  qcp_gen_free(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_roundtrip),
      cmocka_unit_test(test_bad_files),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
