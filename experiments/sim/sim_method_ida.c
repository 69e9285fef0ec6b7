// SPDX-License-Identifier: MIT
// SUNDIALS IDA on the rigid-constraint DAE (SPEC §4: the model's bilateral rows held at φ = 0,
// their K and B ignored) as a sim stepper, where a rigid reference exists (bilateral rows only,
// N = I, a consistent initial state: the pendulum). Each advance restarts IDA from the state it
// reached (ref_ida_rigid integrates one interval per call): consistent, since IDA's output
// satisfies the constraints to its tolerance; the restarts cost IDA's initial step selection.
#include <stdlib.h>
#include <string.h>

#include "ref/ref_ida.h"
#include "sim/sim.h"

typedef struct ida_state {
  const mdl_model *model;
  ref_ida_settings set;
  ref_stats total;  // counters summed over the restarts
  double *q1, *v1;  // the interval's end (ref_ida_rigid's outputs must not alias its inputs)
} ida_state;

static void ida_state_free(void *state) {
  ida_state *s = state;
  if (s) free(s->q1);
  free(s);
}

static void *ida_state_create(const sim_method *type, const mdl_model *model,
                              const sim_method_options *opt, double t0, const double *q0,
                              const double *v0, double t_end, xp_error *err) {
  if (sim_method_options_check(opt, err)) return NULL;
  (void)type, (void)t0, (void)q0, (void)v0, (void)t_end;
  if (model->nq != model->nv || model->velocity_map)
    return xp_fail(err, XP_ERR_USAGE, "ida: the rigid DAE needs q̇ = v (N = I)"), NULL;
  ida_state *s = calloc(1, sizeof *s);
  if (!s) return xp_fail(err, XP_ERR_RUN, "out of memory"), NULL;
  s->model = model;
  s->q1 = malloc((size_t)(model->nq + model->nv) * sizeof *s->q1);
  if (!s->q1) return ida_state_free(s), xp_fail(err, XP_ERR_RUN, "out of memory"), NULL;
  s->v1 = s->q1 + model->nq;
  s->set = ref_ida_settings_default();
  s->set.rtol = opt->rtol;
  s->set.atol = opt->atol;
  s->set.max_wall = opt->wall_budget;
  return s;
}

static int ida_state_step(void *state, double t, double t_next, double *q, double *v,
                          sim_step_report *rep) {
  ida_state *s = state;
  ref_stats st;
  ref_status rs = ref_ida_rigid(s->model, &s->set, t, q, v, &t_next, 1, s->q1, s->v1, &st);
  if (rs == REF_OK) {
    memcpy(q, s->q1, (size_t)s->model->nq * sizeof *q);
    memcpy(v, s->v1, (size_t)s->model->nv * sizeof *v);
  }
  s->total.steps += st.steps, s->total.rhs_evals += st.rhs_evals;
  s->total.rhs_evals_jac += st.rhs_evals_jac, s->total.jac_evals += st.jac_evals;
  s->total.newton_iters += st.newton_iters, s->total.newton_fails += st.newton_fails;
  s->total.err_fails += st.err_fails;
  if (st.order_max > s->total.order_max) s->total.order_max = st.order_max;
  rep->status = ref_status_name(rs);
  rep->iterations = (int)st.steps;
  rep->solves = 1;
  rep->rows = NULL, rep->force = NULL;
  if (rs != REF_OK) snprintf(rep->message, sizeof rep->message, "%.150s", st.error.message);
  return rep->outcome = rs == REF_OK ? 0 : -1;
}

static void ida_state_stats(void *state, void (*emit)(void *, const char *, double, const char *),
                            void *ctx) {
  const ida_state *s = state;
  sim_integrator_stats_emit(&s->total, emit, ctx);
}

const sim_method sim_method_ida = {
    .name = "ida",
    .description = "SUNDIALS IDA on the rigid-constraint DAE (index-2 GGL), the rigid reference",
    .family = SIM_FAMILY_RIGID,
    .variant = 0,
    .create = ida_state_create,
    .step = ida_state_step,
    .stats = ida_state_stats,
    .free = ida_state_free,
};
