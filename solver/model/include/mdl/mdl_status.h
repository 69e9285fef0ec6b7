// SPDX-License-Identifier: MIT
// Step statuses common to every stepper on a model (paper A's step, the θ-method, the
// penalty right-hand side), defined once. A stepper's status enum is this list plus its own
// method-specific entries (mbs_step.h, theta.h), with the same values and names, so that a status
// means the same number and string everywhere (results files store both).
//
// Severity (SPEC §7, signed step outcomes): < 0 the step was not taken (bad input, a failed
// callback, a fatal numerical failure); 0 ok; > 0 the step was taken but degraded (a solver hit
// its iteration limit or only its inaccurate tolerance).
#ifndef MDL_MDL_STATUS_H
#define MDL_MDL_STATUS_H

// X(SUFFIX, value, "name", severity). Values 5–7 and ≥ 10 belong to the steppers' own lists (the
// numbering predates the split and is stored in results files' step_status columns).
#define MDL_COMMON_STATUS_LIST(X)                                                              \
  X(OK, 0, "ok", 0)                                                                            \
  X(CALLBACK_RECOVERABLE, 1, "callback-recoverable", -1) /* a callback returned > 0 */         \
  X(CALLBACK_FATAL, 2, "callback-fatal", -1)             /* a callback returned < 0 */         \
  X(CAPACITY, 3, "capacity", -1)   /* the model reported more rows or entries than its max */  \
  X(SINGULAR, 4, "singular", -1)   /* a factorisation met a non-positive pivot */              \
  X(NONFINITE, 8, "nonfinite", -1) /* NaN/Inf in the model data, the step size or the state */ \
  X(BAD_ROW, 9, "bad-row", -1)     /* K, B or μ < 0, a row kind or column out of range */

#define MDL_EVAL_ENUM_ITEM(suffix, value, str, severity) MDL_EVAL_##suffix = value,
// Status of a model evaluation (mdl_eval_prepare, mdl_penalty_rhs): the common statuses.
typedef enum mdl_eval_status { MDL_COMMON_STATUS_LIST(MDL_EVAL_ENUM_ITEM) } mdl_eval_status;
#undef MDL_EVAL_ENUM_ITEM

// 1 if code is one of the common statuses above, else 0.
int mdl_common_status_is(int code);
// Static name of a common status ("ok", "nonfinite", …); NULL if code is not a common status.
const char *mdl_common_status_name(int code);
// Severity of a common status (0 for ok, −1 for the others); −1 for a code that is not common.
int mdl_common_status_severity(int code);

// Maps a model callback's nonzero return code (CVODE's contract) to a status: > 0
// MDL_EVAL_CALLBACK_RECOVERABLE, < 0 MDL_EVAL_CALLBACK_FATAL; records name and code in
// *name_out and *code_out (both may be NULL) so the stepper's info can say which callback failed.
mdl_eval_status mdl_callback_status(const char *name, int code, const char **name_out,
                                    int *code_out);

#endif  // MDL_MDL_STATUS_H
