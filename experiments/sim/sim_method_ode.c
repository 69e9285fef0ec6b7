// SPDX-License-Identifier: MIT
// The reference integrators (SPEC §4) as sim steppers: CVODE BDF (variable order and order 1)
// and GSL RK45 on the penalty ODE of the model, advanced output time by output time (the
// adaptive steps in between are the integrator's own; their count is the step's iterations).
#include <stdlib.h>
#include <string.h>

#include "ref/ref_ode.h"
#include "ref/ref_penalty.h"
#include "sim/sim.h"

typedef struct ode_state {
  ref_penalty pen;
  ref_ode_session *session;
  double *y;  // (q, v)
  int nq, nv;
  long steps_before;
} ode_state;

static void ode_state_free(void *state) {
  ode_state *s = state;
  if (!s) return;
  ref_ode_session_free(s->session);
  ref_penalty_free(&s->pen);
  free(s->y);
  free(s);
}

static void *ode_state_create(const sim_method *type, const mdl_model *model,
                              const sim_method_options *opt, double t0, const double *q0,
                              const double *v0, double t_end, xp_error *err) {
  if (sim_method_options_check(opt, err)) return NULL;
  ode_state *s = calloc(1, sizeof *s);
  if (!s) return xp_fail(err, XP_ERR_RUN, "out of memory"), NULL;
  sc_error serr = {0};
  mdl_eval_settings pen_set = mdl_eval_settings_default();
  pen_set.use_bias = !opt->no_bias;
  if (ref_penalty_init(&s->pen, model, &pen_set, &serr)) {
    xp_fail(err, serr.code ? serr.code : XP_ERR_USAGE, "%s: %s", type->name, serr.message);
    return ode_state_free(s), NULL;
  }
  s->nq = model->nq, s->nv = model->nv;
  s->y = malloc((size_t)(s->nq + s->nv) * sizeof *s->y);
  if (!s->y) return xp_fail(err, XP_ERR_RUN, "out of memory"), ode_state_free(s), NULL;
  memcpy(s->y, q0, (size_t)s->nq * sizeof *q0);
  memcpy(s->y + s->nq, v0, (size_t)s->nv * sizeof *v0);
  ref_ode_settings set = ref_ode_settings_default();
  set.rtol = opt->rtol, set.atol = opt->atol, set.wall_budget = opt->wall_budget;
  ref_stats stats;
  s->session =
      ref_ode_session_create(&s->pen.ode, (ref_method)type->variant, &set, t0, s->y, t_end, &stats);
  if (!s->session) {
    xp_fail(err, stats.status == REF_BAD_INPUT ? XP_ERR_USAGE : XP_ERR_RUN, "%s: %s", type->name,
            stats.error.message);
    return ode_state_free(s), NULL;
  }
  return s;
}

static int ode_state_step(void *state, double t, double t_next, double *q, double *v,
                          sim_step_report *rep) {
  (void)t;
  ode_state *s = state;
  ref_status st = ref_ode_session_advance(s->session, t_next, s->y);
  const ref_stats *stats = ref_ode_session_stats(s->session);
  rep->status = ref_status_name(st);
  rep->iterations = (int)(stats->steps - s->steps_before);
  s->steps_before = stats->steps;
  rep->solves = 1;
  rep->retried = 0;
  rep->rows = NULL, rep->force = NULL;
  if (st != REF_OK) {
    snprintf(rep->message, sizeof rep->message, "%.150s", stats->error.message);
    return rep->outcome = -1;
  }
  memcpy(q, s->y, (size_t)s->nq * sizeof *q);
  memcpy(v, s->y + s->nq, (size_t)s->nv * sizeof *v);
  return rep->outcome = 0;
}

static void ode_state_stats(void *state, void (*emit)(void *, const char *, double, const char *),
                            void *ctx) {
  ode_state *s = state;
  sim_integrator_stats_emit(ref_ode_session_stats(s->session), emit, ctx);
}

// ---- the integrators' counters under one key scheme ------------------------------------------

static const char *const integrator_keys[SIM_INTEGRATOR_STATS] = {
#define KEY_(field, key, help) key,
    SIM_INTEGRATOR_STAT_LIST(KEY_)
#undef KEY_
};

const char *sim_integrator_stat_key(int i) {
  return i >= 0 && i < SIM_INTEGRATOR_STATS ? integrator_keys[i] : NULL;
}

void sim_integrator_stats_emit(const ref_stats *st, sim_emit_fn emit, void *ctx) {
  ref_stats all = *st;
  all.rhs_evals += st->rhs_evals_jac;  // every evaluation; the Jacobians' part beside it
#define EMIT_(field, key, help) emit(ctx, key, (double)all.field, "");
  SIM_INTEGRATOR_STAT_LIST(EMIT_)
#undef EMIT_
}

int sim_integrator_stat_take(double values[SIM_INTEGRATOR_STATS], const char *key, double value) {
  for (int i = 0; i < SIM_INTEGRATOR_STATS; i++)
    if (strcmp(key, integrator_keys[i]) == 0) return values[i] = value, 1;
  return 0;
}

#define ODE_TYPE(id, method, cli_name, text)         \
  const sim_method id = {.name = cli_name,           \
                         .description = text,        \
                         .family = SIM_FAMILY_ODE,   \
                         .variant = method,          \
                         .create = ode_state_create, \
                         .step = ode_state_step,     \
                         .stats = ode_state_stats,   \
                         .free = ode_state_free};

// the names are ref_method_name()'s (ref_ode.h), which results files already store
ODE_TYPE(sim_method_cvode_bdf, REF_CVODE_BDF, "cvode-bdf",
         "CVODE BDF, variable order 1-5, on the penalty ODE (ode15s analogue)")
ODE_TYPE(sim_method_cvode_bdf1, REF_CVODE_BDF1, "cvode-bdf1",
         "CVODE BDF, max order 1, on the penalty ODE (paper A §5.5)")
ODE_TYPE(sim_method_rk45, REF_RK45, "rk45",
         "GSL RK45 (rkf45), adaptive, on the penalty ODE (ode45)")
