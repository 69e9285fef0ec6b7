// SPDX-License-Identifier: MIT
// The one gnuplot runner: every figure (xp_plot.c, xp_snapshot.c, bench maros) is drawn by
// `gnuplot META SCRIPT` in a child process, never through a shell.
#include "xp/xp_file.h"

#include <sys/wait.h>
#include <unistd.h>

// both arguments are file names that went through xp_gnuplot_path (never a pipe or an option);
// returns gnuplot's exit status or -1 if it could not start
int xp_plot_run_gnuplot(const char *meta, const char *script) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    execlp("gnuplot", "gnuplot", meta, script, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
