// SPDX-License-Identifier: MIT
// One Hertz sphere dropped on the ground (not in the papers; SPEC §1.5's single-sphere check):
// a vertical point mass (the sphere's centre height z) with one contact normal row, whose
// contact time and largest overlap have closed forms from Hertz impact theory.
#ifndef SCENARIOS_SPHERE_H
#define SCENARIOS_SPHERE_H

#include "mdl/mdl_model.h"
#include "scenarios/hertz.h"
#include "xp/xp_param_list.h"

// The parameters, declared once (kinds in xp/xp_param_list.h; none is a paper value): they
// generate sphere_params' fields, the defaults, the scenario's declarations and its reader.
#define SPHERE_PARAM_LIST(X)                                                                   \
  X(REAL, r, r, 0.1, XP_POSITIVE, "m", "sphere radius (default)")                              \
  X(REAL, m, m, 1, XP_POSITIVE, "kg", "sphere mass (default)")                                 \
  X(REAL, Estar, Estar, 1e7, XP_POSITIVE, "Pa",                                                \
    "Hertz modulus E* (default; an ~8 ms contact at 1 m/s)")                                   \
  X(REAL, b, B, 0, XP_NONNEGATIVE, "N*s/m", "normal damping (default 0: elastic)")             \
  X(REAL, v0, v0, 1, XP_POSITIVE, "m/s", "downward speed at the start")                        \
  X(REAL, gap, gap, 1e-3, XP_POSITIVE, "m", "initial gap above the ground")                    \
  X(REAL, g, g, 0, XP_NONNEGATIVE, "m/s^2", "gravity (default 0: impact theory assumes none)") \
  HERTZ_CONTACT_PARAM_LIST(X)

// Parameters (defaults from sphere_params_default): radius r [m], mass m [kg], Hertz modulus E*
// [Pa] (1e7: a contact of ~8 ms, resolved by h ≪ 1e-3), normal damping B [N·s/m] (0: elastic,
// restitution 1 as h → 0), downward speed v0 [m/s] and gap [m] at the start, gravity g [m/s²]
// (0: impact theory is exact only without it), the Hertz row, the damping law (hertz.h; paper:
// the constant B) with Hunt–Crossley α [s/m] and SAP's τ_d [s].
typedef struct sphere_params {
  SPHERE_PARAM_LIST(XP_PARAM_FIELD)
} sphere_params;

sphere_params sphere_params_default(void);

// An instance; `model` is ready after sphere_init (ctx points at the instance: do not move it).
typedef struct sphere {
  sphere_params p;
  mdl_model model;
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
