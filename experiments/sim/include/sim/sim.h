// SPDX-License-Identifier: MIT
// sim — the method × scenario matrix (SPEC §7): one stepper interface for every method, one
// scenario descriptor for every model, and one simulate loop with observers. A study is a slice
// of the matrix: `stabcon run SCENARIO --set method=a,b,…` runs any applicable method on any
// scenario; `stabcon list --methods` prints the matrix.
//
// Dependencies: sim uses the model layer (mdl_model, rows), the steppers' libraries (mbs step,
// theta, ref) and the parameter declarations of xp; scenarios include this header only for the
// descriptor types.
#ifndef SIM_SIM_H
#define SIM_SIM_H

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "mdl/mdl_model.h"
#include "sim/sim_scenario.h"
#include "xp/xp.h"
#include "xp/xp_param_list.h"

// ---- methods (stepper type objects, after GSL's gsl_odeiv2_step_type) -------------------------

// Fills rep for a step taken ok by a method that reports no rows, forces or residuals (the
// peers), with its iteration count; returns the outcome 0.
static inline int sim_report_plain_ok(sim_step_report *rep, int iterations) {
  rep->status = "ok";
  rep->iterations = iterations;
  rep->solves = 1, rep->retried = 0, rep->predicted = 0;
  rep->residual = rep->cone_residual = NAN;
  rep->rows = NULL, rep->force = NULL;
  return rep->outcome = 0;
}

// The method settings, one line each (after MuJoCo's mjOption): X(KIND, field, key, …) entries
// of xp_param_list.h. The one list gives the struct's fields, the defaults
// (sim_method_options_default), the command-line rows of every study that runs methods
// (SIM_OPTION_DEFS: --help, validation, the results file's parameter attributes) and the reader
// (sim_method_options_read). A new setting is a line here and its use in the method that reads
// it; a study whose default differs says so in its experiment's `defaults`.
// clang-format off
#define SIM_OPTION_LIST(X)                                                                        \
  X(REAL, rtol, rtol, 1e-8, XP_POSITIVE, "", "cvode-*, rk45: relative tolerance")                 \
  X(REAL, atol, atol, 1e-8, XP_POSITIVE, "", "cvode-*, rk45: absolute tolerance")                 \
  X(REAL, wall_budget, budget, 60, XP_NONNEGATIVE, "s",                                           \
    "wall-time budget per run (cvode-*, rk45; some studies every run), then did-not-finish "      \
    "(0: none)")                                                                                  \
  X(STR, start, start, "warm", "cold|warm|feasible",                                              \
    "paperA-*: first conic solve of a step (cold, warm, paper A's feasible point)")               \
  X(STR, activation, activation, "overlap", "overlap|speculative",                                \
    "paperA-*, theta-*, ode-*: when a contact joins a step: overlap (paper A §5.2) or "          \
    "speculative (SPEC §1.5)")                                                                    \
  X(REAL, zeta, zeta, 0, XP_NONNEGATIVE, "1/s",                                                   \
    "paperA-paper: objective weight zeta; 0 means 1/h (paper A §6.1)")                           \
  X(INT, fp_max_iter, fp_max_iter, long, 50, XP_POSITIVE,                                         \
    "paperA-coulomb: most relaxed solves per step (fixed point); Newton: 4x this per "            \
    "rung of its ladder of Alart-Curnier scales, 5 rungs")                                        \
  X(STR, coulomb_solver, coulomb_solver, "newton", "newton|fixed-point",                          \
    "paperA-coulomb: exact Coulomb by semismooth Newton (SPEC §1.6) or the fixed point (§1.3)")   \
  X(INT, max_pivots, max_pivots, long, 100, XP_POSITIVE,                                          \
    "paperA-*: most pivots (active-set changes) per step of the dense unilateral-row solver")     \
  X(REAL, beta, beta, 1, XP_POSITIVE, "", "theta-*: near-rigid parameter (paper B)")              \
  X(REAL, sigma, sigma, 1e-3, XP_POSITIVE, "", "theta-*: tangential regularisation (paper B)")   \
  X(INT, quick_iterations, quick_iterations, long, 20, XP_POSITIVE,                               \
    "ode-quickstep: sweeps of its iterative solver per step (ODE's default 20)")
// clang-format on

// The command-line rows of the method settings (xp_param_def initialisers, comma-terminated).
#define SIM_OPTION_DEFS SIM_OPTION_LIST(XP_PARAM_DEF)

