// SPDX-License-Identifier: MIT
// Hostile files: results and problem files built to overflow a
// reader, to run commands through gnuplot, to make the reader allocate what they merely declare,
// or to lead it through links. Each must be refused with exit 2 and a message naming the object
// (or, for stabcon plot, drawn without running anything), leaving every file as it was.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
// cmocka.h needs the four headers above first
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "cli_test_util.h"
#include "hostile_util.h"

static const char *plots_dir;

// a small valid results file (smd_explicit, 4 cases of 100 steps) named name
static void make_results(const char *name) {
  assert_int_equal(
      test_run((const char *[]){"run", "smd_explicit", "--set", "T=0.001", "-o", name, NULL}), 0);
}

// every reading command refuses name with exit 2 and a message holding `what`; nothing changes
static void assert_refused_by_readers(const char *name, const char *what) {
  file_state before = hostile_state(name);
  const char *const cmds[][7] = {
      {"info", name, NULL},
      {"export", name, NULL},
      {"export", name, "-o", "out.csv", NULL},
      {"compare", name, name, NULL},
      {"plot", name, "-d", "refused_figs", NULL},
  };
  for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
    int rc = test_run(cmds[i]);
    printf("  %s %s -> exit %d\n", cmds[i][0], name, rc);
    assert_int_equal(rc, 2);
    assert_true(hostile_says("not a valid results file", what, NULL));
  }
  assert_true(hostile_unchanged(name, &before));
  assert_true(hostile_absent("out.csv") && hostile_absent("out.csv.partial"));
  assert_true(hostile_absent("refused_figs"));
}

// Attributes of any shape where one value is expected
static void test_attribute_shapes(void **state) {
  (void)state;
  make_results("a.h5");
  hid_t f = hostile_h5_open("a.h5");
  char c[256], status[300];
  hostile_first_case(f, c, sizeof c);
  H5Fclose(f);
  snprintf(status, sizeof status, "cases/%s", c);
  int64_t many[64] = {0};
  char strings[16][8] = {{0}};
  double two[2] = {1, 2};
  hsize_t d64 = 64, d16 = 16, d2 = 2;
  hid_t s8 = H5Tcopy(H5T_C_S1);
  H5Tset_size(s8, 8);
  struct {
    const char *obj, *attr, *what;
    hid_t type;
    hsize_t *dims;
    const void *data;
  } cases[] = {
      {"/", "host", "host of '/'", H5T_NATIVE_INT64, &d64, many},
      {"/", "host", "host of '/'", s8, &d16, strings},
      {status, "status", "status of", H5T_NATIVE_DOUBLE, &d2, two},
      {"/", "experiment", "experiment of '/'", H5T_NATIVE_DOUBLE, &d2, two},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    make_results("a.h5");
    f = hostile_h5_open("a.h5");
    hostile_attr_replace(f, cases[i].obj, cases[i].attr, cases[i].type, 1, cases[i].dims,
                         cases[i].data);
    H5Fclose(f);
    printf("attribute %s of %s, %llu elements\n", cases[i].attr, cases[i].obj,
           (unsigned long long)*cases[i].dims);
    assert_refused_by_readers("a.h5", cases[i].what);
  }
  H5Tclose(s8);
}

// a file named `name` in test_dir exists
static int exists(const char *name) { return hostile_state(name).exists; }

