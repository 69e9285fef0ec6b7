// SPDX-License-Identifier: MIT
// Progress on stderr for long runs, only when stderr is a terminal.
#include "xp/xp.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double xp_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double xp_thread_cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void xp_progress_begin(xp_progress *pr, const char *label) {
  memset(pr, 0, sizeof *pr);
  pr->enabled = isatty(STDERR_FILENO);
  pr->t_start = xp_now();
  snprintf(pr->label, sizeof pr->label, "%s", label);
}

void xp_progress_update(xp_progress *pr, double fraction) {
  if (!pr || !pr->enabled) return;
  double now = xp_now();
  if (now - pr->last_draw < 0.1) return;
  pr->last_draw = now;
  if (fraction < 0) fraction = 0;
  if (fraction > 1) fraction = 1;
  double elapsed = now - pr->t_start;
  double eta = fraction > 1e-6 ? elapsed * (1 - fraction) / fraction : 0;
  char bar[31];
  int filled = (int)(fraction * 30);
  for (int i = 0; i < 30; i++) bar[i] = i < filled ? '#' : '.';
  bar[30] = '\0';
  fprintf(stderr, "\r%-24s [%s] %5.1f%%  %6.1fs elapsed  ETA %6.1fs", pr->label, bar,
          100 * fraction, elapsed, eta);
  fflush(stderr);
}

void xp_progress_end(xp_progress *pr) {
  if (!pr || !pr->enabled) return;
  fprintf(stderr, "\r%-24s done in %.2fs%40s\n", pr->label, xp_now() - pr->t_start, "");
}
