// SPDX-License-Identifier: MIT
// Spring–mass–damper m ẍ + b ẋ + k x = f (paper A §3, eq. 3) under the three Euler schemes.
#ifndef SCENARIOS_SMD_H
#define SCENARIOS_SMD_H

#include <stddef.h>

#include "xp/xp_param_list.h"

#define SMD_SCHEME_LIST(X)                                                  \
  X(SMD_EXPLICIT, "explicit", "explicit Euler (eqs. 7-8)")                  \
  X(SMD_SEMI_IMPLICIT, "semi-implicit", "semi-implicit Euler (eqs. 11-12)") \
  X(SMD_IMPLICIT, "implicit", "implicit Euler (eqs. 13-14)")

typedef enum smd_scheme {
#define SMD_ENUM(id, name, text) id,
  SMD_SCHEME_LIST(SMD_ENUM)
#undef SMD_ENUM
      SMD_SCHEME_COUNT
} smd_scheme;

// The parameters every spring–mass–damper study takes as one value, declared once (kinds in
// xp/xp_param_list.h): the mass and the initial state. They generate the fields below, the
// declarations (SMD_PARAM_DEFS, SMD_START_PARAM_DEFS) of the Figs 1–3 runs, the sweepable `smd`
// and the stability map, and the case attributes. k and b are swept as lists; f is 0 in every
// study.
#define SMD_PARAM_LIST(X) X(REAL, m, m, 1, XP_POSITIVE, "kg", "mass")
#define SMD_START_PARAM_LIST(X)                                                         \
  X(REAL, x0, x0, 1, XP_ANY, "m", "initial position (default; the paper does not say)") \
  X(REAL, v0, v0, 0, XP_ANY, "m/s", "initial velocity")

// the declarations, for a parameter table (xp_param_def[])
#define SMD_PARAM_DEFS SMD_PARAM_LIST(XP_PARAM_DEF)
#define SMD_START_PARAM_DEFS SMD_START_PARAM_LIST(XP_PARAM_DEF)

// Physical parameters: mass m [kg] > 0 (listed above), stiffness k [N/m] ≥ 0, damping b [N·s/m]
// ≥ 0, force f [N].
typedef struct smd_params {
  SMD_PARAM_LIST(XP_PARAM_FIELD)
  double k, b, f;
} smd_params;

// Initial state: position x0 [m] and velocity v0 [m/s] (listed above).
typedef struct smd_start {
  SMD_START_PARAM_LIST(XP_PARAM_FIELD)
} smd_start;

// Short CLI name of a scheme ("explicit", "semi-implicit", "implicit").
const char *smd_scheme_name(smd_scheme s);
// One-line description with the paper's equation numbers.
const char *smd_scheme_description(smd_scheme s);

// One step of size h of the scheme's update rule, written directly from the paper's equations
// (a code path independent of smd_iteration_matrix): updates *x [m] and *v [m/s] in place.
void smd_step(smd_scheme s, const smd_params *p, double h, double *x, double *v);

// Iteration matrix A of y1 = A y0 for f = 0, y = [x v]ᵀ (eq. 10 and its analogues), row-major [a00
// a01 a10 a11].
void smd_iteration_matrix(smd_scheme s, const smd_params *p, double h, double A[4]);

// Spectral radius max |λ| of a real 2×2 matrix (closed-form eigenvalues).
double smd_spectral_radius(const double A[4]);

// Largest stable step h*(k) for given m and b (ρ(A) < 1 for h < h*), from the Jury conditions
// |det A| < 1, |tr A| < 1 + det A. INFINITY when the scheme is unconditionally stable.
double smd_stability_boundary(smd_scheme s, const smd_params *p);

// Exact solution at time t from (x0, v0) for constant f and k > 0 (under-, critically and
// over-damped cases in closed form).
void smd_exact(const smd_params *p, double x0, double v0, double t, double *x, double *v);

// Energy-norm size of a state, √(k x² + m v²) (√ of twice the mechanical energy for f = 0).
double smd_energy_norm(const smd_params *p, double x, double v);

// Observed per-step growth factor between two sizes of a trajectory `steps` steps apart:
// (norm_b/norm_a)^{1/steps}, computed in logs (states may span hundreds of decades).
// NAN if steps = 0 or a norm is not positive.
double smd_observed_growth(double norm_a, double norm_b, size_t steps);

// A state this large means the scheme diverged; simulations stop before overflow.
#define SMD_DIVERGED_NORM 1e150

// Outcome of smd_simulate.
typedef struct smd_run {
  size_t steps;   // steps taken (fewer than asked if diverged or decayed below 1e-150)
  int diverged;   // 1 if the energy norm exceeded SMD_DIVERGED_NORM
  double growth;  // observed per-step growth factor (see smd_simulate)
  double x_final, v_final;
} smd_run;

// Integrates n steps of size h from (x0, v0) with smd_step, calling record(ctx, i, x, v) after
// step i (record may be NULL). The observed growth is measured on the trajectory's envelope:
// the largest energy norm in the windows (n/4, n/2] and (3n/4, n], per step between where the
// two maxima occur — maxima remove the phase-dependent oscillation of the norm within a period.
// Runs shorter than 8 steps use the ratio of the last to the first norm.
smd_run smd_simulate(smd_scheme s, const smd_params *p, double h, double x0, double v0, size_t n,
                     void (*record)(void *ctx, size_t i, double x, double v), void *ctx);

#endif  // SCENARIOS_SMD_H
