// SPDX-License-Identifier: MIT
// HDF5 results: round trip of cases, series and statistics; every provenance key present;
// atomic writing (nothing at the path until commit; abort leaves nothing); bad files refused.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xp/xp.h"
#include "xp/xp_file.h"

#include "cli_test_util.h"

static int setup(void **state) {
  (void)state;
  return test_dir_create("results");
}

static int teardown(void **state) {
  (void)state;
  return test_dir_remove();
}

static const xp_param_def defs[] = {
    {"h", XP_REAL_LIST, "1e-5,1e-2", XP_POSITIVE, "s", NULL, "steps"},
    {"contact", XP_STRING, "coulomb", XP_ANY, "", NULL, "formulation"},
};

// Long on purpose: one file written and read back, every kind of entry checked in turn.
static void test_round_trip(void **state) {
  (void)state;
  char path[300], partial[320];
  snprintf(path, sizeof path, "%s/run.h5", test_dir);
  snprintf(partial, sizeof partial, "%s.partial", path);
  xp_params p;
  xp_error err = {.code = 0};
  xp_params_init(&p, defs, 2, &err);
  char *argv[] = {"stabcon", "run", "smd_explicit"};
  xp_results *r = xp_results_create(path, xp_experiment_find("smd_explicit"), &p, 3, argv, &err);
  assert_non_null(r);
  // nothing appears at the final path before commit
  assert_int_not_equal(access(path, F_OK), 0);
  assert_int_equal(access(partial, F_OK), 0);

  const double t[5] = {0, 0.1, 0.2, 0.3, 0.4}, x[5] = {1, -1e-300, 1e300, 0.5, 1.0 / 3};
  const double nan_data[3] = {NAN, NAN, NAN};
  xp_case *c = xp_case_begin(r, "first");
  xp_case_param_real(c, "h", 0.1, "s");
  xp_case_param_string(c, "scheme", "explicit");
  xp_case_series(c, "t", "s", t, 5);
  xp_case_series(c, "x", "m", x, 5);
  xp_case_series(c, "short", "", x, 2);
  xp_case_stat_real(c, "growth", 1.0000449806279079, "");
  xp_case_status(c, "ok", NULL);
  assert_int_equal(xp_case_end(c), XP_OK);
  c = xp_case_begin(r, "second");
  xp_case_series(c, "x", "m", nan_data, 3);
  xp_case_status(c, "max-iterations", "solver stopped at 50 iterations");
  assert_int_equal(xp_case_end(c), XP_OK);
  assert_int_equal(xp_results_commit(r, &err), XP_OK);
  assert_int_equal(access(path, F_OK), 0);
  assert_int_not_equal(access(partial, F_OK), 0);

  xp_file *f = xp_file_open(path, &err);
  assert_non_null(f);
  const char *keys[] = {"format_version",
                        "stabcon_version",
                        "git_sha",
                        "git_dirty",
                        "compiler",
                        "build_options",
                        "sundials_version",
                        "gsl_version",
                        "hdf5_version",
                        "host",
                        "cpu",
                        "utc_time",
                        "command_line",
                        "experiment",
                        "paper_ref"};
  char value[4096];
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    if (xp_file_attr(f, keys[i], value, sizeof value) != 0) print_error("missing %s\n", keys[i]);
    assert_int_equal(xp_file_attr(f, keys[i], value, sizeof value), 0);
    assert_true(strlen(value) > 0);
  }
  xp_file_attr(f, "command_line", value, sizeof value);
  assert_string_equal(value, "stabcon run smd_explicit");
  assert_int_equal(xp_file_param(f, "h", value, sizeof value), 0);
  assert_string_equal(value, "1e-5,1e-2");
  assert_int_equal(xp_file_param(f, "contact", value, sizeof value), 0);
  assert_string_equal(value, "coulomb");

  assert_int_equal(xp_file_case_count(f), 2);
  assert_string_equal(xp_file_case_name(f, 0), "first");  // creation order
  assert_string_equal(xp_file_case_name(f, 1), "second");
  xp_file_case_status(f, "first", value, sizeof value);
  assert_string_equal(value, "ok");
  xp_file_case_status(f, "second", value, sizeof value);
  assert_string_equal(value, "max-iterations");
  double *data = NULL;
  assert_int_equal(xp_file_series_read(f, "first", "x", &data), 5);
  assert_memory_equal(data, x, sizeof x);  // bit-exact
  free(data);
  assert_int_equal(xp_file_series_read(f, "second", "x", &data), 3);
  assert_true(isnan(data[0]) && isnan(data[2]));
  free(data);
  double v;
  assert_int_equal(xp_file_case_stat(f, "first", "growth", &v), 0);
  assert_true(v == 1.0000449806279079);
  assert_int_equal(xp_file_case_param(f, "first", "h", &v), 0);
  assert_true(v == 0.1);
  assert_int_equal(xp_file_series_read(f, "first", "nope", &data), -1);

  // CSV: the series sharing the first series' length, header first
  FILE *csv = tmpfile();
  size_t groups = 0;
  assert_int_equal(xp_file_export_case_csv(f, "first", 0, csv, &groups, &err), XP_OK);
  assert_int_equal(groups, 2);
  rewind(csv);
  char line[256];
  assert_non_null(fgets(line, sizeof line, csv));
  assert_string_equal(line, "t,x\n");
  assert_non_null(fgets(line, sizeof line, csv));
  assert_string_equal(line, "0,1\n");
  fclose(csv);
  csv = tmpfile();
  assert_int_equal(xp_file_export_summary_csv(f, csv, &err), XP_OK);
  rewind(csv);
  assert_non_null(fgets(line, sizeof line, csv));
  assert_string_equal(line, "case,status,h,scheme,growth\n");
  fclose(csv);
  assert_int_equal(xp_file_export_case_csv(f, "missing", 0, stdout, NULL, &err), XP_ERR_USAGE);
  assert_non_null(strstr(err.message, "missing"));
  xp_file_close(f);
}

