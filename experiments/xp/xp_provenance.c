// SPDX-License-Identifier: MIT
// Provenance of a run (SPEC §6): versions, build, host, CPU, time and command line.
#include "xp/xp.h"
#include "xp_internal.h"

#include "stabcon_config.h"
#include "stabcon_git.h"

#include <gsl/gsl_version.h>
#include <hdf5.h>
#include <stdio.h>
#include <string.h>
#include <sundials/sundials_config.h>
#include <time.h>
#include <unistd.h>

void xp_library_init(void) { H5dont_atexit(); }

// first "model name" line of /proc/cpuinfo, or "unknown"
static void cpu_model(char *buf, size_t len) {
  snprintf(buf, len, "unknown");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "model name", 10) != 0) continue;
    const char *colon = strchr(line, ':');
    if (!colon) continue;
    colon++;
    while (*colon == ' ') colon++;
    snprintf(buf, len, "%s", colon);
    buf[strcspn(buf, "\n")] = '\0';
    break;
  }
  fclose(f);
}

static void hdf5_version(char *buf, size_t len) {
  unsigned maj = 0, min = 0, rel = 0;
  H5get_libversion(&maj, &min, &rel);
  snprintf(buf, len, "%u.%u.%u", maj, min, rel);
}

void xp_environment_describe(char *buf, size_t len) {
  char cpu[256], h5[32];
  cpu_model(cpu, sizeof cpu);
  hdf5_version(h5, sizeof h5);
  snprintf(buf, len,
           "- stabcon %s (git %s)\n- CPU: %s (%ld cores online)\n- compiler: %s\n"
           "- build: %s\n- SUNDIALS %s, GSL %s, HDF5 %s\n",
           STABCON_VERSION, STABCON_GIT, cpu, sysconf(_SC_NPROCESSORS_ONLN), STABCON_COMPILER,
           STABCON_BUILD_OPTIONS, SUNDIALS_VERSION, GSL_VERSION, h5);
}

// the 1, 5 and 15 minute load averages from /proc/loadavg ("unknown" elsewhere): timings on a
// shared machine are read against it
static void load_average(char *buf, size_t len) {
  snprintf(buf, len, "unknown");
  FILE *f = fopen("/proc/loadavg", "r");
  if (!f) return;
  double a = 0, b = 0, c = 0;
  if (fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3) snprintf(buf, len, "%.2f %.2f %.2f", a, b, c);
  fclose(f);
}

int xp_provenance_write(hid_t file, int argc, char *const *argv) {
  char host[256] = "unknown", cpu[256], h5[32], when[64], cmd[4096] = "";
  gethostname(host, sizeof host - 1);
  cpu_model(cpu, sizeof cpu);
  hdf5_version(h5, sizeof h5);
  time_t now = time(NULL);
  struct tm utc;
  gmtime_r(&now, &utc);
  strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &utc);
  for (int i = 0; i < argc; i++) {
    size_t used = strlen(cmd);
    snprintf(cmd + used, sizeof cmd - used, "%s%s", i ? " " : "", argv[i]);
  }
  const char *git = STABCON_GIT;
  int rc = 0;
  rc |= xp_h5_attr_int(file, "format_version", XP_FORMAT_VERSION);
  rc |= xp_h5_attr_string(file, "stabcon_version", STABCON_VERSION);
  rc |= xp_h5_attr_string(file, "git_sha", git);
  rc |= xp_h5_attr_int(file, "git_dirty", strstr(git, "dirty") != NULL);
  rc |= xp_h5_attr_string(file, "compiler", STABCON_COMPILER);
  rc |= xp_h5_attr_string(file, "build_options", STABCON_BUILD_OPTIONS);
  rc |= xp_h5_attr_string(file, "sundials_version", SUNDIALS_VERSION);
  rc |= xp_h5_attr_string(file, "gsl_version", GSL_VERSION);
  rc |= xp_h5_attr_string(file, "hdf5_version", h5);
  rc |= xp_h5_attr_string(file, "host", host);
  rc |= xp_h5_attr_string(file, "cpu", cpu);
  rc |= xp_h5_attr_string(file, "utc_time", when);
  rc |= xp_h5_attr_string(file, "command_line", cmd);
  char load[64];
  load_average(load, sizeof load);
  rc |= xp_h5_attr_string(file, "load_average", load);
  rc |= xp_h5_attr_int(file, "cpus_online", (int)sysconf(_SC_NPROCESSORS_ONLN));
  return rc ? -1 : 0;
}
