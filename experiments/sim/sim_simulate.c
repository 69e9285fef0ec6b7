// SPDX-License-Identifier: MIT
// The one simulate loop (SPEC §7): any stepper on any model instance, with the standard
// observers — energy, constraint deviation and penetration, contact load, per-step solver
// statistics, wall and CPU time per step — written as the series and statistics of SPEC §6.
// Series are decimated to at most max_points samples (always keeping the first and last);
// statistics over steps (iterations, times, outcomes) see every step, the state measures
// (energy, deviation, penetration) every recorded sample. Everything is allocated before the
// first step.
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/sc_work.h"
#include "mbs/mbs.h"
#include "sim/sim.h"
#include "sim_frames.h"
#include "xp/xp_common.h"

// wall_step: the method's wall time of the recorded step; cpu_step: the mean CPU time per step
// over the interval since the previous sample (observers included)
// energy_method: the energy of the model the method integrates (written only by a method with
// energy_shift)
enum {
  S_T,
  S_ENERGY,
  S_DEVIATION,
  S_PENETRATION,
  S_LOAD,
  S_ITER,
  S_OUTCOME,
  S_WALL,
  S_CPU,
  S_ENERGY_METHOD,
  S_N
};
static const char *const series_names[S_N] = {
    "t",          "energy",  "deviation", "penetration", "load",
    "iterations", "outcome", "wall_step", "cpu_step",    "energy_method"};
static const char *const series_units[S_N] = {"s", "J", "m", "m", "N", "", "", "s", "s", "J"};

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// the loop's buffers, all allocated before the first step
typedef struct sim_buffers {
  double *series[S_N];
  double *q, *v;
  mdl_rows *rows;
  sim_frames *frames;  // per-body history (NULL: none)
} sim_buffers;

static void buffers_free(sim_buffers *b) {
  free(b->series[0]);
  free(b->q);
  mdl_rows_free(b->rows);
  sim_frames_free(b->frames);
}

static int buffers_alloc(sim_buffers *b, const mdl_model *m, size_t samples) {
  memset(b, 0, sizeof *b);
  double *block = malloc((size_t)S_N * samples * sizeof *block);
  b->q = malloc((size_t)(m->nq + m->nv) * sizeof *b->q);
  b->rows = mdl_rows_create(m->max_rows > 0 ? m->max_rows : 1, m->max_nnz > 0 ? m->max_nnz : 1);
  if (!block || !b->q || !b->rows) {
    free(block);
    buffers_free(b);
    return -1;
  }
  for (size_t i = 0; i < (size_t)S_N * samples; i++) block[i] = NAN;
  for (int s = 0; s < S_N; s++) b->series[s] = block + (size_t)s * samples;
  b->v = b->q + m->nq;
  return 0;
}

// energy (the instance's total energy, else the model's), largest bilateral |φ| and largest
// overlap −φ of the gap rows (mdl_rows_is_gap) at a state
static void measure_state(const sim_instance *inst, mdl_rows *rows, double t, const double *q,
                          const double *v, double *energy, double *deviation, double *pen) {
  const mdl_model *m = inst->model;
  *energy = NAN;
  if (inst->energy)
    *energy = inst->energy(inst->data, q, v);
  else if (m->energy && m->energy(t, q, v, energy, m->ctx))
    *energy = NAN;
  *deviation = 0, *pen = 0;
  if (m->rows(t, q, v, rows, m->ctx)) {
    *deviation = *pen = NAN;
    return;
  }
  for (int r = 0; r < rows->n; r++) {
    if (rows->kind[r] == MDL_ROW_BILATERAL) *deviation = fmax(*deviation, fabs(rows->phi[r]));
    if (mdl_rows_is_gap(rows, r)) *pen = fmax(*pen, -rows->phi[r]);
  }
}

// total force of the gap rows [N] (NaN when the method reports none)
static double contact_load(const sim_step_report *rep) {
  if (!rep->rows || !rep->force) return NAN;
  double load = 0;
  for (int r = 0; r < rep->rows->n; r++)
    if (mdl_rows_is_gap(rep->rows, r)) load += rep->force[r];
  return load;
}

typedef struct step_totals {
  double iter_sum, iter_max, wall_max, energy_rise_max, energy_method_rise_max;
  double coulomb_residual_max;  // NAN until a step reports one
} step_totals;

static void record_sample(sim_buffers *b, const sim_instance *inst, const sim_method *method,
                          void *state, size_t k, double t, const sim_step_report *rep, double wall,
                          double cpu) {
  double **s = b->series;
  s[S_T][k] = t;
  measure_state(inst, b->rows, t, b->q, b->v, &s[S_ENERGY][k], &s[S_DEVIATION][k],
                &s[S_PENETRATION][k]);
  double shift = NAN;
  if (method->energy_shift && isfinite(s[S_DEVIATION][k]) &&
      method->energy_shift(state, t, b->q, b->rows, &shift))
    shift = NAN;
  s[S_ENERGY_METHOD][k] = s[S_ENERGY][k] + shift;
  if (rep) {
    s[S_LOAD][k] = contact_load(rep);
    s[S_ITER][k] = rep->iterations, s[S_OUTCOME][k] = rep->outcome;
    s[S_WALL][k] = wall, s[S_CPU][k] = cpu;
  }
}

