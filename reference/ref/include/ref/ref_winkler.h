// SPDX-License-Identifier: MIT
// Closed form of a rigid cube on a Winkler foundation (paper A §5.5) linearised about rest, and
// of implicit Euler on it: the error at T of the first-order constraint step against the exact
// motion, as a function of h, ω, the damping B and T (derivation in ref_winkler.c).
#ifndef REF_REF_WINKLER_H
#define REF_REF_WINKLER_H

// The cube: mass m [kg], side s [m], n×n elements of total stiffness k = E s²/depth [N/m] and
// damping B [N·s/m] each, gravity g [m/s²], a downward load F [N] at (s/2)(cos Ωt, sin Ωt, 1) in
// the body frame, Ω [rad/s].
typedef struct ref_winkler {
  double mass, side, k_total, B, g, load, omega_load;
  int n;
} ref_winkler;

// One damped mode m ẍ + c ẋ + k x = f (heave: x = z − s/2; rocking: x = θ_y + iθ_x): its
// coefficients and its undamped rate ω = √(k/m) [rad/s], decay rate ζω = c/(2m) [1/s].
typedef struct ref_winkler_mode {
  double m, c, k, omega, decay;
} ref_winkler_mode;

// The heave and rocking modes of w (all elements in contact, small angles).
ref_winkler_mode ref_winkler_heave(const ref_winkler *w);
ref_winkler_mode ref_winkler_rocking(const ref_winkler *w);

// Extra damping rate [1/s] that implicit Euler at step h adds to a mode:
// ln(1 + 2ζωh + ω²h²)/(2h) − ζω = ω²h/2 (1 − 2ζωh + …) for ωh ≪ 1.
double ref_winkler_numerical_damping(const ref_winkler_mode *md, double h);

// The exact linear motion at T: (z − s/2, q_x, q_y) written to x [m, 1, 1].
void ref_winkler_exact(const ref_winkler *w, double T, double x[3]);

// The error of the constraint step against the exact linear motion at T = N h (N = round(T/h)):
// δq = (δz, δq_x, δq_y) of the position and the quaternion's vector part, written to dq (may be
// NULL); returns ‖δq‖ (m and 1, as the foundation study's error).
double ref_winkler_step_error(const ref_winkler *w, double h, double T, double dq[3]);

// The steady response to the loads at T (what the motion tends to once the ringing has died out):
// (z − s/2, q_x, q_y) written to x [m, 1, 1].
void ref_winkler_steady(const ref_winkler *w, double T, double x[3]);

// The error model of the step at T = N h given the ringing left at T, ring = q(T) − steady(T)
// per component (z − s/2, q_x, q_y) — from ref_winkler_ringing's linear motion or measured on a
// reference: δq = lag(h) − ring ⊙ (1 − e^{−α(h) T}) with α the mode's numerical damping (heave
// for z, rocking for q_x, q_y) and lag the discrete minus exact steady response. Writes δq to dq
// (may be NULL) and returns ‖δq‖.
double ref_winkler_error_model(const ref_winkler *w, double h, double T, const double ring[3],
                               double dq[3]);

// The physical ringing left at T: ‖q(T) − q_forced(T)‖, the part of the exact motion that is not
// the steady response to the load — the error's plateau once the step has damped it out.
double ref_winkler_ringing(const ref_winkler *w, double T);

// Smallest element compression [m] of the steady response (static sag minus the largest tilt
// deflection, at the corner element): > 0 means every element stays in contact and the linear
// model holds; < 0 means elements lift off (the model is then only indicative).
double ref_winkler_contact_margin(const ref_winkler *w);

#endif  // REF_REF_WINKLER_H
