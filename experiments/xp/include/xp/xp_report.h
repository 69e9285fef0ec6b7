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
// A Markdown table as data — its columns (headings, alignment) and rows of cells — rendered by
// xp_table_write, the one writer of the studies' tables: a study fills cells from its results
// file and never prints table syntax itself.
#define XP_TABLE_CELL 96
typedef struct xp_table {
  size_t ncols;
  const char *const *headings;
  const char *align;  // one letter per column, 'l' (---) or 'r' (---:); NULL: every column ---
  size_t cells, cap;  // cells filled (rows × ncols as they come) and allocated
  int failed;         // 1 if a cell could not be stored (out of memory): the table says so
  char (*cell)[XP_TABLE_CELL];
} xp_table;
// An empty table of ncols columns (headings and align are borrowed).
void xp_table_init(xp_table *t, size_t ncols, const char *const *headings, const char *align);
// Appends one cell, printf-formatted (cut at XP_TABLE_CELL − 1 bytes); cells fill the rows in
// reading order, a new row after every ncols cells.
void xp_table_cell(xp_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// Writes the table: heading row, alignment row, the complete rows.
void xp_table_write(const xp_table *t, FILE *md);
void xp_table_free(xp_table *t);

// Writes the environment footer (CPU, compiler, library versions, build options).
void xp_report_end(FILE *md, double total_seconds);

#endif  // XP_XP_REPORT_H
