// SPDX-License-Identifier: MIT
// results/REPORT.md: every regenerated figure and table beside what the paper reports.
#ifndef XP_XP_REPORT_H
#define XP_XP_REPORT_H

#include <stdio.h>

#include "xp/xp.h"

// Writes the report's header (what was run, when, how to read it).
void xp_report_begin(FILE *md, int full);
// Writes one experiment's section: title, figure link (relative to the report), then the
// experiment's own report callback or a generic case table; `failed` marks a run that failed.
void xp_report_experiment(FILE *md, const xp_experiment *x, const char *results_path,
                          const char *figure_rel, int failed, double seconds);
// A Markdown table of the given case statistics (or numeric parameters), one row per case whose
// name contains `filter` (NULL: every case): case, status, then each key (blank where absent).
struct xp_file;
void xp_report_stats_table(FILE *md, const struct xp_file *f, const char *filter, size_t nkeys,
                           const char *const *keys, const char *const *headers);
// Writes the environment footer (CPU, compiler, library versions, build options).
void xp_report_end(FILE *md, double total_seconds);

#endif  // XP_XP_REPORT_H
