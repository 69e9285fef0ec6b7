// SPDX-License-Identifier: MIT
// Integrator statistics and outcome shared by every reference integrator (IDA now; CVODE, RK45
// next).
#ifndef REF_REF_STATS_H
#define REF_REF_STATS_H

#include "common/sc_error.h"

// Outcome of a reference integration (a numerical status, not an error).
#define REF_STATUS_LIST(X)                                                         \
  X(REF_OK, "ok")                                                                  \
  X(REF_BAD_INPUT, "bad-input")             /* model or settings rejected */       \
  X(REF_SETUP_FAILED, "setup-failed")       /* allocation or solver setup */       \
  X(REF_SOLVER_FAILED, "solver-failed")     /* the integrator returned an error */ \
  X(REF_CALLBACK_FAILED, "callback-failed") /* a model callback returned < 0 */    \
  X(REF_DID_NOT_FINISH, "did-not-finish")   /* wall-time or step budget spent */

#define REF_ENUM_ITEM(name, str) name,
// Outcome code of a reference integration.
typedef enum ref_status { REF_STATUS_LIST(REF_ENUM_ITEM) REF_STATUS_COUNT } ref_status;
#undef REF_ENUM_ITEM

// Static lowercase name of a status ("ok", …); "invalid" if out of range.
const char *ref_status_name(ref_status s);

// Counters of one integration, as reported by the integrator, plus outcome and message.
typedef struct ref_stats {
  ref_status status;
  long steps;          // accepted steps
  long rhs_evals;      // right-hand side / residual evaluations (without Jacobian DQ ones)
  long rhs_evals_jac;  // extra evaluations spent on difference-quotient Jacobians (CVODE, IDA)
  int order_max;       // largest method order used (CVODE; 0 for the others)
  long jac_evals;      // Jacobian evaluations
  long newton_iters;   // nonlinear (Newton) iterations
  long newton_fails;   // nonlinear convergence failures
  long err_fails;      // local error test failures
  double t_reached;    // last time reached [s]
  double wall_time;    // seconds
  sc_error error;      // what failed, naming the flag or value (code 0 and "" when ok; else
                       // SC_ERR_INPUT for bad input, SC_ERR_SOLVER for the integrator's failures)
} ref_stats;

#endif  // REF_REF_STATS_H