static void test_abort_leaves_nothing(void **state) {
  (void)state;
  char path[300], partial[320];
  snprintf(path, sizeof path, "%s/aborted.h5", test_dir);
  snprintf(partial, sizeof partial, "%s.partial", path);
  xp_error err;
  xp_results *r = xp_results_create(path, xp_experiment_find("smd_explicit"), NULL, 0, NULL, &err);
  assert_non_null(r);
  xp_case *c = xp_case_begin(r, "a");
  xp_case_status(c, "ok", NULL);
  xp_results_abort(r);
  assert_int_not_equal(access(path, F_OK), 0);
  assert_int_not_equal(access(partial, F_OK), 0);
}

static void test_unwritable_path(void **state) {
  (void)state;
  xp_error err = {.code = 0};
  xp_results *r = xp_results_create("/nonexistent-dir/x.h5", xp_experiment_find("smd_explicit"),
                                    NULL, 0, NULL, &err);
  assert_null(r);
  assert_non_null(strstr(err.message, "/nonexistent-dir/x.h5"));
}

static void test_bad_files_refused(void **state) {
  (void)state;
  xp_error err = {.code = 0};
  char path[300];
  assert_null(xp_file_open("/nonexistent-file.h5", &err));
  assert_non_null(strstr(err.message, "no such file"));
  // garbage bytes
  snprintf(path, sizeof path, "%s/garbage.h5", test_dir);
  FILE *g = fopen(path, "w");
  fputs("this is not HDF5\n", g);
  fclose(g);
  assert_null(xp_file_open(path, &err));
  assert_non_null(strstr(err.message, "not an HDF5 file"));
  // a valid HDF5 file that is not a results file
  snprintf(path, sizeof path, "%s/other.h5", test_dir);
  hid_t h = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  H5Fclose(h);
  assert_null(xp_file_open(path, &err));
  assert_non_null(strstr(err.message, "not a stabcon results file"));
  // a truncated results file
  char good[300];
  snprintf(good, sizeof good, "%s/good.h5", test_dir);
  xp_results *r = xp_results_create(good, xp_experiment_find("smd_explicit"), NULL, 0, NULL, &err);
  xp_case *c = xp_case_begin(r, "a");
  double x[1000] = {0};
  xp_case_series(c, "x", "", x, 1000);
  xp_case_end(c);
  assert_int_equal(xp_results_commit(r, &err), XP_OK);
  assert_int_equal(truncate(good, 1500), 0);
  assert_null(xp_file_open(good, &err));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_trip),
      cmocka_unit_test(test_abort_leaves_nothing),
      cmocka_unit_test(test_unwritable_path),
      cmocka_unit_test(test_bad_files_refused),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
