// SPDX-License-Identifier: MIT
// Helpers shared by the tests that drive the stabcon executable.
#include "cli_test_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

char test_dir[256];
char test_output[16384];
static char stabcon[4096];

int test_dir_create(const char *tag) {
  snprintf(test_dir, sizeof test_dir, "/tmp/stabcon-test-%s-XXXXXX", tag);
  return mkdtemp(test_dir) ? 0 : -1;
}

int test_dir_remove(void) {
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", test_dir);
  return system(cmd) == 0 ? 0 : -1;
}

int test_stabcon_set(const char *path) { return realpath(path, stabcon) ? 0 : -1; }

void test_path(char *buf, size_t len, const char *name) {
  if (snprintf(buf, len, "%s/%s", test_dir, name) >= (int)len) buf[0] = '\0';
}

pid_t test_spawn(const char *const *args, const char *log) {
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    if (chdir(test_dir) != 0) _exit(99);
    char *argv[40];
    int n = 0;
    argv[n++] = stabcon;
    while (args[n - 1] && n < 39) argv[n] = (char *)args[n - 1], n++;
    argv[n] = NULL;
    execv(stabcon, argv);
    _exit(98);
  }
  return pid;
}

int test_wait(pid_t pid, const char *log) {
  int status = 0;
  waitpid(pid, &status, 0);
  FILE *f = fopen(log, "r");
  size_t got = f ? fread(test_output, 1, sizeof test_output - 1, f) : 0;
  test_output[got] = '\0';
  if (f) fclose(f);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int test_run(const char *const *args) {
  char log[300];
  test_path(log, sizeof log, "log.txt");
  return test_wait(test_spawn(args, log), log);
}
