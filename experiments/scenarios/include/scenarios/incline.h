// SPDX-License-Identifier: MIT
// Box on an inclined plane (paper A §6.4, Fig 9; SPEC §5 `incline`): a 3-D rigid box on four small
// rigid spherical feet at its bottom corners, on an elastic 15° ramp with Hertz contact and
// memoryless Coulomb friction.
#ifndef SCENARIOS_INCLINE_H
#define SCENARIOS_INCLINE_H

#include "mdl/mdl_model.h"
#include "mdl/mdl_rigid.h"
#include "mdl/mdl_scene.h"
#include "scenarios/hertz.h"
#include "xp/xp_param_list.h"

// The physical parameters, declared once for the method matrix (incline.c) and the paper study
// (drivers/xp_incline.c) (kinds in xp/xp_param_list.h): they generate incline_params' fields,
// the defaults, the declarations (INCLINE_PARAM_DEFS) and the reader (incline_params_read).
#define INCLINE_PARAM_LIST(X)                                                                 \
  X(DEG, theta, theta_deg, 15, XP_ANY, "ramp angle (paper A)")                                \
  X(REAL, lx, lx, 0.2, XP_POSITIVE, "m", "box length down the slope (paper A)")               \
  X(REAL, ly, ly, 0.1, XP_POSITIVE, "m", "box width (paper A)")                               \
  X(REAL, lz, lz, 0.05, XP_POSITIVE, "m", "box height (paper A)")                             \
  X(REAL, m, m, 1, XP_POSITIVE, "kg", "box mass (paper A); solid-box inertia (default)")      \
  X(REAL, r, r, 0.01, XP_POSITIVE, "m",                                                       \
    "foot radius (paper A); feet centred at the bottom corners (default)")                    \
  X(REAL, Estar, Estar, 1e11, XP_POSITIVE, "Pa", "Hertz modulus E* (paper A)")                \
  X(REAL, bn, Bn, 1, XP_NONNEGATIVE, "N*s/m", "normal damping B_n (paper A)")                 \
  X(REAL, bt, Bt, 0, XP_NONNEGATIVE, "N*s/m",                                                 \
    "tangential damping B_t; 0 means 1e6/h (paper A); K_t = 0")                               \
  X(REAL, g, g, 9.81, XP_NONNEGATIVE, "m/s^2", "gravity (default)")                           \
  X(ENUM, hertz, hertz, hertz_mode, HERTZ_DEFAULT, "default", "default|paper",                \
    "Hertz row: default phi = -d, K = E*sqrt(r d); paper: phi = -d^1.5, K = E*sqrt(r) (SPEC " \
    "§1.4)")

// The case of one run: the study sweeps a list of μ, the method matrix's scenario takes one.
#define INCLINE_CASE_PARAM_LIST(X) \
  X(REAL, mu, mu, 0, XP_NONNEGATIVE, "", "friction coefficient (paper A §6.4: 0 … 0.375)")

// the declarations, for a parameter table (xp_param_def[])
#define INCLINE_PARAM_DEFS INCLINE_PARAM_LIST(XP_PARAM_DEF)
#define INCLINE_CASE_PARAM_DEFS INCLINE_CASE_PARAM_LIST(XP_PARAM_DEF)

// Physical parameters (defaults from incline_params_default: paper A §6.4 values): the listed
// ones, with the ramp angle theta in radians and bt the tangential damping actually used.
typedef struct incline_params {
  INCLINE_PARAM_LIST(XP_PARAM_FIELD)
  INCLINE_CASE_PARAM_LIST(XP_PARAM_FIELD)
} incline_params;

// Paper A §6.4 parameters with μ = 0 and B_t = 1e8 (= 1e6/h at h = 0.01 s).
incline_params incline_params_default(void);

struct xp_params;
struct sc_error;
// Reads the INCLINE_PARAM_LIST keys of validated parameters into *out (μ untouched), with B_t =
// 1e6/h by default for the step h actually used; 0, or XP_ERR_USAGE with a message.
int incline_params_read(const struct xp_params *prm, double h, incline_params *out,
                        struct sc_error *err);

// An incline instance; `model` is ready for a step after incline_init (its ctx points at the
// instance, which must not move while the model is in use).
typedef struct incline {
  incline_params p;
  mdl_model model;
  int block_size[1];
  double inertia[3];  // principal inertia of the box [kg·m²]
  mdl_scene scene;    // the box on its feet in the ramp frame (model.scene), for peers
} incline;

// Fills s from p (copied). Works in the ramp frame: the ramp is z = 0, x points down the slope
// and gravity is g (sin θ, 0, −cos θ). One rigid body (mdl_rigid.h: q = (x, quaternion), v =
// (ẋ, ω body)); per foot k a normal row (contact k) and two tangent rows along x and y, always
// reported (the step activates them while the foot overlaps the ramp).
void incline_init(incline *s, const incline_params *p);

// Initial state: at rest, level on the ramp, each foot at the Hertz overlap d = (F²/(E*² r))^{1/3}
// of an equal share F = m g cos θ / 4 of the normal load (default: the paper says "initially
// motionless"; starting at d = 0 drops the box into the ramp and bounces it) (q 7, v 6).
void incline_initial_state(const incline *s, double q[7], double v[6]);

// Overlap d_k [m] of the four feet with the ramp (negative: above it) at q.
void incline_foot_depth(const incline *s, const double q[7], double d[4]);

#endif  // SCENARIOS_INCLINE_H