// Strings from the file reach gnuplot as data only
static void test_plot_runs_no_command(void **state) {
  (void)state;
  // a sweep whose units and description carry gnuplot and shell commands
  assert_int_equal(test_run((const char *[]){"sweep", "smd", "--set", "h=1e-3,2e-3", "--set",
                                             "T=0.01", "-o", "sw.h5", NULL}),
                   0);
  hid_t f = hostile_h5_open("sw.h5");
  const char *unit = "s'; a=system('touch PWNED_UNIT'); x='";
  const char *sweep = "smd h';system('touch PWNED_SWEEP');'=0.001,0.002";
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, strlen(unit) + 1);
  char names[2][256];
  hsize_t idx = 0;
  for (int k = 0; k < 2; k++) {
    char obj[400];
    H5Lget_name_by_idx(f, "cases", H5_INDEX_NAME, H5_ITER_INC, idx++, names[k], 256, H5P_DEFAULT);
    snprintf(obj, sizeof obj, "cases/%s/stats", names[k]);
    hostile_attr_replace(f, obj, "error_final.unit", t, 0, NULL, unit);
    snprintf(obj, sizeof obj, "cases/%s/params", names[k]);
    hostile_attr_replace(f, obj, "h.unit", t, 0, NULL, unit);
  }
  H5Tclose(t);
  H5Fclose(f);
  int rc = test_run((const char *[]){"plot", "sw.h5", "-d", "figs", NULL});
  printf("plot of a sweep with command units -> exit %d\n", rc);
  assert_int_equal(rc, 0);
  assert_true(exists("figs/sw.png"));
  assert_true(hostile_absent("PWNED_UNIT") && hostile_absent("figs/PWNED_UNIT"));
  f = hostile_h5_open("sw.h5");
  t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, strlen(sweep) + 1);
  hostile_attr_replace(f, "/", "sweep", t, 0, NULL, sweep);
  H5Tclose(t);
  H5Fclose(f);
  rc = test_run((const char *[]){"plot", "sw.h5", "-d", "figs2", NULL});
  printf("plot of a sweep with a command in its description -> exit %d\n", rc);
  assert_true(rc == 0 || (rc == 1 && hostile_says("gnuplot failed", NULL)));
  assert_true(hostile_absent("PWNED_SWEEP") && hostile_absent("figs2/PWNED_SWEEP"));
  // a figure folder whose name would split a datablock line
  rc = test_run((const char *[]){"plot", "sw.h5", "-d", "bad\nname", NULL});
  assert_int_equal(rc, 2);
  assert_true(hostile_says("control character", NULL));
  assert_true(hostile_absent("bad\nname"));
  // a case name that broke out of common.gp's system("echo '…' | sed …")
  assert_int_equal(
      test_run((const char *[]){"run", "smd_implicit", "--set", "T=0.01", "-o", "imp.h5", NULL}),
      0);
  f = hostile_h5_open("imp.h5");
  char c[256];
  hostile_first_case(f, c, sizeof c);
  hid_t cases = H5Gopen2(f, "cases", H5P_DEFAULT);
  assert_true(H5Lmove(cases, c, cases, "x';touch${IFS}PWNED_CASE;'", H5P_DEFAULT, H5P_DEFAULT) >=
              0);
  H5Gclose(cases);
  H5Fclose(f);
  rc = test_run((const char *[]){"plot", "imp.h5", "-d", "figs3", NULL});
  printf("plot with a command in a case name -> exit %d\n", rc);
  assert_int_equal(rc, 0);
  assert_true(hostile_absent("PWNED_CASE") && hostile_absent("figs3/PWNED_CASE"));
}

