// SPDX-License-Identifier: MIT
// Paper A's first-order constraint step (SPEC §1.2–1.3): workspace, settings, statistics.
#ifndef MBS_MBS_STEP_H
#define MBS_MBS_STEP_H

#include "common/sc_error.h"
#include "mdl/mdl_model.h"
#include "mdl/mdl_status.h"

// Formulation of the unilateral (and contact) rows, SPEC §1.3; recorded by every run.
#define MBS_FORMULATION_LIST(X)                                                                              \
  X(MBS_RELAXED, "relaxed") /* min ½λᵀ(C+W)λ − ĉᵀλ: exact complementarity 0 ≤ λ ⊥ r ≥ 0 */ \
  X(MBS_PAPER, "paper") /* paper A eqs. 83–85: min ζ/2‖λ_u‖² s.t. r ≥ 0, λ ≥ 0 */              \
  X(MBS_COULOMB, "coulomb") /* relaxed + De Saxcé fixed point: exact Coulomb friction */

// Outcome of one step (a numerical status, not an error): the common statuses of every stepper
// (mdl/mdl_status.h: ok, callback-recoverable, callback-fatal, capacity, singular, nonfinite,
// bad-row) plus paper A's own, X(SUFFIX, value, "name", severity) with severity as in
// mbs_status_severity.
#define MBS_STEP_STATUS_LIST(X)                                                                 \
  X(MAX_ITERATIONS, 5, "max-iterations", 1) /* the unilateral solver hit its limit (taken) */   \
  X(INACCURATE, 6, "inaccurate", 1)         /* qcp met only its inaccurate tolerance (taken) */ \
  X(SOLVER_FAILED, 7, "solver-failed", -1)  /* qcp failed (numerical error, setup) */           \
  X(UNSUPPORTED, 10, "unsupported", -1)     /* row kind/formulation not available in this build */

#define MBS_ENUM_ITEM(name, str) name,
#define MBS_STATUS_ENUM_ITEM(suffix, value, str, severity) MBS_##suffix = value,
// Formulation selector.
typedef enum mbs_formulation {
  MBS_FORMULATION_LIST(MBS_ENUM_ITEM) MBS_FORMULATION_COUNT
} mbs_formulation;
// Step status.
typedef enum mbs_status {
  MDL_COMMON_STATUS_LIST(MBS_STATUS_ENUM_ITEM) MBS_STEP_STATUS_LIST(MBS_STATUS_ENUM_ITEM)
      MBS_STATUS_COUNT = 11  // values 0..10, all used
} mbs_status;
#undef MBS_ENUM_ITEM
#undef MBS_STATUS_ENUM_ITEM

// Static lowercase name of a formulation ("relaxed", "paper", "coulomb"); "invalid" if out of
// range.
const char *mbs_formulation_name(mbs_formulation f);
// Parses a formulation name; returns 0 and sets *f, or −1 if unknown.
int mbs_formulation_parse(const char *name, mbs_formulation *f);
// Static lowercase name of a status ("ok", …); "invalid" if out of range.
const char *mbs_status_name(mbs_status s);
// Signed outcome of a status (SPEC §7): < 0 the step was not taken (input or fatal), 0 ok, > 0
// taken but degraded (max-iterations, inaccurate); −1 for a value out of range.
int mbs_status_severity(mbs_status s);

// Which solver handles steps with active unilateral rows (steps with active contact rows always
// use qcp: the friction cones are second-order cones).
typedef enum mbs_solver {
  MBS_SOLVER_AUTO = 0,   // dense while the compliant active rows ≤ dense_max_rows, else qcp
  MBS_SOLVER_DENSE = 1,  // built-in exact dense active-set solvers (small row counts)
  MBS_SOLVER_QCP = 2,    // the sparse conic interior-point solver qcp, lifted form (mbs_qcp.c)
} mbs_solver;

