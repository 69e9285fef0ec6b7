// SPDX-License-Identifier: MIT
// Internals shared by the xp sources (HDF5 helpers, provenance); not part of the public API.
#ifndef XP_INTERNAL_H
#define XP_INTERNAL_H

#include <hdf5.h>
#include <stddef.h>

// Turns off HDF5's automatic error-stack printing: xp reports its own messages.
void xp_h5_quiet(void);
// Scalar attributes on an HDF5 object (xp_h5.c); 0 on success, -1 on failure.
int xp_h5_attr_string(hid_t obj, const char *name, const char *value);
int xp_h5_attr_double(hid_t obj, const char *name, double value);
int xp_h5_attr_int(hid_t obj, const char *name, long value);
// Reads a string attribute of any string type into buf (truncated to len); 0 ok, -1 if absent.
int xp_h5_attr_read_string(hid_t obj, const char *name, char *buf, size_t len);
// Writes the root provenance attributes (SPEC §6) on file; 0 ok, -1 on I/O failure.
int xp_provenance_write(hid_t file, int argc, char *const *argv);
// Environment description (CPU, compiler, libraries, build options) as one line each, into buf.
void xp_environment_describe(char *buf, size_t len);

// The HDF5 file and its /cases group of a results file being written (for sweeps' merge).
struct xp_results;
hid_t xp_results_file_id(struct xp_results *r);
hid_t xp_results_cases_id(struct xp_results *r);

// Limits of what a results file may hold (checked by xp_file_check before anything is read):
// names of cases, series and attributes, fixed-length string attributes, series entries.
#define XP_NAME_MAX 256
#define XP_ATTR_MAX_STRING (1 << 20)
#define XP_SERIES_MAX_POINTS 100000000
// 0 if attr is one number or one string of a sane size; else -1 with the reason in why.
int xp_h5_attr_shape(hid_t attr, char *why, size_t len);
// Walks an open results file and checks every object the readers touch (xp_file_check.c);
// XP_OK, or XP_ERR_USAGE with a message naming path and the offending object.
struct sc_error;
int xp_file_check(hid_t file, const char *path, struct sc_error *err);

// Runs fn(arg, err) in a child process (xp_isolate.c): XP_OK if it returned XP_OK; its code and
// message if it failed; XP_ERR_RUN with *died = the signal (or -1: killed another way, e.g. a
// sanitizer) if it died. quiet: the child's stderr goes to /dev/null and it gets 600 s.
int xp_isolated(int (*fn)(void *, struct sc_error *), void *arg, int quiet, int *died,
                struct sc_error *err);

// Version of the results-file format written by this build.
#define XP_FORMAT_VERSION 1

#endif  // XP_INTERNAL_H
