// SPDX-License-Identifier: MIT
// The foundation studies' runs (xp_foundation.h): any method on the cube through the one
// simulate loop with the study's probe (state at T, iterations, element pressures, integrator
// counters, the wall-time budget of fixed-step runs), timing by repeats, and the reference model.
#include "xp_foundation.h"

#include "xp/xp_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const fd_method_names[] = {
#define FD_NAME(id, name, sim, text) name,
    FD_METHOD_LIST(FD_NAME)
#undef FD_NAME
};
// the steppers of the method matrix that run them (sim_methods)
const char *const fd_sim_names[] = {
#define FD_SIM(id, name, sim, text) sim,
    FD_METHOD_LIST(FD_SIM)
#undef FD_SIM
};

// integrators that advance to an output time by their own steps (tolerance-controlled)
int fd_is_adaptive(const sim_method *m) { return m->family == SIM_FAMILY_ODE; }

// the method settings of the study's parameters (SIM_OPTION_DEFS)
sim_method_options fd_options(const xp_params *prm) {
  sim_method_options o = sim_method_options_default();
  sim_method_options_read(prm, &o);
  return o;
}

// The study's observer on the one simulate loop: the state at T, the summed solver iterations,
// the first degraded step, the element pressures of the last step and the integrators' counters;
// it stops a fixed-step run past the wall-time budget.
typedef struct fd_probe {
  const foundation *fd;
  double *pressure;  // NULL: not wanted
  double q[FD_NQ], v[FD_NV];
  size_t n;  // steps (output intervals) of the run
  int is_ode;
  double t0, budget;
  long iterations;
  const char *first_bad;  // status of the first degraded step (static)
  double first_bad_t;
  double ode[SIM_INTEGRATOR_STATS];  // the integrator's counters (SIM_INTEGRATOR_STAT_LIST)
} fd_probe;

static void fd_sample(void *ctx, size_t k, double t, const double *q, const double *v,
                      const sim_step_report *rep) {
  fd_probe *pr = ctx;
  memcpy(pr->q, q, sizeof pr->q);
  memcpy(pr->v, v, sizeof pr->v);
  if (k == 0 || pr->is_ode) return;
  pr->iterations += rep->iterations;
  if (rep->outcome > 0 && !pr->first_bad) pr->first_bad = rep->status, pr->first_bad_t = t;
  // pressure of the last step's row forces, λ_e / A_e (one row per element)
  if (k == pr->n && pr->pressure && rep->force)
    for (int e = 0; e < pr->fd->p.n * pr->fd->p.n; e++)
      pr->pressure[e] = rep->force[e] / pr->fd->area_element;
}

static const char *fd_stop(void *ctx) {
  const fd_probe *pr = ctx;
  return !pr->is_ode && pr->budget > 0 && xp_now() - pr->t0 > pr->budget ? "did-not-finish" : NULL;
}

static void fd_method_stat(void *ctx, const char *key, double value, const char *unit) {
  (void)unit;
  fd_probe *pr = ctx;
  sim_integrator_stat_take(pr->ode, key, value);
}

// the run's record from the loop's outcome and the probe
static void fd_run_fill(fd_run *out, const fd_probe *pr, const sim_outcome *oc) {
  const int reached = !oc->failed && !oc->stopped;
  out->ok = reached;
  snprintf(out->status, sizeof out->status, "%s", oc->status);
  snprintf(out->message, sizeof out->message, "%s", oc->message);
  if (reached && oc->steps_degraded)
    snprintf(out->message, sizeof out->message,
             "%zu of %zu steps degraded after the retry from the feasible start (first: %s at "
             "t = %g s)",
             oc->steps_degraded, oc->steps_taken, pr->first_bad ? pr->first_bad : "?",
             pr->first_bad_t);
  memcpy(out->q, pr->q, sizeof out->q);
  memcpy(out->v, pr->v, sizeof out->v);
  out->seconds = oc->wall_time, out->cpu_seconds = oc->cpu_time;
  out->iterations = pr->iterations;
  out->degraded = (long)oc->steps_degraded, out->retried = (long)oc->steps_retried;
  memcpy(out->ode, pr->ode, sizeof out->ode);
  if (pr->is_ode) {
    out->steps = lround(pr->ode[0]);  // ode_steps
  } else {
    out->steps = (long)oc->steps_taken + oc->failed;  // the failed step was attempted
  }
}

