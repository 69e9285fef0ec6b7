// SPDX-License-Identifier: MIT
// Rigid cube on a frictionless Winkler elastic foundation (paper A §5.5, Tables 1–2, Fig 7), as an
// mbs model: q = (x, y, z, qw, qx, qy, qz) (centre of mass, unit quaternion body→world),
// v = (ẋ, ẏ, ż, ω) with ω the angular velocity in world coordinates; one unilateral row per
// foundation element under the bottom face.
#ifndef SCENARIOS_FOUNDATION_H
#define SCENARIOS_FOUNDATION_H

#include "common/sc_error.h"
#include "mdl/mdl_model.h"
#include "mdl/mdl_rigid.h"
#include "xp/xp_param_list.h"

// The parameters every foundation run takes as one value, declared once for the scenario and the
// studies (kinds in xp/xp_param_list.h): they generate the fields, defaults, declarations
// (FOUNDATION_PARAM_DEFS) and reader (foundation_params_read).
#define FOUNDATION_PARAM_LIST(X)                                                \
  X(REAL, B, B, 1, XP_NONNEGATIVE, "N*s/m", "damping per element (paper A: 1)") \
  X(REAL, g, g, 9.81, XP_NONNEGATIVE, "m/s^2",                                  \
    "gravity (default; the paper only says the load acts in its direction)")

// The case of one run: the studies sweep lists of these (and declare them so), the method
// matrix's scenario takes one of each (FOUNDATION_CASE_PARAM_DEFS).
#define FOUNDATION_CASE_PARAM_LIST(X)                                                     \
  X(INT, n, n, int, 10, XP_POSITIVE, "elements per side (n x n elements; paper: 10, 30)") \
  X(REAL, E, E, 1e7, XP_POSITIVE, "Pa", "Young's modulus of the foundation (paper A)")    \
  X(REAL, load, F, 5, XP_NONNEGATIVE, "N", "rotating downward load (paper A: 5, 50)")

// the declarations, for a parameter table (xp_param_def[])
#define FOUNDATION_PARAM_DEFS FOUNDATION_PARAM_LIST(XP_PARAM_DEF)
#define FOUNDATION_CASE_PARAM_DEFS FOUNDATION_CASE_PARAM_LIST(XP_PARAM_DEF)

// Parameters (SPEC §5; foundation_params_default gives the paper's values): the listed ones —
// n×n elements (10 → 100), Young's modulus E [N/m²] of the foundation (1e7), downward force F
// [N] (5) at (s/2)[cos ωt, sin ωt, 1] in the cube frame, damping B per element [N·s/m] (1),
// gravity g [m/s²] (9.81) — and the fixed geometry below.
typedef struct foundation_params {
  double side;     // cube side s [m] (1)
  double density;  // [kg/m³] (8 → m = 8 kg, I = m s²/6)
  double depth;    // foundation depth [m] (1): element stiffness K = E·(s/n)²/depth
  double omega;    // angular rate of the load point [rad/s] (10)
  FOUNDATION_CASE_PARAM_LIST(XP_PARAM_FIELD)
  FOUNDATION_PARAM_LIST(XP_PARAM_FIELD)
} foundation_params;

foundation_params foundation_params_default(void);

struct xp_params;
// Reads the FOUNDATION_PARAM_LIST keys (B, g) of validated parameters into *out (others untouched).
void foundation_params_read(const struct xp_params *prm, foundation_params *out);

// An instance; `model` is ready after foundation_init (ctx points at the instance: do not move it).
typedef struct foundation {
  foundation_params p;
  double mass, inertia, k_element, area_element;
  mdl_model model;
  int block_size[6];
} foundation;

// Fills fd from p (copied): nq = 7, nv = 6, n² unilateral rows of 4 Jacobian entries each.
void foundation_init(foundation *fd, const foundation_params *p);
// Largest number of elements per side n: the model indexes n² rows and 4·n² Jacobian entries as
// int (overflow from n = 23 171), and n = 2000 (4e6 elements) already needs gigabytes per step.
#define FOUNDATION_MAX_N 2000
// SC_OK if p can be modelled (1 <= n <= FOUNDATION_MAX_N); else SC_ERR_INPUT with a message
// naming the value and the limit in err. foundation_init requires a checked p.
int foundation_params_check(const foundation_params *p, sc_error *err);
// Resting on the undeformed foundation, at rest: centre at height s/2, identity orientation.
void foundation_initial_state(const foundation *fd, double q[7], double v[6]);
// Element centre of element e (row-major over the n×n grid) in world coordinates [m].
void foundation_element_point(const foundation *fd, const double q[7], int e, double out[3]);
// Penalty pressure of every element at (q, v): max(0, −Kφ − Bφ̇)/A_e [Pa] (0 where separated);
// out has n² entries.
void foundation_pressure(const foundation *fd, const double q[7], const double v[6], double *out);

#endif  // SCENARIOS_FOUNDATION_H
