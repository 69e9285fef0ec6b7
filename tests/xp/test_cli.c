// SPDX-License-Identifier: MIT
// The stabcon CLI on bad input: exit code 2, a message naming the bad value, no file left
// behind; and the good path (run → info → export) on a small case.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_test_util.h"

// number of entries in dir other than log.txt
static int files_in_dir(void) {
  char cmd[400];
  snprintf(cmd, sizeof cmd, "find '%s' -mindepth 1 ! -name log.txt | wc -l", test_dir);
  FILE *p = popen(cmd, "r");
  int n = -1;
  if (p && fscanf(p, "%d", &n) != 1) n = -1;
  if (p) pclose(p);
  return n;
}

typedef struct bad_input {
  const char *args[8];
  const char *message_part;
} bad_input;

static void test_bad_input(void **state) {
  (void)state;
  const bad_input cases[] = {
      {{"run", "no_such_experiment", "-o", "x.h5", NULL},
       "unknown experiment or scenario 'no_such_experiment'"},
      {{"run", "smd_explicit", "--set", "h=0", "-o", "x.h5", NULL}, "h=0"},
      {{"run", "smd_explicit", "--set", "h=-1e-3", "-o", "x.h5", NULL}, "h=-1e-3"},
      {{"run", "smd_explicit", "--set", "k=-5", "-o", "x.h5", NULL}, "k=-5"},
      {{"run", "smd_explicit", "--set", "b=abc", "-o", "x.h5", NULL},
       "'abc' is not a finite number"},
      {{"run", "smd_explicit", "--set", "k=NaN", "-o", "x.h5", NULL},
       "'NaN' is not a finite number"},
      {{"run", "smd_explicit", "--set", "T=inf", "-o", "x.h5", NULL},
       "'inf' is not a finite number"},
      {{"run", "smd_explicit", "--set", "mu=1", "-o", "x.h5", NULL}, "unknown parameter 'mu'"},
      {{"run", "smd_explicit", "-o", "/nonexistent-dir/x.h5", NULL}, "/nonexistent-dir/x.h5"},
      {{"run", "smd_explicit", "--bogus", NULL}, "'--bogus'"},
      {{"info", "missing.h5", NULL}, "missing.h5"},
      {{"export", "missing.h5", NULL}, "missing.h5"},
      {{"plot", "missing.h5", NULL}, "missing.h5"},
      {{"frobnicate", NULL}, "unknown command 'frobnicate'"},
      // a likely typo is named, and the message points at the experiment's own --help
      {{"run", "foundaton", NULL}, "did you mean 'foundation'?"},
      {{"run", "foundation", "--set", "e=1e9", NULL}, "unknown parameter 'e' (did you mean 'E'?)"},
      {{"run", "foundation", "--set", "e=1e9", NULL}, "`stabcon run foundation --help`"},
      {{"run", "sphere", "--set", "method=paperA-relaxd", "-o", "x.h5", NULL},
       "did you mean 'paperA-relaxed'?"},
      {{"run", "foundation", "--set", NULL}, "'--set' needs a value: --set key=value"},
      {{"run", "foundation", "--set", "h=0.01,0.005", NULL}, "not a list"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int rc = test_run(cases[i].args);
    int ok = rc == 2 && strstr(test_output, cases[i].message_part) && files_in_dir() == 0;
    if (!ok)
      print_error("stabcon %s %s …: exit %d, files %d, test_output:\n%s\n", cases[i].args[0],
                  cases[i].args[1] ? cases[i].args[1] : "", rc, files_in_dir(), test_output);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(test_output, cases[i].message_part));
    assert_int_equal(files_in_dir(), 0);
  }
}

static void test_corrupt_file(void **state) {
  (void)state;
  char path[300];
  test_path(path, sizeof path, "corrupt.h5");
  FILE *f = fopen(path, "w");
  fputs("\x89HDF\r\n garbage", f);
  fclose(f);
  assert_int_equal(test_run((const char *[]){"info", "corrupt.h5", NULL}), 2);
  assert_non_null(strstr(test_output, "corrupt.h5"));
  unlink(path);
}

