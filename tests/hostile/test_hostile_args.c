// SPDX-License-Identifier: MIT
// Hostile arguments: outputs that are inputs, devices,
// symlinks or directories; step counts and model sizes beyond what can run; list and argument
// gaps; a full standard output. Each is refused with its exit code and message, before any
// computation, and no file is created, replaced or truncated.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
// cmocka.h needs the four headers above first
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli_test_util.h"
#include "hostile_util.h"

// runs args; asserts the exit code, every message fragment and a quick refusal (< 10 s)
static void expect(int code, const char *const *args, const char *m1, const char *m2) {
  time_t t0 = time(NULL);
  int rc = test_run(args);
  printf("  stabcon");
  for (size_t i = 0; args[i]; i++) printf(" '%s'", args[i]);
  printf(" -> exit %d\n", rc);
  assert_int_equal(rc, code);
  assert_true(hostile_says(m1, m2, NULL));
  assert_true(time(NULL) - t0 < 10);
}

static void write_text(const char *name, const char *text) {
  char path[600];
  test_path(path, sizeof path, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static void test_path_create(const char *name, int (*make)(const char *)) {
  char path[600];
  test_path(path, sizeof path, name);
  assert_int_equal(make(path), 0);
}

static int make_symlink_to_victim(const char *path) { return symlink("victim.txt", path); }
static int make_dangling(const char *path) { return symlink("nowhere/at/all", path); }
static int make_fifo(const char *path) { return mkfifo(path, 0644); }
static int make_dir(const char *path) { return mkdir(path, 0755); }

// An output that is the input, under its own or its temporary name
static void test_output_is_input(void **state) {
  (void)state;
  assert_int_equal(
      test_run((const char *[]){"run", "smd_explicit", "--set", "T=0.001", "-o", "r.h5", NULL}), 0);
  char a[600], b[600];
  test_path(a, sizeof a, "r.h5");
  test_path(b, sizeof b, "r.h5.partial");
  assert_int_equal(rename(a, b), 0);
  file_state in = hostile_state("r.h5.partial");
  expect(2, (const char *[]){"export", "r.h5.partial", "-o", "r.h5", NULL}, "temporary file",
         "is the input file");
  assert_true(hostile_unchanged("r.h5.partial", &in));
  assert_true(hostile_absent("r.h5"));
  expect(2, (const char *[]){"export", "r.h5.partial", "-o", "r.h5.partial", NULL},
         "is the input file", NULL);
  test_path(a, sizeof a, "hard.h5");
  assert_int_equal(link(b, a), 0);
  expect(2, (const char *[]){"export", "r.h5.partial", "-o", "hard.h5", NULL}, "is the input file",
         NULL);
  assert_true(hostile_unchanged("r.h5.partial", &in));
  // the conic solver: the solution must not replace its problem
  assert_int_equal(test_run((const char *[]){"qcp", "gen", "stack", "5", "0.5", "p.h5", NULL}), 0);
  file_state p = hostile_state("p.h5");
  expect(2, (const char *[]){"qcp", "solve", "p.h5", "-o", "p.h5", NULL}, "is the input file",
         NULL);
  test_path(a, sizeof a, "p.h5");
  test_path(b, sizeof b, "q.h5.partial");
  assert_int_equal(link(a, b), 0);
  expect(2, (const char *[]){"qcp", "solve", "q.h5.partial", "-o", "q.h5", NULL}, "temporary file",
         NULL);
  assert_true(hostile_unchanged("p.h5", &p));
  assert_true(hostile_absent("q.h5"));
}

// Outputs that are not regular files, or no file name at all
static void test_output_not_a_file(void **state) {
  (void)state;
  write_text("victim.txt", "precious\n");
  test_path_create("link.h5", make_symlink_to_victim);
  test_path_create("dangling.h5", make_dangling);
  test_path_create("fifo.h5", make_fifo);
  test_path_create("dir.h5", make_dir);
  test_path_create("planted.h5.partial", make_symlink_to_victim);
  char dev[600];
  test_path(dev, sizeof dev, "null.dev");
  int have_dev = mknod(dev, S_IFCHR | 0666, makedev(1, 3)) == 0;  // root only: a /dev/null twin
  if (!have_dev) printf("(not root: no device node case)\n");
  assert_int_equal(
      test_run((const char *[]){"run", "smd_explicit", "--set", "T=0.001", "-o", "r.h5", NULL}), 0);
  assert_int_equal(test_run((const char *[]){"qcp", "gen", "stack", "5", "0.5", "p.h5", NULL}), 0);
  const char *targets[][2] = {
      {"link.h5", "symbolic link"},
      {"dangling.h5", "symbolic link"},
      {"fifo.h5", "fifo"},
      {"dir.h5", "directory"},
      {"planted.h5", "symbolic link"},
      {"null.dev", "device"},
      {"", "empty file name"},
      {".", "names a directory"},
      {"dir.h5/", "directory"},
      {"..", "names a directory"},
      {"no/such/dir/x.h5", "does not exist"},
  };
  const char *watched[] = {"victim.txt",         "link.h5",  "dangling.h5", "fifo.h5", "dir.h5",
                           "planted.h5.partial", "null.dev", "r.h5",        "p.h5"};
  file_state before[9];
  for (int k = 0; k < 9; k++) before[k] = hostile_state(watched[k]);
  for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
    const char *o = targets[i][0];
    if (!have_dev && strcmp(o, "null.dev") == 0) continue;
    // foundation at its default size runs for many seconds: a refusal must come first
    expect(2, (const char *[]){"run", "foundation", "-o", o, NULL}, targets[i][1], NULL);
    expect(2, (const char *[]){"export", "r.h5", "-o", o, NULL}, targets[i][1], NULL);
    expect(2, (const char *[]){"qcp", "solve", "p.h5", "-o", o, NULL}, targets[i][1], NULL);
    expect(2, (const char *[]){"qcp", "gen", "stack", "5", "0.5", o, NULL}, targets[i][1], NULL);
    expect(2, (const char *[]){"sweep", "smd", "--set", "h=1e-3,2e-3", "-o", o, NULL},
           targets[i][1], NULL);
  }
  for (int k = 0; k < 9; k++) assert_true(hostile_unchanged(watched[k], &before[k]));
  assert_true(hostile_absent("victim.txt.partial") && hostile_absent("planted.h5"));
  // reproduce checks every file it will write first
  char res[600];
  test_path(res, sizeof res, "res");
  assert_int_equal(mkdir(res, 0755), 0);
  test_path(res, sizeof res, "res/REPORT.md");
  assert_int_equal(symlink("../victim.txt", res), 0);
  expect(2,
         (const char *[]){"reproduce", "--only", "smd_explicit", "--results", "res", "--figures",
                          "rfigs", NULL},
         "REPORT.md", "symbolic link");
  assert_true(hostile_unchanged("victim.txt", &before[0]));
  assert_true(hostile_absent("res/smd_explicit.h5"));
}

// Step counts beyond the documented cap, refused before stepping
static void test_step_budget(void **state) {
  (void)state;
  expect(2, (const char *[]){"run", "smd", "--set", "h=1e-12", "-o", "s.h5", NULL}, "steps",
         "limit of 1e+09 steps");
  expect(2, (const char *[]){"run", "smd", "--set", "h=1e-251", "-o", "s.h5", NULL}, "h = 1e-251",
         "limit of 1e+09 steps");
  expect(2, (const char *[]){"run", "rom_pendulum", "--set", "h=1e-12", "-o", "s.h5", NULL},
         "h = 1e-12", "limit of 1e+09 steps");
  expect(2, (const char *[]){"run", "pendulum", "--set", "h=1e-300", "-o", "s.h5", NULL}, "steps",
         "limit of 1e+09 steps");
  expect(2, (const char *[]){"run", "incline", "--set", "h=1e-300", "-o", "s.h5", NULL}, "steps",
         "limit of 1e+09 steps");
  assert_true(hostile_absent("s.h5") && hostile_absent("s.h5.partial"));
}

// A model size the foundation cannot index
static void test_model_size(void **state) {
  (void)state;
  expect(2, (const char *[]){"run", "foundation", "--set", "n=23171", "-o", "f.h5", NULL},
         "n = 23171", "outside 1..2000");
  expect(2, (const char *[]){"run", "foundation", "--set", "n=1e7", "-o", "f.h5", NULL},
         "n = 10000000", "outside 1..2000");
  expect(2, (const char *[]){"run", "foundation_wp", "--set", "n=30000", "-o", "f.h5", NULL},
         "n = 30000", "outside 1..2000");
  assert_true(hostile_absent("f.h5") && hostile_absent("f.h5.partial"));
}

// List items, extra arguments, empty selections
static void test_validation_gaps(void **state) {
  (void)state;
  expect(2, (const char *[]){"run", "smd_explicit", "--set", "h=1e-5,,2e-5", "-o", "v.h5", NULL},
         "h=1e-5,,2e-5", "empty list item");
  expect(2, (const char *[]){"run", "smd_explicit", "--set", "T=1,", "-o", "v.h5", NULL}, "T=1,",
         "empty list item");
  expect(2, (const char *[]){"run", "smd_explicit", "--set", "b=1,2,1", "-o", "v.h5", NULL},
         "'1' is listed twice", NULL);
  expect(
      2,
      (const char *[]){"run", "foundation", "--set", "method=rk45,,constraint", "-o", "v.h5", NULL},
      "empty list item", NULL);
  expect(2, (const char *[]){"run", "foundation", "--set", "method=rk45,rk45", "-o", "v.h5", NULL},
         "'rk45' is listed twice", NULL);
  expect(2, (const char *[]){"qcp", "gen", "stack", "5", "0.5", "x.h5", "y.h5", NULL}, "usage",
         NULL);
  assert_true(hostile_absent("x.h5") && hostile_absent("y.h5") && hostile_absent("v.h5"));
  const char *only[] = {",,", "", ",smd_explicit", "smd"};
  const char *why[] = {"empty item", "empty item", "empty item", "not a reproduced experiment"};
  for (int i = 0; i < 4; i++)
    expect(2,
           (const char *[]){"reproduce", "--only", only[i], "--results", "rres", "--figures",
                            "rfigs", NULL},
           why[i], NULL);
  assert_true(hostile_absent("rres") && hostile_absent("rfigs"));
}

// Output lost on a full standard output is a failure
static void test_full_stdout(void **state) {
  (void)state;
  assert_int_equal(
      test_run((const char *[]){"run", "smd_explicit", "--set", "T=0.001", "-o", "o.h5", NULL}), 0);
  assert_int_equal(test_run((const char *[]){"qcp", "gen", "stack", "5", "0.5", "op.h5", NULL}), 0);
  const char *const cmds[][4] = {{"info", "o.h5", NULL},
                                 {"list", NULL},
                                 {"export", "o.h5", NULL},
                                 {"qcp", "solve", "op.h5", NULL}};
  for (int i = 0; i < 4; i++) {
    int rc = hostile_run_stdout(cmds[i], "/dev/full");
    printf("  %s > /dev/full -> exit %d\n", cmds[i][0], rc);
    assert_int_equal(rc, 1);
    assert_true(hostile_says("No space left on device", NULL));
  }
}

static int setup(void **state) {
  (void)state;
  return test_dir_create("hostile-args");
}

static int teardown(void **state) {
  (void)state;
  return test_dir_remove();
}

int main(int argc, char **argv) {
  if (argc < 2 || hostile_init(argv[1]) != 0) {
    fprintf(stderr, "usage: test_hostile_args PATH-TO-STABCON\n");
    return 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_output_is_input), cmocka_unit_test(test_output_not_a_file),
      cmocka_unit_test(test_step_budget),     cmocka_unit_test(test_model_size),
      cmocka_unit_test(test_validation_gaps), cmocka_unit_test(test_full_stdout),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
