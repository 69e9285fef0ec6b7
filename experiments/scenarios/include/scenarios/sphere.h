// SPDX-License-Identifier: MIT
// One Hertz sphere dropped on the ground (not in the papers; SPEC §1.5's single-sphere check):
// a vertical point mass (the sphere's centre height z) with one contact normal row, whose
// contact time and largest overlap have closed forms from Hertz impact theory.
#ifndef SCENARIOS_SPHERE_H
#define SCENARIOS_SPHERE_H

#include "mbs/mbs_model.h"
#include "scenarios/hertz.h"

// Parameters (defaults from sphere_params_default; none is a paper value).
typedef struct sphere_params {
  double r;      // radius [m] (0.1)
  double m;      // mass [kg] (1)
  double Estar;  // Hertz modulus E* [Pa] (1e7: a contact of ~8 ms, resolved by h ≪ 1e-3)
  double b;      // normal damping B [N·s/m] (0: elastic, restitution 1 as h → 0)
  double v0;     // downward speed at the start [m/s] (1)
  double gap;    // initial gap between sphere and ground [m] (1e-3)
  double g;      // gravity [m/s²] (0: impact theory is exact only without it)
  hertz_mode hertz;
  hertz_dissipation dissipation;  // damping law (hertz.h; paper: the constant b)
  double alpha;                   // Hunt–Crossley α [s/m] (0.02)
  double tau_d;                   // SAP's dissipation time scale τ_d [s] (1e-5)
} sphere_params;

sphere_params sphere_params_default(void);

// An instance; `model` is ready after sphere_init (ctx points at the instance: do not move it).
typedef struct sphere {
  sphere_params p;
  mbs_model model;
  int block_size[1];
} sphere;

// Fills s from p: q = (z), v = (ż), one normal row φ = −d (d = r − z; hertz.h), μ = 0.
void sphere_init(sphere *s, const sphere_params *p);
// Initial state: z = r + gap, ż = −v0.
void sphere_initial_state(const sphere *s, double q[1], double v[1]);

// Hertz impact theory for the contact force c·d^p (default Hertz c = E*√r, p = 3/2; hertz=paper
// c = (3/2)E*√r, p = 2) and impact speed v [m/s]: largest overlap ((p+1) m v²/(2c))^{1/(p+1)}
// [m] and contact time 2 (δ_max/v) ∫₀¹ (1 − x^{p+1})^{−1/2} dx [s] (no gravity, no damping).
void sphere_impact_theory(const sphere_params *p, double v, double *overlap_max,
                          double *contact_time);

#endif  // SCENARIOS_SPHERE_H
