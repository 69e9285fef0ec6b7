// SPDX-License-Identifier: MIT
// Hostile arguments and failing writes through the commands: gnuplot names that are pipes, an
// output onto an input problem, two files that become one case, results files that differ past
// what a fixed buffer would hold, a case with hundreds of series, count parameters that do
// not fit, a write error under a solution or a sweep's merge (a file-size limit), corrupt HDF5
// that crashes libhdf5 itself, unclear messages and a second interrupt. Each must end in a clear
// error (exit 2 bad input, 1 run failure) with no command run and nothing lost.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
// cmocka.h needs the four headers above first
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli_test_util.h"
#include "hostile_util.h"

static const char *maros_dir;

static void copy_file(const char *from_path, const char *to) {
  assert_int_equal(hostile_copy(from_path, to), 0);
}

// the path of HS21.mat of the Maros-Meszaros set in buf; skips the test if the set is absent
static void hs21_path(char *buf, size_t len) {
  snprintf(buf, len, "%s/HS21.mat", maros_dir);
  if (access(buf, R_OK) != 0) {
    printf("  %s not found: skipped\n", buf);
    skip();
  }
}

static void make_dir(const char *name) {
  char p[600];
  test_path(p, sizeof p, name);
  mkdir(p, 0755);
}

static void make_results(const char *name) {
  assert_int_equal(
      test_run((const char *[]){"run", "smd_explicit", "--set", "T=0.001", "-o", name, NULL}), 0);
}

// A figure directory named like a pipe is a directory, never a command
static void test_gnuplot_names(void **state) {
  (void)state;
  make_results("a.h5");
  int rc = test_run((const char *[]){"plot", "a.h5", "-d", "<touch pwned1", NULL});
  printf("  plot -d '<touch pwned1' -> %d\n", rc);
  assert_int_equal(rc, 0);
  rc = test_run((const char *[]){"run", "smd_explicit", "--set", "T=0.001", "-o", "b.h5", "--plot",
                                 "|touch pwned2", NULL});
  printf("  run --plot '|touch pwned2' -> %d\n", rc);
  assert_int_equal(rc, 0);
  char hs21[600];
  hs21_path(hs21, sizeof hs21);
  make_dir("m5");
  copy_file(hs21, "m5/HS21.mat");
  rc = test_run((const char *[]){"bench", "maros", "--dir", "m5", "--output", "m5.h5", "--plot",
                                 "<touch pwned3", NULL});
  printf("  bench maros --plot '<touch pwned3' -> %d\n", rc);
  assert_int_equal(rc, 0);
  assert_true(hostile_absent("pwned1") && hostile_absent("pwned2") && hostile_absent("pwned3"));
}

// Bench maros never writes onto a problem, and refuses two files of one case
static void test_bench_outputs(void **state) {
  (void)state;
  char hs21[600];
  hs21_path(hs21, sizeof hs21);
  make_dir("m6");
  copy_file(hs21, "m6/HS21.mat");
  file_state before = hostile_state("m6/HS21.mat");
  int rc =
      test_run((const char *[]){"bench", "maros", "--dir", "m6", "--output", "m6/HS21.mat", NULL});
  assert_int_equal(rc, 2);
  assert_true(hostile_says("is the input file", NULL));
  assert_true(hostile_unchanged("m6/HS21.mat", &before));
  make_dir("m7");
  copy_file(hs21, "m7/X.1.mat");
  copy_file(hs21, "m7/X.2.mat");
  rc = test_run((const char *[]){"bench", "maros", "--dir", "m7", "--output", "m7.h5", NULL});
  assert_int_equal(rc, 2);
  assert_true(hostile_says("m7/X.1.mat", "m7/X.2.mat", "case 'X'", NULL));
  assert_null(strstr(test_output, "results:"));
  assert_null(strstr(test_output, "| X"));  // refused before anything was solved
  assert_true(hostile_absent("m7.h5"));
}

