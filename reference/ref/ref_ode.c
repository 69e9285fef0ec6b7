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

// ---- one integration session, advanced output time by output time --------------------

struct ref_ode_session {
  const ref_ode *ode;
  ref_method method;
  ref_ode_settings set;
  ode_call call;
  ref_stats stats;
  double t;        // integrator time reached [s]
  double t_end;    // last output time: CVODE's stop time and its tout while stepping [s]
  double t_start;  // wall clock at creation
  // CVODE
  SUNContext sun;
  N_Vector y, dky;
  SUNMatrix A;
  SUNLinearSolver LS;
  void *mem;
  // GSL RK45
  gsl_odeiv2_system sys;
  gsl_odeiv2_step *step;
  gsl_odeiv2_control *control;
  gsl_odeiv2_evolve *evolve;
  double *yr, h;
};

static int cvode_setup(ref_ode_session *s, double t0, const double *y0, double t_end) {
  const ref_ode *ode = s->ode;
  const sunindextype n = (sunindextype)ode->n;
  if (SUNContext_Create(NULL, &s->sun) != 0) return -1;
  s->y = N_VNew_Serial(n, s->sun);
  s->dky = N_VNew_Serial(n, s->sun);
  s->A = SUNDenseMatrix(n, n, s->sun);
  s->mem = CVodeCreate(CV_BDF, s->sun);
  if (!s->y || !s->dky || !s->A || !s->mem) return -1;
  memcpy(N_VGetArrayPointer(s->y), y0, ode->n * sizeof(double));
  s->LS = SUNLinSol_Dense(s->y, s->A, s->sun);
  const ref_ode_settings *set = &s->set;
  if (!s->LS || CVodeInit(s->mem, cvode_rhs, t0, s->y) || CVodeSetUserData(s->mem, &s->call) ||
      CVodeSStolerances(s->mem, set->rtol, set->atol) ||
      CVodeSetLinearSolver(s->mem, s->LS, s->A) ||
      CVodeSetErrHandlerFn(s->mem, cvode_error_handler, &s->stats) ||
      CVodeSetMaxNumSteps(s->mem, -1) ||  // no per-call step limit: budgets are ours
      CVodeSetStopTime(s->mem, t_end) ||
      (s->method == REF_CVODE_BDF1 && CVodeSetMaxOrd(s->mem, 1)) ||
      (ode->jac && CVodeSetJacFn(s->mem, cvode_jac)) ||
      (set->h_init > 0 && CVodeSetInitStep(s->mem, set->h_init)))
    return -1;
  return 0;
}

static int rk45_setup(ref_ode_session *s, double t0, const double *y0, double t_first) {
  const size_t n = s->ode->n;
  s->sys = (gsl_odeiv2_system){gsl_rhs, NULL, n, &s->call};
  s->step = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rkf45, n);
  s->control = gsl_odeiv2_control_y_new(s->set.atol, s->set.rtol);
  s->evolve = gsl_odeiv2_evolve_alloc(n);
  s->yr = malloc(n * sizeof *s->yr);
  if (!s->step || !s->control || !s->evolve || !s->yr) return -1;
  memcpy(s->yr, y0, n * sizeof *s->yr);
  s->h = s->set.h_init > 0 ? s->set.h_init : fmin(1e-6, (t_first - t0) / 10);
  return 0;
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

static void budget_message(ref_ode_session *s) {
  sc_error_set(&s->stats.error, SC_ERR_SOLVER, "budget spent at t = %g s (wall %.3g s, %ld steps)",
               s->t, wall_now() - s->t_start, s->stats.steps);
}

static void failure_message(ref_ode_session *s, const char *what) {
  if (!isnan(s->call.nonfinite_t))
    sc_error_set(&s->stats.error, SC_ERR_SOLVER, "the right-hand side is not finite at t = %g",
                 s->call.nonfinite_t);
  else if (what)
    sc_error_set(&s->stats.error, SC_ERR_SOLVER, "GSL rkf45 failed at t = %g: %s", s->t, what);
}

// CVODE: one internal step at a time (so budgets can stop between steps) until the step passes
// t_out, then CVODE's interpolant of the current order at t_out
static ref_status cvode_advance(ref_ode_session *s, double t_out, double *y_out) {
  while (s->t < t_out) {
    if (budget_spent(&s->set, s->t_start, s->stats.steps))
      return budget_message(s), REF_DID_NOT_FINISH;
    double t = s->t;
    int flag = CVode(s->mem, s->t_end, s->y, &t, CV_ONE_STEP);
    if (flag < 0) {
      failure_message(s, NULL);
      return s->call.callback_code ? REF_CALLBACK_FAILED : REF_SOLVER_FAILED;
    }
    s->t = t;
    s->stats.steps++;
    int q = 0;
    if (CVodeGetLastOrder(s->mem, &q) == CV_SUCCESS && q > s->stats.order_max)
      s->stats.order_max = q;
  }
  if (CVodeGetDky(s->mem, t_out, 0, s->dky) != CV_SUCCESS) return REF_SOLVER_FAILED;
  memcpy(y_out, N_VGetArrayPointer(s->dky), s->ode->n * sizeof(double));
  return REF_OK;
}