// No gnuplot script starts a shell
static void test_scripts_have_no_system(void **state) {
  (void)state;
  DIR *d = opendir(plots_dir);
  assert_non_null(d);
  int scripts = 0;
  for (struct dirent *e; (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (len < 4 || strcmp(e->d_name + len - 3, ".gp") != 0) continue;
    char path[1200], line[4096];
    snprintf(path, sizeof path, "%s/%s", plots_dir, e->d_name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    for (int n = 1; fgets(line, sizeof line, f); n++) {
      char *hash = strchr(line, '#');  // comments may say "no system()"
      if (hash && (hash == line || hash[-1] == ' ')) *hash = '\0';
      if (strstr(line, "system(") || strstr(line, "`") || strstr(line, "popen"))
        fail_msg("%s:%d starts a shell: %s", e->d_name, n, line);
    }
    fclose(f);
    scripts++;
  }
  closedir(d);
  printf("%d gnuplot scripts without system(), backquotes or pipes\n", scripts);
  assert_true(scripts >= 10);
}

// A results series declared 2e9 entries, stored in a few bytes
static void test_results_declared_size(void **state) {
  (void)state;
  make_results("big.h5");
  hid_t f = hostile_h5_open("big.h5");
  char c[256], path[400];
  hostile_first_case(f, c, sizeof c);
  snprintf(path, sizeof path, "cases/%s/series/x", c);
  hostile_dataset_unwritten(f, path, 2000000000ULL);
  H5Fclose(f);
  time_t t0 = time(NULL);
  file_state before = hostile_state("big.h5");
  int rc = test_run((const char *[]){"export", "big.h5", "--case", c, NULL});
  assert_int_equal(rc, 2);
  assert_true(hostile_says("declares 2000000000 entries", "/series/x", NULL));
  assert_true(hostile_unchanged("big.h5", &before));
  assert_true(time(NULL) - t0 < 30);
}

// a generated conic problem p.h5 (5 contacts)
static void make_problem(const char *name) {
  remove(name);
  assert_int_equal(test_run((const char *[]){"qcp", "gen", "stack", "5", "0.5", name, NULL}), 0);
}

static void write_llong_attr(hid_t f, const char *name, long long v) {
  hostile_attr_replace(f, "/", name, H5T_NATIVE_LLONG, 0, NULL, &v);
}

// qcp solve on name: exit 2 with the message, the problem unchanged, no solution written
static void assert_problem_refused(const char *name, const char *message) {
  file_state before = hostile_state(name);
  time_t t0 = time(NULL);
  int rc = test_run((const char *[]){"qcp", "solve", name, "-o", "sol.h5", NULL});
  printf("  qcp solve -> exit %d in %ld s\n", rc, (long)(time(NULL) - t0));
  assert_int_equal(rc, 2);
  assert_true(hostile_says(message, NULL));
  assert_true(hostile_unchanged(name, &before));
  assert_true(hostile_absent("sol.h5") && hostile_absent("sol.h5.partial"));
  assert_true(time(NULL) - t0 < 30);
}

// Problem files declaring sizes they do not store, and a cone too large to order
static void test_problem_declared_sizes(void **state) {
  (void)state;
  // G/colptr ending at 2e9, G/rowind declared 2e9 entries, never written
  make_problem("p.h5");
  hid_t f = hostile_h5_open("p.h5");
  hid_t ds = H5Dopen2(f, "G/colptr", H5P_DEFAULT);
  hid_t sp = H5Dget_space(ds);
  hssize_t n = H5Sget_simple_extent_npoints(sp);
  long long *cp = calloc((size_t)n, sizeof *cp);
  H5Dread(ds, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, cp);
  cp[n - 1] = 2000000000LL;
  H5Dwrite(ds, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, cp);
  free(cp);
  H5Sclose(sp);
  H5Dclose(ds);
  hostile_dataset_unwritten(f, "G/rowind", 2000000000ULL);
  H5Fclose(f);
  assert_problem_refused("p.h5", "declares 2000000000 entries");
  // n = 3e7 with c declared, never written
  make_problem("p.h5");
  f = hostile_h5_open("p.h5");
  write_llong_attr(f, "n", 30000000LL);
  hostile_dataset_unwritten(f, "c", 30000000ULL);
  H5Fclose(f);
  assert_problem_refused("p.h5", "declares 30000000 entries");
  // one second-order cone of dimension 30 000
  make_problem("p.h5");
  f = hostile_h5_open("p.h5");
  long long q = 30000;
  hsize_t one = 1;
  hostile_attr_replace(f, "/", "q", H5T_NATIVE_LLONG, 1, &one, &q);
  H5Fclose(f);
  assert_problem_refused("p.h5", "q[0] = 30000 outside 1..2000");
}

// Links and types the readers do not expect are refused before they are followed
static void test_unexpected_structure(void **state) {
  (void)state;
  make_results("other.h5");
  make_results("l.h5");
  hid_t f = hostile_h5_open("l.h5");
  H5Lcreate_external("other.h5", "/cases", f, "cases/zz_external", H5P_DEFAULT, H5P_DEFAULT);
  H5Fclose(f);
  printf("external link among the cases\n");
  assert_refused_by_readers("l.h5", "soft or external link");
  make_results("l.h5");
  f = hostile_h5_open("l.h5");
  char c[256], path[400];
  hostile_first_case(f, c, sizeof c);
  snprintf(path, sizeof path, "cases/%s/series/x", c);
  H5Ldelete(f, path, H5P_DEFAULT);
  hsize_t n = 3;
  hid_t sp = H5Screate_simple(1, &n, NULL);
  hid_t ds = H5Dcreate2(f, path, H5T_NATIVE_INT, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dclose(ds);
  H5Sclose(sp);
  H5Fclose(f);
  printf("integer series\n");
  assert_refused_by_readers("l.h5", "not a floating-point dataset");
  // the problem reader: c as a soft link
  make_problem("p.h5");
  f = hostile_h5_open("p.h5");
  H5Ldelete(f, "c", H5P_DEFAULT);
  H5Lcreate_soft("/h", f, "c", H5P_DEFAULT, H5P_DEFAULT);
  H5Fclose(f);
  assert_problem_refused("p.h5", "soft or external link");
}

static int setup(void **state) {
  (void)state;
  return test_dir_create("hostile-files");
}

static int teardown(void **state) {
  (void)state;
  return test_dir_remove();
}

int main(int argc, char **argv) {
  if (argc < 3 || hostile_init(argv[1]) != 0) {
    fprintf(stderr, "usage: test_hostile_files PATH-TO-STABCON PLOTS-DIR\n");
    return 1;
  }
  plots_dir = argv[2];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_attribute_shapes),       cmocka_unit_test(test_plot_runs_no_command),
      cmocka_unit_test(test_scripts_have_no_system), cmocka_unit_test(test_results_declared_size),
      cmocka_unit_test(test_problem_declared_sizes), cmocka_unit_test(test_unexpected_structure),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
