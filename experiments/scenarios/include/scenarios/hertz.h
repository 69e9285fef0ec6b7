// SPDX-License-Identifier: MIT
// Hertz contact rows for the 3-D contact scenarios (SPEC §1.4, paper A eqs. 121–123).
#ifndef SCENARIOS_HERTZ_H
#define SCENARIOS_HERTZ_H

#include <math.h>
#include <string.h>

// Which Hertz row a scenario reports; recorded in provenance as "hertz".
typedef enum hertz_mode {
  HERTZ_DEFAULT = 0,  // φ = −d [m], K(q) = E*√(r d) [N/m]: force E*√(r d³), G = n̂ᵀJ
  HERTZ_PAPER = 1,  // paper A eqs. 122–123: φ = −d^{3/2} [m^{3/2}], K = E*√r, G = (3/2)√d n̂ᵀJ
} hertz_mode;

// Static name of a mode ("default" or "paper").
static inline const char *hertz_mode_name(hertz_mode m) {
  return m == HERTZ_PAPER ? "paper" : "default";
}

// Parses a mode name (hertz_mode_name's); 0 and *mode, or −1 if unknown.
static inline int hertz_mode_parse(const char *name, hertz_mode *mode) {
  if (strcmp(name, "default") != 0 && strcmp(name, "paper") != 0) return -1;
  *mode = name[0] == 'p' ? HERTZ_PAPER : HERTZ_DEFAULT;
  return 0;
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

// How a contact dissipates (recorded as "dissipation"): the normal row's damping
// coefficient B [N·s/m] at overlap d, for the default Hertz row (force k d^{3/2}, k = E*√r, row
// stiffness K = k√d):
//   paper          paper A's constant B (eq. 121);
//   hunt-crossley  B = α k d^{3/2}: force k d^{3/2}(1 + α ḋ) (Hunt & Crossley 1975), α [s/m];
//   sap            B = τ_d K = τ_d k √d: SAP's (−kφ − τ_d k v_n)₊ with the row's stiffness, τ_d
//   [s].
typedef enum hertz_dissipation {
  HERTZ_DISSIPATION_PAPER = 0,
  HERTZ_DISSIPATION_HUNT_CROSSLEY = 1,
  HERTZ_DISSIPATION_SAP = 2,
} hertz_dissipation;

static inline const char *hertz_dissipation_name(hertz_dissipation law) {
  return law == HERTZ_DISSIPATION_HUNT_CROSSLEY ? "hunt-crossley"
         : law == HERTZ_DISSIPATION_SAP         ? "sap"
                                                : "paper";
}

// Parses a law name (hertz_dissipation_name's); 0 and *law, or −1 if unknown.
static inline int hertz_dissipation_parse(const char *name, hertz_dissipation *law) {
  for (int k = HERTZ_DISSIPATION_PAPER; k <= HERTZ_DISSIPATION_SAP; k++)
    if (strcmp(name, hertz_dissipation_name((hertz_dissipation)k)) == 0)
      return *law = (hertz_dissipation)k, 0;
  return -1;
}

// NULL if a row of `mode` can carry `law`, else why not (the velocity-dependent laws are written
// for the default row's force k d^{3/2})
static inline const char *hertz_dissipation_unsupported(hertz_mode mode, hertz_dissipation law) {
  return law != HERTZ_DISSIPATION_PAPER && mode == HERTZ_PAPER
             ? "needs hertz = default (its damping is written for the default row's force k d^1.5)"
             : NULL;
}

// Damping coefficient [N·s/m] of a default Hertz row at overlap d under `law` (B, α, τ_d as above).
static inline double hertz_damping(hertz_dissipation law, double B, double alpha, double tau_d,
                                   double Estar, double r, double d) {
  const double dp = d > 0 ? d : 0, k = Estar * sqrt(r);
  return law == HERTZ_DISSIPATION_HUNT_CROSSLEY ? alpha * k * dp * sqrt(dp)
         : law == HERTZ_DISSIPATION_SAP         ? tau_d * k * sqrt(dp)
                                                : B;
}

// First-order coefficient of restitution of a sphere of mass m hitting at speed v with largest
// overlap δ_max, for small damping: e ≈ 1 − ΔE/(m v²), ΔE = 2∫₀^δmax B(x) ẋ(x) dx along the elastic
// path ẋ = v√(1 − (x/δ_max)^{5/2}). With u^{5/2} = w the integrals are Beta functions:
//   paper          ΔE/(m v²) = (4/5) B(2/5, 3/2) · B δ_max/(m v)
//   hunt-crossley  ΔE/(m v²) = (2/3) α v
//   sap            ΔE/(m v²) = B(3/5, 3/2) · τ_d v/δ_max
static inline double hertz_restitution_small_damping(hertz_dissipation law, double B, double alpha,
                                                     double tau_d, double m, double v,
                                                     double dmax) {
  const double beta25 = exp(lgamma(0.4) + lgamma(1.5) - lgamma(1.9));  // B(2/5, 3/2)
  const double beta35 = exp(lgamma(0.6) + lgamma(1.5) - lgamma(2.1));  // B(3/5, 3/2)
  return law == HERTZ_DISSIPATION_HUNT_CROSSLEY ? 1 - 2.0 / 3.0 * alpha * v
         : law == HERTZ_DISSIPATION_SAP         ? 1 - beta35 * tau_d * v / dmax
                                                : 1 - 0.8 * beta25 * B * dmax / (m * v);
}

// The contact law's parameters every Hertz scenario declares (an X-macro list fragment of
// xp/xp_param_list.h entries): the Hertz row, the normal damping law and its two constants.
#define HERTZ_CONTACT_PARAM_LIST(X)                                                          \
  X(ENUM, hertz, hertz, hertz_mode, HERTZ_DEFAULT, "default", "default|paper",               \
    "Hertz row: default phi = -d, K = E*sqrt(r d); paper: phi = -d^1.5 (SPEC §1.4)")         \
  X(ENUM, dissipation, dissipation, hertz_dissipation, HERTZ_DISSIPATION_PAPER, "paper",     \
    "paper|hunt-crossley|sap",                                                               \
    "normal damping law: paper A's constant B; Hunt-Crossley alpha k d^1.5; SAP tau_d K(d)") \
  X(REAL, alpha, alpha, 0.02, XP_NONNEGATIVE, "s/m", "Hunt-Crossley dissipation alpha")      \
  X(REAL, tau_d, tau_d, 1e-5, XP_NONNEGATIVE, "s", "SAP dissipation time scale tau_d")

#endif  // SCENARIOS_HERTZ_H