static void set_string(hid_t f, const char *obj, const char *attr, const char *value) {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, strlen(value) + 1);
  hostile_attr_replace(f, obj, attr, t, 0, NULL, value);
  H5Tclose(t);
}

// compare's exit code and a fragment of its report
static void assert_compare_finds(const char *a, const char *b, const char *what) {
  int rc = test_run((const char *[]){"compare", a, b, NULL});
  printf("  compare %s %s -> %d\n", a, b, rc);
  assert_int_not_equal(rc, 0);
  assert_true(hostile_says(what, NULL));
}

// Differences beyond the 512th entry, the 63rd byte of a status, the 1023rd of a value
// and in the message are found
static void test_compare_everything(void **state) {
  (void)state;
  make_results("c.h5");
  hid_t f = hostile_h5_open("c.h5");
  char c[256], obj[400], long_text[3000];
  hostile_first_case(f, c, sizeof c);
  snprintf(obj, sizeof obj, "cases/%s/stats", c);
  for (int k = 0; k < 600; k++) {  // 600 statistics, equal in both files but the last
    char name[32];
    snprintf(name, sizeof name, "extra_%03d", k);
    double v = k;
    hostile_attr_replace(f, obj, name, H5T_NATIVE_DOUBLE, 0, NULL, &v);
  }
  H5Fclose(f);
  const char *copies[] = {"c_stat.h5", "c_status.h5", "c_value.h5", "c_msg.h5"};
  char src[600];
  test_path(src, sizeof src, "c.h5");
  for (int i = 0; i < 4; i++) copy_file(src, copies[i]);
  f = hostile_h5_open("c_stat.h5");
  double v = -1;
  hostile_attr_replace(f, obj, "extra_599", H5T_NATIVE_DOUBLE, 0, NULL, &v);
  H5Fclose(f);
  assert_compare_finds("c.h5", "c_stat.h5", "extra_599");
  snprintf(obj, sizeof obj, "cases/%s", c);
  memset(long_text, 'x', 2000), long_text[2000] = '\0';
  f = hostile_h5_open("c.h5");  // a long status and message in the reference
  set_string(f, obj, "status", long_text);
  set_string(f, obj, "message", "the same message");
  H5Fclose(f);
  for (int i = 1; i < 4; i++) {
    f = hostile_h5_open(copies[i]);
    set_string(f, obj, "status", long_text);
    set_string(f, obj, "message", "the same message");
    H5Fclose(f);
  }
  long_text[100] = 'y';  // differs at byte 100 of the status
  f = hostile_h5_open("c_status.h5");
  set_string(f, obj, "status", long_text);
  H5Fclose(f);
  assert_compare_finds("c.h5", "c_status.h5", "status");
  long_text[100] = 'x', long_text[1500] = 'y';  // differs at byte 1500 of a value
  char params[400];
  snprintf(params, sizeof params, "cases/%s/params", c);
  f = hostile_h5_open("c.h5");
  long_text[1500] = 'x';
  set_string(f, params, "note", long_text);
  H5Fclose(f);
  f = hostile_h5_open("c_value.h5");
  long_text[1500] = 'y';
  set_string(f, params, "note", long_text);
  H5Fclose(f);
  f = hostile_h5_open("c_msg.h5");
  long_text[1500] = 'x';
  set_string(f, params, "note", long_text);
  set_string(f, obj, "message", "another message");
  H5Fclose(f);
  assert_compare_finds("c.h5", "c_value.h5", "note");
  assert_compare_finds("c.h5", "c_msg.h5", "message");
}