static void emit_case_stat(void *ctx, const char *key, double value, const char *unit) {
  xp_case_stat_real(ctx, key, value, unit);
}

static void write_case(xp_case *c, const sim_buffers *b, size_t samples, const sim_outcome *out,
                       const step_totals *tot, int own_energy) {
  for (int s = 0; s < S_N; s++)
    if (s != S_ENERGY_METHOD || own_energy)
      xp_case_series(c, series_names[s], series_units[s], b->series[s], samples);
  double dev = 0, pen = 0;
  for (size_t k = 0; k < samples; k++) {
    if (isfinite(b->series[S_DEVIATION][k])) dev = fmax(dev, b->series[S_DEVIATION][k]);
    if (isfinite(b->series[S_PENETRATION][k])) pen = fmax(pen, b->series[S_PENETRATION][k]);
  }
  const double steps = (double)out->steps_taken;
  xp_case_stat_real(c, "steps", steps, "");
  xp_case_stat_real(c, "steps_degraded", (double)out->steps_degraded, "");
  xp_case_stat_real(c, "steps_retried", (double)out->steps_retried, "");
  xp_case_stat_real(c, "iterations_mean", steps > 0 ? tot->iter_sum / steps : NAN, "");
  xp_case_stat_real(c, "iterations_max", tot->iter_max, "");
  xp_case_stat_real(c, "deviation_max", dev, "m");
  xp_case_stat_real(c, "penetration_max", pen, "m");
  xp_case_stat_real(c, "energy_final", b->series[S_ENERGY][samples - 1], "J");
  xp_case_stat_real(c, "energy_rise_max", tot->energy_rise_max, "J");
  // exact Coulomb friction: the largest residual of its conditions over the steps (SPEC §1.6)
  if (isfinite(tot->coulomb_residual_max))
    xp_case_stat_real(c, "coulomb_residual_max", tot->coulomb_residual_max, "");
  if (own_energy) {
    xp_case_stat_real(c, "energy_method_final", b->series[S_ENERGY_METHOD][samples - 1], "J");
    xp_case_stat_real(c, "energy_method_rise_max", tot->energy_method_rise_max, "J");
  }
  xp_case_stat_real(c, "wall_time", out->wall_time, "s");
  xp_case_stat_real(c, "cpu_time", out->cpu_time, "s");
  xp_case_stat_real(c, "us_per_step", steps > 0 ? 1e6 * out->wall_time / steps : NAN, "us");
  xp_case_stat_real(c, "wall_step_max", tot->wall_max, "s");
}

// the steps; returns when T is reached or a step fails
static void run_steps(const sim_method *method, void *state, const sim_instance *inst, double h,
                      size_t n, size_t stride, sim_buffers *b, sim_probe *probe, sim_outcome *out,
                      step_totals *tot) {
  const mdl_model *m = inst->model;
  sim_step_report rep;
  double e_prev = b->series[S_ENERGY][0], em_prev = b->series[S_ENERGY_METHOD][0];
  size_t k = 1, mark_step = 0;
  // CPU time is read once per recorded sample (the process clock is a system call, ~10× the
  // monotonic clock's cost): its series is the mean per step over the interval, observers
  // included; the wall time of every step is the method's alone
  const double cpu0 = cpu_now();
  double cpu_mark = cpu0;
  for (size_t i = 0; i < n; i++) {
    const double t = (double)i * h, t_next = (double)(i + 1) * h;
    memset(&rep, 0, sizeof rep);
    rep.residual = rep.cone_residual = rep.coulomb_residual = NAN;
    // the step's count from 0 (a difference of the running total would round with its size)
    const double f0 = sc_work_flops, n0 = sc_work_factorizations, w0 = xp_now();
    sc_work_flops = 0, sc_work_factorizations = 0;
    const int oc = method->step(state, t, t_next, b->q, b->v, &rep);
    const double wall = xp_now() - w0;
    rep.flops = sc_work_flops, rep.factorizations = sc_work_factorizations;
    out->wall_time += wall, out->flops += sc_work_flops;
    out->factorizations += sc_work_factorizations;
    sc_work_flops += f0, sc_work_factorizations += n0;
    if (oc < 0) {
      out->failed = 1;
      out->status =
          rep.status && strcmp(rep.status, "did-not-finish") == 0 ? "did-not-finish" : "failed";
      snprintf(out->message, sizeof out->message, "%s: %s at t = %g s%s%s", method->name,
               rep.status ? rep.status : "failed", t, rep.message[0] ? ": " : "", rep.message);
      out->cpu_time = cpu_now() - cpu0;
      return;
    }
    out->steps_taken++;
    out->steps_degraded += oc > 0;
    out->steps_retried += rep.retried != 0;
    tot->iter_sum += rep.iterations;
    tot->iter_max = fmax(tot->iter_max, rep.iterations);
    tot->wall_max = fmax(tot->wall_max, wall);
    tot->coulomb_residual_max = fmax(tot->coulomb_residual_max, rep.coulomb_residual);  // NAN-aware
    if (probe && probe->sample) probe->sample(probe->ctx, i + 1, t_next, b->q, b->v, &rep);
    const char *stop = probe && probe->stop && i + 1 < n ? probe->stop(probe->ctx) : NULL;
    if (stop) {
      out->stopped = 1, out->status = stop;
      snprintf(out->message, sizeof out->message, "%s: %s at t = %g s", method->name, stop, t_next);
    }
    sim_frames_record(b->frames, i + 1, t_next, b->q, b->v, &rep, stop != NULL);
    if ((i + 1) % stride == 0 || i + 1 == n || stop) {
      const double cpu = cpu_now();
      record_sample(b, inst, method, state, k, t_next, &rep, wall,
                    (cpu - cpu_mark) / (double)(i + 1 - mark_step));
      cpu_mark = cpu, mark_step = i + 1;
      const double e = b->series[S_ENERGY][k];
      if (isfinite(e) && isfinite(e_prev))
        tot->energy_rise_max = fmax(tot->energy_rise_max, e - e_prev);
      const double em = b->series[S_ENERGY_METHOD][k];
      if (isfinite(em) && isfinite(em_prev))
        tot->energy_method_rise_max = fmax(tot->energy_method_rise_max, em - em_prev);
      e_prev = e, em_prev = em, k++;
    }
    if (stop) break;
  }
  out->cpu_time = cpu_now() - cpu0;
  (void)m;
}

