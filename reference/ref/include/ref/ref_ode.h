// SPDX-License-Identifier: MIT
// Explicit ODE y' = F(t, y) integrated by CVODE BDF (variable order or order 1) or GSL RK45.
#ifndef REF_REF_ODE_H
#define REF_REF_ODE_H

#include <stddef.h>

#include "ref/ref_stats.h"

// Right-hand side: writes ydot (n entries) at (t, y). CVODE's contract: 0 ok, > 0 recoverable
// (the integrator retries with a smaller step), < 0 fatal.
typedef int (*ref_rhs_fn)(double t, const double *y, double *ydot, void *ctx);
// Optional Jacobian ∂F/∂y at (t, y), written column-major into J (n×n, leading dimension n).
typedef int (*ref_jac_fn)(double t, const double *y, double *J, void *ctx);

// An ODE system; ctx is passed to the callbacks and owned by the caller.
typedef struct ref_ode {
  size_t n;
  ref_rhs_fn rhs;
  ref_jac_fn jac;  // NULL: CVODE approximates the Jacobian by finite differences
  void *ctx;
} ref_ode;

#define REF_METHOD_LIST(X)                                                                     \
  X(REF_CVODE_BDF, "cvode-bdf", "CVODE BDF, variable order 1-5 (ode15s analogue)")             \
  X(REF_CVODE_BDF1, "cvode-bdf1", "CVODE BDF, max order 1 (first-order ode15s, paper A §5.5)") \
  X(REF_RK45, "rk45", "GSL Runge-Kutta-Fehlberg 4(5), adaptive (ode45 analogue)")

#define REF_METHOD_ENUM(id, name, text) id,
// Integrator choice.
typedef enum ref_method { REF_METHOD_LIST(REF_METHOD_ENUM) REF_METHOD_COUNT } ref_method;
#undef REF_METHOD_ENUM

// CLI name ("cvode-bdf", …) and a one-line description of a method.
const char *ref_method_name(ref_method m);
const char *ref_method_description(ref_method m);
// Parses a method name; 0 and *m set, or −1 if unknown.
int ref_method_parse(const char *name, ref_method *m);

// Integration settings (ref_ode_settings_default() gives rtol = atol = 1e-8, no budgets).
typedef struct ref_ode_settings {
  double rtol, atol;   // local error tolerances (> 0)
  double wall_budget;  // seconds; past it the run stops as REF_DID_NOT_FINISH (≤ 0: none)
  long max_steps;      // step budget (≤ 0: none)
  double h_init;       // first step size [s] (≤ 0: the integrator's own choice)
} ref_ode_settings;

ref_ode_settings ref_ode_settings_default(void);

// Integrates from (t0, y0) through the increasing output times t_out[0..n_out) (each > t0),
// writing the state at t_out[i] to y_out[i·n .. i·n + n). Returns the status (also in stats).
// On did-not-finish or failure, the rows not reached are NaN and stats->t_reached says how far
// it got. Allocates its own SUNDIALS/GSL objects for the call.
ref_status ref_ode_integrate(const ref_ode *ode, ref_method method, const ref_ode_settings *set,
                             double t0, const double *y0, const double *t_out, size_t n_out,
                             double *y_out, ref_stats *stats);

// An integration in progress, advanced output time by output time (the stepper interface of the
// experiment layer uses it; ref_ode_integrate is a loop over it, so both give identical outputs).
typedef struct ref_ode_session ref_ode_session;

// Starts integrating ode from (t0, y0) towards t_end > t0 (CVODE's stop time: it never steps past
// it). Allocates the integrator's objects here, never later. Returns NULL with the status and a
// message in stats on bad input or a failed setup; ode is borrowed and must outlive the session.
ref_ode_session *ref_ode_session_create(const ref_ode *ode, ref_method method,
                                        const ref_ode_settings *set, double t0, const double *y0,
                                        double t_end, ref_stats *stats);
// Advances to t_out (≥ the last output time, ≤ t_end) and writes the state there to y_out (n
// entries). Returns the status; after a status other than REF_OK the session is finished.
ref_status ref_ode_session_advance(ref_ode_session *s, double t_out, double *y_out);
// Counters so far (owned by the session; valid until the next call).
const ref_stats *ref_ode_session_stats(ref_ode_session *s);
// Frees the session; NULL is a no-op.
void ref_ode_session_free(ref_ode_session *s);

#endif  // REF_REF_ODE_H
