// SPDX-License-Identifier: MIT
// xp parameters and errors — the low part of the experiment infrastructure that a model's
// declaration needs (scenarios include this, not xp.h): the error alias of sc_error, suggestions
// for typos, and the declared, validated parameters of a run.
#ifndef XP_XP_PARAMS_H
#define XP_XP_PARAMS_H

#include <stddef.h>

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

#endif  // XP_XP_PARAMS_H
