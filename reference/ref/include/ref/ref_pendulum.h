// SPDX-License-Identifier: MIT
// Exact motion of a rigid (compound) pendulum released from rest, by Jacobi elliptic functions.
#ifndef REF_REF_PENDULUM_H
#define REF_REF_PENDULUM_H

// Swing angle α(t) [rad] from the hanging position and its rate α̇ [rad/s] of I_p α̈ = −m g l sin α,
// released at rest from α0 ∈ (0, π) [rad] at t = 0, with ω0 = √(m g l / I_p) [1/s]:
// sin(α/2) = k sn(K(k) − ω0 t | k²), α̇ = −2 k ω0 cn(·), k = sin(α0/2). Returns 0, or a GSL error
// code (then *alpha = *alpha_dot = NAN).
int ref_pendulum_exact(double omega0, double alpha0, double t, double *alpha, double *alpha_dot);

// First time [s] the pendulum passes α = 0 (a quarter period K(k)/ω0); NAN on error.
double ref_pendulum_quarter_period(double omega0, double alpha0);

#endif  // REF_REF_PENDULUM_H
