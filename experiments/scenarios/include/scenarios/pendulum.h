// SPDX-License-Identifier: MIT
// Planar pendulum in absolute coordinates (paper A §4.4, Fig 4): bob (x, y, θ) held at the origin
// by a bilateral joint φ = [x; y] + R(θ)u (two rows), as an mbs model.
#ifndef SCENARIOS_PENDULUM_H
#define SCENARIOS_PENDULUM_H

#include "mdl/mdl_model.h"
#include "mdl/mdl_rigid.h"
#include "xp/xp_param_list.h"

// The physical parameters every pendulum run shares, declared once: name, default, range, unit,
// help. The list generates the struct's fields, the parameter declarations of the scenario and of
// the Fig 4 study (PENDULUM_PARAM_DEFS), the defaults and the reader (pendulum_params_read). The
// joint stiffness k is not in it: the study sweeps a list of k, the scenario takes one.
#define PENDULUM_PARAM_LIST(X)                                                                     \
  X(REAL, m, m, 1, XP_POSITIVE, "kg", "bob mass (default; the paper does not say)")                \
  X(REAL, l, l, 1, XP_POSITIVE, "m", "bob centre to joint (default)")                              \
  X(REAL, inertia, inertia, 1e-3, XP_POSITIVE, "kg*m^2", "bob inertia about its centre (default)") \
  X(REAL, g, g, 9.81, XP_NONNEGATIVE, "m/s^2", "gravity")                                          \
  X(REAL, b, b, 1, XP_NONNEGATIVE, "N*s/m", "joint damping per row (paper A: 1)")

// the declarations, for a parameter table (xp_param_def[])
#define PENDULUM_PARAM_DEFS PENDULUM_PARAM_LIST(XP_PARAM_DEF)

// Physical parameters (SPEC §5; defaults from pendulum_params_default).
typedef struct pendulum_params {
  PENDULUM_PARAM_LIST(XP_PARAM_FIELD)  // m, l, inertia, g, b (declared above)
  double k;                            // joint stiffness per row [N/m] (1e15)
  int copies;  // how many copies of the two joint rows (1; 2+ tests redundancy)
  int split;   // 1: each copy gets k/copies and b/copies (parallel springs = one joint)
} pendulum_params;

struct xp_params;
// The listed parameters from validated xp parameters (k, copies, split: the defaults).
pendulum_params pendulum_params_read(const struct xp_params *p);

// The paper's parameters: m = 1, l = 1, inertia = 1e-3, g = 9.81, k = 1e15, b = 1, one copy.
pendulum_params pendulum_params_default(void);

// A pendulum instance; `model` is ready for mbs after pendulum_init (its ctx points at the
// instance, so the struct must not move while the model is in use).
typedef struct pendulum {
  pendulum_params p;
  mdl_model model;
  int block_size[1];
} pendulum;

// Fills pd (nq = nv = 3, rows = 2·copies) from p (copied).
void pendulum_init(pendulum *pd, const pendulum_params *p);

// State at angle α from the hanging position [rad] with rate α̇ [rad/s] on the rigid joint:
// q = (x, y, θ) = (l sin α, −l cos α, α − π/2), v = q̇.
void pendulum_state_from_angle(const pendulum *pd, double alpha, double alpha_dot, double q[3],
                               double v[3]);

// Released horizontal at rest (α = π/2): q = (l, 0, 0), v = 0.
void pendulum_initial_state(const pendulum *pd, double q[3], double v[3]);

// Euclidean norm |φ(q)| of the joint deviation [m].
double pendulum_deviation(const pendulum *pd, const double q[3]);

// Mechanical energy ½m|ẋ|² + ½Iθ̇² + m g y [J].
double pendulum_energy(const pendulum *pd, const double q[3], const double v[3]);

// Moment of inertia about the joint, inertia + m l² [kg·m²].
double pendulum_pivot_inertia(const pendulum_params *p);

// Swing angle α = θ + π/2 from the hanging position [rad].
double pendulum_angle(const double q[3]);

#endif  // SCENARIOS_PENDULUM_H