// Static lowercase name of a solver choice ("auto", "dense", "qcp"); "invalid" if out of range.
const char *mbs_solver_name(mbs_solver s);
// Parses a solver name; returns 0 and sets *s, or −1 if unknown.
int mbs_solver_parse(const char *name, mbs_solver *s);

// How the conic solver starts the first solve of a step (the coulomb fixed point's re-solves
// always start warm from the previous iterate).
typedef enum mbs_start {
  MBS_START_COLD = 0,      // qcp's cold start
  MBS_START_WARM = 1,      // (default) the previous step's solution (λ, slacks, multipliers) when
                           // the pattern is unchanged; after a pattern change its λ by model row
                           // and w (slacks recomputed, pushed inside, duals centred); the coulomb
                           // fixed point from the last step's shifts
  MBS_START_FEASIBLE = 2,  // paper A's strictly feasible point (Appendix A): λ_u = λ_n = L large,
                           // λ_t = 0, w = M⁻¹(g_E + Gᵀλ); cold if none is found
} mbs_start;

// Static lowercase name of a start ("cold", "warm", "feasible"); "invalid" if out of range.
const char *mbs_start_name(mbs_start s);
// Parses a start name; returns 0 and sets *s, or −1 if unknown.
int mbs_start_parse(const char *name, mbs_start *s);

// When a unilateral or contact-normal row takes part in a step (SPEC §1.5); recorded by every run.
typedef enum mbs_activation {
  MBS_ACTIVATION_OVERLAP = 0,      // paper A §5.2: while φ0 ≤ 0 (default)
  MBS_ACTIVATION_SPECULATIVE = 1,  // SPEC §1.5: also open rows whose gap could close in the step
                                   // (compliant with gap_stiffness), a bounded re-solve when a
                                   // row left out ends penetrating, stiffness over the step
} mbs_activation;

// Static lowercase name of an activation rule ("overlap", "speculative"); "invalid" if out of
// range.
const char *mbs_activation_name(mbs_activation a);
// Parses an activation rule name; returns 0 and sets *a, or −1 if unknown.
int mbs_activation_parse(const char *name, mbs_activation *a);

// How the coulomb formulation reaches exact Coulomb friction (SPEC §1.3, §1.6).
typedef enum mbs_coulomb_solver {
  MBS_COULOMB_NEWTON = 0,       // (default) semismooth Newton on the Alart–Curnier equations from
                                // the relaxed solution, line search on ½‖F‖² (SPEC §1.6)
  MBS_COULOMB_FIXED_POINT = 1,  // the De Saxcé fixed point over relaxed solves (SPEC §1.3)
} mbs_coulomb_solver;

// Static lowercase name ("newton", "fixed-point"); "invalid" if out of range.
const char *mbs_coulomb_solver_name(mbs_coulomb_solver c);
// Parses a Coulomb solver name; returns 0 and sets *c, or −1 if unknown.
int mbs_coulomb_solver_parse(const char *name, mbs_coulomb_solver *c);

