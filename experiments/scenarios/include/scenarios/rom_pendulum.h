// SPDX-License-Identifier: MIT
// Pendulum with a range-of-motion limit θ ≥ 0 in the minimal coordinate θ (paper A §5.4, Fig 6),
// the limit as one unilateral spring-damper row φ = θ, as an mbs model.
#ifndef SCENARIOS_ROM_PENDULUM_H
#define SCENARIOS_ROM_PENDULUM_H

#include "mbs/mbs_model.h"
#include "mbs/mbs_rigid.h"

// Physical parameters (SPEC §5; defaults from rom_pendulum_params_default).
typedef struct rom_pendulum_params {
  double m;  // point mass [kg] (1)
  double l;  // length [m] (1)
  double g;  // gravity [m/s²] (9.81)
  double k;  // limit stiffness [N·m/rad] (1e12)
  double b;  // limit damping [N·m·s/rad] (0)
} rom_pendulum_params;

// The paper's parameters: m = 1, l = 1, g = 9.81, k = 1e12, b = 0.
rom_pendulum_params rom_pendulum_params_default(void);

// An instance; `model` points at it through ctx (the struct must not move while in use).
typedef struct rom_pendulum {
  rom_pendulum_params p;
  mbs_model model;
  int block_size[1];
} rom_pendulum;

// Fills rp (nq = nv = 1, one unilateral row) from p (copied).
void rom_pendulum_init(rom_pendulum *rp, const rom_pendulum_params *p);

// Released at θ0 = π/2 at rest.
void rom_pendulum_initial_state(double *theta, double *theta_dot);

// Mechanical energy ½ m l² θ̇² + m g l (1 − cos θ) [J] (without the limit spring).
double rom_pendulum_energy(const rom_pendulum_params *p, double theta, double theta_dot);

#endif  // SCENARIOS_ROM_PENDULUM_H
