// SPDX-License-Identifier: MIT
// Pile of spheres: N Hertz spheres dropped with seeded random horizontal offsets between
// four walls onto the ground, so the pile is not a column. Every pair that can touch is found by
// a sorted sweep along x (linear in N for a column, N log N at worst for the sort).
#ifndef SCENARIOS_PILE_H
#define SCENARIOS_PILE_H

#include "mdl/mdl_model.h"
#include "scenarios/stack.h"

// The tangential contact law of the pile (SPEC §1.6).
typedef enum pile_tangent {
  PILE_TANGENT_STICK = 0,  // a Cundall–Strack spring K_t with a Coulomb cap (mdl/mdl_stick.h)
  PILE_TANGENT_VISCOUS,    // paper A's rows: λ_t = −B_t v_t in the cone, K_t = 0 (§6.4)
} pile_tangent;
// Parses "stick" or "viscous"; 0, or −1 if unknown.
int pile_tangent_parse(const char *name, pile_tangent *out);

// Poisson's ratio behind the default stick stiffness (Mindlin's ratio; steel-like spheres).
#define PILE_POISSON 0.3

// The pile's own parameters, declared once (kinds in xp/xp_param_list.h): they generate the
// fields below, their defaults and the pile scenario's declarations (PILE_PARAM_DEFS).
#define PILE_PARAM_LIST(X)                                                                      \
  X(REAL, half, half, 0.5, XP_POSITIVE, "m", "walls at x, y = +-half (default)")                \
  X(REAL, reach, reach, 0.05, XP_NONNEGATIVE, "m",                                              \
    "contacts reported while closer than this (default)")                                       \
  X(INT, seed, seed, unsigned, 1, XP_POSITIVE, "seed of the horizontal offsets")                \
  X(ENUM, tangent, tangent, pile_tangent, PILE_TANGENT_STICK, "stick", "viscous|stick",         \
    "tangential contact law: viscous = paper A's rows, damping Bt, K_t = 0 (they creep under "  \
    "load at |lambda_t|/Bt); stick = a spring K_t (kt) anchored where sticking starts, its "    \
    "force capped by mu lambda_n, the anchor sliding when the cap is reached (Cundall-Strack; " \
    "paper A's step carries the anchors, other methods run viscous)")                           \
  X(REAL, kt, kt, 0, XP_NONNEGATIVE, "N/m",                                                     \
    "stick stiffness K_t; 0 means Mindlin's 2(1-nu)/(2-nu) (nu = 0.3) times the Hertz secant "  \
    "stiffness F/d of one sphere's weight on the ground")                                       \
  X(REAL, bts, bts, 0, XP_NONNEGATIVE, "N*s/m",                                                 \
    "stick damping B_t (default none: the implicit step damps the spring)")                     \
  X(REAL, mur, mur, 0.02, XP_NONNEGATIVE, "",                                                   \
    "rolling resistance coefficient (default; the papers do not give it; tangent=stick): "      \
    "a rolling and a twisting spring K_r per loaded contact, each torque capped by "            \
    "mur r_eff F_n (F_n its Hertz force; 0: none)")                                             \
  X(REAL, kr, kr, 0, XP_NONNEGATIVE, "N*m/rad",                                                 \
    "rolling/twisting stiffness K_r; 0 means K_t r_eff^2 (the stick spring at the lever r_eff)")

// the declarations, for a parameter table (xp_param_def[])
#define PILE_PARAM_DEFS PILE_PARAM_LIST(XP_PARAM_DEF)

// Parameters: the sphere and contact data of the stack (stack_params: r, m, gap, E, B, B_t, μ, g,
// hertz, dissipation; n spheres) and the box: walls at x, y = ±half [m] (0.5); rows for every
// pair and plane closer than reach [m] (0.05), so a speculative row can join (SPEC §1.5); seed of
// the horizontal offsets (1); the tangential law (stick, K_t from Mindlin's ratio, no damper) with
// rolling and twisting resistance μ_r = 0.02 (K_r = K_t r_eff²).
typedef struct pile_params {
  stack_params s;  // spheres and contacts; s.gap is the gap between layers
  PILE_PARAM_LIST(XP_PARAM_FIELD)
} pile_params;

// Defaults: 200 spheres (r = 0.1, m = 1, E = 1e11, B = 1, μ = 0.5), walls at ±0.5 m, reach 0.05 m,
// seed 1.
pile_params pile_params_default(void);

// A pile instance; `model` is ready after pile_init (ctx points at the instance).
typedef struct pile {
  pile_params p;
  stack column;  // the sphere data (its model unused) and inertia
  mdl_model model;
  int *block_size;  // n entries of 6
  int *order;       // n: sphere indices sorted by x (kept between calls: nearly sorted)
  double *reff;     // max contacts: effective radius of each contact of the last rows call
  int max_contacts;
  struct mdl_stick *stick;  // the stick anchors (tangent = stick and μ > 0), else NULL
} pile;

// K_t [N/m] of the stick spring: kt if given, else Mindlin's 2(1−ν)/(2−ν) (ν = PILE_POISSON)
// times the Hertz secant stiffness F/d under one sphere's weight m g on the ground (r_eff = r):
// a constant, so the spring's potential ½K_t‖δ‖² depends on its anchor alone and paper A's
// implicit step cannot raise it. 0 when it cannot be derived (m g = 0).
double pile_stick_stiffness(const pile_params *p);

// K_r [N·m/rad] of the rolling and twisting springs of a contact of effective radius reff: kr if
// given, else K_t reff² (the stick spring acting at the lever reff).
double pile_rolling_stiffness(const pile_params *p, double reff);

// Fills s from p: contacts are the ground (z = 0), the four walls and every sphere pair, each
// reported while closer than reach. Returns 0, or −1 on bad sizes or out of memory.
int pile_init(pile *s, const pile_params *p);
// Frees what pile_init allocated.
void pile_free(pile *s);
// Initial state: layers of k × k spheres (k = the most that fit between the walls at spacing
// 2r + gap), each sphere offset horizontally by a uniform random amount within its cell (seeded),
// layers 2r + gap apart starting r + gap above the ground, at rest (q 7n, v 6n).
void pile_initial_state(const pile *s, double *q, double *v);
// Total energy [J]: kinetic + gravity + Hertz potential of every touching pair, plane, + the
// stick springs' potential ½K_t‖δ‖² of the anchors stored by the last step (so it is the energy
// at the state that step ended in) (B ≥ 0: may only decrease over a step of paper A's method).
double pile_energy(const pile *s, const double *q, const double *v);

// Speed [m/s] below which a sphere counts as at rest (the settled-state statistics).
#define PILE_STILL 1e-6
// The state a frictional pile without rolling resistance comes to: every sphere at rest, or
// rolling without slip on the bare ground (contact point still: v + ω × (−r e_z) = 0, no vertical
// speed, touching nothing else), which a Coulomb contact cannot stop. Returns the largest speed of
// the spheres that are neither slower than `still` nor rolling freely, their count in *moving (may
// be NULL); the free rollers' count in *rolling and their largest speed in *roll_speed.
double pile_unsettled_speed(const pile *s, const double *q, const double *v, double still,
                            int *rolling, double *roll_speed, int *moving);
// Mean sphere speed [m/s].
double pile_mean_speed(const pile *s, const double *v);

#endif  // SCENARIOS_PILE_H
