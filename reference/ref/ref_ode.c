// SPDX-License-Identifier: MIT
// Reference ODE integrators (SPEC §4): CVODE BDF (variable order, or max order 1 as paper A's
// "first-order ode15s") with a dense direct linear solver, and GSL's adaptive RK45 (rkf45, the
// "ode45" analogue). Both step one step at a time so a wall-time budget can stop a run between
// steps; outputs come from CVODE's interpolant (CVodeGetDky) or from RK45 stepping exactly to
// each output time.
#include "ref/ref_ode.h"

#include <cvode/cvode.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <time.h>

static const char *const method_names[] = {
#define REF_NAME(id, name, text) name,
    REF_METHOD_LIST(REF_NAME)
#undef REF_NAME
};
static const char *const method_texts[] = {
#define REF_TEXT(id, name, text) text,
    REF_METHOD_LIST(REF_TEXT)
#undef REF_TEXT
};

const char *ref_method_name(ref_method m) {
  return (unsigned)m < REF_METHOD_COUNT ? method_names[m] : "invalid";
}
const char *ref_method_description(ref_method m) {
  return (unsigned)m < REF_METHOD_COUNT ? method_texts[m] : "invalid";
}
int ref_method_parse(const char *name, ref_method *m) {
  for (int i = 0; i < REF_METHOD_COUNT; i++)
    if (strcmp(name, method_names[i]) == 0) return *m = (ref_method)i, 0;
  return -1;
}

ref_ode_settings ref_ode_settings_default(void) {
  return (ref_ode_settings){
      .rtol = 1e-8, .atol = 1e-8, .wall_budget = 0, .max_steps = 0, .h_init = 0};
}

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// what the callbacks see: the user's system plus a failure record
typedef struct ode_call {
  const ref_ode *ode;
  long rhs_evals;
  int callback_code;   // first negative return of a user callback
  double nonfinite_t;  // time of the first non-finite derivative (NAN: none)
} ode_call;

// a right-hand side that returns NaN/Inf with code 0 stops the integration (instead of CVODE
// shrinking the step forever or RK45 accepting NaN): −1, and the time is kept for the message
static int rhs_finite(ode_call *call, double t, const double *ydot) {
  for (size_t i = 0; i < call->ode->n; i++)
    if (!isfinite(ydot[i])) {
      if (isnan(call->nonfinite_t)) call->nonfinite_t = t;
      return -1;
    }
  return 0;
}

static void fill_nan(double *y_out, size_t from, size_t n_out, size_t n) {
  for (size_t i = from * n; i < n_out * n; i++) y_out[i] = NAN;
}

static int budget_spent(const ref_ode_settings *set, double t_start, long steps) {
  if (set->wall_budget > 0 && wall_now() - t_start > set->wall_budget) return 1;
  if (set->max_steps > 0 && steps >= set->max_steps) return 1;
  return 0;
}

// ---- CVODE ------------------------------------------------------------------

static int cvode_rhs(sunrealtype t, N_Vector y, N_Vector ydot, void *data) {
  ode_call *call = data;
  call->rhs_evals++;
  int rc = call->ode->rhs(t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot), call->ode->ctx);
  if (rc < 0 && !call->callback_code) call->callback_code = rc;
  if (rc == 0) rc = rhs_finite(call, t, N_VGetArrayPointer(ydot));
  return rc;
}

static int cvode_jac(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *data, N_Vector t1,
                     N_Vector t2, N_Vector t3) {
  (void)fy, (void)t1, (void)t2, (void)t3;
  ode_call *call = data;
  // SUNDIALS dense matrices are column-major with leading dimension n, as ref_jac_fn expects
  int rc = call->ode->jac(t, N_VGetArrayPointer(y), SUNDenseMatrix_Data(J), call->ode->ctx);
  if (rc < 0 && !call->callback_code) call->callback_code = rc;
  return rc;
}

// SUNDIALS prints its errors by default; keep the message for the stats instead
static void cvode_error_handler(int code, const char *module, const char *function, char *msg,
                                void *data) {
  ref_stats *stats = data;
  sc_error_set(&stats->error, SC_ERR_SOLVER, "%s %s (flag %d): %s", module, function, code, msg);
}

// CVODE's counters into the stats
static void cvode_read_stats(void *mem, ref_stats *stats) {
  long v = 0;
  if (CVodeGetNumSteps(mem, &v) == 0) stats->steps = v;
  if (CVodeGetNumRhsEvals(mem, &v) == 0) stats->rhs_evals = v;
  if (CVodeGetNumLinRhsEvals(mem, &v) == 0) stats->rhs_evals_jac = v;
  if (CVodeGetNumJacEvals(mem, &v) == 0) stats->jac_evals = v;
  if (CVodeGetNumNonlinSolvIters(mem, &v) == 0) stats->newton_iters = v;
  if (CVodeGetNumNonlinSolvConvFails(mem, &v) == 0) stats->newton_fails = v;
  if (CVodeGetNumErrTestFails(mem, &v) == 0) stats->err_fails = v;
}

