// SPDX-License-Identifier: MIT
// The stiffness study's slices of the method matrix and its report (xp_stiffness_report.c), shared
// with its runs (xp_stiffness.c). Private to drivers/.
#ifndef DRIVERS_XP_STIFFNESS_H
#define DRIVERS_XP_STIFFNESS_H

#include <stdio.h>

#include "xp/xp.h"

// One scenario of the study: the matrix scenario, its stiffness parameter and fixed settings.
typedef struct st_slice {
  const char *label;        // case prefix and CLI name
  const char *scenario;     // sim scenario
  const char *stiffness;    // the parameter swept (Pa)
  const char *settings[4];  // fixed "key=value" settings (NULL-terminated)
  const char *what;         // one line for the report
} st_slice;

enum { ST_NSLICES = 4, ST_MAX_METHODS = 16 };
extern const st_slice st_slices[ST_NSLICES];

// The REPORT section of a stiffness results file: text, crossover table, speed-up table, the
// per-scenario tables.
int st_report(const char *path, FILE *md, xp_error *err);

#endif  // DRIVERS_XP_STIFFNESS_H
