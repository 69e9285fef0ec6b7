// SPDX-License-Identifier: MIT
// Sweeps through the CLI: determinism, resume after SIGKILL and after Ctrl-C (SIGINT) giving the
// same data as an uninterrupted sweep, a failing point recorded with its status while the sweep
// goes on, and refusal to mix different sweeps.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "xp/xp_file.h"
#include "xp/xp_sweep.h"

#include "cli_test_util.h"

static int count_parts(const char *parts) {
  DIR *d = opendir(parts);
  if (!d) return 0;
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    n += e->d_name[0] == 'g' && strstr(e->d_name, ".h5") && !strstr(e->d_name, ".partial");
  closedir(d);
  return n;
}

static void test_determinism(void **state) {
  (void)state;
  const char *a[] = {"sweep",    "smd",
                     "--method", "explicit,semi-implicit,implicit",
                     "--set",    "h=1e-4:1e-2:5:log",
                     "--set",    "k=100,1e4",
                     "-o",       "det1.h5",
                     NULL};
  const char *b[] = {"sweep",    "smd",
                     "--method", "explicit,semi-implicit,implicit",
                     "--set",    "h=1e-4:1e-2:5:log",
                     "--set",    "k=100,1e4",
                     "-o",       "det2.h5",
                     NULL};
  assert_int_equal(test_run(a), 0);
  assert_int_equal(test_run(b), 0);
  char pa[300], pb[300];
  test_path(pa, sizeof pa, "det1.h5");
  test_path(pb, sizeof pb, "det2.h5");
  xp_compare_summary sum;
  xp_error err = {.code = 0};
  int rc = xp_results_compare(pa, pb, &sum, &err);
  printf("determinism: %ld differences over %zu cases %s%s\n", sum.differences, sum.cases,
         sum.first, err.message);
  assert_int_equal(rc, 0);
  assert_int_equal(sum.cases, 30);
  // the comparison can fail: a different stiffness changes the data
  const char *c[] = {"sweep",    "smd",
                     "--method", "explicit,semi-implicit,implicit",
                     "--set",    "h=1e-4:1e-2:5:log",
                     "--set",    "k=100,1e5",
                     "-o",       "det3.h5",
                     NULL};
  assert_int_equal(test_run(c), 0);
  test_path(pb, sizeof pb, "det3.h5");
  assert_int_equal(xp_results_compare(pa, pb, &sum, &err), 1);
  printf("a different sweep: %ld differences, first: %s\n", sum.differences, sum.first);
  assert_true(sum.differences > 0 && sum.first[0]);
}

// interrupts a sweep once `after` parts exist, by signal sig; then resumes and compares
static void interrupt_and_resume(int sig, int after, const char *name) {
  char out[64], ref[64], parts[400], log[400], pa[400], pb[400];
  snprintf(out, sizeof out, "%s.h5", name);
  snprintf(ref, sizeof ref, "%s-ref.h5", name);
  snprintf(parts, sizeof parts, "%s/%s.parts", test_dir, out);
  snprintf(log, sizeof log, "%s/%s.log", test_dir, name);
  const char *max_points = "max_points=100";
  const char *args[] = {"sweep",    "smd",
                        "--method", "implicit,explicit",
                        "--set",    "h=1e-7:1e-6:6",
                        "--set",    "T=0.4",
                        "--set",    "k=1e4",
                        "--set",    max_points,
                        "-o",       out,
                        NULL};
  pid_t pid = test_spawn(args, log);
  struct timespec pause = {0, 20 * 1000 * 1000};
  for (int i = 0; i < 3000 && count_parts(parts) < after; i++) nanosleep(&pause, NULL);
  kill(pid, sig);
  int rc = test_wait(pid, log);
  int kept = count_parts(parts);
  printf("%s: interrupted by signal %d with %d of 12 points done (exit %d)\n", name, sig, kept, rc);
  assert_int_not_equal(rc, 0);
  assert_true(kept >= after && kept < 12);
  if (sig == SIGINT) assert_non_null(strstr(test_output, "--resume"));
  test_path(pa, sizeof pa, out);
  assert_int_not_equal(access(pa, F_OK), 0);  // no final file from an interrupted sweep
  // every finished part is a readable results file
  for (int i = 0; i < 12; i++) {
    char part[500];
    snprintf(part, sizeof part, "%s/g%05d.h5", parts, i);
    if (access(part, F_OK) != 0) continue;
    xp_error err;
    xp_file *f = xp_file_open(part, &err);
    assert_non_null(f);
    xp_file_close(f);
  }
  // without --resume the unfinished sweep is protected
  assert_int_equal(test_run(args), 2);
  assert_non_null(strstr(test_output, "--resume"));
  const char *resume[16];
  memcpy(resume, args, sizeof args);
  resume[14] = "--resume";
  resume[15] = NULL;
  assert_int_equal(test_run(resume), 0);
  assert_non_null(strstr(test_output, "already done"));
  // the reference: the same sweep uninterrupted
  const char *whole[] = {"sweep",    "smd",
                         "--method", "implicit,explicit",
                         "--set",    "h=1e-7:1e-6:6",
                         "--set",    "T=0.4",
                         "--set",    "k=1e4",
                         "--set",    max_points,
                         "-o",       ref,
                         NULL};
  assert_int_equal(test_run(whole), 0);
  test_path(pb, sizeof pb, ref);
  xp_compare_summary sum;
  xp_error cerr = {.code = 0};
  rc = xp_results_compare(pa, pb, &sum, &cerr);
  printf("%s resumed vs uninterrupted: %ld differences over %zu cases %s%s\n", name,
         sum.differences, sum.cases, sum.first, cerr.message);
  assert_int_equal(rc, 0);
  assert_int_not_equal(access(parts, F_OK), 0);  // parts removed after the merge
}