// Settings every method may read; each method uses those of its family.
typedef struct sim_method_options {
  double h;  // step size [s] (fixed-step methods) or output interval (ODE methods)
  SIM_OPTION_LIST(XP_PARAM_FIELD)
  // set by the studies that declare them (their meaning is the study's):
  const char *contact_solver;  // θ-method contact stage: "newton" (paper B, default) or "qcp"
  int no_bias;  // paper A and ODE methods: 1 drops the bias p = M̂Ġv (SPEC §1.1, §4): p = 0, as
                // the foundation study's bias=0 and a plain penalty force (0: with the bias)
  const char *solver;         // paper A: unilateral-row solver auto|dense|qcp; NULL: auto
  const double *gdot_target;  // paper A: weight of hĠv0 in the velocity target (eq. 50);
                              // NULL: the paper's 1 (the pendulum study also runs 0)
  double mujoco_timeconst;    // mujoco: solref's time constant [s], its accuracy knob beside h
                              // (critically damped, default solimp); 0: MuJoCo's defaults
  size_t frames;    // the loop's, for any method: most per-body frames written to the case when
                    // the model describes its scene (the `bodies` group); 0: none
  unsigned cookie;  // SIM_OPTIONS_COOKIE, set by sim_method_options_default only
} sim_method_options;
// The mark of settings made by sim_method_options_default (after Box2D's B2_CHECK_DEF): a struct
// built zero-filled would leave every unnamed setting at 0 instead of its default.
#define SIM_OPTIONS_COOKIE 0x5e771965u
// the most frames a run may ask for (a long run stays small: 100 by default)
#define SIM_FRAMES_MAX 10000

// The settings every method starts from: SIM_OPTION_LIST's defaults, h = 0.01 s.
sim_method_options sim_method_options_default(void);
// XP_OK if opt came from sim_method_options_default; otherwise an assertion (debug builds) or
// XP_ERR_RUN with a message: every method's create and the simulate loop check it.
int sim_method_options_check(const sim_method_options *opt, xp_error *err);
// Reads the SIM_OPTION_LIST keys that prm declares into *out (the others keep their value).
void sim_method_options_read(const xp_params *prm, sim_method_options *out);

// The integrators' counters of a run (CVODE, RK45, IDA), under one key scheme for every writer
// (the ODE and IDA methods, the studies' own reference runs) and reader (reports, claims):
// X(field of ref_stats, key, what it counts).
#define SIM_INTEGRATOR_STAT_LIST(X)                                                               \
  X(steps, "ode_steps", "accepted steps")                                                         \
  X(rhs_evals, "ode_rhs_evals",                                                                   \
    "right-hand side (IDA: residual) evaluations, those of difference-quotient Jacobians "        \
    "included")                                                                                   \
  X(rhs_evals_jac, "ode_rhs_evals_jac", "the evaluations spent on difference-quotient Jacobians") \
  X(jac_evals, "ode_jac_evals", "Jacobian evaluations")                                           \
  X(newton_iters, "ode_newton_iters", "nonlinear (Newton) iterations")                            \
  X(err_fails, "ode_err_fails", "local error test failures")                                      \
  X(order_max, "ode_order_max", "largest order used (CVODE; 0: not reported)")
#define SIM_INTEGRATOR_STAT_COUNT_(field, key, help) +1
enum { SIM_INTEGRATOR_STATS = 0 SIM_INTEGRATOR_STAT_LIST(SIM_INTEGRATOR_STAT_COUNT_) };

struct ref_stats;
// Writes an integration's counters through emit under the SIM_INTEGRATOR_STAT_LIST keys
// (ode_rhs_evals: ref_stats' rhs_evals + rhs_evals_jac, every evaluation).
void sim_integrator_stats_emit(const struct ref_stats *st, sim_emit_fn emit, void *ctx);
// The counters read back by key: values[i] for the i-th key of the list; 1 if key is one of
// them (value stored), 0 otherwise.
int sim_integrator_stat_take(double values[SIM_INTEGRATOR_STATS], const char *key, double value);
// The i-th key of the list.
const char *sim_integrator_stat_key(int i);

