// SPDX-License-Identifier: MIT
// Simbody (Debian libsimbody-dev, 3.7) as a peer method: `method=simbody` of the method matrix,
// the penalty-ODE approach done by a mature engine. It rebuilds a model's scene (mdl_scene.h:
// spheres on the ground with optional walls, or a box on four spherical feet) as free bodies with
// Simbody's compliant point contact (HuntCrossleyForce: force k d^{3/2}(1 + (3/2) c ḋ)), its
// stiffness set so that k = E*√r_eff — the scene's Hertz law, stabcon's rows — and c = (2/3) α
// from the scene's Hunt–Crossley α (0 for another damping law: then elastic), friction Simbody's
// regularised Coulomb law (static = dynamic = μ, transition speed 1e-3 m/s: no true stick),
// integrated by its error-controlled Runge–Kutta–Merson at the relative accuracy rtol. The adapter
// is the one C++ file of the project (sim_simbody.cpp) behind this C interface; built when meson
// finds Simbody and a C++ compiler (STABCON_HAVE_SIMBODY), otherwise create reports that it is
// not built.
#ifndef SIM_SIM_SIMBODY_H
#define SIM_SIM_SIMBODY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "common/sc_error.h"
#include "mdl/mdl_scene.h"

typedef struct sim_simbody sim_simbody;

// 1 if this build has Simbody.
int sim_simbody_available(void);
// Simbody's system for the scene at state (q, v) (mdl_rigid.h layout) at time 0, integrated at
// relative accuracy rtol. NULL with err set if the scene is not supported (no Hertz modulus) or
// Simbody is not built (SC_ERR_INPUT), or Simbody fails (SC_ERR_SOLVER).
sim_simbody *sim_simbody_create(const mdl_scene *scene, const double *q, const double *v,
                                double rtol, sc_error *err);
// Advances to time t_next and writes the state into (q, v); 0, or SC_ERR_SOLVER with Simbody's
// message in err (the integrator failed).
int sim_simbody_advance(sim_simbody *sb, double t_next, double *q, double *v, sc_error *err);
// Integrator steps taken and attempted since create.
long sim_simbody_steps(const sim_simbody *sb, long *attempted);
// One line naming Simbody's version, integrator, accuracy and contact parameters.
const char *sim_simbody_describe(const sim_simbody *sb);
void sim_simbody_free(sim_simbody *sb);

#ifdef __cplusplus
}
#endif

#endif
