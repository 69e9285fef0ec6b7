// SPDX-License-Identifier: MIT
// Why the first-order step's error levels off at light damping on the cube on its elastic
// foundation (foundation_ringing): the error against the closed-form ringing of the heave and
// rocking modes (ref/ref_winkler.h) over a sweep of h.
#include "xp_foundation.h"

#include "xp/xp_common.h"
#include "xp/xp_file.h"
#include "xp/xp_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The ringing left at T, R = (z − s/2, q_x, q_y) − steady response. Whether any is left is the
// closed form's e^{−ζωT}: where its ringing is within 10× the reference floor, R is the closed
// form's (≈ 0; the reference's q − steady would only be its own error, which the model would
// amplify by e^{−αT} where α < 0); else R is measured on the reference state q, whose phase at T
// the lift-offs of the first heave periods have set (the closed form has no lift-off). Returns 1
// if R is measured.
static int fr_ringing(const ref_winkler *w, const double *q, double T, double floor_abs,
                      double R[3]) {
  double st[3], ex[3];
  ref_winkler_steady(w, T, st);
  ref_winkler_exact(w, T, ex);
  const int measured = ref_winkler_ringing(w, T) > 10 * floor_abs;
  const double at[3] = {q[2] - w->side / 2, q[4], q[5]};
  for (int i = 0; i < 3; i++) R[i] = (measured ? at[i] : ex[i]) - st[i];
  return measured;
}

static void fr_case_params(xp_case *c, const foundation *fd, const char *method) {
  xp_case_param_string(c, "method", method);
  xp_case_param_real(c, "elements", fd->p.n * fd->p.n, "");
  xp_case_param_real(c, "E", fd->p.E, "N/m^2");
  xp_case_param_real(c, "F", fd->p.load, "N");
}

// Implicit Euler damps a mode of rate ω at ≈ ω²h/2 = (k h)/(2m): to leading order in ωh the step
// is the exact model with every element's damping B raised to B + hK. Beyond ωh ≈ 0.1 that
// stops holding (and the step has removed the ringing anyway): no comparison there.
#define FR_EQUIV_OMEGA_H 0.1

// one step h of a case: the constraint solver against the reference, the error model, and the
// reference again with the damping B + hK
static int fr_step_case(const foundation *fd, const fd_settings *s, const fd_run *ref,
                        double floor_abs, double ref_tol, double h, xp_results *out,
                        xp_error *err) {
  const ref_winkler w = fd_winkler(fd);
  const ref_winkler_mode hv = ref_winkler_heave(&w), rk = ref_winkler_rocking(&w);
  fd_settings run_set = *s;
  run_set.h = h;
  const fd_run run =
      fd_run_method(fd, sim_method_find(fd_sim_names[FD_CONSTRAINT]), &run_set, NULL);
  const double e = run.ok && ref->ok ? fd_q_distance(run.q, ref->q) : NAN;
  // the model needs the steady response, which is the closed form only while no element lifts
  double R[3], model = NAN, equiv = NAN, gap = NAN;
  fr_ringing(&w, ref->q, s->T, floor_abs, R);
  if (ref_winkler_contact_margin(&w) > 0) model = ref_winkler_error_model(&w, h, s->T, R, NULL);
  if (fmax(hv.omega, rk.omega) * h <= FR_EQUIV_OMEGA_H) {
    foundation_params p = fd->p;
    p.B += h * fd->k_element;
    foundation damped;
    foundation_init(&damped, &p);
    const fd_run alt = fd_run_ode(&damped, "rk45", ref_tol, ref_tol, &run_set, NULL);
    if (alt.ok && ref->ok)
      equiv = fd_q_distance(alt.q, ref->q), gap = run.ok ? fd_q_distance(run.q, alt.q) : NAN;
  }
  char name[200], num[32];
  xp_format_compact(num, sizeof num, h);
  xp_case_name(name, sizeof name, 2, (const char *[]){"E", "F"}, (double[]){fd->p.E, fd->p.load});
  snprintf(name + strlen(name), sizeof name - strlen(name), "_h=%s", num);
  xp_case *c = xp_case_begin(out, name);
  fr_case_params(c, fd, "constraint");
  xp_case_param_real(c, "h", h, "s");
  xp_case_stat_real(c, "error_abs", e, "");
  xp_case_stat_real(c, "error_model", model, "");
  xp_case_stat_real(c, "error_equiv", equiv, "");
  xp_case_stat_real(c, "equiv_gap", gap, "");
  xp_case_stat_real(c, "damping_heave_T", ref_winkler_numerical_damping(&hv, h) * s->T, "");
  xp_case_stat_real(c, "damping_rock_T", ref_winkler_numerical_damping(&rk, h) * s->T, "");
  xp_case_stat_real(c, "omega_h", hv.omega * h, "");
  xp_case_stat_real(c, "floor_abs", floor_abs, "");
  xp_case_stat_real(c, "at_floor", e <= 10 * floor_abs, "");
  xp_case_stat_real(c, "steps", (double)run.steps, "");
  xp_case_status(c, run.status, run.message);
  return xp_case_end(c) ? xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out)) : XP_OK;
}