// Export --case writes every series (here 200 of one length)
static void test_export_all_series(void **state) {
  (void)state;
  make_results("e.h5");
  hid_t f = hostile_h5_open("e.h5");
  char c[256], grp[400];
  hostile_first_case(f, c, sizeof c);
  snprintf(grp, sizeof grp, "cases/%s/series", c);
  hid_t g = H5Gopen2(f, grp, H5P_DEFAULT);
  hid_t first = H5Dopen2(g, "t", H5P_DEFAULT);
  assert_true(first >= 0);
  hid_t space = H5Dget_space(first);
  hssize_t n = H5Sget_simple_extent_npoints(space);
  double *data = calloc((size_t)n, sizeof *data);
  for (int k = 0; k < 200; k++) {
    char name[32];
    snprintf(name, sizeof name, "extra_%03d", k);
    hid_t ds = H5Dcreate2(g, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    H5Dclose(ds);
  }
  free(data);
  H5Sclose(space);
  H5Dclose(first);
  H5Gclose(g);
  H5Fclose(f);
  char out[600];
  test_path(out, sizeof out, "e.csv");
  int rc = test_run((const char *[]){"export", "e.h5", "--case", c, "-o", "e.csv", NULL});
  assert_int_equal(rc, 0);
  FILE *csv = fopen(out, "r");
  char *header = malloc(1 << 16);
  assert_non_null(fgets(header, 1 << 16, csv));
  fclose(csv);
  assert_non_null(strstr(header, "extra_000"));
  assert_non_null(strstr(header, "extra_199"));
  // the summary holds a 3000-byte parameter whole
  char params[400], text[3001];
  memset(text, 'v', 3000), text[2999] = 'w', text[3000] = '\0';
  snprintf(params, sizeof params, "cases/%s/params", c);
  f = hostile_h5_open("e.h5");
  set_string(f, params, "note", text);
  H5Fclose(f);
  assert_int_equal(test_run((const char *[]){"export", "e.h5", "-o", "s.csv", NULL}), 0);
  test_path(out, sizeof out, "s.csv");
  csv = fopen(out, "r");
  size_t got = fread(header, 1, (1 << 16) - 1, csv);
  header[got] = '\0';
  fclose(csv);
  assert_non_null(strstr(header, "vvvw"));
  free(header);
}

// runs args under a file-size limit of `bytes` (SIGXFSZ ignored: writes fail with EFBIG)
static int run_limited(const char *const *args, long bytes) {
  struct rlimit old, lim;
  getrlimit(RLIMIT_FSIZE, &old);
  lim = old;
  lim.rlim_cur = (rlim_t)bytes;
  void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
  setrlimit(RLIMIT_FSIZE, &lim);
  int rc = test_run(args);
  setrlimit(RLIMIT_FSIZE, &old);
  signal(SIGXFSZ, prev);
  return rc;
}

// 1 if the solution file's x holds n values that are not all zero
static int solution_has_x(const char *name, long n) {
  hid_t f = hostile_h5_open(name);
  if (f < 0) return 0;
  double *x = calloc((size_t)n, sizeof *x);
  hid_t ds = H5Dopen2(f, "x", H5P_DEFAULT);
  int ok = ds >= 0 && H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x) >= 0;
  int nonzero = 0;
  for (long i = 0; ok && i < n; i++) nonzero |= x[i] != 0.0;
  if (ds >= 0) H5Dclose(ds);
  H5Fclose(f);
  free(x);
  return ok && nonzero;
}