int sim_simulate(const sim_method *method, const sim_method_options *opt, const sim_instance *inst,
                 double T, size_t max_points, sim_probe *probe, xp_case *c, sim_outcome *out,
                 xp_error *err) {
  memset(out, 0, sizeof *out);
  if (sim_method_options_check(opt, err)) return XP_ERR_RUN;
  const double h = opt->h;
  if (!(h > 0) || !(T > 0) || !isfinite(T / h))
    return xp_fail(err, XP_ERR_USAGE, "h = %g and T = %g must be > 0 with a finite T/h", h, T);
  size_t n = 0;
  if (xp_step_count(T, h, &n, err)) return XP_ERR_USAGE;
  if (max_points < 2) max_points = 2;
  const size_t stride = n + 1 <= max_points ? 1 : (n + max_points - 2) / (max_points - 1);
  const size_t samples = 1 + (n + stride - 1) / stride;
  const mdl_model *m = inst->model;
  sim_buffers b;
  if (buffers_alloc(&b, m, samples)) return xp_fail(err, XP_ERR_RUN, "out of memory");
  int oom = 0;
  if (c) b.frames = sim_frames_create(inst, n, opt->frames, &oom);
  if (oom) {
    buffers_free(&b);
    return xp_fail(err, XP_ERR_RUN, "out of memory");
  }
  memcpy(b.q, inst->q0, (size_t)m->nq * sizeof *b.q);
  memcpy(b.v, inst->v0, (size_t)m->nv * sizeof *b.v);
  // every create names its failure with a code (bad settings: input; memory: a run failure)
  xp_error local = {.code = 0}, *e = err ? err : &local;
  void *state = method->create(method, m, opt, 0.0, b.q, b.v, (double)n * h, e);
  if (!state) {
    buffers_free(&b);
    return e->code ? e->code : xp_fail(e, XP_ERR_RUN, "%s: could not start", method->name);
  }
  record_sample(&b, inst, method, state, 0, 0.0, NULL, NAN, NAN);
  if (probe && probe->sample) probe->sample(probe->ctx, 0, 0.0, b.q, b.v, NULL);
  sim_frames_record(b.frames, 0, 0.0, b.q, b.v, NULL, 0);
  step_totals tot = {.coulomb_residual_max = NAN};
  run_steps(method, state, inst, h, n, stride, &b, probe, out, &tot);
  if (!out->failed && !out->stopped) out->status = out->steps_degraded ? "degraded" : "ok";
  if (probe && probe->method_stat && method->stats)
    method->stats(state, probe->method_stat, probe->ctx);
  if (c) {
    xp_case_param_string(c, "method", method->name);
    xp_case_param_real(c, "h", h, "s");
    xp_case_param_real(c, "T", T, "s");
    write_case(c, &b, samples, out, &tot, method->energy_shift != NULL);
    sim_frames_write(b.frames, c);
    if (method->stats) method->stats(state, emit_case_stat, c);
    if (probe && probe->finish) probe->finish(probe->ctx, emit_case_stat, c);
    xp_case_status(c, out->status, out->failed || out->stopped ? out->message : NULL);
  }
  method->free(state);
  buffers_free(&b);
  return XP_OK;
}
