// SPDX-License-Identifier: MIT
// Paper B's θ-method two-stage step (SPEC §2) as sim steppers, one per named scheme. The step
// reports impulses γ [N·s]; the stepper hands the loop forces γ/h [N] like every other method.
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "theta/theta.h"

typedef struct theta_state {
  theta_workspace *ws;
  double *force;  // max_rows
  double h;       // the step size (t_next − t may differ from it by rounding)
} theta_state;

static void theta_state_free(void *state) {
  theta_state *s = state;
  if (!s) return;
  theta_workspace_free(s->ws);
  free(s->force);
  free(s);
}

static void *theta_state_create(const sim_method *type, const mdl_model *model,
                                const sim_method_options *opt, double t0, const double *q0,
                                const double *v0, double t_end, xp_error *err) {
  if (sim_method_options_check(opt, err)) return NULL;
  (void)t0, (void)q0, (void)v0, (void)t_end;
  theta_state *s = calloc(1, sizeof *s);
  if (!s) return xp_fail(err, XP_ERR_RUN, "out of memory"), NULL;
  s->h = opt->h;
  theta_settings set = theta_settings_default();
  theta_settings_set_scheme(&set, (theta_scheme)type->variant);
  set.contact.beta = opt->beta;
  set.contact.sigma = opt->sigma;
  if (opt->contact_solver && strcmp(opt->contact_solver, "qcp") == 0)
    set.contact.solver = THETA_SOLVER_QCP;
  // the activation rule shared with paper A's step (SPEC §1.5): speculative takes a contact that
  // closes during the step, with its stiffness over the step (theta.h)
  if (opt->activation && strcmp(opt->activation, "speculative") != 0 &&
      strcmp(opt->activation, "overlap") != 0) {
    xp_fail(err, XP_ERR_USAGE, "parameter activation=%s: not one of overlap|speculative",
            opt->activation);
    return theta_state_free(s), NULL;
  }
  set.speculative = opt->activation && strcmp(opt->activation, "speculative") == 0;
  sc_error serr = {0};
  s->ws = theta_workspace_create(model, &set, &serr);
  s->force = calloc((size_t)(model->max_rows > 0 ? model->max_rows : 1), sizeof *s->force);
  if (!s->ws || !s->force) {
    // the library's own code and message (bad settings: input), or our allocation
    xp_fail(err,
            s->ws       ? XP_ERR_RUN
            : serr.code ? serr.code
                        : XP_ERR_USAGE,
            "%s: %s", type->name, s->ws ? "out of memory" : serr.message);
    return theta_state_free(s), NULL;
  }
  return s;
}

static int theta_state_step(void *state, double t, double t_next, double *q, double *v,
                            sim_step_report *rep) {
  (void)t_next;
  theta_state *s = state;
  const double h = s->h;
  theta_status st = theta_step(s->ws, t, h, q, v, q, v);
  const theta_info *info = theta_step_info(s->ws);
  const mdl_rows *rows = theta_step_rows(s->ws);
  const double *gamma = theta_step_gamma(s->ws);
  for (int r = 0; r < rows->n; r++) s->force[r] = gamma[r] / h;
  rep->status = theta_status_name(st);
  rep->iterations = info->contact.iterations;
  rep->solves = 1;
  rep->retried = 0;
  rep->rows = rows;
  rep->force = s->force;
  // theta's signed classification: the contact stage's last Newton iterate is a valid state
  // (theta.h), so contact-max-iterations is taken but degraded
  rep->outcome = theta_status_severity(st);
  return rep->outcome;
}

#define THETA_TYPE(id, scheme, text)                     \
  const sim_method id = {.name = "theta-" #scheme,       \
                         .description = text,            \
                         .family = SIM_FAMILY_THETA,     \
                         .variant = THETA_##scheme##_ID, \
                         .create = theta_state_create,   \
                         .step = theta_state_step,       \
                         .stats = NULL,                  \
                         .free = theta_state_free};

enum {
  THETA_explicit_ID = THETA_EXPLICIT,
  THETA_symplectic_ID = THETA_SYMPLECTIC,
  THETA_implicit_ID = THETA_IMPLICIT,
  THETA_midpoint_ID = THETA_MIDPOINT
};

THETA_TYPE(sim_method_theta_explicit, explicit, "paper B θ-method, explicit Euler (θ = θvq = 0)")
THETA_TYPE(sim_method_theta_symplectic, symplectic,
           "paper B θ-method, symplectic Euler (θ = 0, θvq = 1)")
THETA_TYPE(sim_method_theta_implicit, implicit, "paper B θ-method, implicit Euler (θ = θvq = 1)")
THETA_TYPE(sim_method_theta_midpoint, midpoint,
           "paper B θ-method, midpoint rule (θ = θvq = 1/2), order 2")
