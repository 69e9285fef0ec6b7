// SPDX-License-Identifier: MIT
// Pendulum with a soft range-of-motion limit (paper A §5.4): q = θ (θ = 0 hanging), M = m l²,
// f = −m g l sin θ, one unilateral row φ = θ (G = 1, Ġv = 0), active while θ ≤ 0.
#include "scenarios/rom_pendulum.h"

#include <math.h>
#include <string.h>

#include "sim/sim_scenario.h"

#define ROM_PI 3.14159265358979323846

rom_pendulum_params rom_pendulum_params_default(void) {
  return (rom_pendulum_params){ROM_PENDULUM_PARAM_LIST(XP_PARAM_VALUE)};
}

rom_pendulum_params rom_pendulum_params_read(const xp_params *prm) {
  rom_pendulum_params rp, *out = &rp;
  ROM_PENDULUM_PARAM_LIST(XP_PARAM_READ)
  return rp;
}

static int rom_mass(double t, const double *q, double *M, void *ctx) {
  (void)t, (void)q;
  const rom_pendulum *rp = ctx;
  M[0] = rp->p.m * rp->p.l * rp->p.l;
  return 0;
}

static int rom_forces(double t, const double *q, const double *v, double *f, void *ctx) {
  (void)t, (void)v;
  const rom_pendulum *rp = ctx;
  f[0] = -rp->p.m * rp->p.g * rp->p.l * sin(q[0]);
  return 0;
}

static int rom_rows(double t, const double *q, const double *v, mdl_rows *rows, void *ctx) {
  (void)t, (void)v;
  const rom_pendulum *rp = ctx;
  const int col = 0;
  const double one = 1;
  mdl_rows_clear(rows);
  return mdl_rows_add(rows, MDL_ROW_UNILATERAL, q[0], 0, rp->p.k, rp->p.b, 1, &col, &one) < 0 ? -1
                                                                                              : 0;
}

static int rom_energy(double t, const double *q, const double *v, double *e, void *ctx) {
  (void)t;
  const rom_pendulum *rp = ctx;
  *e = rom_pendulum_energy(&rp->p, q[0], v[0]);
  return 0;
}

void rom_pendulum_init(rom_pendulum *rp, const rom_pendulum_params *p) {
  rp->p = *p;
  rp->block_size[0] = 1;
  rp->model = (mdl_model){.nq = 1,
                          .nv = 1,
                          .max_rows = 1,
                          .max_nnz = 1,
                          .nblocks = 1,
                          .block_size = rp->block_size,
                          .mass = rom_mass,
                          .forces = rom_forces,
                          .rows = rom_rows,
                          .energy = rom_energy,
                          .ctx = rp};
}

void rom_pendulum_initial_state(double *theta, double *theta_dot) {
  *theta = ROM_PI / 2;
  *theta_dot = 0;
}

double rom_pendulum_energy(const rom_pendulum_params *p, double theta, double theta_dot) {
  return 0.5 * p->m * p->l * p->l * theta_dot * theta_dot + p->m * p->g * p->l * (1 - cos(theta));
}

// ---- the scenario of the method matrix ------------------------------------------------------

static const xp_param_def rom_pendulum_param_defs[] = {ROM_PENDULUM_PARAM_DEFS};

static int rom_pendulum_create(const xp_params *p, double h, sim_instance *inst, xp_error *err) {
  (void)h;
  if (sim_instance_alloc(inst, sizeof(rom_pendulum), 1, 1))
    return xp_fail(err, XP_ERR_RUN, "out of memory");
  rom_pendulum_params rp = rom_pendulum_params_read(p);
  rom_pendulum *r = inst->data;
  rom_pendulum_init(r, &rp);
  rom_pendulum_initial_state(inst->q0, inst->v0);
  inst->model = &r->model;
  return XP_OK;
}

const sim_scenario sim_scenario_rom_pendulum = {
    .name = "rom_pendulum",
    .summary = "pendulum hitting a stiff range-of-motion limit (paper A §5.4)",
    .params = rom_pendulum_param_defs,
    .n_params = sizeof rom_pendulum_param_defs / sizeof rom_pendulum_param_defs[0],
    .methods = SIM_FAMILY_COMPLIANT,
    .not_applicable = SIM_IDA_NOT_APPLICABLE,
    .default_h = 1e-5,
    .default_T = 1,
    .create = rom_pendulum_create,
    .free = sim_instance_release,
};
