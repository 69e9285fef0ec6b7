// SPDX-License-Identifier: MIT
// Pile of spheres: N Hertz spheres dropped with seeded random horizontal offsets between
// four walls onto the ground, so the pile is not a column. Every pair that can touch is found by
// a sorted sweep along x (linear in N for a column, N log N at worst for the sort).
#ifndef SCENARIOS_PILE_H
#define SCENARIOS_PILE_H

#include "mdl/mdl_model.h"
#include "scenarios/stack.h"

// The pile's own parameters, declared once (kinds in xp/xp_param_list.h): they generate the
// fields below, their defaults and the pile scenario's declarations (PILE_PARAM_DEFS).
#define PILE_PARAM_LIST(X)                                                       \
  X(REAL, half, half, 0.5, XP_POSITIVE, "m", "walls at x, y = +-half (default)") \
  X(REAL, reach, reach, 0.05, XP_NONNEGATIVE, "m",                               \
    "contacts reported while closer than this (default)")                        \
  X(INT, seed, seed, unsigned, 1, XP_POSITIVE, "seed of the horizontal offsets")

// the declarations, for a parameter table (xp_param_def[])
#define PILE_PARAM_DEFS PILE_PARAM_LIST(XP_PARAM_DEF)

// Parameters: the sphere and contact data of the stack (stack_params: r, m, gap, E, B, B_t, μ, g,
// hertz, dissipation; n spheres) and the box: walls at x, y = ±half [m] (0.5); rows for every
// pair and plane closer than reach [m] (0.05), so a speculative row can join (SPEC §1.5); seed of
// the horizontal offsets (1).
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
} pile;

// Fills s from p: contacts are the ground (z = 0), the four walls and every sphere pair, each
// reported while closer than reach. Returns 0, or −1 on bad sizes or out of memory.
int pile_init(pile *s, const pile_params *p);
// Frees what pile_init allocated.
void pile_free(pile *s);
// Initial state: layers of k × k spheres (k = the most that fit between the walls at spacing
// 2r + gap), each sphere offset horizontally by a uniform random amount within its cell (seeded),
// layers 2r + gap apart starting r + gap above the ground, at rest (q 7n, v 6n).
void pile_initial_state(const pile *s, double *q, double *v);
// Total energy [J]: kinetic + gravity + Hertz potential of every touching pair, plane (B ≥ 0: may
// only decrease over a step of paper A's method).
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
