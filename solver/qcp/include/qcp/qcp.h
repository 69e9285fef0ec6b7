// SPDX-License-Identifier: MIT
// qcp — sparse primal-dual interior-point solver for convex QPs over R₊^l × Q^{q1} × … (SPEC §3).
#ifndef QCP_QCP_H
#define QCP_QCP_H

#include <stddef.h>

#include "common/sc_error.h"

// Problem:  min ½xᵀPx + cᵀx  s.t.  A x = b,  G x + s = h,  s ∈ K = R₊^l × Q^{q1} × … × Q^{qk}.
// Q^q = {(s0, s1) ∈ R × R^{q-1} : s0 ≥ ‖s1‖}. A friction cone ‖(λ_r, λ_s)‖ ≤ μ λ_n is one Q³ after
// the row scaling diag(μ, 1, 1). Sizes: x ∈ R^n, y ∈ R^p (A rows), s, z ∈ R^m with m = l + Σ q_i.

// ---- outcome codes (one X-macro list each) ---------------------------------

// Numerical outcome of a solve, stored in qcp_info.status (not an error).
#define QCP_STATUS_LIST(X)                                                                   \
  X(QCP_UNSOLVED, "unsolved")                   /* solve not called yet */                   \
  X(QCP_SOLVED, "solved")                       /* all tolerances met */                     \
  X(QCP_SOLVED_INACCURATE, "solved_inaccurate") /* only the inaccurate tolerances */         \
  X(QCP_MAX_ITERATIONS, "max_iterations")       /* iteration limit, best iterate kept */     \
  X(QCP_NUMERICAL_ERROR, "numerical_error")     /* factorisation/step failed */              \
  X(QCP_PRIMAL_INFEASIBLE, "primal_infeasible") /* certificate (y, z) in the solution */     \
  X(QCP_DUAL_INFEASIBLE, "dual_infeasible")     /* certificate x in the solution */          \
  X(QCP_TIME_LIMIT, "time_limit")               /* settings.time_limit, best iterate kept */ \
  X(QCP_STALLED, "stalled") /* no progress in stall_window iterations, best iterate kept */

// Error codes returned by functions that take user input (0 = ok): the sc_error codes
// (common/sc_error.h, one sign for every library) under qcp's names.
#define QCP_ERROR_LIST(X)                                                                 \
  X(QCP_OK, SC_OK, "ok")                                                                  \
  X(QCP_ERR_INPUT, SC_ERR_INPUT, "invalid problem data")   /* sizes, patterns, NaN/Inf */ \
  X(QCP_ERR_SETTINGS, SC_ERR_SETTINGS, "invalid settings") /* a setting out of range */   \
  X(QCP_ERR_ALLOC, SC_ERR_MEMORY, "allocation failed")                                    \
  X(QCP_ERR_ORDERING, SC_ERR_ORDERING, "AMD ordering failed")                             \
  X(QCP_ERR_START, SC_ERR_START, "invalid starting point") /* e.g. h - Gx not interior */ \
  X(QCP_ERR_IO, SC_ERR_IO, "file input/output failed")

#define QCP_ENUM_ITEM(name, str) name,
#define QCP_ERR_ITEM(name, value, str) name = value,
typedef enum qcp_status { QCP_STATUS_LIST(QCP_ENUM_ITEM) QCP_STATUS_COUNT } qcp_status;
typedef enum qcp_errcode { QCP_ERROR_LIST(QCP_ERR_ITEM) } qcp_errcode;
#undef QCP_ERR_ITEM
#undef QCP_ENUM_ITEM

// Returns a static lowercase name of a status ("solved", …); "invalid" if out of range.
const char *qcp_status_string(qcp_status status);

// Returns a static short description of an error code; "invalid" if out of range.
const char *qcp_error_string(int code);

// Message buffer filled by functions that reject user input; names the bad value and the limit.
typedef sc_error qcp_error;  // code: a qcp_errcode; message: names the bad value and the limit

// ---- data ---------------------------------------------------------------------

// A compressed-sparse-column matrix (0-based). Row indices strictly increase within a column.
// colptr has ncols+1 entries, rowind and values colptr[ncols] entries; the caller owns the arrays.
typedef struct qcp_csc {
  int nrows, ncols;
  const int *colptr;
  const int *rowind;
  const double *values;  // may be NULL only where the structure alone is needed
} qcp_csc;

// One problem instance; arrays are borrowed (copied by qcp_setup / qcp_update).
typedef struct qcp_problem {
  int n;            // variables
  int p;            // equality rows (0: A and b unused)
  int l;            // nonnegative-orthant rows (the first l rows of G)
  int nsoc;         // number of second-order cones
  const int *q;     // nsoc cone dimensions, each >= 1, following the orthant rows of G
  qcp_csc P;        // n×n, upper triangle only (diagonal included)
  qcp_csc A;        // p×n
  qcp_csc G;        // m×n, m = l + Σ q
  const double *c;  // n
  const double *b;  // p (NULL allowed when p = 0)
  const double *h;  // m
} qcp_problem;

