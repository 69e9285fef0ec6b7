// SPDX-License-Identifier: MIT
// Paper A's constraint step (SPEC §1.2–1.3) as sim steppers, one per contact formulation.
//
// The step policy of every experiment (SPEC §7): a step whose conic solve ended at
// max-iterations or inaccurate is solved again from paper A's feasible start (Appendix A, last
// paragraph) from the same (q0, v0); if that converges the step is ok (and counted as retried),
// else it is taken with the better of the two and recorded as degraded (outcome > 0). A step
// that fails (callback, singular, non-finite) is not taken (outcome < 0).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbs/mbs.h"
#include "sim/sim.h"

typedef struct paper_a_state {
  mbs_workspace *ws;
  const mdl_model *model;  // its contact memory (tangential stick) is updated after each step
  mbs_settings settings;
  double *q0, *v0;  // the step's start, kept for the retry (nq, nv)
  double h;         // the step size (t_next − t may differ from it by rounding)
  int nq, nv;
} paper_a_state;

static void paper_a_free(void *state) {
  paper_a_state *s = state;
  if (!s) return;
  mbs_workspace_free(s->ws);
  free(s->q0);
  free(s);
}

static void *paper_a_create(const sim_method *type, const mdl_model *model,
                            const sim_method_options *opt, double t0, const double *q0,
                            const double *v0, double t_end, xp_error *err) {
  if (sim_method_options_check(opt, err)) return NULL;
  (void)t0, (void)t_end;
  paper_a_state *s = calloc(1, sizeof *s);
  if (!s) return xp_fail(err, XP_ERR_RUN, "out of memory"), NULL;
  s->h = opt->h;
  s->settings = mbs_settings_default();
  s->settings.formulation = (mbs_formulation)type->variant;
  s->settings.zeta = opt->zeta;
  s->settings.fp_max_iter = (int)opt->fp_max_iter;
  s->settings.max_iter = (int)opt->max_pivots;
  s->settings.use_bias = !opt->no_bias;
  if (opt->start && mbs_start_parse(opt->start, &s->settings.start)) {
    xp_fail(err, XP_ERR_USAGE, "parameter start=%s: not one of cold|warm|feasible", opt->start);
    return paper_a_free(s), NULL;
  }
  if (opt->coulomb_solver &&
      mbs_coulomb_solver_parse(opt->coulomb_solver, &s->settings.coulomb_solver)) {
    xp_fail(err, XP_ERR_USAGE, "parameter coulomb_solver=%s: not one of newton|fixed-point",
            opt->coulomb_solver);
    return paper_a_free(s), NULL;
  }
  if (opt->gdot_target) s->settings.gdot_target = *opt->gdot_target;
  if (opt->solver && mbs_solver_parse(opt->solver, &s->settings.solver)) {
    xp_fail(err, XP_ERR_USAGE, "parameter solver=%s: not one of auto|dense|qcp", opt->solver);
    return paper_a_free(s), NULL;
  }
  if (opt->activation && mbs_activation_parse(opt->activation, &s->settings.activation)) {
    xp_fail(err, XP_ERR_USAGE, "parameter activation=%s: not one of overlap|speculative",
            opt->activation);
    return paper_a_free(s), NULL;
  }
  sc_error serr = {0};
  s->ws = mbs_workspace_create(model, &s->settings, &serr);
  s->nq = model->nq, s->nv = model->nv;
  s->q0 = malloc((size_t)(model->nq + model->nv) * sizeof *s->q0);
  if (!s->ws || !s->q0) {
    // the library's own code and message (bad settings: input), or our allocation
    xp_fail(err,
            s->ws       ? XP_ERR_RUN
            : serr.code ? serr.code
                        : XP_ERR_USAGE,
            "%s: %s", type->name, s->ws ? "out of memory" : serr.message);
    return paper_a_free(s), NULL;
  }
  s->v0 = s->q0 + model->nq;
  s->model = model;
  // the model's contact memory starts empty and is carried by this stepper
  if (model->memory && model->memory(0, q0, v0, NULL, NULL, model->ctx)) {
    xp_fail(err, XP_ERR_RUN, "%s: the model's contact memory could not start", type->name);
    return paper_a_free(s), NULL;
  }
  return s;
}