static ref_status cvode_integrate(const ref_ode *ode, int max_order, const ref_ode_settings *set,
                                  double t0, const double *y0, const double *t_out, size_t n_out,
                                  double *y_out, ref_stats *stats) {
  const sunindextype n = (sunindextype)ode->n;
  const double t_start = wall_now();
  ode_call call = {.ode = ode, .nonfinite_t = NAN};
  SUNContext sun = NULL;
  N_Vector y = NULL, dky = NULL;
  SUNMatrix A = NULL;
  SUNLinearSolver LS = NULL;
  void *mem = NULL;
  ref_status status = REF_SETUP_FAILED;
  size_t next = 0;
  if (SUNContext_Create(NULL, &sun) != 0) goto done;
  y = N_VNew_Serial(n, sun);
  dky = N_VNew_Serial(n, sun);
  A = SUNDenseMatrix(n, n, sun);
  mem = CVodeCreate(CV_BDF, sun);
  if (!y || !dky || !A || !mem) goto done;
  memcpy(N_VGetArrayPointer(y), y0, ode->n * sizeof(double));
  LS = SUNLinSol_Dense(y, A, sun);
  if (!LS || CVodeInit(mem, cvode_rhs, t0, y) || CVodeSetUserData(mem, &call) ||
      CVodeSStolerances(mem, set->rtol, set->atol) || CVodeSetLinearSolver(mem, LS, A) ||
      CVodeSetErrHandlerFn(mem, cvode_error_handler, stats) ||
      CVodeSetMaxNumSteps(mem, -1) ||  // no per-call step limit: budgets are ours
      CVodeSetStopTime(mem, t_out[n_out - 1]) ||
      (max_order > 0 && CVodeSetMaxOrd(mem, max_order)) ||
      (ode->jac && CVodeSetJacFn(mem, cvode_jac)) ||
      (set->h_init > 0 && CVodeSetInitStep(mem, set->h_init)))
    goto done;
  status = REF_OK;
  double t = t0;
  while (next < n_out) {
    if (budget_spent(set, t_start, stats->steps)) {
      status = REF_DID_NOT_FINISH;
      sc_error_set(&stats->error, SC_ERR_SOLVER,
                   "budget spent at t = %g s (wall %.3g s, %ld steps)", t, wall_now() - t_start,
                   stats->steps);
      break;
    }
    int flag = CVode(mem, t_out[n_out - 1], y, &t, CV_ONE_STEP);
    if (flag < 0) {
      status = call.callback_code ? REF_CALLBACK_FAILED : REF_SOLVER_FAILED;
      if (!isnan(call.nonfinite_t))
        sc_error_set(&stats->error, SC_ERR_SOLVER, "the right-hand side is not finite at t = %g",
                     call.nonfinite_t);
      break;
    }
    stats->steps++;
    int q = 0;
    if (CVodeGetLastOrder(mem, &q) == CV_SUCCESS && q > stats->order_max) stats->order_max = q;
    // every output time the step passed: CVODE's interpolant of the current order
    while (next < n_out && t_out[next] <= t) {
      if (CVodeGetDky(mem, t_out[next], 0, dky) != CV_SUCCESS) {
        status = REF_SOLVER_FAILED;
        break;
      }
      memcpy(y_out + next * ode->n, N_VGetArrayPointer(dky), ode->n * sizeof(double));
      next++;
    }
    if (status != REF_OK) break;
  }
  stats->t_reached = t;
  cvode_read_stats(mem, stats);
done:
  if (status == REF_SETUP_FAILED && !stats->error.message[0])
    sc_error_set(&stats->error, SC_ERR_SOLVER, "CVODE setup failed (n = %zu)", ode->n);
  fill_nan(y_out, next, n_out, ode->n);
  CVodeFree(&mem);
  if (LS) SUNLinSolFree(LS);
  if (A) SUNMatDestroy(A);
  if (y) N_VDestroy(y);
  if (dky) N_VDestroy(dky);
  if (sun) SUNContext_Free(&sun);
  stats->wall_time = wall_now() - t_start;
  return status;
}

// ---- GSL RK45 -----------------------------------------------------------------

static int gsl_rhs(double t, const double y[], double dydt[], void *data) {
  ode_call *call = data;
  call->rhs_evals++;
  int rc = call->ode->rhs(t, y, dydt, call->ode->ctx);
  if (rc < 0) {
    if (!call->callback_code) call->callback_code = rc;
    return GSL_EBADFUNC;  // GSL: stop the integration
  }
  if (rc == 0 && rhs_finite(call, t, dydt)) return GSL_EBADFUNC;
  return rc > 0 ? GSL_FAILURE : GSL_SUCCESS;
}

