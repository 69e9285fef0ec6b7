// SPDX-License-Identifier: MIT
// Hertz contact rows for the 3-D contact scenarios (SPEC §1.4, paper A eqs. 121–123).
#ifndef SCENARIOS_HERTZ_H
#define SCENARIOS_HERTZ_H

#include <math.h>

// Which Hertz row a scenario reports; recorded in provenance as "hertz".
typedef enum hertz_mode {
  HERTZ_DEFAULT = 0,  // φ = −d [m], K(q) = E*√(r d) [N/m]: force E*√(r d³), G = n̂ᵀJ
  HERTZ_PAPER = 1,  // paper A eqs. 122–123: φ = −d^{3/2} [m^{3/2}], K = E*√r, G = (3/2)√d n̂ᵀJ
} hertz_mode;

// Static name of a mode ("default" or "paper").
static inline const char *hertz_mode_name(hertz_mode m) {
  return m == HERTZ_PAPER ? "paper" : "default";
}

// Row data of one contact of overlap d [m] (d < 0: apart) between surfaces of effective radius r
// [m] and modulus E* [Pa]: φ, stiffness K and the factor that scales the Jacobian n̂ᵀJ.
static inline void hertz_row(hertz_mode mode, double Estar, double r, double d, double *phi,
                             double *K, double *gscale) {
  const double dp = d > 0 ? d : 0;
  if (mode == HERTZ_PAPER) {
    *phi = d >= 0 ? -dp * sqrt(dp) : (-d) * sqrt(-d);
    *K = Estar * sqrt(r);
    *gscale = 1.5 * sqrt(dp);
  } else {
    *phi = -d;
    *K = Estar * sqrt(r * dp);
    *gscale = 1;
  }
}

// Stiffness K [N/m] a row of hertz_row would have at constraint value phi (the model's
// row_stiffness, SPEC §1.5 item 3): E*√(r d) at d = −φ (default), E*√r whatever φ (paper).
static inline double hertz_stiffness(hertz_mode mode, double Estar, double r, double phi) {
  return mode == HERTZ_PAPER ? Estar * sqrt(r) : Estar * sqrt(r * (phi < 0 ? -phi : 0));
}

// Overlap d [m] at which a contact of this mode carries the normal force F [N] at rest: default
// E*√r d^{3/2} = F; paper (force Gᵀλ = (3/2)√d · E*√r d^{3/2}) 1.5 E*√r d² = F.
static inline double hertz_static_overlap(hertz_mode mode, double Estar, double r, double F) {
  return mode == HERTZ_PAPER ? sqrt(F / (1.5 * Estar * sqrt(r)))
                             : cbrt(F * F / (Estar * Estar * r));
}

#endif  // SCENARIOS_HERTZ_H