// A solution that cannot be written is an error and leaves no file; one that is
// written holds the solution (a limit every 64 bytes up to the file's size)
static void test_solution_write_error(void **state) {
  (void)state;
  assert_int_equal(test_run((const char *[]){"qcp", "gen", "stack", "20", "P.h5", NULL}), 0);
  assert_int_equal(test_run((const char *[]){"qcp", "solve", "P.h5", "-o", "S.h5", NULL}), 0);
  long size = hostile_state("S.h5").size, failed = 0;
  assert_true(solution_has_x("S.h5", 180));
  for (long bytes = 1024; bytes <= size + 64; bytes += 64) {
    char sol[600];
    test_path(sol, sizeof sol, "S.h5");
    unlink(sol);
    int rc = run_limited((const char *[]){"qcp", "solve", "P.h5", "-o", "S.h5", NULL}, bytes);
    if (rc == 0) {
      assert_true(solution_has_x("S.h5", 180));
      continue;
    }
    failed++;
    if (rc != 1 || !hostile_absent("S.h5") || !hostile_absent("S.h5.partial"))
      printf("  qcp solve -o S.h5 under %ld bytes -> %d: %s", bytes, rc, test_output);
    assert_int_equal(rc, 1);
    assert_true(hostile_says("S.h5", NULL));
    assert_true(hostile_absent("S.h5") && hostile_absent("S.h5.partial"));
  }
  printf("  %ld of the limits below %ld bytes failed cleanly\n", failed, size);
  assert_true(failed > 0);
  // a full disk (tmpfs of 64 kB filled to leave 0 to 24 kB)
  if (hostile_tmpfs_mount("tm", 64) != 0) {
    printf("  no tmpfs here: the full-disk half is skipped\n");
    return;
  }
  for (long fill = 40; fill <= 64; fill++) {
    char sol[600];
    test_path(sol, sizeof sol, "tm/S.h5");
    unlink(sol);
    hostile_filler("tm/fill", fill);
    int rc = test_run((const char *[]){"qcp", "solve", "P.h5", "-o", "tm/S.h5", NULL});
    printf("  full disk, %ld kB filled -> %d\n", fill, rc);
    if (rc == 0) {
      assert_true(solution_has_x("tm/S.h5", 180));
    } else {
      assert_int_equal(rc, 1);
      assert_true(hostile_absent("tm/S.h5") && hostile_absent("tm/S.h5.partial"));
    }
  }
  hostile_tmpfs_umount("tm");
}

// A merge that fails at any point keeps the old output and the parts; --resume ends it
static void test_merge_write_error(void **state) {
  (void)state;
  const char *sweep[] = {"sweep", "smd", "--set", "h=1e-3,2e-3,3e-3", "--set", "T=0.01", "-o",
                         "sw.h5", NULL,  NULL};
  assert_int_equal(test_run(sweep), 0);
  file_state before = hostile_state("sw.h5");
  for (long kb = 12; kb <= 18; kb += 2) {
    sweep[8] = kb == 12 ? NULL : "--resume";  // the parts of the failed merge are reused
    int rc = run_limited(sweep, kb * 1024);
    printf("  sweep under %ld kB -> %d: %s", kb, rc, test_output);
    assert_int_equal(rc, 1);
    assert_true(hostile_says("merging the sweep into 'sw.h5' failed", "--resume", NULL));
    assert_true(hostile_unchanged("sw.h5", &before));
    assert_true(hostile_absent("sw.h5.partial"));
  }
  sweep[8] = "--resume";
  assert_int_equal(test_run(sweep), 0);  // --resume without the limit merges
  assert_true(hostile_absent("sw.h5.parts"));
}

// Counts are whole numbers in range, refused with the value and the range
static void test_count_parameters(void **state) {
  (void)state;
  const char *bad[][2] = {{"stack", "n=4294967297"},
                          {"stack", "n=2.5"},
                          {"claims", "hessian_N=536870912"},
                          {"stack", "n=1e300"}};
  const char *says[] = {"4294967297", "2.5", "536870912", "1e+300"};
  for (int i = 0; i < 4; i++) {
    int rc = test_run((const char *[]){"run", bad[i][0], "--set", bad[i][1], "-o", "n.h5", NULL});
    printf("  run %s --set %s -> %d: %s", bad[i][0], bad[i][1], rc, test_output);
    assert_int_equal(rc, 2);
    assert_true(hostile_says(says[i], "whole number in 1..", NULL));
    assert_true(hostile_absent("n.h5"));
  }
}

// ---- Files that crash libhdf5 itself