// the reference of a case, its floor and the closed form's view of it (modes, ringing, contact)
static int fr_reference_case(const foundation *fd, const fd_settings *s, double ref_tol,
                             fd_run *ref, double *floor_abs, xp_results *out, xp_error *err) {
  fd_run ref_b;
  fd_references(fd, ref_tol, s, NULL, ref, &ref_b);
  *floor_abs = fd_q_distance(ref->q, ref_b.q);
  const ref_winkler w = fd_winkler(fd);
  const ref_winkler_mode hv = ref_winkler_heave(&w), rk = ref_winkler_rocking(&w);
  double R[3];
  const int measured = fr_ringing(&w, ref->q, s->T, *floor_abs, R);
  char name[200];
  xp_case_name(name, sizeof name, 2, (const char *[]){"E", "F"}, (double[]){fd->p.E, fd->p.load});
  snprintf(name + strlen(name), sizeof name - strlen(name), "_reference");
  xp_case *c = xp_case_begin(out, name);
  fr_case_params(c, fd, "reference");
  xp_case_param_real(c, "ref_tol", ref_tol, "");
  xp_case_param_real(c, "T", s->T, "s");
  xp_case_stat_real(c, "floor_abs", *floor_abs, "");
  xp_case_stat_real(c, "ringing_abs", sqrt(R[0] * R[0] + R[1] * R[1] + R[2] * R[2]), "");
  xp_case_stat_real(c, "ringing_measured", measured, "");
  xp_case_stat_real(c, "ringing_closed_form", ref_winkler_ringing(&w, s->T), "");
  xp_case_stat_real(c, "contact_margin", ref_winkler_contact_margin(&w), "m");
  xp_case_stat_real(c, "omega_heave", hv.omega, "rad/s");
  xp_case_stat_real(c, "omega_rock", rk.omega, "rad/s");
  xp_case_stat_real(c, "decay_heave", hv.decay, "1/s");
  xp_case_stat_real(c, "decay_rock", rk.decay, "1/s");
  xp_case_stat_real(c, "k_element", fd->k_element, "N/m");
  xp_case_series(c, "q", "m, 1", ref->q, FD_NQ);
  xp_case_status(c, ref->ok && ref_b.ok ? "ok" : "failed", ref->ok ? ref_b.message : ref->message);
  return xp_case_end(c) ? xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out)) : XP_OK;
}

static int fr_run(const xp_params *prm, xp_results *out, xp_progress *progress, xp_error *err) {
  const double *Es, *Fs, *hs;
  const size_t nE = xp_params_list(prm, "E", &Es), nF = xp_params_list(prm, "F", &Fs),
               nh = xp_params_list(prm, "h", &hs);
  const fd_settings s = {.T = xp_params_real(prm, "T"),
                         .budget = xp_params_real(prm, "budget"),
                         .base = fd_options(prm)};
  const double ref_tol = xp_params_real(prm, "ref_tol");
  size_t done = 0, total = nE * nF * (nh + 1);
  for (size_t iE = 0; iE < nE; iE++)
    for (size_t iF = 0; iF < nF; iF++) {
      foundation_params p = foundation_params_default();
      p.n = (int)xp_params_int(prm, "n"), p.E = Es[iE], p.load = Fs[iF];
      foundation_params_read(prm, &p);
      if (foundation_params_check(&p, err)) return XP_ERR_USAGE;
      foundation fd;
      foundation_init(&fd, &p);
      fd_run ref;
      double floor_abs;
      int rc = fr_reference_case(&fd, &s, ref_tol, &ref, &floor_abs, out, err);
      xp_progress_update(progress, (double)++done / (double)total);
      for (size_t k = 0; rc == XP_OK && k < nh; k++) {
        rc = fr_step_case(&fd, &s, &ref, floor_abs, ref_tol, hs[k], out, err);
        xp_progress_update(progress, (double)++done / (double)total);
      }
      if (rc != XP_OK) return rc;
    }
  return XP_OK;
}

// the statistic key of case c, NAN where absent
static double fr_stat(const xp_file *f, const char *c, const char *key) {
  double v = NAN;
  xp_file_case_stat(f, c, key, &v);
  return v;
}

