// SPDX-License-Identifier: MIT
// xp — experiment infrastructure: parameters, the experiment registry, HDF5 results with
// provenance, progress reporting. Every study flows scenario → run → HDF5 → figure/table.
#ifndef XP_XP_H
#define XP_XP_H

#include <stddef.h>
#include <stdio.h>

#include "common/sc_error.h"

// ---- errors ---------------------------------------------------------------

// The libraries' one error convention (common/sc_error.h: a code < 0 and a message naming the
// bad value and its limit) under the experiment layer's names: XP_ERR_USAGE is bad input (a
// parameter, an argument, a file's contents), XP_ERR_RUN a run that could not complete (files,
// memory). The command line turns them into exit codes (2, 1) in one place.
enum { XP_OK = SC_OK, XP_ERR_RUN = SC_ERR_RUN, XP_ERR_USAGE = SC_ERR_INPUT };

// An error of the experiment layer: the libraries' sc_error. Initialise with {.code = 0}.
typedef sc_error xp_error;

// Formats a message into err (if err is non-NULL) and returns code.
int xp_fail(xp_error *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

// The name among names[0..n) closest to word by edit distance (a change of letter case costs
// nothing, so `e` finds `E`), if close enough to be a likely typo; NULL otherwise.
const char *xp_suggest(const char *word, const char *const *names, size_t n);
// " (did you mean 'NAME'?)" for a suggestion, "" for NULL: for the end of an error message.
#define XP_DID_YOU_MEAN_MAX 96
void xp_did_you_mean(const char *suggestion, char out[XP_DID_YOU_MEAN_MAX]);

// ---- parameters -----------------------------------------------------------

typedef enum xp_param_kind {
  XP_REAL,        // one finite real number
  XP_INT,         // one integer
  XP_STRING,      // one word; `choices` lists the allowed values ("a|b|c") or NULL for any
  XP_REAL_LIST,   // comma-separated finite reals, e.g. "1e-5,1e-2"; every entry checked, none
                  // repeated (each names cases: a repeat would run one case twice)
  XP_REAL_TUPLE,  // as XP_REAL_LIST, one value per item of something else (per scheme): entries
                  // may repeat
} xp_param_kind;

// Allowed range of a numeric parameter (each list entry is checked).
typedef enum xp_param_range {
  XP_ANY,          // any finite value
  XP_POSITIVE,     // > 0   (step sizes, masses, durations)
  XP_NONNEGATIVE,  // >= 0  (stiffness, damping, friction)
} xp_param_range;

// Declaration of one experiment parameter: its default is what the paper uses (or SPEC's default).
typedef struct xp_param_def {
  const char *key;
  xp_param_kind kind;
  const char *default_value;
  xp_param_range range;
  const char *unit;     // "s", "N/m", "" for dimensionless
  const char *choices;  // XP_STRING only: "relaxed|paper|coulomb", or NULL
  const char *help;     // one line, shown by `stabcon run EXP --help`
} xp_param_def;

#define XP_MAX_PARAMS 48
#define XP_MAX_LIST 64
#define XP_INT_MAX \
  10000000  // largest magnitude of an XP_INT parameter (counts multiply into sizes)

// Parsed, validated parameter values of one run (owned by the caller, no heap).
typedef struct xp_params {
  const xp_param_def *defs;
  size_t n;
  char text[XP_MAX_PARAMS][256];  // value as given (or the default), for provenance
  double list[XP_MAX_PARAMS][XP_MAX_LIST];
  size_t list_len[XP_MAX_PARAMS];
} xp_params;

// Fills p with the defaults of defs[0..n). Returns XP_OK or XP_ERR_USAGE (bad default: a bug).
int xp_params_init(xp_params *p, const xp_param_def *defs, size_t n, xp_error *err);
// Applies "key=value"; an unknown key, a non-numeric, NaN/Inf or out-of-range value → XP_ERR_USAGE
// with a message naming the key, the value and the limit.
int xp_params_set(xp_params *p, const char *assignment, xp_error *err);
// 1 if key is declared in p (a parameter it may read), 0 otherwise.
int xp_params_has(const xp_params *p, const char *key);
// Accessors; asking for an undeclared key is a programmer error (assert).
double xp_params_real(const xp_params *p, const char *key);
long xp_params_int(const xp_params *p, const char *key);
const char *xp_params_string(const xp_params *p, const char *key);
// A list parameter: returns its length and points *values at the entries.
size_t xp_params_list(const xp_params *p, const char *key, const double **values);
// A list parameter whose entries are counts: each entry a whole number in [lo, hi], copied into
// out (XP_MAX_LIST entries); returns the count, or -1 with XP_ERR_USAGE naming the entry and
// the range (2.5, 4294967297 or 1e300 are refused, never rounded or wrapped).
long xp_params_counts(const xp_params *p, const char *key, long lo, long hi, int *out,
                      xp_error *err);

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

#endif  // XP_XP_H
