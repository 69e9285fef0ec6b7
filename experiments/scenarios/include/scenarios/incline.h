// SPDX-License-Identifier: MIT
// Box on an inclined plane (paper A §6.4, Fig 9; SPEC §5 `incline`): a 3-D rigid box on four small
// rigid spherical feet at its bottom corners, on an elastic 15° ramp with Hertz contact and
// memoryless Coulomb friction.
#ifndef SCENARIOS_INCLINE_H
#define SCENARIOS_INCLINE_H

#include "mbs/mbs_model.h"
#include "mbs/mbs_rigid.h"
#include "mbs/mbs_scene.h"
#include "scenarios/hertz.h"

// Physical parameters (defaults from incline_params_default: paper A §6.4 values).
typedef struct incline_params {
  double lx, ly, lz;  // box length (down the slope) 0.2, width 0.1, height 0.05 [m]
  double m;           // mass [kg] (1); inertia of the solid box
  double r;           // foot radius [m] (0.01); feet centred at the bottom corners
  double theta;       // ramp angle [rad] (15°)
  double Estar;       // Hertz modulus E* [Pa] (1e11)
  double bn;          // normal damping B_n [N·s/m] (1)
  double bt;          // tangential damping B_t [N·s/m] (1e6/h = 1e8 at h = 0.01); K_t = 0
  double mu;          // friction coefficient (0)
  double g;           // gravity [m/s²] (9.81)
  hertz_mode hertz;   // Hertz row (HERTZ_DEFAULT)
} incline_params;

// Paper A §6.4 parameters with μ = 0 and B_t = 1e8 (= 1e6/h at h = 0.01 s).
incline_params incline_params_default(void);

// An incline instance; `model` is ready for a step after incline_init (its ctx points at the
// instance, which must not move while the model is in use).
typedef struct incline {
  incline_params p;
  mbs_model model;
  int block_size[1];
  double inertia[3];  // principal inertia of the box [kg·m²]
  mbs_scene scene;    // the box on its feet in the ramp frame (model.scene), for peers
} incline;

// Fills s from p (copied). Works in the ramp frame: the ramp is z = 0, x points down the slope
// and gravity is g (sin θ, 0, −cos θ). One rigid body (mbs_rigid.h: q = (x, quaternion), v =
// (ẋ, ω body)); per foot k a normal row (contact k) and two tangent rows along x and y, always
// reported (the step activates them while the foot overlaps the ramp).
void incline_init(incline *s, const incline_params *p);

// Initial state: at rest, level on the ramp, each foot at the Hertz overlap d = (F²/(E*² r))^{1/3}
// of an equal share F = m g cos θ / 4 of the normal load (default: the paper says "initially
// motionless"; starting at d = 0 drops the box into the ramp and bounces it) (q 7, v 6).
void incline_initial_state(const incline *s, double q[7], double v[6]);

// Overlap d_k [m] of the four feet with the ramp (negative: above it) at q.
void incline_foot_depth(const incline *s, const double q[7], double d[4]);

// The scenario's physical parameters as xp_param_def initialisers (xp/xp.h), declared once for
// the method matrix (incline.c) and the paper study (drivers/xp_incline.c).
#define INCLINE_PARAM_DEFS                                                                        \
  {"theta_deg", XP_REAL, "15", XP_ANY, "deg", NULL, "ramp angle (paper A)"},                      \
      {"lx", XP_REAL, "0.2", XP_POSITIVE, "m", NULL, "box length down the slope (paper A)"},      \
      {"ly", XP_REAL, "0.1", XP_POSITIVE, "m", NULL, "box width (paper A)"},                      \
      {"lz", XP_REAL, "0.05", XP_POSITIVE, "m", NULL, "box height (paper A)"},                    \
      {"m",                                                                                       \
       XP_REAL,                                                                                   \
       "1",                                                                                       \
       XP_POSITIVE,                                                                               \
       "kg",                                                                                      \
       NULL,                                                                                      \
       "box mass (paper A); solid-box inertia (default)"},                                        \
      {"r",                                                                                       \
       XP_REAL,                                                                                   \
       "0.01",                                                                                    \
       XP_POSITIVE,                                                                               \
       "m",                                                                                       \
       NULL,                                                                                      \
       "foot radius (paper A); feet centred at the bottom corners (default)"},                    \
      {"Estar", XP_REAL, "1e11", XP_POSITIVE, "Pa", NULL, "Hertz modulus E* (paper A)"},          \
      {"Bn", XP_REAL, "1", XP_NONNEGATIVE, "N*s/m", NULL, "normal damping B_n (paper A)"},        \
      {"Bt",                                                                                      \
       XP_REAL,                                                                                   \
       "0",                                                                                       \
       XP_NONNEGATIVE,                                                                            \
       "N*s/m",                                                                                   \
       NULL,                                                                                      \
       "tangential damping B_t; 0 means 1e6/h (paper A); K_t = 0"},                               \
      {"g", XP_REAL, "9.81", XP_NONNEGATIVE, "m/s^2", NULL, "gravity (default)"}, {               \
    "hertz", XP_STRING, "default", XP_ANY, "", "default|paper",                                   \
        "Hertz row: default phi = -d, K = E*sqrt(r d); paper: phi = -d^1.5, K = E*sqrt(r) (SPEC " \
        "§1.4)"                                                                                  \
  }

#endif  // SCENARIOS_INCLINE_H
