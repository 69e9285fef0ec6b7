// SPDX-License-Identifier: MIT
// Paper B's θ-method two-stage step (SPEC §2): free motion, convex compliant contact, positions.
#ifndef THETA_THETA_H
#define THETA_THETA_H

#include <stddef.h>

#include "common/sc_error.h"
#include "mdl/mdl_model.h"
#include "mdl/mdl_status.h"
#include "theta/theta_contact.h"

// Outcome of one step (a numerical status, not an error): the common statuses of every stepper
// (mdl/mdl_status.h: ok, callback-recoverable, callback-fatal, capacity, singular — M, A or the
// Newton Hessian not SPD —, nonfinite, bad-row — also an orphan tangent) plus the θ-method's own,
// X(SUFFIX, value, "name", severity) with severity as in theta_status_severity.
#define THETA_STEP_STATUS_LIST(X)                                                                 \
  X(FREE_MAX_ITERATIONS, 5, "free-max-iterations", -1)      /* stage 1 Newton did not converge */ \
  X(CONTACT_MAX_ITERATIONS, 6, "contact-max-iterations", 1) /* stage 2 did not (taken) */         \
  X(CONTACT_FAILED, 7, "contact-failed", -1) /* the dual (qcp) solver failed to set up or solve */

#define THETA_ENUM_ITEM(suffix, value, str, severity) THETA_##suffix = value,
// Step status.
typedef enum theta_status {
  MDL_COMMON_STATUS_LIST(THETA_ENUM_ITEM) THETA_STEP_STATUS_LIST(THETA_ENUM_ITEM)
      THETA_STATUS_COUNT = 10  // values 0..9, all used
} theta_status;
#undef THETA_ENUM_ITEM

// Static lowercase name of a status ("ok", …); "invalid" if out of range.
const char *theta_status_name(theta_status s);
// Signed outcome of a status (SPEC §7): < 0 the step was not taken, 0 ok, > 0 taken but degraded
// (contact-max-iterations); −1 for a value out of range.
int theta_status_severity(theta_status s);

// The four named members of the family (SPEC §2.1 table); any other (θ, θvq) is also allowed.
#define THETA_SCHEME_LIST(X)                                         \
  X(THETA_EXPLICIT, "explicit", 0.0, 0.0)     /* explicit Euler */   \
  X(THETA_SYMPLECTIC, "symplectic", 0.0, 1.0) /* symplectic Euler */ \
  X(THETA_IMPLICIT, "implicit", 1.0, 1.0)     /* implicit Euler */   \
  X(THETA_MIDPOINT, "midpoint", 0.5, 0.5)     /* midpoint rule, order 2 */

#define THETA_ENUM_ITEM(name, str, th, thvq) name,
// Named scheme selector.
typedef enum theta_scheme { THETA_SCHEME_LIST(THETA_ENUM_ITEM) THETA_SCHEME_COUNT } theta_scheme;
#undef THETA_ENUM_ITEM

// Static name of a scheme ("explicit", …); "invalid" if out of range.
const char *theta_scheme_name(theta_scheme s);
// Parses a scheme name; returns 0 and sets *s, or −1 if unknown.
int theta_scheme_parse(const char *name, theta_scheme *s);

// Step settings; obtain defaults from theta_settings_default() and change fields.
typedef struct theta_settings {
  double theta;       // θ = θq = θv ∈ [0, 1] (default ½)
  double theta_vq;    // θvq ∈ [0, 1] (default ½)
  int free_max_iter;  // stage-1 Newton iterations allowed (default 50)
  double free_atol;  // stage-1 stop: ‖D m‖ ≤ atol + rtol·max(‖D M v‖, δt‖D k‖) (1e-14)
  double free_rtol;                // (default 1e-12); D = diag(M)^{-1/2}
  theta_contact_settings contact;  // stage-2 settings (β, σ, Newton tolerances)
  // Contacts over the step (SPEC §1.5 applied to paper B's law on the end-of-step gap φ0 + δt v_n):
  // 0 (default) takes the rows as reported at the step's start with their stiffness K(φ0) — a
  // contact that closes during the step has K = 0 there and falls through; 1 takes an open row
  // (φ0 > 0) only when φ0 − δt Σ_j |G_ij v*_j| ≤ margin (its gap could close within the step),
  // first with K = gap_stiffness, then solves again while a row left out ends penetrating or a
  // row that ends closed has a stiffness K(φ1) at its end-of-step gap φ1 = φ0 + δt G v (the
  // model's row_stiffness) more than 2× the one used (an open row that closes takes K(φ1)).
  int speculative;
  double margin;         // speculative: in φ's units (default 1e-4 m, paper A's)
  double gap_stiffness;  // speculative: K of an open row on its first solve [N/m] (default 1e8)
  int max_resolves;      // speculative: most re-solves of the contact stage per step (default 8)
} theta_settings;