// Memory hooks: every allocation of the library goes through these (tests count them).
typedef struct qcp_allocator {
  void *(*alloc)(size_t bytes, void *ctx);  // like malloc; NULL on failure
  void (*release)(void *ptr, void *ctx);    // like free; ptr may be NULL
  void *ctx;
} qcp_allocator;

// ---- settings -------------------------------------------------------------------

// Solver settings; get defaults from qcp_settings_default(), then change fields. Validated once in
// qcp_setup (and qcp_settings_set) — a value out of range is an input error naming the field.
typedef struct qcp_settings {
  int max_iter;          // iteration limit (also the capacity of the iteration records), 1..1000
                         // (default 50; qcp_settings_set may lower it, not raise it)
  double eps_abs;        // absolute tolerance on residuals and gap, > 0 (default 1e-8)
  double eps_rel;        // relative tolerance on residuals and gap, > 0 (default 1e-8)
  double eps_inacc;      // tolerance of the solved-inaccurate fallback, >= eps (default 1e-4)
  double eps_infeas;     // infeasibility certificate tolerance, > 0 (default 1e-8)
  double step_fraction;  // fraction of the step to the cone boundary, in (0, 1) (default 0.99)
  // the fraction once every relative residual is at most 1e-4 (one common step, near the
  // solution), in (0, 1) (default 0.999; qcp_settings_contact: 0.99)
  double step_fraction_late;
  double static_reg;     // static regularisation δ of the KKT diagonal, >= 0 (default 1e-8)
  double dyn_reg_eps;    // pivot threshold of the dynamic regularisation, > 0 (default 1e-13)
  double dyn_reg_delta;  // value a too-small pivot is replaced by (signed), > 0 (default 1e-7)
  int refine_iter;       // max iterative-refinement steps per solve, 0..50 (default 10)
  double refine_tol;  // stop refinement at ‖r‖∞ <= refine_tol·(1+‖rhs‖∞), > 0 (default 1e-13);
                      // an iteration's Newton solves stop earlier, at 1 % of its residuals
  double cold_rho;   // cold start: weight ρ of the cone rows, x = argmin ½xᵀPx + cᵀx +
                     // ‖Gx − h‖²/(2ρ) s.t. Ax = b, > 0 (default 1, CVXOPT's choice, for
                     // general QPs; contact problems set 1e4: x near the all-active solution,
                     // which carries their loads)
  int start_switch;  // 1: a cold run from cold_rho > 1 whose first three steps are all short
                     // continues from the ρ = 1 point (general QPs that start badly centred
                     // from the all-active point); 0: it keeps its start (default 1)
  int proximal;      // 1: proximal Newton — each Newton system is solved with the regularised
                     // matrix (δ a proximal term centred at the iterate), refined against the
                     // unregularised one only where that error exceeds a share of the
                     // iterate's residuals (half; after a step of at least 0.9 what that step
                     // left, at least 1 %); 0: every Newton solve refined against the unregularised
                     // matrix to 1 % of them (default 1; paper A's step and paper B's dual
                     // solver set 0)
  int split_step;    // 1: while the iterate is far from feasible (relative residuals above
                     // 1e-4) the primal (x, s) and dual (y, z) variables take separate step
                     // lengths, each 0.99 of its own cone boundary; 0: one step for both
                     // (default 1; paper A's step and paper B's dual solver set 0)
  double warm_push;  // warm start: min cone eigenvalue raised to warm_push·(1+‖v‖∞), > 0
                     // (default 1e-3)
  double min_step;   // a step below this counts as a stall, in [0, 1) (default 1e-8)
  int max_stall;     // stalled steps in a row before giving up (numerical_error), >= 1 (3)
  int polish;        // 1: after a solved problem with orthant rows only, solve the equality
                     // KKT system of the identified active set and keep it if it is as
                     // feasible: exact complementarity s∘z = 0; a solve ended solved_inaccurate
                     // returns the polished point that kept every sign where its worst exact
                     // measure is below the iterate's (default 1; 0 off)
  int polish_bound;  // 1: the polish's corrections stop where the sign violations, falling at
                     // their last rate, cannot reach 0 in the rounds left: a solved point's
                     // (which also skips the rounds without δ; the point stays solved) and the
                     // polish during the iteration while the iteration can still close the gap
                     // (general QPs: their large active sets rarely settle within the rounds);
                     // 0: every polish runs all its rounds (default 1; contact and foundation
                     // steps set 0)
  int polish_solved;  // 1: a point the iteration ended solved is polished as well (kept only if
                      // it passes: s∘z = 0 exactly); 0: the polish runs where the iteration ends
                      // inaccurate and during the iteration, a solved point is returned as it is
                      // (default 0; contact and foundation steps set 1: the polished point is
                      // the step's result and next warm start)
  int verbose;        // 0 silent, 1 one line per iteration to stderr
  qcp_allocator allocator;  // NULL functions = malloc/free
  int equilibrate;          // Ruiz equilibration passes on the data, 0..50 (default 10; 0 off);
                            // the iteration runs on the scaled problem, every test on the
                            // original one
  int stall_window;         // stop (status stalled) when the best iterate has not improved for
                            // this many iterations, >= 1 (default 25); a step that lowered
                            // max(pres, dres) and raised μ (re-centring) counts as progress
  double time_limit;        // limit of one qcp_solve in seconds (status time_limit, best iterate
                            // kept): no iteration starts that the last one's cost says would
                            // end past it, no polish round starts past it; 0 = none (default)
  int time_limit_cpu;       // 1: time_limit counts the calling thread's CPU time (the machine's
                            // load does not change which solves reach it); 0: wall clock
                            // (default)
  int strict_gap;  // 1: the gap test bounds sᵀz + |pobj − dobj| (the gap of a two-sided
                   // problem lifted to orthant row pairs, qcp_mm.h); 0: the larger of
                   // the two (default 0)
  int lastbit;     // 1: when the iteration ends solved_inaccurate and no polish pass meets the
                   // tolerances, the closest sign-keeping polished point has components moved
                   // one at a time against its exactly computed residuals until they are met,
                   // if they can be (qcp_lastbit.c). The moves are not one-ulp: many ulps per
                   // component and on most components of a large problem, and at a loose
                   // tolerance they trade primal feasibility for the gap.
                   // Opt-in (default 0; fixed at setup: its scratch is allocated only when 1)
} qcp_settings;