// One run of a method through the one simulate loop (it writes no case: c = NULL; the study
// keeps the state at T and its own statistics). Fixed-step methods step h over T; the ODE
// integrators advance to T in one output interval. The loop's policy applies: a step whose
// solve did not converge is retried from the feasible start, then taken as degraded.
static fd_run run_sim(const foundation *fd, const char *method_name, const fd_settings *s,
                      double rtol, double atol, double *pressure) {
  fd_run out = {0};
  const sim_method *m = sim_method_find(method_name);
  const int is_ode = m && fd_is_adaptive(m);
  sim_method_options opt = s->base;
  opt.h = is_ode ? s->T : s->h;
  opt.rtol = rtol, opt.atol = atol, opt.wall_budget = s->budget;
  opt.no_bias = !s->use_bias;
  fd_probe pr = {.fd = fd, .pressure = pressure, .is_ode = is_ode, .budget = s->budget};
  double q0[FD_NQ], v0[FD_NV];
  foundation_initial_state(fd, q0, v0);
  // the loop only reads the model; sim_instance holds it as non-const for scenarios' create
  const sim_instance inst = {.model = (mdl_model *)&fd->model, .q0 = q0, .v0 = v0};
  sim_probe probe = {
      .ctx = &pr, .sample = fd_sample, .stop = fd_stop, .method_stat = fd_method_stat};
  xp_error err = {.code = 0};
  sim_outcome oc = {0};
  if (!m || xp_step_count(s->T, opt.h, &pr.n, &err)) {
    snprintf(out.status, sizeof out.status, "failed");
    snprintf(out.message, sizeof out.message, "%.200s", m ? err.message : "unknown method");
    return out;
  }
  pr.t0 = xp_now();
  if (sim_simulate(m, &opt, &inst, s->T, 2, &probe, NULL, &oc, &err) != XP_OK) {
    snprintf(out.status, sizeof out.status, "failed");
    snprintf(out.message, sizeof out.message, "%.200s", err.message);
    return out;
  }
  fd_run_fill(&out, &pr, &oc);
  if (pressure) {
    if (is_ode) foundation_pressure(fd, out.q, out.v, pressure);
    for (int e = 0; e < fd->p.n * fd->p.n; e++) {
      if (!out.ok) pressure[e] = NAN;
      out.pressure_max = fmax(out.pressure_max, pressure[e]);
    }
  }
  return out;
}

// a reference integrator on the penalty ODE of the same model
fd_run fd_run_ode(const foundation *fd, const char *method, double rtol, double atol,
                  const fd_settings *s, double *pressure) {
  return run_sim(fd, method, s, rtol, atol, pressure);
}

// one reference solution (an ODE integrator at a tight tolerance); the first job's result in
// out, the second's through xp_concurrently
typedef struct fd_ref_job {
  const foundation *fd;
  const char *method;
  double tol;
  const fd_settings *s;
  double *pressure;  // NULL: not computed
  fd_run *out;
} fd_ref_job;

static void fd_ref_first(void *arg) {
  fd_ref_job *j = arg;
  *j->out = fd_run_ode(j->fd, j->method, j->tol, j->tol, j->s, j->pressure);
}

static void fd_ref_second(void *arg, void *out) {
  const fd_ref_job *j = arg;
  *(fd_run *)out = fd_run_ode(j->fd, j->method, j->tol, j->tol, j->s, NULL);
}

