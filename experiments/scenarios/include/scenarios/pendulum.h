// SPDX-License-Identifier: MIT
// Planar pendulum in absolute coordinates (paper A §4.4, Fig 4): bob (x, y, θ) held at the origin
// by a bilateral joint φ = [x; y] + R(θ)u (two rows), as an mbs model.
#ifndef SCENARIOS_PENDULUM_H
#define SCENARIOS_PENDULUM_H

#include "mbs/mbs_model.h"
#include "mbs/mbs_rigid.h"

// Physical parameters (SPEC §5; defaults from pendulum_params_default).
typedef struct pendulum_params {
  double m;        // bob mass [kg] (1)
  double l;        // distance bob centre – joint [m] (1)
  double inertia;  // bob inertia about its centre [kg·m²] (1e-3, default: the paper does not say)
  double g;        // gravity [m/s²] (9.81)
  double k;        // joint stiffness per row [N/m] (1e15)
  double b;        // joint damping per row [N·s/m] (1)
  int copies;      // how many copies of the two joint rows (1; 2+ tests redundancy)
  int split;       // 1: each copy gets k/copies and b/copies (parallel springs = one joint)
} pendulum_params;

// The paper's parameters: m = 1, l = 1, inertia = 1e-3, g = 9.81, k = 1e15, b = 1, one copy.
pendulum_params pendulum_params_default(void);

// A pendulum instance; `model` is ready for mbs after pendulum_init (its ctx points at the
// instance, so the struct must not move while the model is in use).
typedef struct pendulum {
  pendulum_params p;
  mbs_model model;
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