// Returns the default settings (all tolerances 1e-8, 0.99 step fraction, 50 iterations).
qcp_settings qcp_settings_default(void);

// The defaults for problems whose solution carries loads on nearly all rows (contact and
// foundation steps): the all-active cold start (cold_rho = 1e4), kept (start_switch = 0),
// every Newton solve refined against the unregularised matrix (proximal = 0), one step length
// for primal and dual (split_step = 0) at 0.99 of the boundary throughout (step_fraction_late),
// and the polish's rounds run in full (polish_bound = 0), solved points' too (polish_solved = 1).
qcp_settings qcp_settings_contact(void);

// Checks every field of s; returns QCP_OK or QCP_ERR_SETTINGS with a message naming the field.
int qcp_settings_validate(const qcp_settings *s, qcp_error *err);

// ---- results ----------------------------------------------------------------------

// One interior-point iteration as seen by the caller (iteration 0 is the starting point).
typedef struct qcp_iter_record {
  int iter;
  double pres;   // relative primal residual max(‖Ax−b‖∞, ‖Gx+s−h‖∞)/scale
  double dres;   // relative dual residual ‖Px+c+Aᵀy+Gᵀz‖∞/scale
  double gap;    // sᵀz
  double mu;     // sᵀz / (l + nsoc)
  double sigma;  // centring parameter used for the step taken from this iterate
  double step;   // step length taken from this iterate (0 for the last)
  double pobj;   // ½xᵀPx + cᵀx
  double time;   // seconds from the solve's start to this record, on the clock of time_limit
} qcp_iter_record;

// How the interior-point method starts (see qcp_solve).
typedef enum qcp_start {
  QCP_START_COLD = 0,      // KKT-based least-squares start shifted into the cone
  QCP_START_FEASIBLE = 1,  // caller's x with h − Gx interior (and Ax = b); z centred
  QCP_START_WARM = 2,      // caller's x, s, y, z (e.g. previous step) pushed into the interior
} qcp_start;

// Summary of the last solve.
typedef struct qcp_info {
  qcp_status status;
  int iterations;                 // iterations taken (records 0..iterations are valid)
  double pobj, dobj;              // primal and dual objective at the returned point
  double pres, dres, gap;         // final relative residuals and sᵀz
  double setup_time, solve_time;  // seconds (wall clock)
  long nnz_kkt, nnz_l;            // entries of the KKT upper triangle and of L (strict lower)
  int factorizations;             // numeric LDLᵀ factorisations in the last solve
  int kkt_solves;                 // KKT solves (each a forward/backward substitution)
  int refine_steps;               // iterative-refinement steps over those solves
  int dyn_reg_count;              // pivots replaced by dynamic regularisation in the last solve
  int polished;                   // 1 if the returned point is the accepted polish (s∘z = 0)
  int lastbit;                    // 1 if it is a polished point after the last-bit selection
} qcp_info;