// Default settings: the midpoint rule, theta_contact_settings_default() for the contact stage,
// rows as reported (speculative = 0; margin 1e-4, gap stiffness 1e8, 8 re-solves when on).
theta_settings theta_settings_default(void);
// Sets settings->theta and theta_vq to the named scheme's values.
void theta_settings_set_scheme(theta_settings *settings, theta_scheme scheme);

// Per-step statistics of the last theta_step.
typedef struct theta_info {
  theta_status status;
  int rows;                    // rows reported by the model
  int free_iterations;         // stage-1 Newton iterations (1 for θ = 0: one mass-matrix solve)
  double free_residual;        // final ‖D m(v*)‖ [kg^½·m/s]
  theta_contact_info contact;  // stage-2 statistics (its last solve)
  int resolves;                // speculative: contact-stage solves after the first
  int rows_joined;             // speculative: rows that joined because they ended penetrating
  int stiffness_updates;       // speculative: row stiffnesses re-taken at the end-of-step gap
  double energy;         // model energy at (t1, q1, v1) if the model provides it, else NAN [J]
  int callback_code;     // the offending callback's return value (0 if none)
  const char *callback;  // name of the offending callback (NULL if none)
} theta_info;

// Opaque step workspace: every array a step needs is allocated by theta_workspace_create.
typedef struct theta_workspace theta_workspace;

// Validates model and settings (NULL = defaults) and allocates the workspace; returns NULL with err
// set (may be NULL; SC_ERR_INPUT naming the bad field, or SC_ERR_MEMORY). The model is borrowed
// and must outlive the workspace.
theta_workspace *theta_workspace_create(const mdl_model *model, const theta_settings *settings,
                                        sc_error *err);
// Frees the workspace; NULL is a no-op.
void theta_workspace_free(theta_workspace *ws);
// Replaces the settings (validated; returns 0, or SC_ERR_INPUT with err naming the field).
int theta_workspace_set_settings(theta_workspace *ws, const theta_settings *settings,
                                 sc_error *err);
// Checks every settings field; returns 0 or SC_ERR_INPUT with err naming the field and its limit.
int theta_settings_validate(const theta_settings *settings, sc_error *err);

// One step of size h > 0 [s] from (t, q0, v0) to (q1, v1) (q nq, v nv entries; q1/v1 may alias
// q0/v0). Allocates nothing on the Newton contact solver; the qcp (dual) solver allocates in
// qcp's setup when the contact pattern changes (a contact appears or leaves), never otherwise.
// Returns the status (also in theta_step_info); THETA_NONFINITE for h ≤ 0 or not finite. On a
// status other than THETA_OK and THETA_CONTACT_MAX_ITERATIONS, q1 and v1 are unspecified.
theta_status theta_step(theta_workspace *ws, double t, double h, const double *q0, const double *v0,
                        double *q1, double *v1);

// Statistics of the last step (owned by the workspace).
const theta_info *theta_step_info(const theta_workspace *ws);
// Rows evaluated at (t0, q0, v0) in the last step (owned by the workspace).
const mdl_rows *theta_step_rows(const theta_workspace *ws);
// Impulses γ [N·s] of the last step, one per reported row (0 for rows without force); ws-owned.
const double *theta_step_gamma(const theta_workspace *ws);
// Free-motion velocities v* [nv] of the last step (workspace-owned).
const double *theta_step_vstar(const theta_workspace *ws);
// The last step's contact problem (v̂, R, J, A; workspace-owned), for diagnostics and tests.
const theta_contact_problem *theta_step_problem(const theta_workspace *ws);

#endif  // THETA_THETA_H