void fd_references(const foundation *fd, double tol, const fd_settings *s, double *pressure,
                   fd_run *rk45, fd_run *bdf) {
  fd_ref_job a = {fd, "rk45", tol, s, pressure, rk45}, b = {fd, "cvode-bdf", tol, s, NULL, NULL};
  xp_concurrently(fd_ref_first, &a, fd_ref_second, &b, bdf, sizeof *bdf);
}

fd_run fd_run_method(const foundation *fd, const sim_method *m, const fd_settings *s,
                     double *pressure) {
  return run_sim(fd, m->name, s, s->rtol, s->atol, pressure);
}

// the study's case label of method m: Table 1's short names for its columns
const char *fd_label(const sim_method *m) {
  return sim_study_label(m, fd_sim_names, fd_method_names, FD_METHOD_COUNT);
}

// ‖a − b‖ over the 7 generalised coordinates (quaternion signs aligned)
double fd_q_distance(const double *a, const double *b) {
  double dot = 0;
  for (int i = 3; i < 7; i++) dot += a[i] * b[i];
  double sign = dot < 0 ? -1 : 1, sum = 0;
  for (int i = 0; i < 7; i++) {
    double d = a[i] - (i >= 3 ? sign : 1) * b[i];
    sum += d * d;
  }
  return sqrt(sum);
}

double fd_q_norm(const double *a) {
  double sum = 0;
  for (int i = 0; i < 7; i++) sum += a[i] * a[i];
  return sqrt(sum);
}

// One warm-up run (its result in *first), then `repeats` timed runs (single thread): min and
// median of wall and CPU time. A run of more than 2 s is timed once, its warm-up being
// negligible. Returns the median wall time.
double fd_run_timed(const foundation *fd, const sim_method *m, const fd_settings *s, int repeats,
                    double *pressure, fd_run *first, fd_timing *tm) {
  *first = fd_run_method(fd, m, s, pressure);
  double wall[32], cpu[32];
  int nt = 0;
  if (first->seconds > 2) wall[nt] = first->seconds, cpu[nt++] = first->cpu_seconds;
  for (int r = 0; r < repeats && r < 32 && first->ok && first->seconds <= 2; r++) {
    const fd_run again = fd_run_method(fd, m, s, NULL);
    wall[nt] = again.seconds, cpu[nt++] = again.cpu_seconds;
  }
  if (nt == 0) wall[nt] = first->seconds, cpu[nt++] = first->cpu_seconds;
  tm->runs = nt;
  tm->wall_median = xp_min_median(wall, (size_t)nt, &tm->wall_min);
  tm->cpu_median = xp_min_median(cpu, (size_t)nt, &tm->cpu_min);
  return tm->wall_median;
}

// the timing statistics of a case (wall_time is the median, as in Table 1)
void fd_timing_stats(xp_case *c, const fd_timing *tm) {
  xp_case_stat_real(c, "wall_time_min", tm->wall_min, "s");
  xp_case_stat_real(c, "cpu_time", tm->cpu_median, "s");
  xp_case_stat_real(c, "cpu_time_min", tm->cpu_min, "s");
}

// the study's `method=`: any method of the registry that applies to the foundation scenario

int fd_parse_methods(const char *text, fd_methods *use, xp_error *err) {
  return sim_study_methods(text, "foundation", SIM_FAMILY_ALL | SIM_FAMILY_PEER, "", use->m,
                           FD_MAX_METHODS, &use->n, err);
}

// The closed-form model of the case (ref/ref_winkler.h): the cube's mass and side, the total
// stiffness E s²/depth, the element damping, gravity, the load and its rate.
ref_winkler fd_winkler(const foundation *fd) {
  const foundation_params *p = &fd->p;
  return (ref_winkler){.mass = fd->mass,
                       .side = p->side,
                       .k_total = p->E * p->side * p->side / p->depth,
                       .B = p->B,
                       .g = p->g,
                       .load = p->load,
                       .omega_load = p->omega,
                       .n = p->n};
}
