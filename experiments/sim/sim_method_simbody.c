// SPDX-License-Identifier: MIT
// Simbody as a peer method (sim_simbody.h): `method=simbody` advances output time by output time
// with Simbody's own error-controlled steps in between (their count is the step's iterations), at
// the relative accuracy rtol; a run that spends its wall budget stops as did-not-finish, as the
// other adaptive integrators do.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/sim.h"
#include "sim/sim_simbody.h"
#include "xp/xp_common.h"

#ifdef STABCON_HAVE_SIMBODY

typedef struct simbody_state {
  sim_simbody *sb;
  double t0, budget;  // wall clock at create [s], budget (≤ 0: none)
  long steps_before;
} simbody_state;

static void simbody_free(void *state) {
  simbody_state *s = state;
  if (!s) return;
  sim_simbody_free(s->sb);
  free(s);
}

static void *simbody_create(const sim_method *type, const mdl_model *model,
                            const sim_method_options *opt, double t0, const double *q0,
                            const double *v0, double t_end, xp_error *err) {
  if (sim_method_options_check(opt, err)) return NULL;
  (void)t0, (void)t_end;
  const mdl_scene *sc = model->scene;
  if (!sc || model->nq != 7 * sc->nbodies || model->nv != 6 * sc->nbodies)
    return xp_fail(err, XP_ERR_USAGE, "%s: the model has no scene (mdl_scene.h)", type->name), NULL;
  simbody_state *s = calloc(1, sizeof *s);
  if (!s) return xp_fail(err, XP_ERR_RUN, "out of memory"), NULL;
  sc_error why = {.code = 0};
  s->sb = sim_simbody_create(sc, q0, v0, opt->rtol, &why);
  if (!s->sb)
    return xp_fail(err, XP_ERR_USAGE, "%s: %s", type->name, why.message), simbody_free(s), NULL;
  s->t0 = xp_now(), s->budget = opt->wall_budget;
  return s;
}

static int simbody_step(void *state, double t, double t_next, double *q, double *v,
                        sim_step_report *rep) {
  (void)t;
  simbody_state *s = state;
  rep->solves = 1, rep->retried = 0;
  rep->residual = rep->cone_residual = NAN;
  rep->rows = NULL, rep->force = NULL;
  if (s->budget > 0 && xp_now() - s->t0 > s->budget) {
    rep->status = "did-not-finish";
    snprintf(rep->message, sizeof rep->message, "wall budget %g s spent", s->budget);
    return rep->outcome = -1;
  }
  sc_error why = {.code = 0};
  const int rc = sim_simbody_advance(s->sb, t_next, q, v, &why);
  if (rc) snprintf(rep->message, sizeof rep->message, "%.150s", why.message);
  const long steps = sim_simbody_steps(s->sb, NULL);
  rep->iterations = (int)(steps - s->steps_before);
  s->steps_before = steps;
  rep->status = rc ? "failed" : "ok";
  return rep->outcome = rc ? -1 : 0;
}

static void simbody_stats(void *state, void (*emit)(void *, const char *, double, const char *),
                          void *ctx) {
  const simbody_state *s = state;
  long attempted = 0;
  emit(ctx, "simbody_steps", (double)sim_simbody_steps(s->sb, &attempted), "");
  emit(ctx, "simbody_steps_attempted", (double)attempted, "");
}

const sim_method sim_method_simbody = {
    .name = "simbody",
    .description =
        "Simbody 3.7 on the scene: compliant Hunt-Crossley contact E*sqrt(r) d^1.5 "
        "(1 + alpha ddot) (elastic Hertz unless dissipation=hunt-crossley), regularised "
        "friction, error-controlled Runge-Kutta-Merson at accuracy rtol",
    .family = SIM_FAMILY_PEER,
    .variant = 0,
    .create = simbody_create,
    .step = simbody_step,
    .stats = simbody_stats,
    .free = simbody_free};

#else  // built without Simbody: the C interface reports it

int sim_simbody_available(void) { return 0; }
sim_simbody *sim_simbody_create(const mdl_scene *scene, const double *q, const double *v,
                                double rtol, sc_error *err) {
  (void)scene, (void)q, (void)v, (void)rtol;
  sc_error_set(err, SC_ERR_INPUT,
               "Simbody peer not built (install libsimbody-dev and g++, and reconfigure)");
  return NULL;
}
int sim_simbody_advance(sim_simbody *sb, double t_next, double *q, double *v, sc_error *err) {
  (void)sb, (void)t_next, (void)q, (void)v;
  return sc_error_set(err, SC_ERR_INPUT, "Simbody peer not built");
}
long sim_simbody_steps(const sim_simbody *sb, long *attempted) {
  (void)sb;
  if (attempted) *attempted = 0;
  return 0;
}
const char *sim_simbody_describe(const sim_simbody *sb) { return (void)sb, ""; }
void sim_simbody_free(sim_simbody *sb) { (void)sb; }

#endif
