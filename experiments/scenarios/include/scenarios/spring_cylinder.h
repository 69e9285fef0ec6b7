// SPDX-License-Identifier: MIT
// Spring–cylinder (paper B §VI.B, SPEC §5): a solid cylinder on compliant ground, tied to a wall by
// a horizontal spring, rolling (μ = 1) or sliding without friction (μ = 0), as a planar mbs model.
#ifndef SCENARIOS_SPRING_CYLINDER_H
#define SCENARIOS_SPRING_CYLINDER_H

#include "mdl/mdl_model.h"
#include "mdl/mdl_rigid.h"
#include "xp/xp_param_list.h"

// How the ground contact is reported to a step.
typedef enum spring_cylinder_contact {
  SPRING_CYLINDER_CONTACT_FRICTION = 0,    // one normal row + one tangent row (contact 0)
  SPRING_CYLINDER_CONTACT_NORMAL = 1,      // one normal row only (frictionless, no tangent row)
  SPRING_CYLINDER_CONTACT_UNILATERAL = 2,  // one unilateral row (frictionless, for paper A's step)
} spring_cylinder_contact;

// The physical parameters, declared once for the method matrix (spring_cylinder.c) and the paper
// study (drivers/xp_spring_cylinder.c) (kinds in xp/xp_param_list.h): they generate the fields
// below, the defaults, the declarations (SPRING_CYLINDER_PARAM_DEFS), the reader
// (spring_cylinder_params_read) and the study's case attributes.
#define SPRING_CYLINDER_PARAM_LIST(X)                                                          \
  X(REAL, radius, R, 0.05, XP_POSITIVE, "m", "cylinder radius (paper B)")                      \
  X(REAL, m, m, 0.5, XP_POSITIVE, "kg", "cylinder mass (paper B); I = m R^2/2")                \
  X(REAL, ks, ks, 100, XP_NONNEGATIVE, "N/m", "horizontal spring stiffness k_s (paper B)")     \
  X(REAL, x0, x0, 0.1, XP_ANY, "m",                                                            \
    "initial spring extension, released at rest (paper B); starts at the static contact "      \
    "compression m g/k (default)")                                                             \
  X(REAL, k, k, 1e4, XP_POSITIVE, "N/m", "ground contact stiffness (paper B)")                 \
  X(REAL, tau_d, tau_d, 0.02, XP_NONNEGATIVE, "s", "contact dissipation time scale (paper B)") \
  X(REAL, g, g, 9.81, XP_NONNEGATIVE, "m/s^2", "gravity (default; the paper does not say)")

// The case of one run: the study sweeps a list of μ and sets B_t from its own step; the method
// matrix's scenario takes one of each (SPRING_CYLINDER_CASE_PARAM_DEFS).
#define SPRING_CYLINDER_CASE_PARAM_LIST(X)                                       \
  X(REAL, mu, mu, 1, XP_NONNEGATIVE, "", "friction coefficient (paper B: 0, 1)") \
  X(REAL, bt, Bt, 0, XP_NONNEGATIVE, "N*s/m",                                    \
    "paper A's tangent damping; 0 means 1e6/h (paper A §6.4)")

// the declarations, for a parameter table (xp_param_def[])
#define SPRING_CYLINDER_PARAM_DEFS SPRING_CYLINDER_PARAM_LIST(XP_PARAM_DEF)
#define SPRING_CYLINDER_CASE_PARAM_DEFS SPRING_CYLINDER_CASE_PARAM_LIST(XP_PARAM_DEF)

// Physical parameters (SPEC §5; defaults from spring_cylinder_params_default): the listed ones
// (R: radius [m], k: ground contact stiffness [N/m], τ_d: dissipation time scale [s], row damping
// B = τ_d k; bt: tangent-row damping B_t of paper A's memoryless Coulomb [N·s/m], 5e7 = 1e6/δt
// at δt = 0.02 s, unused by paper B's step) and how the contact is reported.
typedef struct spring_cylinder_params {
  SPRING_CYLINDER_PARAM_LIST(XP_PARAM_FIELD)
  SPRING_CYLINDER_CASE_PARAM_LIST(XP_PARAM_FIELD)
  spring_cylinder_contact contact;  // how the contact is reported (FRICTION)
} spring_cylinder_params;

// Paper B's parameters: R = 0.05, m = 0.5, k_s = 100, x0 = 0.1, k = 1e4, τ_d = 0.02, μ = 1,
// g = 9.81, B_t = 5e7, contact reported with friction.
spring_cylinder_params spring_cylinder_params_default(void);

struct xp_params;
// Reads the SPRING_CYLINDER_PARAM_LIST keys of validated parameters into *out (others untouched).
void spring_cylinder_params_read(const struct xp_params *prm, spring_cylinder_params *out);

// A spring–cylinder instance; `model` is ready for a step after spring_cylinder_init (its ctx
// points at the instance, so the struct must not move while the model is in use).
typedef struct spring_cylinder {
  spring_cylinder_params p;
  mdl_model model;
  int block_size[1];
} spring_cylinder;

// Fills sc from p (copied): q = (x, z, θ) centre position and rolling angle, v = q̇ (N = I),
// M = diag(m, m, I) with I = ½mR², f = (−k_s x, −m g, 0), K = diag(k_s, 0, 0), D = 0; ground
// contact φ = z − R with G_n = (0, 1, 0), slip row G_t = (1, 0, −R) (rolling: ẋ = Rθ̇).
void spring_cylinder_init(spring_cylinder *sc, const spring_cylinder_params *p);

// Moment of inertia of the solid cylinder about its axis, ½mR² [kg·m²].
double spring_cylinder_inertia(const spring_cylinder_params *p);

// 1 if static friction can hold rolling for the whole motion: the largest friction force
// k_s x0 (I/R²)/m_eff ≤ μ m g (with μ > 0).
int spring_cylinder_rolls(const spring_cylinder_params *p);

// Effective mass of the horizontal oscillator [kg]: m + I/R² = 1.5 m when rolling, m otherwise.
double spring_cylinder_effective_mass(const spring_cylinder_params *p);

// Exact horizontal position x0 cos(ω t), ω = √(k_s/m_eff) [m] (rigid rolling or frictionless).
double spring_cylinder_exact_x(const spring_cylinder_params *p, double t);
// Exact horizontal velocity −x0 ω sin(ω t) [m/s].
double spring_cylinder_exact_v(const spring_cylinder_params *p, double t);

// Initial state: q = (x0, R − m g/k, 0) (resting at the static contact compression, a default:
// the paper does not give the height), v = 0.
void spring_cylinder_initial_state(const spring_cylinder *sc, double q[3], double v[3]);

// Energy of the horizontal oscillator ½mẋ² + ½Iθ̇² + ½k_s x² [J] (the study's energy).
double spring_cylinder_energy(const spring_cylinder *sc, const double q[3], const double v[3]);

// Slip velocity of the contact point ẋ − Rθ̇ [m/s].
double spring_cylinder_slip(const spring_cylinder *sc, const double v[3]);

#endif  // SCENARIOS_SPRING_CYLINDER_H