// the table of one case's step sweep (cases named <base>_h=…) and its extremes: the worst
// |model/measured − 1| where the error is resolved, the worst ‖q_h − q_{B+hK}‖ / error, and the
// errors at the two smallest steps
typedef struct fr_summary {
  double model_dev[2], equiv_dev, h_min, e_min, h_next, e_next, equiv_min;
  int n_model[2], n_equiv;  // [0]: α_rock T ≥ 1 (ringing damped out), [1]: a share kept
} fr_summary;

static void fr_table_row(const xp_file *f, xp_table *t, const char *c, fr_summary *sm) {
  double h = NAN;
  xp_file_case_param(f, c, "h", &h);
  const double e = fr_stat(f, c, "error_abs"), m = fr_stat(f, c, "error_model"),
               q = fr_stat(f, c, "error_equiv"), gap = fr_stat(f, c, "equiv_gap"),
               fl = fr_stat(f, c, "floor_abs");
  xp_table_cell(t, "%g", h), xp_table_cell(t, "%.3g", fr_stat(f, c, "omega_h"));
  xp_table_cell(t, "%.3g", fr_stat(f, c, "damping_heave_T"));
  xp_table_cell(t, "%.3g", fr_stat(f, c, "damping_rock_T")), xp_table_cell(t, "%.3g", e);
  const double v[3] = {m, q, gap};
  for (int k = 0; k < 3; k++)
    if (isfinite(v[k]))
      xp_table_cell(t, "%.3g", v[k]);
    else
      xp_table_cell(t, "—%s", k ? " (ωh > 0.1)" : " (lift-off)");
  const int kept = fr_stat(f, c, "damping_rock_T") < 1;
  if (isfinite(m) && e > 10 * fl)
    sm->model_dev[kept] = fmax(sm->model_dev[kept], fabs(m / e - 1)), sm->n_model[kept]++;
  if (isfinite(gap)) sm->equiv_dev = fmax(sm->equiv_dev, gap / e), sm->n_equiv++;
  if (!(h >= sm->h_min)) {
    sm->h_next = sm->h_min, sm->e_next = sm->e_min;
    sm->h_min = h, sm->e_min = e, sm->equiv_min = q;
  } else if (!(h >= sm->h_next)) {
    sm->h_next = h, sm->e_next = e;
  }
}

// the sentences a case's numbers support (every number from the file)
static void fr_case_text(FILE *md, const fr_summary *sm, double margin) {
  static const char *const regime[2] = {
      "the step has damped the rocking out (α_rock T ≥ 1)",
      "the step keeps a share of it (α_rock T < 1; the model treats "
      "the ringing as linear from t = 0, lift-offs aside)"};
  for (int k = 0; k < 2; k++)
    if (sm->n_model[k])
      fprintf(md,
              "%sThe error model matches the measured error within %.2g %% where %s: %d step(s).",
              k && sm->n_model[0] ? " " : "", 100 * sm->model_dev[k], regime[k], sm->n_model[k]);
  if (!sm->n_model[0] && !sm->n_model[1])
    fprintf(md,
            "Elements lift off under the steady load (contact margin %.3g m < 0): the linear "
            "model's steady response does not apply and no model value is given.",
            margin);
  if (sm->n_equiv)
    fprintf(md,
            " At the %d step(s) with ωh ≤ %g the step is the exact model with element damping "
            "B + hK: ‖q_h − q_{B+hK}‖ is at most %.2g of the error.",
            sm->n_equiv, FR_EQUIV_OMEGA_H, sm->equiv_dev);
  if (sm->e_min > sm->e_next)
    fprintf(md,
            " The error rises from %.3g (h = %g) to %.3g (h = %g): the exact model itself moves "
            "by %.3g at T when B becomes B + hK, so the rise is the cube's sensitivity to the "
            "step's numerical damping, not a defect of the step, the reference or the error "
            "measure.",
            sm->e_next, sm->h_next, sm->e_min, sm->h_min, sm->equiv_min);
  fprintf(md, "\n\n");
}