// Step settings; obtain defaults from mbs_settings_default() and change fields.
typedef struct mbs_settings {
  mbs_formulation formulation;  // default MBS_RELAXED
  mbs_solver solver;            // default MBS_SOLVER_AUTO
  int dense_max_rows;           // AUTO: largest compliant active row count for the dense solver
  double zeta;  // weight ζ of ‖λ_u‖² in the paper objective; ≤ 0 means 1/h (paper A §6.1)
  int use_bias;        // 1: include p = M̂_X Ġ_X v0 (eq. 53); 0: p = 0
  double gdot_target;  // weight of h(Ġv0) in the velocity target φ̇1 = G v1 + h(Ġv0): 1 = paper
                       // eq. 50 (default); 0 = φ1 = φ0 + h G v1 as the position update makes it
  double bias_reg;  // relative Tikhonov ε of the bias solve (W + ε·max diag W·I) p = Ġv0, > 0
  int max_iter;     // pivots / active-set changes allowed per step (default 100)
  double tol;       // relative tolerance of the active-set solvers' sign tests (default 1e-12)
  mbs_coulomb_solver coulomb_solver;  // coulomb: Newton (default) or the fixed point
  int fp_max_iter;  // coulomb: most relaxed solves per step in the De Saxcé fixed point; Newton:
                    // 4·fp_max_iter iterations for each of its five rungs (50)
  double fp_tol;  // coulomb: stop when max |Δs| ≤ fp_tol · max(max s, μ‖ĉ0‖∞ of the contact
                  // rows) over the shifts s = μ‖ρ_t‖ (fixed point), or when the Newton residual
                  // ‖F‖∞ relative to the step's force scale is ≤ fp_tol (1e-10)
  double qcp_eps;   // qcp's eps_abs = eps_rel for the sparse path; ≤ 0 keeps qcp's 1e-8 (1e-11)
  mbs_start start;  // first solve of a step on the conic path (default MBS_START_WARM)
  mbs_activation activation;  // which rows join a step (default MBS_ACTIVATION_OVERLAP)
  double margin;  // speculative: an open row joins when φ0 − h Σ_j |G_ij v_free,j| ≤ margin, in
                  // φ's units (default 1e-4 m)
  double gap_stiffness;  // speculative: K of open rows (φ0 > 0) [N/m] (default 1e8)
  int max_resolves;      // speculative: most re-solves per step (rows joining after a solve, or
                         // stiffness over the step changing by more than 2×) (default 8)
  int predict;  // relaxed/coulomb on the conic path: 1 tries the last step's active set first
                // (one linear KKT solve, accepted only if every cone and sign condition holds,
                // else the interior-point solve); 0 never (default 1)
} mbs_settings;

// Default settings: relaxed, auto (dense up to 64 rows; steps with contact rows always use qcp),
// ζ = 1/h, bias on with ε = 1e-8, gdot_target 1, 100 pivots, tol 1e-12, fixed point 50 solves to
// 1e-10, qcp tolerance 1e-11, warm starts, overlap activation (speculative: margin 1e-4, gap
// stiffness 1e8 N/m, at most 8 re-solves).
mbs_settings mbs_settings_default(void);

// Per-step statistics of the last mbs_step.
typedef struct mbs_info {
  mbs_status status;
  int rows;             // rows reported by the model
  int rows_active;      // rows that took part (bilateral + unilateral with φ ≤ 0)
  int rows_bilateral;   // of which bilateral
  int rows_unilateral;  // of which unilateral (active)
  int rows_positive;    // active unilateral rows with λ > 0 after the solve
  int iterations;       // dense: pivots (relaxed) or active-set iterations (paper); qcp:
                        // interior-point iterations, summed over the coulomb fixed point's
                        // solves; 0 for bilateral-only (linear) steps
  double residual;      // max over active rows of the scaled row residual r̂ = r/D [m/s²]:
                        // |r̂| (bilateral), max(0, −r̂) + max(0, −λ)/D (unilateral, normal);
                        // tangent rows are judged by cone_residual instead
  double complementarity;  // max over unilateral rows of |λ_i r_i| [N²]
  double lambda_min;       // smallest unilateral λ (+INF if none) [N]
  double energy;           // model energy at (t1, q1, v1) if the model provides it, else NAN [J]
  int contacts;            // active contacts with a friction cone (μ > 0) in the conic problem
  int fp_iterations;       // relaxed solves of the step (coulomb: fixed-point iterations; 1 else)
  double fp_change;  // coulomb: last change max|Δs| / max(max s, μ‖ĉ0‖∞) of the shifts
  int newton_iterations;    // coulomb, Newton: iterations of the step (summed over its solves)
  double coulomb_residual;  // coulomb: the exact Coulomb conditions' residual ‖F‖∞ of the last
                            // solve's forces relative to its force scale, measured whichever
                            // solver or prediction gave them (SPEC §1.6; 0 without contacts)
  double cone_residual;   // max over contacts of max(0, ‖λ_t‖ − μλ_n) [N]
  int rows_open;          // speculative: active unilateral/normal rows with φ0 > 0 (last solve)
  int resolves;           // speculative: re-solves of the step (0 = the first solve stood)
  int rows_joined;        // speculative: rows that joined after a solve ended them penetrating
  int stiffness_updates;  // speculative: row stiffnesses re-evaluated over the step
  int penetrating;        // speculative: rows left out that still end penetrating (bound reached)
  int predicted;  // conic solves of the step accepted from the active-set prediction (one linear
                  // KKT solve with the last step's active set, checked, no interior point)
  int predicted_sliding;  // of which with a contact sliding on its cone's boundary (relaxed)
  int pattern_setups;     // conic solves of the step that set up a new pattern (ordering, symbolic
                          // analysis: the active rows changed); from the workspace's arena, which
                          // calls malloc only when a pattern outgrows every earlier one
  int callback_code;      // the offending callback's return value (0 if none)
  const char *callback;   // name of the offending callback (NULL if none)
} mbs_info;