static ref_status rk45_integrate(const ref_ode *ode, const ref_ode_settings *set, double t0,
                                 const double *y0, const double *t_out, size_t n_out, double *y_out,
                                 ref_stats *stats) {
  const double t_start = wall_now();
  ode_call call = {.ode = ode, .nonfinite_t = NAN};
  gsl_odeiv2_system sys = {gsl_rhs, NULL, ode->n, &call};
  gsl_odeiv2_step *step = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rkf45, ode->n);
  gsl_odeiv2_control *control = gsl_odeiv2_control_y_new(set->atol, set->rtol);
  gsl_odeiv2_evolve *evolve = gsl_odeiv2_evolve_alloc(ode->n);
  double *y = malloc(ode->n * sizeof *y);
  ref_status status = REF_OK;
  size_t next = 0;
  double t = t0;
  if (!step || !control || !evolve || !y) {
    status = REF_SETUP_FAILED;
    sc_error_set(&stats->error, SC_ERR_SOLVER, "GSL rkf45 setup failed (n = %zu)", ode->n);
    goto done;
  }
  memcpy(y, y0, ode->n * sizeof *y);
  double h = set->h_init > 0 ? set->h_init : fmin(1e-6, (t_out[0] - t0) / 10);
  while (next < n_out) {
    if (budget_spent(set, t_start, (long)evolve->count)) {
      status = REF_DID_NOT_FINISH;
      sc_error_set(&stats->error, SC_ERR_SOLVER,
                   "budget spent at t = %g s (wall %.3g s, %zu steps)", t, wall_now() - t_start,
                   evolve->count);
      break;
    }
    // steps never overshoot t_out[next], so the output is a step end, not an interpolant
    int rc = gsl_odeiv2_evolve_apply(evolve, control, step, &sys, &t, t_out[next], &h, y);
    if (rc != GSL_SUCCESS) {
      status = call.callback_code ? REF_CALLBACK_FAILED : REF_SOLVER_FAILED;
      if (!isnan(call.nonfinite_t))
        sc_error_set(&stats->error, SC_ERR_SOLVER, "the right-hand side is not finite at t = %g",
                     call.nonfinite_t);
      else
        sc_error_set(&stats->error, SC_ERR_SOLVER, "GSL rkf45 failed at t = %g: %s", t,
                     gsl_strerror(rc));
      break;
    }
    if (t >= t_out[next]) memcpy(y_out + next++ * ode->n, y, ode->n * sizeof *y);
  }
  stats->steps = (long)evolve->count;
  stats->err_fails = (long)evolve->failed_steps;
done:
  stats->t_reached = t;
  stats->rhs_evals = call.rhs_evals;
  fill_nan(y_out, next, n_out, ode->n);
  free(y);
  if (evolve) gsl_odeiv2_evolve_free(evolve);
  if (control) gsl_odeiv2_control_free(control);
  if (step) gsl_odeiv2_step_free(step);
  stats->wall_time = wall_now() - t_start;
  return status;
}

ref_status ref_ode_integrate(const ref_ode *ode, ref_method method, const ref_ode_settings *set,
                             double t0, const double *y0, const double *t_out, size_t n_out,
                             double *y_out, ref_stats *stats) {
  memset(stats, 0, sizeof *stats);
  ref_ode_settings defaults = ref_ode_settings_default();
  if (!set) set = &defaults;
  stats->status = REF_BAD_INPUT;
  if (!ode || !ode->rhs || ode->n == 0 || n_out == 0 || !(set->rtol > 0) || !(set->atol > 0)) {
    sc_error_set(&stats->error, SC_ERR_INPUT, "bad input: %s",
                 !ode || !ode->rhs ? "no right-hand side"
                 : ode->n == 0     ? "n = 0"
                 : n_out == 0      ? "no output times"
                                   : "tolerances must be > 0");
    if (ode && y_out) fill_nan(y_out, 0, n_out, ode->n);
    return REF_BAD_INPUT;
  }
  for (size_t i = 0; i < n_out; i++) {
    if (!(t_out[i] > (i ? t_out[i - 1] : t0))) {
      sc_error_set(&stats->error, SC_ERR_INPUT,
                   "bad input: output times must increase past t0 (t_out[%zu] = %g)", i, t_out[i]);
      fill_nan(y_out, 0, n_out, ode->n);
      return REF_BAD_INPUT;
    }
  }
  gsl_set_error_handler_off();
  ref_status s = method == REF_RK45 ? rk45_integrate(ode, set, t0, y0, t_out, n_out, y_out, stats)
                                    : cvode_integrate(ode, method == REF_CVODE_BDF1 ? 1 : 0, set,
                                                      t0, y0, t_out, n_out, y_out, stats);
  stats->status = s;
  return s;
}