static void test_resume_after_sigkill(void **state) {
  (void)state;
  interrupt_and_resume(SIGKILL, 3, "killed");
}

static void test_resume_after_ctrl_c(void **state) {
  (void)state;
  interrupt_and_resume(SIGINT, 2, "interrupted");
}

static void test_failed_point_recorded(void **state) {
  (void)state;
  // h_max below h_min is refused by the stability-map run: that point fails, the others run
  const char *args[] = {"sweep", "smd_map", "--set",    "h_max=1e-7,1", "--set",   "n_h=5", "--set",
                        "n_k=5", "--set",   "steps=50", "-o",           "fail.h5", NULL};
  assert_int_equal(test_run(args), 0);
  char path[300], status[64];
  test_path(path, sizeof path, "fail.h5");
  xp_error err;
  xp_file *f = xp_file_open(path, &err);
  assert_non_null(f);
  assert_int_equal(xp_file_case_count(f), 4);  // 1 failed + 3 schemes
  assert_string_equal(xp_file_case_name(f, 0), "g00000_failed");
  xp_file_case_status(f, "g00000_failed", status, sizeof status);
  assert_string_equal(status, "failed");
  xp_file_case_status(f, "g00001_explicit", status, sizeof status);
  assert_string_equal(status, "ok");
  double h_max = 0;
  assert_int_equal(xp_file_case_param(f, "g00000_failed", "h_max", &h_max), 0);
  assert_true(h_max == 1e-7);
  xp_file_close(f);
}

// every experiment sweeps, and its sweep file draws a figure (the default y statistic exists);
// an unknown --y is refused with exit 2
static void test_every_experiment_sweeps_and_plots(void **state) {
  (void)state;
  const char *const grids[][5] = {
      {"pendulum", "h=0.01,0.005", "T_long=0", "p.h5", NULL},
      {"rom_pendulum", "h=1e-4,5e-5", "T=0.7", "r.h5", NULL},
      {"incline", "mu=0,0.25", "T=0.2", "i.h5", NULL},
      {"stack", "n=2,5", "T=0.1", "s.h5", NULL},
      {"spring_cylinder", "h=0.02,0.01", "levels=2", "c.h5", NULL},
      {"smd", "h=1e-3,1e-4", "T=0.1", "m.h5", NULL},
  };
  for (size_t i = 0; i < sizeof grids / sizeof *grids; i++) {
    int rc = test_run((const char *[]){"sweep", grids[i][0], "--set", grids[i][1], "--set",
                                       grids[i][2], "-o", grids[i][3], NULL});
    printf("sweep %-16s -> exit %d\n", grids[i][0], rc);
    assert_int_equal(rc, 0);
    rc = test_run((const char *[]){"plot", grids[i][3], "-d", "figs", NULL});
    printf("plot  %-16s -> exit %d%s%.200s\n", grids[i][0], rc, rc ? ": " : "",
           rc ? test_output : "");
    assert_int_equal(rc, 0);
  }
  int rc = test_run((const char *[]){"plot", "p.h5", "-d", "figs", "--y", "nosuch", NULL});
  assert_int_equal(rc, 2);
  assert_non_null(strstr(test_output, "no statistic 'nosuch'"));
}

static void test_bad_sweeps(void **state) {
  (void)state;
  assert_int_equal(test_run((const char *[]){"sweep", "nosuch", NULL}), 2);
  assert_non_null(strstr(test_output, "nosuch"));
  assert_int_equal(test_run((const char *[]){"sweep", "smd", "--set", "h=1:0:-3", NULL}), 2);
  assert_non_null(strstr(test_output, "h=1:0:-3"));
  assert_int_equal(test_run((const char *[]){"sweep", "smd", "--set", "h=0,1", NULL}), 2);
  assert_non_null(strstr(test_output, "h=0"));
  assert_int_equal(test_run((const char *[]){"sweep", "smd", "--method", "rk4", NULL}), 2);
  assert_non_null(strstr(test_output, "rk4"));
  assert_int_equal(test_run((const char *[]){"sweep", "smd", "--set", "h=-1:1:3:log", NULL}), 2);
}

static int setup(void **state) {
  (void)state;
  return test_dir_create("sweep");
}

static int teardown(void **state) {
  (void)state;
  return test_dir_remove();
}

int main(int argc, char **argv) {
  if (argc < 2 || test_stabcon_set(argv[1]) != 0) {
    fprintf(stderr, "usage: test_sweep PATH-TO-STABCON\n");
    return 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_determinism),
      cmocka_unit_test(test_resume_after_sigkill),
      cmocka_unit_test(test_resume_after_ctrl_c),
      cmocka_unit_test(test_failed_point_recorded),
      cmocka_unit_test(test_bad_sweeps),
      cmocka_unit_test(test_every_experiment_sweeps_and_plots),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