// A stepper type: a name and create / step / stats / free. States are opaque to the loop.
typedef struct sim_method sim_method;
struct sim_method {
  const char *name;         // CLI name, e.g. "paperA-coulomb", "theta-midpoint", "cvode-bdf1"
  const char *description;  // one line
  unsigned family;          // one SIM_FAMILY_* bit
  int variant;              // family-specific: formulation, scheme or integrator
  // Allocates everything the run needs (the model is borrowed; t_end is the last output time).
  // NULL with a message in err on bad settings or out of memory.
  void *(*create)(const sim_method *type, const mdl_model *model, const sim_method_options *opt,
                  double t0, const double *q0, const double *v0, double t_end, xp_error *err);
  // Advances (q, v) in place from t to t_next: fixed-step methods take one step of their h (t_next
  // = t + h up to rounding, which they do not let into the step size); adaptive integrators
  // advance to the output time t_next. Returns the outcome (also in rep).
  int (*step)(void *state, double t, double t_next, double *q, double *v, sim_step_report *rep);
  // Method statistics of the whole run written through emit (integrator counters); may be NULL.
  void (*stats)(void *state,
                void (*emit)(void *ctx, const char *key, double value, const char *unit),
                void *ctx);
  void (*free)(void *state);
  // Optional: the energy of the contact law the method applies minus the scene's, at a state
  // (t, q) with the model's rows evaluated there; the loop stores the scene's energy plus it as
  // `energy_method`, the energy of the model the method integrates (paper B's near-rigid bound
  // softens stiff contacts). 0 on success. NULL: the method integrates the scene's law.
  int (*energy_shift)(void *state, double t, const double *q, const mdl_rows *rows, double *shift);
};

// NULL-terminated table of every method (generated from the build list, sim_registry.c).
extern const sim_method *const sim_methods[];
// Looks a method up by name; NULL if unknown.
const sim_method *sim_method_find(const char *name);
struct sim_scenario;
// A `method=` value: "applicable" (every method of the given SIM_FAMILY_* bits, at most cap) or a
// comma list of method names, each known and (sc non-NULL) applicable to sc. XP_OK and the list in
// list[0..*n), or XP_ERR_USAGE with a message naming the bad entry.
int sim_methods_parse(const char *text, unsigned families, const struct sim_scenario *sc,
                      const sim_method **list, size_t cap, size_t *n, xp_error *err);

// A paper study's `method=` value: registry names (or "applicable"), each applicable to the
// study's scenario and of a family the study can run (families; why is the reason shown for
// the others). XP_OK and the list in list[0..*n), or XP_ERR_USAGE naming the bad entry.
int sim_study_methods(const char *text, const char *scenario, unsigned families, const char *why,
                      const sim_method **list, size_t cap, size_t *n, xp_error *err);
// A paper study's case label for method m: the study's own short name where its table has one
// (labels[k] for names[k], so its results and report keep their case names), else m's name.
const char *sim_study_label(const sim_method *m, const char *const *names,
                            const char *const *labels, size_t n);

// ---- the simulate loop ----------------------------------------------------------------------

// What the loop measures on every step and writes as series (decimated to at most max_points
// samples) and statistics of one case.
typedef struct sim_outcome {
  size_t steps_taken;          // steps (or output intervals) completed
  size_t steps_degraded;       // steps taken with outcome > 0
  size_t steps_retried;        // steps solved again from the feasible start
  int failed;                  // 1 if a step failed (outcome < 0): the run stopped there
  int stopped;                 // 1 if the probe stopped the run (status: the probe's answer)
  const char *status;          // the case status: "ok", "degraded", "failed", "did-not-finish"
                               // or the probe's stop
  char message[200];           // the failure, naming the step's time and status
  double wall_time, cpu_time;  // whole run [s]
  double flops;  // operations of the method's factorisations and triangular solves over the run
                 // (common/sc_work.h): a cost that the machine's load does not move
  double factorizations;  // the sparse factorisations among them (full or partial), counted
} sim_outcome;

// Runs `method` on the instance for T seconds with steps (or output intervals) of h, writing
// the case's series (t, energy, constraint deviation, contact load, iterations, outcome, wall
// and CPU time per step) and statistics into c, with the scenario's probe statistics when
// probe is non-NULL; c = NULL writes nothing (a study that keeps only its probe's measures).
// Returns XP_OK, XP_ERR_USAGE (bad settings: message in err) or XP_ERR_RUN
// (out of memory); a numerical failure is recorded in the case, not returned.
int sim_simulate(const sim_method *method, const sim_method_options *opt, const sim_instance *inst,
                 double T, size_t max_points, sim_probe *probe, xp_case *c, sim_outcome *out,
                 xp_error *err);

// ---- the matrix as experiments ------------------------------------------------------------

// The experiment that runs a scenario over a list of methods (`run SCENARIO --set method=…`);
// NULL if no scenario has that name. Its parameters are the scenario's followed by the common
// ones (method, h, T, max_points, method settings).
const xp_experiment *sim_experiment_for(const char *scenario_name);
// Prints the scenario × method matrix (`stabcon list --methods`) to out.
void sim_print_matrix(FILE *out);

#endif  // SIM_SIM_H