// reads one object's attributes and, if it is a small dataset, its values: what a reader does
static herr_t walk_object(hid_t loc, const char *name, const H5O_info_t *info, void *data) {
  (void)info, (void)data;
  hid_t o = H5Oopen(loc, name, H5P_DEFAULT);
  if (o < 0) return 0;
  static unsigned char buf[1 << 20];
  const int na = H5Aget_num_attrs(o);
  for (int i = 0; i < na && i < 4096; i++) {
    hid_t a = H5Aopen_by_idx(o, ".", H5_INDEX_CRT_ORDER, H5_ITER_INC, (hsize_t)i, H5P_DEFAULT,
                             H5P_DEFAULT);
    if (a < 0)
      a = H5Aopen_by_idx(o, ".", H5_INDEX_NAME, H5_ITER_INC, (hsize_t)i, H5P_DEFAULT, H5P_DEFAULT);
    if (a < 0) continue;
    hid_t t = H5Aget_type(a);
    if (t >= 0 && H5Aget_storage_size(a) <= sizeof buf && H5Tget_class(t) != H5T_STRING)
      H5Aread(a, t, buf);
    if (t >= 0) H5Tclose(t);
    H5Aclose(a);
  }
  if (H5Iget_type(o) == H5I_DATASET && H5Dget_storage_size(o) <= sizeof buf) {
    hid_t t = H5Dget_type(o);
    if (t >= 0 && H5Tget_class(t) == H5T_FLOAT && H5Tget_size(t) == 8)
      H5Dread(o, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
    if (t >= 0) H5Tclose(t);
  }
  H5Oclose(o);
  return 0;
}

// 1 if libhdf5 itself dies reading the file (an oracle independent of stabcon's own probe): a
// child opens it and walks every object with libhdf5's own visitor
static int crashes_libhdf5(const char *path) {
  pid_t pid = fork();
  if (pid == 0) {
    // cmocka's handlers would catch the crash and run the rest of the suite in this child
    const int fatal[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
    for (size_t k = 0; k < sizeof fatal / sizeof *fatal; k++) signal(fatal[k], SIG_DFL);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, 2);  // libhdf5's and the sanitizer's reports are not ours here
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f >= 0) H5Ovisit2(f, H5_INDEX_NAME, H5_ITER_INC, walk_object, NULL, H5O_INFO_BASIC);
    _exit(0);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) < 0) return 0;
  return WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) != 0);
}

static uint64_t mutation_state = 0x9e3779b97f4a7c15ULL;  // fixed seed: the same files every run

static uint64_t mutation_rng(void) {  // xorshift64*
  mutation_state ^= mutation_state >> 12;
  mutation_state ^= mutation_state << 25;
  mutation_state ^= mutation_state >> 27;
  return mutation_state * 2685821657736338717ULL;
}

// a copy of base with 1 to 8 random bytes set to a boundary value (0, 1, 0x7f, 0xff)
static void mutate_copy(const unsigned char *base, size_t len, unsigned char *out) {
  static const unsigned char values[] = {0, 1, 0x7f, 0xff};
  memcpy(out, base, len);
  for (int k = 0, n = 1 + (int)(mutation_rng() % 8); k < n; k++)
    out[mutation_rng() % len] = values[mutation_rng() % 4];
}

static size_t read_all(const char *path, unsigned char *buf, size_t cap) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  size_t n = fread(buf, 1, cap, f);
  fclose(f);
  return n;
}

static void write_all(const char *path, const unsigned char *buf, size_t n) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(buf, 1, n, f), n);
  assert_int_equal(fclose(f), 0);
}

