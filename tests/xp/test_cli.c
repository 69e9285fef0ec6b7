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
#include <sys/wait.h>
#include <unistd.h>

static const char *stabcon;
static char dir[256];
static char output[8192];

// runs stabcon with args (NULL-terminated) in dir; returns the exit code, output in `output`
static int run(const char *const *args) {
  char log[300];
  snprintf(log, sizeof log, "%s/log.txt", dir);
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    if (chdir(dir) != 0) _exit(99);
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)stabcon;
    for (; args[n - 1] && n < 31; n++) argv[n] = (char *)args[n - 1];
    argv[n] = NULL;
    execv(stabcon, argv);
    _exit(98);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  FILE *f = fopen(log, "r");
  size_t got = f ? fread(output, 1, sizeof output - 1, f) : 0;
  output[got] = '\0';
  if (f) fclose(f);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// number of entries in dir other than log.txt
static int files_in_dir(void) {
  char cmd[400];
  snprintf(cmd, sizeof cmd, "find '%s' -mindepth 1 ! -name log.txt | wc -l", dir);
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
      {{"run", "no_such_experiment", "-o", "x.h5", NULL}, "unknown experiment 'no_such_experiment'"},
      {{"run", "smd_explicit", "--set", "h=0", "-o", "x.h5", NULL}, "h=0"},
      {{"run", "smd_explicit", "--set", "h=-1e-3", "-o", "x.h5", NULL}, "h=-1e-3"},
      {{"run", "smd_explicit", "--set", "k=-5", "-o", "x.h5", NULL}, "k=-5"},
      {{"run", "smd_explicit", "--set", "b=abc", "-o", "x.h5", NULL}, "'abc' is not a finite number"},
      {{"run", "smd_explicit", "--set", "k=NaN", "-o", "x.h5", NULL}, "'NaN' is not a finite number"},
      {{"run", "smd_explicit", "--set", "T=inf", "-o", "x.h5", NULL}, "'inf' is not a finite number"},
      {{"run", "smd_explicit", "--set", "mu=1", "-o", "x.h5", NULL}, "unknown parameter 'mu'"},
      {{"run", "smd_explicit", "-o", "/nonexistent-dir/x.h5", NULL}, "/nonexistent-dir/x.h5"},
      {{"run", "smd_explicit", "--bogus", NULL}, "'--bogus'"},
      {{"info", "missing.h5", NULL}, "missing.h5"},
      {{"export", "missing.h5", NULL}, "missing.h5"},
      {{"plot", "missing.h5", NULL}, "missing.h5"},
      {{"frobnicate", NULL}, "unknown command 'frobnicate'"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int rc = run(cases[i].args);
    int ok = rc == 2 && strstr(output, cases[i].message_part) && files_in_dir() == 0;
    if (!ok)
      print_error("stabcon %s %s …: exit %d, files %d, output:\n%s\n", cases[i].args[0],
                  cases[i].args[1] ? cases[i].args[1] : "", rc, files_in_dir(), output);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(output, cases[i].message_part));
    assert_int_equal(files_in_dir(), 0);
  }
}

static void test_corrupt_file(void **state) {
  (void)state;
  char path[300];
  snprintf(path, sizeof path, "%s/corrupt.h5", dir);
  FILE *f = fopen(path, "w");
  fputs("\x89HDF\r\n garbage", f);
  fclose(f);
  assert_int_equal(run((const char *[]){"info", "corrupt.h5", NULL}), 2);
  assert_non_null(strstr(output, "corrupt.h5"));
  unlink(path);
}

static void test_good_path(void **state) {
  (void)state;
  assert_int_equal(run((const char *[]){"--version", NULL}), 0);
  assert_non_null(strstr(output, "stabcon "));
  assert_int_equal(run((const char *[]){"list", NULL}), 0);
  assert_non_null(strstr(output, "Fig 1"));
  assert_int_equal(run((const char *[]){"run", "smd_explicit", "--help", NULL}), 0);
  assert_non_null(strstr(output, "2.1e5"));
  assert_int_equal(run((const char *[]){"run", "smd_implicit", "--set", "T=0.01", "-o", "ok.h5", NULL}), 0);
  assert_int_equal(run((const char *[]){"info", "ok.h5", NULL}), 0);
  assert_non_null(strstr(output, "h=0.01_k=1e6_b=0"));
  assert_non_null(strstr(output, "T                  0.01"));
  assert_int_equal(run((const char *[]){"export", "ok.h5", "--case", "h=1e-5_k=1e6_b=0", NULL}), 0);
  assert_true(strncmp(output, "t,x,v,energy\n0,1,0,500000\n", 26) == 0);
  char path[300];
  snprintf(path, sizeof path, "%s/ok.h5", dir);
  unlink(path);
}

static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "/tmp/stabcon-test-cli-XXXXXX");
  return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_cli PATH-TO-STABCON\n");
    return 1;
  }
  // absolute: the runs chdir into a scratch directory
  static char resolved[4096];
  if (!realpath(argv[1], resolved)) {
    perror(argv[1]);
    return 1;
  }
  stabcon = resolved;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bad_input),
      cmocka_unit_test(test_corrupt_file),
      cmocka_unit_test(test_good_path),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
