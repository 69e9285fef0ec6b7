// SPDX-License-Identifier: MIT
// xp — experiment infrastructure: parameters, the experiment registry, HDF5 results with
// provenance, progress reporting. Every study flows scenario → run → HDF5 → figure/table.
#ifndef XP_XP_H
#define XP_XP_H

#include <stddef.h>
#include <stdio.h>

#include "common/sc_error.h"
#include "xp/xp_params.h"

// ---- results (HDF5, SPEC §6) ----------------------------------------------

// Call first in main, before any HDF5 use: HDF5 installs no exit-time cleanup, which would
// otherwise crash on a file whose close already failed (a full disk) instead of exiting cleanly.
void xp_library_init(void);

// One results file. Written to "<path>.partial" and renamed to path by xp_results_commit, so a
// reader never sees a half-written file at path. Every finished case is flushed to disk.
typedef struct xp_results xp_results;
// One case (a group "/cases/<name>") of a results file.
typedef struct xp_case xp_case;

// Creates the file with root provenance attributes (SPEC §6), the experiment's name and paper
// reference, and the run's parameters.
// argv is the command line recorded in provenance. NULL on error (message in err).
typedef struct xp_experiment xp_experiment;
xp_results *xp_results_create(const char *path, const xp_experiment *x, const xp_params *params,
                              int argc, char *const *argv, xp_error *err);
// Closes and renames the file into place. Returns XP_OK or XP_ERR_RUN (message in err);
// on error the partial file is removed. Frees r in every case.
int xp_results_commit(xp_results *r, xp_error *err);
// Closes and deletes the partial file (used when a run is aborted). Frees r.
void xp_results_abort(xp_results *r);

// Begins a case; NULL if the file cannot take it (message available from xp_results_error).
xp_case *xp_case_begin(xp_results *r, const char *name);
// Case parameters (attributes of "/cases/<name>/params").
void xp_case_param_real(xp_case *c, const char *key, double value, const char *unit);
void xp_case_param_string(xp_case *c, const char *key, const char *value);
// A series: 1-D double dataset "/cases/<name>/series/<series>" with a `unit` attribute.
// Series that share a length form one table in `stabcon export`.
void xp_case_series(xp_case *c, const char *name, const char *unit, const double *data, size_t n);
// Per-body history of a scene: a double array "/cases/<name>/bodies/<array>" of rank 1..3 with
// a `unit` attribute, and scene attributes on that group (text, or value when text is NULL);
// the layout is in xp_results.c.
void xp_case_bodies_array(xp_case *c, const char *name, const char *unit, const double *data,
                          int rank, const size_t *dims);
void xp_case_bodies_attr(xp_case *c, const char *key, const char *text, double value);
// Summary statistics (attributes of "/cases/<name>/stats").
void xp_case_stat_real(xp_case *c, const char *key, double value, const char *unit);
// Status of the case: "ok", or a numerical outcome ("diverged", "max-iterations",
// "did-not-finish", "failed"); message may be NULL.
void xp_case_status(xp_case *c, const char *status, const char *message);
// Writes the case to disk (flush). Returns XP_OK, or XP_ERR_RUN if anything in the case failed
// to write (e.g. disk full; message from xp_results_error).
int xp_case_end(xp_case *c);
// Last I/O error message of r ("" if none).
const char *xp_results_error(const xp_results *r);

// ---- progress -------------------------------------------------------------

// Progress on stderr, drawn only when stderr is a terminal; all calls are no-ops otherwise.
typedef struct xp_progress {
  int enabled;
  double t_start;
  double last_draw;
  char label[64];
} xp_progress;

void xp_progress_begin(xp_progress *pr, const char *label);
// fraction in [0, 1]; redraws at most ~10 times a second.
void xp_progress_update(xp_progress *pr, double fraction);
void xp_progress_end(xp_progress *pr);

// ---- experiments ----------------------------------------------------------

// A registered experiment: a paper figure or table regenerated from one run.
struct xp_experiment {
  const char *name;       // CLI name, e.g. "smd_explicit"
  const char *paper_ref;  // what it regenerates, e.g. "Paper A §3.1.1, Fig 1"
  const char *summary;    // one line
  const xp_param_def *params;
  size_t n_params;
  // Runs all cases into out. Returns XP_OK, or XP_ERR_RUN only for an I/O failure;
  // numerical failure of a case is a case status, not an error.
  int (*run)(const xp_params *params, xp_results *out, xp_progress *progress, xp_error *err);
  const char *plot_script;  // gnuplot script in plots/ ("smd_explicit.gp") or NULL
  const char *error_stat;   // statistic a sweep's figure plots by default: the error against the
                            // reference where there is one (NULL: "error_final"); `plot --y`
                            // picks another
  // Optional: writes this experiment's section of results/REPORT.md (Markdown, the measured
  // numbers beside the paper's) from its stored results file. NULL: a generic case table.
  int (*report)(const char *results_path, FILE *md, xp_error *err);
  // Optional: NULL-terminated "key=value" settings `reproduce --full` applies (the paper's exact
  // sizes where the default is reduced to finish in minutes).
  const char *const *full_size;
  int in_reproduce;  // 1: part of `stabcon reproduce`
  // Optional: NULL-terminated "key=value" defaults of this experiment for parameters declared by
  // a shared list (the method settings, sim.h), where the study's own default differs.
  const char *const *defaults;
};

// Fills p with the experiment's declared parameters at its defaults (x->defaults applied).
// XP_OK or XP_ERR_USAGE (a bad default: a bug), message in err.
int xp_experiment_params_init(const xp_experiment *x, xp_params *p, xp_error *err);

// NULL-terminated registry of the paper studies (experiments/drivers/registry.c: above xp, which
// never looks experiments up itself).
extern const xp_experiment *const xp_experiments[];
// Looks an experiment up by name: a paper study, else a scenario's method matrix
// (SCENARIO_methods, sim.h); NULL if unknown.
const xp_experiment *xp_experiment_find(const char *name);

// Wall-clock seconds (monotonic).
double xp_now(void);
// CPU seconds of the calling thread (CLOCK_THREAD_CPUTIME_ID): the timing to quote on a shared
// machine, where the wall clock also counts other processes' time slices.
double xp_thread_cpu_now(void);

#endif  // XP_XP_H
