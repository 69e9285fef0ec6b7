// SPDX-License-Identifier: MIT
// The experiment registry: every paper figure or table the harness regenerates.
#include <string.h>

#include "sim/sim.h"
#include "xp/xp.h"

extern const xp_experiment xp_experiment_smd_explicit;
extern const xp_experiment xp_experiment_smd_semi;
extern const xp_experiment xp_experiment_smd_implicit;
extern const xp_experiment xp_experiment_smd_map;
extern const xp_experiment xp_experiment_smd;
extern const xp_experiment xp_experiment_pendulum;
extern const xp_experiment xp_experiment_rom_pendulum;
extern const xp_experiment xp_experiment_foundation;
extern const xp_experiment xp_experiment_foundation_wp;
extern const xp_experiment xp_experiment_foundation_wp_stiff;
extern const xp_experiment xp_experiment_foundation_ringing;
extern const xp_experiment xp_experiment_spring_cylinder;
extern const xp_experiment xp_experiment_incline;
extern const xp_experiment xp_experiment_stack;
extern const xp_experiment xp_experiment_stiffness;
extern const xp_experiment xp_experiment_scaling;
extern const xp_experiment xp_experiment_restitution;
extern const xp_experiment xp_experiment_contact_wp;
extern const xp_experiment xp_experiment_claims;

// one per line, in reproduce order (claims last: its report reads the others' results)
// clang-format off
const xp_experiment *const xp_experiments[] = {
    &xp_experiment_smd_explicit,
    &xp_experiment_smd_semi,
    &xp_experiment_smd_implicit,
    &xp_experiment_smd_map,
    &xp_experiment_smd,
    &xp_experiment_pendulum,
    &xp_experiment_rom_pendulum,
    &xp_experiment_foundation,
    &xp_experiment_foundation_wp,
    &xp_experiment_foundation_wp_stiff,
    &xp_experiment_foundation_ringing,
    &xp_experiment_spring_cylinder,
    &xp_experiment_incline,
    &xp_experiment_stack,
    &xp_experiment_stiffness,
    &xp_experiment_scaling,
    &xp_experiment_restitution,
    &xp_experiment_contact_wp,
    &xp_experiment_claims,
    NULL,
};
// clang-format on

const xp_experiment *xp_experiment_find(const char *name) {
  for (size_t i = 0; xp_experiments[i]; i++)
    if (strcmp(xp_experiments[i]->name, name) == 0) return xp_experiments[i];
  const size_t n = strlen(name), suffix = strlen("_methods");
  return n > suffix && strcmp(name + n - suffix, "_methods") == 0 ? sim_experiment_for(name) : NULL;
}