// Opaque step workspace: every array a step needs is allocated by mbs_workspace_create.
typedef struct mbs_workspace mbs_workspace;

// Validates model and settings (NULL = defaults) and allocates the workspace; returns NULL with err
// set (may be NULL; SC_ERR_INPUT naming the bad field, or SC_ERR_MEMORY). The model is borrowed
// and must outlive the workspace.
mbs_workspace *mbs_workspace_create(const mdl_model *model, const mbs_settings *settings,
                                    sc_error *err);
// Frees the workspace; NULL is a no-op.
void mbs_workspace_free(mbs_workspace *ws);
// Replaces the settings (validated; returns 0, or SC_ERR_INPUT with err naming the field; err may
// be NULL). The bias settings (use_bias, bias_reg) and the dense/qcp choice take effect at once.
int mbs_workspace_set_settings(mbs_workspace *ws, const mbs_settings *settings, sc_error *err);
// The workspace's current settings.
const mbs_settings *mbs_workspace_settings(const mbs_workspace *ws);

// One step of size h > 0 [s] from (t, q0, v0) to (q1, v1) (q nq, v nv entries; q1/v1 may alias
// q0/v0). Allocates nothing (the qcp path allocates only when its problem pattern changes, in
// qcp_setup). Returns the status (also in mbs_step_info); on a status other than
// MBS_OK, MBS_MAX_ITERATIONS or MBS_INACCURATE (the step is taken with the last iterate), q1 and
// v1 are unspecified.
mbs_status mbs_step(mbs_workspace *ws, double t, double h, const double *q0, const double *v0,
                    double *q1, double *v1);

// Statistics of the last step (owned by the workspace).
const mbs_info *mbs_step_info(const mbs_workspace *ws);
// Rows evaluated at the start of the last step (owned by the workspace).
const mdl_rows *mbs_step_rows(const mbs_workspace *ws);
// Row forces λ [N] of the last step, one per reported row (0 for inactive rows); workspace-owned.
const double *mbs_step_lambda(const mbs_workspace *ws);
// Scaled row residuals r̂_i = r_i / D_i [m/s²] of the last step (r_i itself [N] where D_i = 0;
// 0 for inactive rows); workspace-owned.
const double *mbs_step_residual(const mbs_workspace *ws);
// Activity flags of the last step's rows (1 took part, 0 not); workspace-owned.
const int *mbs_step_active(const mbs_workspace *ws);

struct qcp_problem;
// The conic subproblem (qcp standard form, solver/qcp) of the last step's last conic solve
// (for `coulomb`, the fixed point's last re-solve), or NULL if the last step made none (no
// contact or unilateral rows on the sparse path, or a build without qcp). Workspace-owned, valid
// until the next mbs_step; write it with qcp_io_problem_write (experiment layer: no solver writes
// files).
const struct qcp_problem *mbs_step_qcp_problem(const mbs_workspace *ws);

#endif  // MBS_MBS_STEP_H
