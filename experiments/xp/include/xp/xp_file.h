// SPDX-License-Identifier: MIT
// Reading stabcon results files: provenance, cases, series; `info` and CSV export.
#ifndef XP_XP_FILE_H
#define XP_XP_FILE_H

#include "xp/xp.h"

#include <stdio.h>

// An open results file (read-only).
typedef struct xp_file xp_file;

// Opens path; NULL with a message naming the file if it is unreadable, not HDF5, or not a
// stabcon results file (no format_version attribute).
xp_file *xp_file_open(const char *path, xp_error *err);
void xp_file_close(xp_file *f);

// A root attribute (provenance or experiment) as text into buf; 0 ok, -1 if absent.
int xp_file_attr(const xp_file *f, const char *name, char *buf, size_t len);
// A run parameter (/params) as text; 0 ok, -1 if absent.
int xp_file_param(const xp_file *f, const char *key, char *buf, size_t len);
// Cases in the order they were written.
size_t xp_file_case_count(const xp_file *f);
const char *xp_file_case_name(const xp_file *f, size_t i);
// Case status ("ok", "diverged", …) into buf; 0 ok, -1 if the case is unknown.
int xp_file_case_status(const xp_file *f, const char *case_name, char *buf, size_t len);
// A numeric case statistic or parameter; 0 ok, -1 if absent or not numeric.
int xp_file_case_stat(const xp_file *f, const char *case_name, const char *key, double *value);
int xp_file_case_param(const xp_file *f, const char *case_name, const char *key, double *value);
// Unit of a case statistic or parameter (its "<key>.unit" attribute); 0 ok, -1 if none.
int xp_file_case_unit(const xp_file *f, const char *case_name, const char *key, char *buf,
                      size_t len);
// Reads a series into a new array (*data, caller frees); returns its length, or -1 if absent.
long xp_file_series_read(const xp_file *f, const char *case_name, const char *series,
                         double **data);

// Prints provenance, parameters and the case list (`stabcon info`).
void xp_file_info(const xp_file *f, FILE *out);
// CSV, header first: one row per case, columns case,status,<case params>,<stats>.
int xp_file_export_summary_csv(const xp_file *f, FILE *out, xp_error *err);
// CSV of a case's series of one length (the `group`-th distinct length, 0 = the length of the
// first series), one column per series. Returns XP_OK, XP_ERR_USAGE if the case or group
// does not exist. *n_groups (if non-NULL) receives the number of distinct lengths.
int xp_file_export_case_csv(const xp_file *f, const char *case_name, size_t group, FILE *out,
                            size_t *n_groups, xp_error *err);
// Name of the first series of length-group `group` of a case, into buf (for file naming).
int xp_file_case_group_name(const xp_file *f, const char *case_name, size_t group, char *buf,
                            size_t len);

// Exports what a figure needs into datadir (cases.txt: one case name a line; summary.csv;
// <case>.csv per case, <case>.<series>.csv for series of other lengths). Creates datadir.
int xp_file_export_for_plot(const xp_file *f, const char *datadir, xp_error *err);

// Draws the figures of a results file: exports its data under <outdir>/data/<stem>/ and runs
// the experiment's gnuplot script (found in $STABCON_PLOTS_DIR or the source tree's plots/)
// with datadir, outdir and stem set; the script writes <outdir>/<stem>*.png and .svg.
// stem is the file's basename without ".h5"; x is the experiment the file's `experiment`
// attribute names, looked up by the caller (NULL: unknown, refused). XP_OK, XP_ERR_USAGE (bad
// file), XP_ERR_RUN.
int xp_plot_file(const char *path, const xp_experiment *x, const char *outdir, xp_error *err);
// As xp_plot_file; for a sweep, ycol (if non-NULL) names the statistic plotted against the swept
// parameter instead of the experiment's error (e.g. "wall_time" for cost against N).
int xp_plot_file_y(const char *path, const xp_experiment *x, const char *outdir, const char *ycol,
                   xp_error *err);

// File-name-safe form of a case name (the <case> of <case>.csv): '/', whitespace and control
// characters become '_'.
void xp_plot_case_file_name(char *out, size_t len, const char *name);
// Writes gnuplot datablocks into out: $stabcon_cases (file-safe case names), $stabcon_methods
// (distinct values of the cases' `method` parameter, "nan" for a case without one) and, if
// with_stats, $stabcon_stats (one line "<case>\t<key>\t<value>" per status, parameter and
// statistic). Every line starts with ':' and control characters are written as '?', so no value
// can end a block early: plots/common.gp reads them as data, never as commands.
int xp_file_plot_blocks(const xp_file *f, FILE *out, int with_stats, xp_error *err);
// One datablock line of the fields (tab-separated), as described above.
void xp_plot_block_line(FILE *out, const char *const *fields, size_t n);
// Runs `gnuplot META SCRIPT` (file names in argv, never parsed as commands); gnuplot's exit
// status, 127 if it is not installed, −1 if it could not start.
int xp_plot_run_gnuplot(const char *meta, const char *script);

// Walks an untrusted HDF5 file in a child process first (xp_isolate.c): XP_OK if libhdf5
// survived reading every object of it (errors are left to the caller's reader), XP_ERR_USAGE
// "corrupt HDF5 file" naming path if libhdf5 crashed. xp_file_open does this itself.
int xp_h5_probe(const char *path, xp_error *err);

// Creates a directory and its parents (like mkdir -p); 0 ok, -1 with errno set.
int xp_mkdir_p(const char *path);

// Names of a case's entries in group "params", "stats" (attributes, without their ".unit"
// companions) or "series" (datasets), in stored order, into names (at most cap); their count.
size_t xp_file_case_entries(const xp_file *f, const char *case_name, const char *group,
                            char (*names)[256], size_t cap);
// A case parameter or statistic (group "params" or "stats") as text; 0 ok, −1 if absent.
int xp_file_case_text(const xp_file *f, const char *case_name, const char *group, const char *key,
                      char *buf, size_t len);
// Writes every difference between two results files to report (one line each: cases, statuses,
// case parameters, statistics and series bit for bit, with the largest difference; timings —
// names with time, wall, cpu or us_per_step — aside), classed as changed, only in A, only in B.
// Returns the
// number of differences, or −1 (message in err) if a file cannot be read.
long xp_results_compare_report(const char *path_a, const char *path_b, FILE *report, xp_error *err);

#endif  // XP_XP_FILE_H
