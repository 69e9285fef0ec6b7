// SPDX-License-Identifier: MIT
// Pendulum with a range-of-motion limit θ ≥ 0 in the minimal coordinate θ (paper A §5.4, Fig 6),
// the limit as one unilateral spring-damper row φ = θ, as an mbs model.
#ifndef SCENARIOS_ROM_PENDULUM_H
#define SCENARIOS_ROM_PENDULUM_H

#include "mdl/mdl_model.h"
#include "mdl/mdl_rigid.h"
#include "xp/xp_param_list.h"

// The physical parameters, declared once: name, default, range, unit, help. The list generates
// the struct's fields, the defaults, the reader and the parameter declarations shared by the
// scenario and the Fig 6 study (ROM_PENDULUM_PARAM_DEFS).
#define ROM_PENDULUM_PARAM_LIST(X)                                                    \
  X(REAL, m, m, 1, XP_POSITIVE, "kg", "point mass (default; the paper does not say)") \
  X(REAL, l, l, 1, XP_POSITIVE, "m", "length (default)")                              \
  X(REAL, g, g, 9.81, XP_NONNEGATIVE, "m/s^2", "gravity")                             \
  X(REAL, k, k, 1e12, XP_NONNEGATIVE, "N*m/rad", "limit stiffness (paper A: 1e12)")   \
  X(REAL, b, b, 0, XP_NONNEGATIVE, "N*m*s/rad", "limit damping (paper A: 0)")

// the declarations, for a parameter table (xp_param_def[])
#define ROM_PENDULUM_PARAM_DEFS ROM_PENDULUM_PARAM_LIST(XP_PARAM_DEF)

// Physical parameters (SPEC §5): m, l, g, k, b as listed above.
typedef struct rom_pendulum_params {
  ROM_PENDULUM_PARAM_LIST(XP_PARAM_FIELD)
} rom_pendulum_params;

struct xp_params;
// The listed parameters from validated xp parameters.
rom_pendulum_params rom_pendulum_params_read(const struct xp_params *p);

// The paper's parameters: m = 1, l = 1, g = 9.81, k = 1e12, b = 0.
rom_pendulum_params rom_pendulum_params_default(void);

// An instance; `model` points at it through ctx (the struct must not move while in use).
typedef struct rom_pendulum {
  rom_pendulum_params p;
  mdl_model model;
  int block_size[1];
} rom_pendulum;

// Fills rp (nq = nv = 1, one unilateral row) from p (copied).
void rom_pendulum_init(rom_pendulum *rp, const rom_pendulum_params *p);

// Released at θ0 = π/2 at rest.
void rom_pendulum_initial_state(double *theta, double *theta_dot);

// Mechanical energy ½ m l² θ̇² + m g l (1 − cos θ) [J] (without the limit spring).
double rom_pendulum_energy(const rom_pendulum_params *p, double theta, double theta_dot);

#endif  // SCENARIOS_ROM_PENDULUM_H
