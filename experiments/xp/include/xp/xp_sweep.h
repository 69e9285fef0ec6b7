// SPDX-License-Identifier: MIT
// Sweeps: a Cartesian grid of cases of one experiment, resumable, gathered into one file.
#ifndef XP_XP_SWEEP_H
#define XP_XP_SWEEP_H

#include "xp/xp.h"

#define XP_SWEEP_MAX_AXES 8
#define XP_SWEEP_MAX_VALUES 256
#define XP_SWEEP_MAX_POINTS 100000  // grid points of one sweep (case names gNNNNN)

// One axis of the grid: a parameter and its values as text (numbers or method names).
typedef struct xp_sweep_axis {
  char key[64];
  size_t n;
  char values[XP_SWEEP_MAX_VALUES][32];
} xp_sweep_axis;

// A sweep specification: experiment, axes (the first varies slowest), fixed settings.
typedef struct xp_sweep_spec {
  const xp_experiment *experiment;
  size_t n_axes;
  xp_sweep_axis axes[XP_SWEEP_MAX_AXES];
  xp_params base;  // the experiment's defaults with the non-swept --set values applied
} xp_sweep_spec;

// Parses one "--set key=SPEC" of a sweep: SPEC is a comma list (each value validated against
// the experiment's parameter) or start:stop:count[:log]. A single value is a fixed setting.
int xp_sweep_add_axis(xp_sweep_spec *spec, const char *assignment, xp_error *err);
// Number of grid points (product of axis lengths; 1 with no axes).
size_t xp_sweep_size(const xp_sweep_spec *spec);
// Canonical one-line text of the sweep (experiment, fixed settings, axes): equal specs give
// equal text; used to refuse resuming a different sweep. Returns the full length (as snprintf:
// ≥ len means buf was too small and holds a truncated text). XP_SWEEP_DESCRIBE_MAX always fits.
size_t xp_sweep_describe(const xp_sweep_spec *spec, char *buf, size_t len);
#define XP_SWEEP_DESCRIBE_MAX (XP_SWEEP_MAX_AXES * XP_SWEEP_MAX_VALUES * 33 + 65536)

// Options of a sweep run.
typedef struct xp_sweep_options {
  const char *output;  // final results file
  int resume;          // 1: keep finished parts of an interrupted run of the same sweep
  int rank, ranks;     // this process deals grid points i with i % ranks == rank (MPI)
  int argc;            // command line for provenance
  char *const *argv;
} xp_sweep_options;

// Prepares the parts folder "<output>.parts": creates it for a new sweep, or checks that it
// holds this same sweep when resuming. Refuses to touch an unfinished sweep without --resume.
// With MPI, rank 0 prepares before the others run.
int xp_sweep_prepare(const xp_sweep_spec *spec, const xp_sweep_options *opt, xp_error *err);
// Runs the grid points of this rank not yet finished, each into "<output>.parts/gNNNNN.h5"
// (written atomically). Stops early (XP_ERR_RUN, message says so) on SIGINT/SIGTERM after the
// current point; finished parts stay readable. A point whose run fails is recorded as a case
// with status "failed" and the sweep continues.
int xp_sweep_run(const xp_sweep_spec *spec, const xp_sweep_options *opt, xp_error *err);
// Gathers every part, in grid order, into the output file (cases "gNNNNN_<name>", each with
// the grid values in its params) and removes the parts. Fails if a part is missing.
int xp_sweep_merge(const xp_sweep_spec *spec, const xp_sweep_options *opt, xp_error *err);

// What xp_results_compare found: the number of differences, the first one ("" if none), and the
// cases of the first file.
typedef struct xp_compare_summary {
  long differences;
  char first[400];
  size_t cases;
} xp_compare_summary;
// Compares two results files as xp_results_compare_report does (xp_compare.c; timings ignored)
// into *sum. Returns 0 if equal, 1 if different, XP_ERR_RUN (message in err) if a file cannot be
// read.
int xp_results_compare(const char *a, const char *b, xp_compare_summary *sum, xp_error *err);

#endif  // XP_XP_SWEEP_H