// taken but degraded (max-iterations, inaccurate): mbs's own signed classification
static int degraded(mbs_status st) { return mbs_status_severity(st) > 0; }

static int paper_a_step(void *state, double t, double t_next, double *q, double *v,
                        sim_step_report *rep) {
  (void)t_next;
  paper_a_state *s = state;
  const double h = s->h;
  memcpy(s->q0, q, (size_t)s->nq * sizeof *q);
  memcpy(s->v0, v, (size_t)s->nv * sizeof *v);
  mbs_status st = mbs_step(s->ws, t, h, s->q0, s->v0, q, v);
  rep->retried = 0;
  if (degraded(st) && s->settings.start != MBS_START_FEASIBLE) {
    // the policy: once more from the feasible start; keep it unless it is worse
    mbs_settings retry = s->settings;
    retry.start = MBS_START_FEASIBLE;
    mbs_workspace_set_settings(s->ws, &retry, NULL);
    mbs_status st2 = mbs_step(s->ws, t, h, s->q0, s->v0, q, v);
    mbs_workspace_set_settings(s->ws, &s->settings, NULL);
    rep->retried = 1;
    if (st2 == MBS_OK || degraded(st2))
      st = st2;
    else
      st = mbs_step(s->ws, t, h, s->q0, s->v0, q, v);  // back to the first, taken, result
  }
  const mbs_info *info = mbs_step_info(s->ws);
  rep->status = mbs_status_name(st);
  rep->iterations = info->iterations;
  rep->solves = info->fp_iterations;
  rep->predicted = info->predicted > 0;
  rep->rows_active = info->rows_active;
  rep->resolves = info->resolves;
  rep->residual = info->residual;
  rep->cone_residual = info->cone_residual;
  if (s->settings.formulation == MBS_COULOMB) rep->coulomb_residual = info->coulomb_residual;
  rep->rows = mbs_step_rows(s->ws);
  rep->force = mbs_step_lambda(s->ws);
  rep->outcome = mbs_status_severity(st);
  // the taken step moves the contact memory (SPEC §1.6: stick anchors) once, by its final result
  const mdl_model *m = s->model;
  if (rep->outcome >= 0 && m->memory && m->memory(h, q, v, rep->rows, rep->force, m->ctx)) {
    rep->status = "callback-fatal";
    snprintf(rep->message, sizeof rep->message, "memory: contact memory update failed");
    rep->outcome = -1;
  }
  return rep->outcome;
}

#define PAPER_A_TYPE(id, formulation, text)                 \
  const sim_method id = {.name = "paperA-" #formulation,    \
                         .description = text,               \
                         .family = SIM_FAMILY_PAPER_A,      \
                         .variant = MBS_##formulation##_ID, \
                         .create = paper_a_create,          \
                         .step = paper_a_step,              \
                         .stats = NULL,                     \
                         .free = paper_a_free};

enum { MBS_coulomb_ID = MBS_COULOMB, MBS_relaxed_ID = MBS_RELAXED, MBS_paper_ID = MBS_PAPER };

PAPER_A_TYPE(sim_method_paper_a_coulomb, coulomb,
             "paper A's step, exact Coulomb friction (SPEC §1.3, §1.6)")
PAPER_A_TYPE(sim_method_paper_a_relaxed, relaxed,
             "paper A's step, convex relaxed contact: exact complementarity (SPEC §1.3)")
PAPER_A_TYPE(sim_method_paper_a_paper, paper,
             "paper A's step with its own objective (ζ, β), eqs. 83-85, 124 (SPEC §1.3)")