// Results files mutated here (seeded) until libhdf5 itself dies reading three of them; each is
// refused as corrupt by every reading command (exit 2, no signal, no sanitizer report)
static void test_corrupt_hdf5(void **state) {
  (void)state;
  assert_int_equal(test_run((const char *[]){"sweep", "smd", "--set", "h=1e-3,2e-3", "--set",
                                             "T=0.01", "-o", "base-sweep.h5", NULL}),
                   0);
  char base_path[600], mut_path[600];
  test_path(base_path, sizeof base_path, "base-sweep.h5");
  static unsigned char base[1 << 18], mutated[1 << 18];
  const size_t len = read_all(base_path, base, sizeof base);
  assert_true(len > 0 && len < sizeof base);
  int found = 0, tried = 0;
  for (; tried < 2000 && found < 3; tried++) {
    char name[32];
    snprintf(name, sizeof name, "crash%d.h5", found + 1);
    test_path(mut_path, sizeof mut_path, name);
    mutate_copy(base, len, mutated);
    write_all(mut_path, mutated, len);
    if (!crashes_libhdf5(mut_path)) continue;
    found++;
    const char *const cmds[][6] = {{"info", name, NULL},
                                   {"export", name, NULL},
                                   {"compare", name, name, NULL},
                                   {"plot", name, "-d", "figs3", NULL}};
    for (size_t k = 0; k < sizeof cmds / sizeof *cmds; k++) {
      int rc = test_run(cmds[k]);
      printf("  %s %s (mutation %d) -> %d: %s", cmds[k][0], name, tried, rc, test_output);
      assert_int_equal(rc, 2);
      assert_true(hostile_says(name, "corrupt", NULL));
      assert_null(strstr(test_output, "Sanitizer"));
    }
  }
  printf("  %d of %d mutated files crash libhdf5 itself\n", found, tried);
  assert_int_equal(found, 3);  // the premise: such files exist (libhdf5 1.10 has these crashes)
}

// Messages say which command and what is wrong
static void test_clear_errors(void **state) {
  (void)state;
  make_results("g.h5");
  hid_t f = hostile_h5_open("g.h5");
  char c[256];
  hostile_first_case(f, c, sizeof c);
  H5Fclose(f);
  int rc = test_run((const char *[]){"export", "g.h5", "--case", c, "--group", "", NULL});
  assert_int_equal(rc, 2);
  assert_true(hostile_says("--group ''", NULL));
  // a failed bench maros --plot (its directory under a regular file) is a failure
  char hs21[600];
  hs21_path(hs21, sizeof hs21);
  make_dir("m15");
  copy_file(hs21, "m15/HS21.mat");
  rc = test_run((const char *[]){"bench", "maros", "--dir", "m15", "--output", "m15.h5", "--plot",
                                 "g.h5/figs", NULL});
  printf("  bench maros --plot g.h5/figs -> %d\n", rc);
  assert_int_equal(rc, 1);
  assert_true(hostile_says("could not be drawn", NULL));
  // an HDF5 problem with a .mat solution name is solved as HDF5
  assert_int_equal(test_run((const char *[]){"qcp", "gen", "stack", "5", "P15.h5", NULL}), 0);
  rc = test_run((const char *[]){"qcp", "solve", "P15.h5", "-o", "S15.mat", NULL});
  printf("  qcp solve P15.h5 -o S15.mat -> %d: %s", rc, test_output);
  assert_int_equal(rc, 0);
  // an option's value before the problem is not taken for the problem
  rc = test_run((const char *[]){"qcp", "solve", "--cold-rho", "1", "m15/HS21.mat", NULL});
  printf("  qcp solve --cold-rho 1 m15/HS21.mat -> %d: %s", rc, test_output);
  assert_int_equal(rc, 0);
  assert_true(hostile_says("HS21", NULL));
}

// A second interrupt stops a sweep at once; the finished point is kept and --resume
// completes the sweep
static void test_second_interrupt(void **state) {
  (void)state;
  const char *sweep[] = {"sweep",  "smd", "--set", "T=0.01,600", "--set",
                         "h=1e-6", "-o",  "si.h5", NULL,         NULL};
  char log[600];
  test_path(log, sizeof log, "si.log");
  pid_t pid = test_spawn(sweep, log);
  sleep(3);  // the first point (T = 0.01) is done, the second (6e8 steps: minutes) runs
  kill(pid, SIGINT);
  sleep(1);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  kill(pid, SIGINT);
  int rc = test_wait(pid, log);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  printf("  second interrupt -> exit %d after %.2f s: %s", rc, secs, test_output);
  assert_true(secs < 2);
  assert_int_equal(rc, 1);
  assert_true(hostile_says("--resume", NULL));
  assert_true(hostile_absent("si.h5"));
  assert_true(hostile_absent("si.h5.parts/g00001.h5.partial"));
  file_state kept = hostile_state("si.h5.parts/g00000.h5");
  assert_true(kept.exists);
}