// RK45: steps never overshoot t_out, so the output is a step end, not an interpolant
static ref_status rk45_advance(ref_ode_session *s, double t_out, double *y_out) {
  while (s->t < t_out) {
    if (budget_spent(&s->set, s->t_start, (long)s->evolve->count)) {
      s->stats.steps = (long)s->evolve->count;
      return budget_message(s), REF_DID_NOT_FINISH;
    }
    int rc = gsl_odeiv2_evolve_apply(s->evolve, s->control, s->step, &s->sys, &s->t, t_out, &s->h,
                                     s->yr);
    if (rc != GSL_SUCCESS) {
      failure_message(s, gsl_strerror(rc));
      return s->call.callback_code ? REF_CALLBACK_FAILED : REF_SOLVER_FAILED;
    }
  }
  memcpy(y_out, s->yr, s->ode->n * sizeof *s->yr);
  return REF_OK;
}

ref_ode_session *ref_ode_session_create(const ref_ode *ode, ref_method method,
                                        const ref_ode_settings *set, double t0, const double *y0,
                                        double t_end, ref_stats *stats) {
  memset(stats, 0, sizeof *stats);
  ref_ode_settings defaults = ref_ode_settings_default();
  if (!set) set = &defaults;
  stats->status = REF_BAD_INPUT;
  if (!ode || !ode->rhs || ode->n == 0 || !(t_end > t0) || !(set->rtol > 0) || !(set->atol > 0)) {
    sc_error_set(&stats->error, SC_ERR_INPUT, "bad input: %s",
                 !ode || !ode->rhs ? "no right-hand side"
                 : ode->n == 0     ? "n = 0"
                 : !(t_end > t0)   ? "the end time must exceed t0"
                                   : "tolerances must be > 0");
    return NULL;
  }
  ref_ode_session *s = calloc(1, sizeof *s);
  if (!s) {
    stats->status = REF_SETUP_FAILED;
    sc_error_set(&stats->error, SC_ERR_MEMORY, "out of memory");
    return NULL;
  }
  gsl_set_error_handler_off();
  *s = (ref_ode_session){
      .ode = ode, .method = method, .set = *set, .t = t0, .t_end = t_end, .t_start = wall_now()};
  s->call = (ode_call){.ode = ode, .nonfinite_t = NAN};
  int rc = method == REF_RK45 ? rk45_setup(s, t0, y0, t_end) : cvode_setup(s, t0, y0, t_end);
  if (rc) {
    *stats = s->stats;
    stats->status = REF_SETUP_FAILED;
    if (!stats->error.message[0])
      sc_error_set(&stats->error, SC_ERR_SOLVER, "%s setup failed (n = %zu)",
                   method == REF_RK45 ? "GSL rkf45" : "CVODE", ode->n);
    ref_ode_session_free(s);
    return NULL;
  }
  s->stats.status = REF_OK;
  *stats = s->stats;
  return s;
}

ref_status ref_ode_session_advance(ref_ode_session *s, double t_out, double *y_out) {
  if (s->stats.status != REF_OK) return s->stats.status;
  const double wall0 = wall_now();
  ref_status st =
      s->method == REF_RK45 ? rk45_advance(s, t_out, y_out) : cvode_advance(s, t_out, y_out);
  s->stats.status = st;
  s->stats.wall_time += wall_now() - wall0;
  return st;
}

const ref_stats *ref_ode_session_stats(ref_ode_session *s) {
  if (s->method == REF_RK45) {
    s->stats.steps = (long)s->evolve->count;
    s->stats.err_fails = (long)s->evolve->failed_steps;
    s->stats.rhs_evals = s->call.rhs_evals;
  } else {
    cvode_read_stats(s->mem, &s->stats);
  }
  s->stats.t_reached = s->t;
  return &s->stats;
}

void ref_ode_session_free(ref_ode_session *s) {
  if (!s) return;
  CVodeFree(&s->mem);
  if (s->LS) SUNLinSolFree(s->LS);
  if (s->A) SUNMatDestroy(s->A);
  if (s->y) N_VDestroy(s->y);
  if (s->dky) N_VDestroy(s->dky);
  if (s->sun) SUNContext_Free(&s->sun);
  free(s->yr);
  if (s->evolve) gsl_odeiv2_evolve_free(s->evolve);
  if (s->control) gsl_odeiv2_control_free(s->control);
  if (s->step) gsl_odeiv2_step_free(s->step);
  free(s);
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
  const double t_start = wall_now();
  ref_ode_session *session =
      ref_ode_session_create(ode, method, set, t0, y0, t_out[n_out - 1], stats);
  if (!session) {
    fill_nan(y_out, 0, n_out, ode->n);
    return stats->status;
  }
  ref_status st = REF_OK;
  size_t next = 0;
  while (next < n_out && st == REF_OK)
    if ((st = ref_ode_session_advance(session, t_out[next], y_out + next * ode->n)) == REF_OK)
      next++;
  *stats = *ref_ode_session_stats(session);
  ref_ode_session_free(session);
  fill_nan(y_out, next, n_out, ode->n);
  stats->wall_time = wall_now() - t_start;
  return stats->status = st;
}