// ---- workspace lifetimes: setup (allocates) → update (values) → solve --------------

typedef struct qcp_workspace qcp_workspace;

// Validates prob and settings (NULL = defaults), orders and allocates everything; returns QCP_OK
// and *out, or an error code with a message in err. The workspace copies all data it needs.
int qcp_setup(qcp_workspace **out, const qcp_problem *prob, const qcp_settings *settings,
              qcp_error *err);

// Replaces numeric values for a new instance with the same sparsity pattern (NULL = unchanged):
// Pv/Av/Gv hold nnz values in the setup pattern's order, c n, b p, h m. Allocates nothing.
int qcp_update(qcp_workspace *ws, const double *Pv, const double *Av, const double *Gv,
               const double *c, const double *b, const double *h, qcp_error *err);

// Replaces the settings (same max_iter as at setup or smaller); allocates nothing.
int qcp_settings_set(qcp_workspace *ws, const qcp_settings *settings, qcp_error *err);

// Solves from the given start. x0 (n) is read for FEASIBLE and WARM; s0, z0 (m) and y0 (p, may be
// NULL if p = 0) for WARM (NULL means zero / recomputed). Returns QCP_OK (outcome in info.status)
// or an input error (e.g. QCP_ERR_START when h − G x0 is not in the cone interior). Allocates
// nothing.
int qcp_solve(qcp_workspace *ws, qcp_start start, const double *x0, const double *s0,
              const double *y0, const double *z0, qcp_error *err);

// Solution arrays owned by the workspace (valid until the next solve or free): x n, s m, y p, z m.
const double *qcp_solution_x(const qcp_workspace *ws);
const double *qcp_solution_s(const qcp_workspace *ws);
const double *qcp_solution_y(const qcp_workspace *ws);
const double *qcp_solution_z(const qcp_workspace *ws);

// Info of the last solve (owned by the workspace).
const qcp_info *qcp_info_get(const qcp_workspace *ws);

// Per-iteration records of the last solve: *count = info.iterations + 1 entries (workspace-owned).
const qcp_iter_record *qcp_records_get(const qcp_workspace *ws, int *count);

// The problem currently held by the workspace (arrays owned by the workspace).
const qcp_problem *qcp_problem_get(const qcp_workspace *ws);

// Frees the workspace (through its allocator); NULL is a no-op.
void qcp_workspace_free(qcp_workspace *ws);

// Checks a problem's sizes, CSC patterns (sorted, in range, P upper), cones and finiteness;
// returns QCP_OK or QCP_ERR_INPUT with a message naming the bad item.
int qcp_problem_validate(const qcp_problem *prob, qcp_error *err);

// ---- independent checker ------------------------------------------------------------

// Optimality measures at (x, s, y, z) computed directly from the original data, by code separate
// from the solver's own residuals (long double accumulation). Absolute unless named *_rel; the
// cone measures are relative like the residuals.
typedef struct qcp_check_result {
  double pres_eq;    // ‖Ax − b‖∞
  double pres_cone;  // ‖Gx + s − h‖∞
  double pres_rel;  // max of the two / max(1, ‖b‖∞, ‖h‖∞, ‖Ax‖∞, ‖Gx‖∞, ‖s‖∞)
  double infeas_hgx;  // −min eigenvalue of h − Gx (clipped at 0) / the primal scale of pres_rel
  double s_cone;      // −min eigenvalue of s over all cones (clipped at 0) / the primal scale
  double z_cone;      // −min eigenvalue of z (clipped at 0) / max(1, ‖z‖∞)
  double dres;        // ‖Px + c + Aᵀy + Gᵀz‖∞
  double dres_rel;    // dres / max(1, ‖c‖∞, ‖Px‖∞, ‖Aᵀy‖∞, ‖Gᵀz‖∞)
  double compl ;      // |sᵀz|
  double compl_max;   // largest per-cone |s_kᵀz_k|
  double pobj, dobj;  // ½xᵀPx + cᵀx and −½xᵀPx − bᵀy − hᵀz
  double gap_rel;     // |pobj − dobj| / max(1, |pobj|)
} qcp_check_result;

// Fills out for the point (x n, s m, y p (NULL if p = 0), z m) of prob.
void qcp_check(const qcp_problem *prob, const double *x, const double *s, const double *y,
               const double *z, qcp_check_result *out);

// Returns 1 if pres_rel, dres_rel, gap_rel, s_cone, z_cone and infeas_hgx are all <= tol.
int qcp_check_passes(const qcp_check_result *r, double tol);

#endif  // QCP_QCP_H