static void test_good_path(void **state) {
  (void)state;
  assert_int_equal(test_run((const char *[]){"--version", NULL}), 0);
  assert_non_null(strstr(test_output, "stabcon "));
  assert_int_equal(test_run((const char *[]){"list", NULL}), 0);
  assert_non_null(strstr(test_output, "Fig 1"));
  assert_int_equal(test_run((const char *[]){"run", "smd_explicit", "--help", NULL}), 0);
  assert_non_null(strstr(test_output, "2.1e5"));
  assert_int_equal(
      test_run((const char *[]){"run", "smd_implicit", "--set", "T=0.01", "-o", "ok.h5", NULL}), 0);
  assert_int_equal(test_run((const char *[]){"info", "ok.h5", NULL}), 0);
  assert_non_null(strstr(test_output, "h=0.01_k=1e6_b=0"));
  assert_non_null(strstr(test_output, "T                  0.01"));
  assert_int_equal(
      test_run((const char *[]){"export", "ok.h5", "--case", "h=1e-5_k=1e6_b=0", NULL}), 0);
  assert_true(strncmp(test_output, "t,x,v,energy\n0,1,0,500000\n", 26) == 0);
  char path[300];
  test_path(path, sizeof path, "ok.h5");
  unlink(path);
}

// export never writes over or deletes its input, and a failed export leaves an existing OUT alone
static void test_export_safety(void **state) {
  (void)state;
  assert_int_equal(
      test_run((const char *[]){"run", "smd_implicit", "--set", "T=0.01", "-o", "keep.h5", NULL}),
      0);
  assert_int_equal(test_run((const char *[]){"export", "keep.h5", "-o", "keep.h5", NULL}), 2);
  assert_non_null(strstr(test_output, "is the input file"));
  assert_int_equal(
      test_run((const char *[]){"export", "keep.h5", "--case", "nosuch", "-o", "keep.h5", NULL}),
      2);
  assert_int_equal(test_run((const char *[]){"info", "keep.h5", NULL}), 0);  // still readable
  // a failing export into an existing CSV keeps that CSV
  assert_int_equal(test_run((const char *[]){"export", "keep.h5", "-o", "out.csv", NULL}), 0);
  char path[300];
  test_path(path, sizeof path, "out.csv");
  struct stat before, after;
  assert_int_equal(stat(path, &before), 0);
  assert_int_not_equal(
      test_run((const char *[]){"export", "keep.h5", "--case", "nosuch", "-o", "out.csv", NULL}),
      0);
  assert_int_equal(stat(path, &after), 0);
  assert_true(before.st_size == after.st_size && before.st_size > 0);
  unlink(path);
  test_path(path, sizeof path, "keep.h5");
  unlink(path);
}

// sweep values are never silently truncated or emptied: each is refused with exit 2
static void test_sweep_refusals(void **state) {
  (void)state;
  const char *long_value = "h=1.0000000000000000000000000000000e-4,2e-4";  // > 31 characters
  const char *const cases[][3] = {{long_value, "longer than", ""},
                                  {"h=1e-4,,2e-4", "empty list item", ""},
                                  {"h=1:2:3:log:x", "start:stop:count", ""}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    int rc = test_run((const char *[]){"sweep", "smd", "--set", cases[i][0], "-o", "r.h5", NULL});
    printf("sweep --set %-45s -> exit %d\n", cases[i][0], rc);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(test_output, cases[i][1]));
  }
  int rc = test_run((const char *[]){"sweep", "smd", "--set", "h=1e-5:1e-3:256:log", "--set",
                                     "k=1:2:256", "--set", "b=0:1:256", "-o", "r.h5", NULL});
  assert_int_equal(rc, 2);
  assert_non_null(strstr(test_output, "would exceed"));
}

static int setup(void **state) {
  (void)state;
  return test_dir_create("cli");
}

static int teardown(void **state) {
  (void)state;
  return test_dir_remove();
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_cli PATH-TO-STABCON\n");
    return 1;
  }
  if (test_stabcon_set(argv[1]) != 0) {
    perror(argv[1]);
    return 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bad_input),      cmocka_unit_test(test_corrupt_file),
      cmocka_unit_test(test_good_path),      cmocka_unit_test(test_export_safety),
      cmocka_unit_test(test_sweep_refusals),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