// two reproduce runs into one results folder: the second stops before writing anything (it
// would replace the first one's files half-written), and the folder is free again afterwards
static void test_reproduce_twice(void **state) {
  (void)state;
  const char *args[] = {"reproduce", "--only",    "smd_explicit", "--results",
                        "rl",        "--figures", "rl_fig",       NULL};
  char dir[600], lock[700];
  test_path(dir, sizeof dir, "rl");
  assert_int_equal(mkdir(dir, 0755), 0);
  snprintf(lock, sizeof lock, "%s/.reproduce.lock", dir);
  int fd = open(lock, O_RDWR | O_CREAT, 0644);  // this process stands for the first run
  assert_true(fd >= 0);
  struct flock whole = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
  assert_int_equal(fcntl(fd, F_SETLK, &whole), 0);
  int rc = hostile_run_stdout(args, NULL);
  printf("  second reproduce -> exit %d: %s", rc, test_output);
  assert_int_equal(rc, 1);
  assert_true(hostile_says("another reproduce is writing into", "rl", NULL));
  assert_true(hostile_absent("rl/smd_explicit.h5"));
  assert_true(hostile_absent("rl/REPORT.md.partial"));
  close(fd);  // the first run ends
  assert_int_equal(hostile_run_stdout(args, NULL), 0);
  assert_true(hostile_state("rl/smd_explicit.h5").exists);
}

// a second run writing the same results file while the first still writes it: refused (its
// partial file is another live writer's, not a stale one to remove), the first run unharmed
static void test_same_output_twice(void **state) {
  (void)state;
  const char *slow[] = {"run", "smd", "--set", "T=600", "--set", "h=1e-6", "-o", "tw.h5", NULL};
  const char *quick[] = {"run", "smd", "--set", "T=0.01", "-o", "tw.h5", NULL};
  char log[600];
  test_path(log, sizeof log, "tw.log");
  pid_t pid = test_spawn(slow, log);
  sleep(2);  // the first run's partial file exists and is being written
  file_state first = hostile_state("tw.h5.partial");
  assert_true(first.exists);
  int rc = hostile_run_stdout(quick, NULL);
  printf("  second run -> exit %d: %s", rc, test_output);
  assert_int_equal(rc, 1);
  assert_true(hostile_says("tw.h5.partial", "another stabcon is writing it", NULL));
  file_state still = hostile_state("tw.h5.partial");
  assert_true(still.exists && still.ino == first.ino);  // not removed, not replaced
  assert_true(hostile_absent("tw.h5"));
  kill(pid, SIGINT);
  test_wait(pid, log);
}

static int setup(void **state) {
  (void)state;
  return test_dir_create("hostile-cmds");
}

static int teardown(void **state) {
  (void)state;
  hostile_tmpfs_umount("tm");  // if a failed assertion left it mounted
  return test_dir_remove();
}

int main(int argc, char **argv) {
  if (argc < 3 || hostile_init(argv[1]) != 0) {
    fprintf(stderr, "usage: test_hostile_cmds PATH-TO-STABCON MAROS-DIR\n");
    return 1;
  }
  maros_dir = argv[2];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gnuplot_names),        cmocka_unit_test(test_bench_outputs),
      cmocka_unit_test(test_compare_everything),   cmocka_unit_test(test_export_all_series),
      cmocka_unit_test(test_solution_write_error), cmocka_unit_test(test_merge_write_error),
      cmocka_unit_test(test_count_parameters),     cmocka_unit_test(test_corrupt_hdf5),
      cmocka_unit_test(test_clear_errors),         cmocka_unit_test(test_second_interrupt),
      cmocka_unit_test(test_reproduce_twice),      cmocka_unit_test(test_same_output_twice),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