static int fr_report(const char *path, FILE *md, xp_error *err) {
  xp_file *f = xp_file_open(path, err);
  if (!f) return XP_ERR_RUN;
  fprintf(md,
          "Not a paper figure: why the constraint solver's error at T levels off at light "
          "damping. The cube rings on the foundation (heave and rocking modes) because it starts "
          "at rest, undeformed; implicit Euler damps a mode of rate ω at α(h) = ln(1 + 2ζωh + "
          "ω²h²)/(2h) − ζω ≈ ω²h/2 (as if each element's damping were B + hK), so at T the step "
          "has removed the share 1 − e^{−αT} of the ringing R(T) = q_ref(T) − q_steady(T) that "
          "the reference still carries. Error model (reference/ref/ref_winkler.c): "
          "‖lag(h) − R(T)·(1 − e^{−α(h)T})‖ per mode, lag being the load's first-order lag; it "
          "is flat in h (= ‖R(T)‖) while αT ≫ 1 and first order once αT ≪ 1.\n\n");
  for (size_t i = 0; i < xp_file_case_count(f); i++) {
    const char *rc = xp_file_case_name(f, i);
    if (!strstr(rc, "_reference")) continue;
    const size_t nb = (size_t)(strstr(rc, "_reference") - rc);
    double E = NAN, F = NAN;
    xp_file_case_param(f, rc, "E", &E), xp_file_case_param(f, rc, "F", &F);
    const double margin = fr_stat(f, rc, "contact_margin");
    char ring[96] = "not defined (elements lift off)";
    if (margin > 0)
      snprintf(ring, sizeof ring, "%.3g (%s)", fr_stat(f, rc, "ringing_abs"),
               fr_stat(f, rc, "ringing_measured") > 0 ? "reference − steady response"
                                                      : "closed form, below the floor");
    fprintf(md,
            "**E = %g Pa, F = %g N** — heave ω = %.4g rad/s, ζω = %.3g 1/s; rocking ω = %.4g "
            "rad/s, ζω = %.3g 1/s; K = %.3g N/m per element; ringing left at T ‖R(T)‖: %s; "
            "reference floor %.3g; contact margin %.3g m.\n\n",
            E, F, fr_stat(f, rc, "omega_heave"), fr_stat(f, rc, "decay_heave"),
            fr_stat(f, rc, "omega_rock"), fr_stat(f, rc, "decay_rock"), fr_stat(f, rc, "k_element"),
            ring, fr_stat(f, rc, "floor_abs"), margin);
    static const char *const head[] = {
        "h [s]", "ω_heave h", "α_heave T",          "α_rock T",
        "error", "model",     "‖q_{B+hK} − q_ref‖", "‖q_h − q_{B+hK}‖"};
    xp_table t;
    xp_table_init(&t, 8, head, NULL);
    fr_summary sm = {.h_min = INFINITY, .h_next = INFINITY, .e_min = NAN, .e_next = NAN};
    for (size_t j = 0; j < xp_file_case_count(f); j++) {
      const char *c = xp_file_case_name(f, j);
      if (strncmp(c, rc, nb) == 0 && strncmp(c + nb, "_h=", 3) == 0) fr_table_row(f, &t, c, &sm);
    }
    xp_table_write(&t, md);
    xp_table_free(&t);
    fprintf(md, "\n");
    fr_case_text(md, &sm, margin);
  }
  xp_file_close(f);
  return XP_OK;
}

static const xp_param_def fr_params[] = {
    {"n", XP_INT, "10", XP_POSITIVE, "", NULL, "elements per side"},
    {"E", XP_REAL_LIST, "1e7", XP_POSITIVE, "N/m^2", NULL, "Young's modulus of the foundation"},
    {"F", XP_REAL_LIST, "5,50", XP_NONNEGATIVE, "N", NULL,
     "load (5 N: all elements in contact; 50 N: the far side lifts off)"},
    FOUNDATION_PARAM_DEFS  // B, g: the scenario's declarations
    {"T", XP_REAL, "1", XP_POSITIVE, "s", NULL, "simulated time"},
    {"h", XP_REAL_LIST, "1e-2,1e-3,1e-4,1e-5,1e-6", XP_POSITIVE, "s", NULL,
     "constraint-solver steps"},
    {"ref_tol", XP_REAL, "1e-11", XP_POSITIVE, "", NULL,
     "tolerance of the reference (RK45), of its floor check (CVODE BDF) and of the B + hK runs"},
    {"budget", XP_REAL, "0", XP_NONNEGATIVE, "s", NULL, "wall-time budget per run (0: none)"},
};

// --full: E = 1e6 too (another 2·10⁶ steps)
static const char *const fr_full[] = {"E=1e6,1e7", NULL};

const xp_experiment xp_experiment_foundation_ringing = {
    .name = "foundation_ringing",
    .paper_ref = "Paper A §5.5 (error floor of the first-order step; not a paper figure)",
    .summary = "error vs h at light damping beside the closed form of implicit Euler's damping",
    .params = fr_params,
    .n_params = sizeof fr_params / sizeof fr_params[0],
    .run = fr_run,
    .plot_script = "foundation_ringing.gp",
    .report = fr_report,
    .full_size = fr_full,
    .in_reproduce = 1,
    .error_stat = "error_abs",
};
