// SPDX-License-Identifier: MIT
// The foundation studies' shared runs (xp_foundation_run.c): the cube on its elastic foundation
// (paper A §5.5) run by any method through the one simulate loop, timed, and compared with a
// reference. Private to drivers/: the tables (xp_foundation.c), the work–precision pair
// (xp_foundation_wp.c) and the ringing study (xp_foundation_ringing.c) build on it.
#ifndef DRIVERS_XP_FOUNDATION_H
#define DRIVERS_XP_FOUNDATION_H

#include "ref/ref_winkler.h"
#include "scenarios/foundation.h"
#include "sim/sim.h"
#include "xp/xp.h"

#define FD_NQ 7
#define FD_NV 6
#define FD_NY (FD_NQ + FD_NV)

// the methods of Table 1, in its column order
#define FD_METHOD_LIST(X)                                                                  \
  X(FD_CONSTRAINT, "constraint", "paperA-relaxed",                                         \
    "constraint solver, relaxed (default) formulation")                                    \
  X(FD_CONSTRAINT_PAPER, "constraint-paper", "paperA-paper",                               \
    "constraint solver, paper A's objective")                                              \
  X(FD_BDF1, "cvode-bdf1", "cvode-bdf1", "CVODE BDF, max order 1 (ode15s at first order)") \
  X(FD_BDF, "cvode-bdf", "cvode-bdf", "CVODE BDF, variable order")                         \
  X(FD_RK45, "rk45", "rk45", "GSL RK45 (ode45)")

typedef enum fd_method {
#define FD_ENUM(id, name, sim, text) id,
  FD_METHOD_LIST(FD_ENUM)
#undef FD_ENUM
      FD_METHOD_COUNT
} fd_method;

// Table 1's names of its methods, and the steppers of the method matrix that run them
extern const char *const fd_method_names[];
extern const char *const fd_sim_names[];

// outcome of one timed run
typedef struct fd_run {
  int ok;           // 1: reached T
  char status[32];  // "ok", "did-not-finish", a step status, …
  char message[256];
  double q[FD_NQ], v[FD_NV];
  double seconds;      // wall time of this run
  double cpu_seconds;  // its CPU time
  long steps, iterations;
  long degraded, retried;  // steps taken degraded / solved again from the feasible start
  // the integrator's counters (SIM_INTEGRATOR_STAT_LIST order; 0 for the fixed-step methods)
  double ode[SIM_INTEGRATOR_STATS];
  double pressure_max;  // largest element pressure at T [Pa]
} fd_run;

typedef struct fd_settings {
  double h, T, rtol, atol, budget;
  int use_bias;
  sim_method_options base;  // the run's method settings (h, tolerances and budget set per run)
} fd_settings;

// the timing of one setting: min and median of the timed runs' wall and CPU times
typedef struct fd_timing {
  double wall_median, wall_min, cpu_median, cpu_min;
  int runs;
} fd_timing;

enum { FD_MAX_METHODS = 32 };
typedef struct fd_methods {
  const sim_method *m[FD_MAX_METHODS];
  size_t n;
} fd_methods;

// integrators that advance to an output time by their own steps (tolerance-controlled)
int fd_is_adaptive(const sim_method *m);
// the method settings of the study's parameters (SIM_OPTION_DEFS)
sim_method_options fd_options(const xp_params *prm);
// a reference integrator on the penalty ODE of the same model, at (rtol, atol)
fd_run fd_run_ode(const foundation *fd, const char *method, double rtol, double atol,
                  const fd_settings *s, double *pressure);
// the two independent references at tolerance tol and settings s — RK45 (with the element
// pressures at T when pressure is non-NULL) and CVODE BDF — computed at once on the two cores
// (xp_concurrently): untimed work, so the studies' timed runs still run alone
void fd_references(const foundation *fd, double tol, const fd_settings *s, double *pressure,
                   fd_run *rk45, fd_run *bdf);
// method m at the settings' tolerances (pressure: NULL, or the element pressures at T)
fd_run fd_run_method(const foundation *fd, const sim_method *m, const fd_settings *s,
                     double *pressure);
// the study's case label of method m: Table 1's short names for its columns
const char *fd_label(const sim_method *m);
// ‖a − b‖ over the 7 generalised coordinates (quaternion signs aligned), and ‖a‖
double fd_q_distance(const double *a, const double *b);
double fd_q_norm(const double *a);
// One warm-up run (its result in *first), then `repeats` timed runs: min and median of wall and
// CPU time into *tm; returns the median wall time.
double fd_run_timed(const foundation *fd, const sim_method *m, const fd_settings *s, int repeats,
                    double *pressure, fd_run *first, fd_timing *tm);
// the timing statistics of a case (wall_time is the median, as in Table 1)
void fd_timing_stats(xp_case *c, const fd_timing *tm);
// the study's `method=`: any method of the registry that applies to the foundation scenario
int fd_parse_methods(const char *text, fd_methods *use, xp_error *err);
// The closed-form model of the case (ref/ref_winkler.h).
ref_winkler fd_winkler(const foundation *fd);

#endif  // DRIVERS_XP_FOUNDATION_H
