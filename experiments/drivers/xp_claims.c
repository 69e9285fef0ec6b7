// SPDX-License-Identifier: MIT
// A verdict on every claim of paper A (and the harness's own measurements) in REPORT.md:
// reproduced, measured different (with the measured cause), or not reproduced (with the mechanism).
// The run makes the measurements no other study makes; the report reads them and the results files
// of the other studies in the same directory (foundation, incline, rom_pendulum, scaling,
// stiffness; a missing file leaves its verdicts "not run").
//
// Measurements (cases), all through the simulate loop except the one assembled conic problem:
//   fig6_h=<h>          rom_pendulum (k = 1e12, b = 0), paperA-relaxed at h near 1e-5: energy
//                       kept E(T)/E(0) as the step grid moves relative to the impact
//   table2_F=…_g=…_h=…  foundation, 100 elements, E = 1e7: paper A's step against RK45 at a tight
//                       tolerance and against RK45 at MATLAB's default tolerances (the paper's
//                       "ground truth" was ode45 at its defaults), with and without gravity
//   steady_F=…_T=…      CVODE BDF1 at MATLAB's default tolerances to T = 1 and 3 s
//   <method>_atol=<a>   CVODE BDF (variable order) on foundation E = 1e11, 5 N, to T = 0.2 s at
//                       rtol = 1e-3: atol 1e-6 (MATLAB's) against 1e-12, and BDF1 at 1e-6
//   hessian_N=<N>       resting stack: nonzeros of the Hessian P of the step's assembled conic
//                       problem (qcp, lifted form) against paper A §6.5's ceiling 18 m
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mbs/mbs.h"
#include "qcp/qcp_io.h"
#include "scenarios/stack.h"
#include "sim/sim.h"
#include "xp/xp.h"
#include "xp/xp_common.h"
#include "xp/xp_file.h"

// ---- helpers ----------------------------------------------------------------------------------

// keeps the final state and the initial and final energy
typedef struct cl_final {
  const mbs_model *m;
  double *q;
  double e0, e, zmax;
} cl_final;

static void final_sample(void *ctx, size_t k, double t, const double *q, const double *v,
                         const sim_step_report *rep) {
  (void)rep;
  cl_final *f = ctx;
  memcpy(f->q, q, (size_t)f->m->nq * sizeof *q);
  double e = NAN;
  if (f->m->energy && f->m->energy(t, q, v, &e, f->m->ctx)) e = NAN;
  if (k == 0) f->e0 = e, f->zmax = -INFINITY;
  f->e = e;
  if (f->m->nq > 2) f->zmax = fmax(f->zmax, q[2]);
}

typedef struct cl_run {
  int ok;
  double wall, e0, e, zmax;
  double q[16];
} cl_run;

// one run of `method` on the scenario; q(T), energies and wall time into r; c may be NULL
static int cl_simulate(const char *scenario, const char *const *settings, const char *method,
                       const sim_method_options *opt, double T, xp_case *c, cl_run *r,
                       xp_error *err) {
  const sim_scenario *sc;
  sim_instance inst = {0};
  size_t ns = 0;
  while (settings[ns]) ns++;
  int rc = sim_instance_make(scenario, settings, ns, opt->h, &sc, &inst, err);
  if (rc != XP_OK) return rc;
  if (inst.model->nq > 16) {
    sc->free(&inst);
    return xp_fail(err, XP_ERR_RUN, "claims: %s has more than 16 coordinates", scenario);
  }
  cl_final fin = {.m = inst.model, .q = r->q};
  sim_probe probe = {.ctx = &fin, .sample = final_sample};
  sim_outcome oc;
  rc = sim_simulate(sim_method_find(method), opt, &inst, T, 2, &probe, c, &oc, err);
  r->ok = rc == XP_OK && !oc.failed, r->wall = oc.wall_time;
  r->e0 = fin.e0, r->e = fin.e, r->zmax = fin.zmax;
  sc->free(&inst);
  return rc;
}

static double q_distance(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
  return sqrt(s);
}

static int end_case(xp_results *out, xp_case *c, xp_error *err) {
  if (!c || xp_case_end(c)) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  return XP_OK;
}

// ---- measurements -----------------------------------------------------------------------------

// Fig 6: energy kept as the step grid moves against the impact (h within ±10 % of 1e-5)
static int measure_fig6(const xp_params *prm, xp_results *out, xp_error *err) {
  const double *hs;
  const size_t nh = xp_params_list(prm, "fig6_h", &hs);
  static const char *const set[] = {"k=1e12", "b=0", NULL};
  for (size_t i = 0; i < nh; i++) {
    const sim_method_options o = {.h = hs[i], .start = "cold", .fp_max_iter = 50};
    cl_run r;
    int rc = cl_simulate("rom_pendulum", set, "paperA-relaxed", &o, 1.0, NULL, &r, err);
    if (rc != XP_OK) return rc;
    char name[64], txt[32];
    xp_format_compact(txt, sizeof txt, hs[i]);
    snprintf(name, sizeof name, "fig6_h=%s", txt);
    xp_case *c = xp_case_begin(out, name);
    if (c) {
      xp_case_param_real(c, "h", hs[i], "s");
      xp_case_stat_real(c, "energy_ratio_T", r.ok ? r.e / r.e0 : NAN, "");
      xp_case_status(c, r.ok ? "ok" : "failed", NULL);
    }
    if ((rc = end_case(out, c, err))) return rc;
  }
  return XP_OK;
}

// Table 2: paper A's step against a tight reference and against ode45-at-defaults
static int measure_table2(xp_results *out, xp_error *err) {
  static const double Fs[] = {5, 50}, gs[] = {9.81, 0}, hs[] = {0.01, 1e-3};
  for (size_t iF = 0; iF < 2; iF++)
    for (size_t ig = 0; ig < 2; ig++) {
      char fset[32], gset[32];
      snprintf(fset, sizeof fset, "F=%g", Fs[iF]);
      snprintf(gset, sizeof gset, "g=%g", gs[ig]);
      const char *const set[] = {"n=10", "E=1e7", fset, gset, NULL};
      sim_method_options o = {.h = 0.01, .rtol = 1e-10, .atol = 1e-10, .no_bias = 1};
      cl_run tight, loose;
      int rc = cl_simulate("foundation", set, "rk45", &o, 1.0, NULL, &tight, err);
      o.rtol = 1e-3, o.atol = 1e-6;
      if (rc == XP_OK) rc = cl_simulate("foundation", set, "rk45", &o, 1.0, NULL, &loose, err);
      if (rc != XP_OK) return rc;
      for (size_t ih = 0; ih < 2; ih++) {
        const sim_method_options oa = {
            .h = hs[ih], .start = "cold", .fp_max_iter = 50, .no_bias = 1};
        cl_run a;
        rc = cl_simulate("foundation", set, "paperA-relaxed", &oa, 1.0, NULL, &a, err);
        if (rc != XP_OK) return rc;
        char name[96];
        xp_case_name(name, sizeof name, 3, (const char *[]){"F", "g", "h"},
                     (double[]){Fs[iF], gs[ig], hs[ih]});
        char full[120];
        snprintf(full, sizeof full, "table2_%s", name);
        xp_case *c = xp_case_begin(out, full);
        if (c) {
          xp_case_param_real(c, "F", Fs[iF], "N");
          xp_case_param_real(c, "g", gs[ig], "m/s^2");
          xp_case_param_real(c, "h", hs[ih], "s");
          xp_case_stat_real(c, "error_vs_tight", a.ok ? q_distance(a.q, tight.q, 7) : NAN, "");
          xp_case_stat_real(c, "error_vs_ode45_default", a.ok ? q_distance(a.q, loose.q, 7) : NAN,
                            "");
          xp_case_stat_real(c, "ode45_default_error", q_distance(loose.q, tight.q, 7), "");
          xp_case_status(c, a.ok && tight.ok && loose.ok ? "ok" : "failed", NULL);
        }
        if ((rc = end_case(out, c, err))) return rc;
      }
    }
  return XP_OK;
}

// Table 1: does BDF1's cost stay flat past T = 1 s on the steady 5 N case (paper: yes)?
static int measure_steady(xp_results *out, xp_error *err) {
  static const double Fs[] = {5, 50}, Ts[] = {1, 3};
  for (size_t iF = 0; iF < 2; iF++)
    for (size_t iT = 0; iT < 2; iT++) {
      char fset[32];
      snprintf(fset, sizeof fset, "F=%g", Fs[iF]);
      const char *const set[] = {"n=10", "E=1e7", fset, NULL};
      const sim_method_options o = {
          .h = 0.01, .rtol = 1e-3, .atol = 1e-6, .wall_budget = 30, .no_bias = 1};
      cl_run r;
      int rc = cl_simulate("foundation", set, "cvode-bdf1", &o, Ts[iT], NULL, &r, err);
      if (rc != XP_OK) return rc;
      char name[64];
      xp_case_name(name, sizeof name, 2, (const char *[]){"F", "T"}, (double[]){Fs[iF], Ts[iT]});
      char full[80];
      snprintf(full, sizeof full, "steady_%s", name);
      xp_case *c = xp_case_begin(out, full);
      if (c) {
        xp_case_param_real(c, "F", Fs[iF], "N");
        xp_case_param_real(c, "T", Ts[iT], "s");
        xp_case_stat_real(c, "wall_time", r.wall, "s");
        xp_case_status(c, r.ok ? "ok" : "failed", NULL);
      }
      if ((rc = end_case(out, c, err))) return rc;
    }
  return XP_OK;
}

// the variable-order BDF on the stiff, lightly damped foundation: MATLAB's atol against a tight
// one, and BDF1 at MATLAB's atol (loop statistics: order, overlap, energy rise; the height gained
// is the measure of a launch — the static deflection is 8.3e-10 m)
static int measure_bdf_atol(xp_results *out, xp_error *err) {
  static const double atols[] = {1e-6, 1e-12, 1e-6};
  static const char *const methods[] = {"cvode-bdf", "cvode-bdf", "cvode-bdf1"};
  static const char *const set[] = {"n=10", "E=1e11", "F=5", NULL};
  for (size_t i = 0; i < 3; i++) {
    const sim_method_options o = {
        .h = 0.01, .rtol = 1e-3, .atol = atols[i], .wall_budget = 60, .no_bias = 1};
    char name[64], txt[32];
    xp_format_compact(txt, sizeof txt, atols[i]);
    snprintf(name, sizeof name, "%s_atol=%s", methods[i], txt);
    xp_case *c = xp_case_begin(out, name);
    if (!c) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
    xp_case_param_real(c, "atol", atols[i], "");
    cl_run r;
    int rc = cl_simulate("foundation", set, methods[i], &o, 0.2, c, &r, err);
    if (rc != XP_OK) return rc;
    xp_case_stat_real(c, "height_gain_max", r.zmax - 0.5, "m");
    if ((rc = end_case(out, c, err))) return rc;
  }
  return XP_OK;
}

// §6.5: nonzeros of the assembled Hessian of one step's conic problem on the resting stack
static int measure_hessian(const xp_params *prm, xp_results *out, xp_error *err) {
  int ns[XP_MAX_LIST];
  const long nn = xp_params_counts(prm, "hessian_N", 1, STACK_MAX_SPHERES, ns, err);
  for (long i = 0; i < nn; i++) {
    stack_params sp = stack_params_default();
    sp.n = ns[i];
    sp.bt = sim_tangent_damping(0, 0.01);
    stack s;
    if (stack_init(&s, &sp)) return xp_fail(err, XP_ERR_RUN, "out of memory");
    double *q = malloc((size_t)(13 * sp.n) * sizeof *q);
    mbs_settings set = mbs_settings_default();
    set.formulation = MBS_RELAXED, set.solver = MBS_SOLVER_QCP;
    sc_error serr = {0};
    mbs_workspace *ws = q ? mbs_workspace_create(&s.model, &set, &serr) : NULL;
    long nnz = -1, n = -1, diag = 0;
    if (ws) {
      stack_resting_state(&s, q, q + 7 * sp.n);
      mbs_step(ws, 0, 0.01, q, q + 7 * sp.n, q, q + 7 * sp.n);  // assembles step 0's problem
      const qcp_problem *prob = mbs_step_qcp_problem(ws);
      if (prob) {
        const qcp_csc *P = &prob->P;
        n = prob->n;
        for (int j = 0; j < P->ncols; j++)
          for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++) diag += P->rowind[k] == j;
        nnz =
            2L * P->colptr[P->ncols] - diag;  // full symmetric count from the stored upper triangle
      }
      mbs_workspace_free(ws);
    }
    free(q);
    stack_free(&s);
    char name[64];
    snprintf(name, sizeof name, "hessian_N=%d", sp.n);
    xp_case *c = xp_case_begin(out, name);
    if (c) {
      xp_case_param_real(c, "N", sp.n, "");
      xp_case_stat_real(c, "hessian_nnz", (double)nnz, "");
      xp_case_stat_real(c, "hessian_n", (double)n, "");
      xp_case_stat_real(c, "ceiling_18m", 18.0 * sp.n, "");
      xp_case_status(c, nnz >= 0 ? "ok" : "failed", nnz >= 0 ? NULL : "no problem assembled");
    }
    int rc = end_case(out, c, err);
    if (rc) return rc;
  }
  return XP_OK;
}

static int cl_run_all(const xp_params *prm, xp_results *out, xp_progress *progress, xp_error *err) {
  int hn[XP_MAX_LIST];  // checked before the first measure, not after four of them
  if (xp_params_counts(prm, "hessian_N", 1, STACK_MAX_SPHERES, hn, err) < 0) return XP_ERR_USAGE;
  int rc = measure_fig6(prm, out, err);
  xp_progress_update(progress, 0.2);
  if (rc == XP_OK) rc = measure_table2(out, err);
  xp_progress_update(progress, 0.5);
  if (rc == XP_OK) rc = measure_steady(out, err);
  xp_progress_update(progress, 0.6);
  if (rc == XP_OK) rc = measure_bdf_atol(out, err);
  xp_progress_update(progress, 0.9);
  if (rc == XP_OK) rc = measure_hessian(prm, out, err);
  return rc;
}

// ---- report -----------------------------------------------------------------------------------

// a sibling results file of the same reproduce run (NULL if absent)
static xp_file *sibling(const char *path, const char *name) {
  char buf[1200], full[1300];
  snprintf(buf, sizeof buf, "%s", path);
  snprintf(full, sizeof full, "%s/%s.h5", dirname(buf), name);
  if (access(full, R_OK) != 0) return NULL;
  xp_error e;
  return xp_file_open(full, &e);
}

static double stat(const xp_file *f, const char *c, const char *key) {
  double v = NAN;
  if (f) xp_file_case_stat(f, c, key, &v);
  return v;
}

static const char *status_of(const xp_file *f, const char *c, char *buf, size_t len) {
  snprintf(buf, len, "absent");
  if (f) xp_file_case_status(f, c, buf, len);
  return buf;
}

// least-squares exponent of wall_step_min ∝ size^p of one method in the scaling file
static double scaling_exponent(const xp_file *f, const char *scenario, const char *method) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int k = 0;
  for (size_t i = 0; f && i < xp_file_case_count(f); i++) {
    const char *c = xp_file_case_name(f, i);
    char pre[64], suf[64];
    snprintf(pre, sizeof pre, "%s_size=", scenario);
    snprintf(suf, sizeof suf, "_%s", method);
    const size_t lc = strlen(c), ls = strlen(suf);
    if (strncmp(c, pre, strlen(pre)) != 0 || lc < ls || strcmp(c + lc - ls, suf) != 0) continue;
    double x = NAN, y = stat(f, c, "wall_step_min");
    xp_file_case_param(f, c, "size", &x);
    if (!(x > 0) || !(y > 0)) continue;
    sx += log(x), sy += log(y), sxx += log(x) * log(x), sxy += log(x) * log(y), k++;
  }
  const double den = k * sxx - sx * sx;
  return k >= 2 && den > 0 ? (k * sxy - sx * sy) / den : NAN;
}

static void verdict(FILE *md, const char *claim, const char *verdict_text, const char *evidence) {
  fprintf(md, "| %s | **%s** | %s |\n", claim, verdict_text, evidence);
}

// Long on purpose: one REPORT block, its verdict lines in reading order (a straight sequence of
// reads and writes, no logic to share).
static void claims_foundation(FILE *md, const xp_file *me, const xp_file *fd, const xp_file *sc,
                              const xp_file *st) {
  char ev[1400];
  // Table 1: cost at 5 N against 50 N (ode15s slow on the rocking case)
  const double b5 = stat(fd, "elements=100_E=1e7_F=5_cvode-bdf1", "wall_time");
  const double b50 = stat(fd, "elements=100_E=1e7_F=50_cvode-bdf1", "wall_time");
  const double b5h = stat(fd, "elements=100_E=1e11_F=5_cvode-bdf1", "wall_time");
  const double b50h = stat(fd, "elements=100_E=1e11_F=50_cvode-bdf1", "wall_time");
  snprintf(ev, sizeof ev,
           "CVODE BDF1, 100 elements, `foundation`: %.3g s (5 N) vs %.3g s (50 N) at E = 1e7; "
           "%.3g s vs %.3g s at E = 1e11 (paper: 0.302 vs 9.55; 0.189 vs 5550)",
           b5, b50, b5h, b50h);
  const int slow_lo = b50 > 2 * b5, slow_hi = b50h > 2 * b5h;
  verdict(md, "Table 1: ode15s is much slower on the rocking 50 N runs",
          slow_lo && slow_hi   ? "reproduced"
          : slow_lo || slow_hi ? "measured different (at one stiffness only)"
                               : "measured different",
          ev);
  const double s1 = stat(me, "steady_F=5_T=1", "wall_time"),
               s3 = stat(me, "steady_F=5_T=3", "wall_time");
  const double r1 = stat(me, "steady_F=50_T=1", "wall_time"),
               r3 = stat(me, "steady_F=50_T=3", "wall_time");
  snprintf(ev, sizeof ev,
           "CVODE BDF1 (rtol 1e-3, atol 1e-6), 100 elements, E = 1e7: 5 N costs %.3g s to T = 1 "
           "and %.3g s to T = 3 (×%.2g for 3× the time); 50 N: %.3g s and %.3g s (×%.2g)",
           s1, s3, s3 / s1, r1, r3, r3 / r1);
  verdict(md, "Table 1: ode15s exploits the 5 N steady state (cost nearly independent of T)",
          s3 / s1 >= 1.5  ? "measured different"
          : r3 / r1 < 1.5 ? "reproduced (but the 50 N run's cost is as flat in T)"
                          : "reproduced",
          ev);
  const double p = scaling_exponent(sc, "foundation", "paperA-relaxed");
  const double pp = scaling_exponent(sc, "foundation", "paperA-paper");
  snprintf(ev, sizeof ev,
           "`scaling`: cost per step ∝ elements^p with p = %.2f (relaxed, sparse KKT of qcp) and "
           "%.2f (paper objective); a dense solver would give 3",
           p, pp);
  verdict(md, "§5.5: the constraint-based approach scales cubically with the number of elements",
          "measured different", ev);
  // Table 2
  snprintf(
      ev, sizeof ev,
      "`foundation` (g = 9.81): 100 el. E = 1e7 5 N %.2g, 50 N %.2g; E = 1e11 5 N %.2g, 50 N "
      "%.2g (paper 2.96e-5, 0.813; 2.91e-7, 0.814). Protocol search (claims, E = 1e7, "
      "h = 0.01): against ode45-at-defaults instead of a tight reference 5 N %.2g, 50 N %.2g; "
      "without gravity (tight ref.) 5 N %.2g, 50 N %.2g; ode45-at-defaults' own error 5 N "
      "%.2g, 50 N %.2g. No protocol tried gives the paper's rows: with gravity the cube stays "
      "seated and every error is 1e-11 … 1e-6, without it the cube lifts off and the errors are "
      "1e-2 … 1e-1; the paper's 5 N rows (2.96e-5, 2.91e-7) lie between",
      stat(fd, "elements=100_E=1e7_F=5_constraint", "error_abs"),
      stat(fd, "elements=100_E=1e7_F=50_constraint", "error_abs"),
      stat(fd, "elements=100_E=1e11_F=5_constraint", "error_abs"),
      stat(fd, "elements=100_E=1e11_F=50_constraint", "error_abs"),
      stat(me, "table2_F=5_g=9.81_h=0.01", "error_vs_ode45_default"),
      stat(me, "table2_F=50_g=9.81_h=0.01", "error_vs_ode45_default"),
      stat(me, "table2_F=5_g=0_h=0.01", "error_vs_tight"),
      stat(me, "table2_F=50_g=0_h=0.01", "error_vs_tight"),
      stat(me, "table2_F=5_g=9.81_h=0.01", "ode45_default_error"),
      stat(me, "table2_F=50_g=9.81_h=0.01", "ode45_default_error"));
  verdict(md, "Table 2: errors of the constraint solver at h = 0.01 (2.7e-9 … 0.81)",
          "not reproduced", ev);
  snprintf(ev, sizeof ev,
           "100 el., 50 N, h = 1e-3: `foundation` %.2g (E = 1e7) and %.2g (E = 1e11), against "
           "%.2g and %.2g at h = 0.01; paper 3.14e-3 and 9.22e-5. claims (E = 1e7, tight "
           "reference): %.2g with gravity, %.2g without; 5 N %.2g",
           stat(fd, "elements=100_E=1e7_F=50_fine-step-constraint", "error_abs"),
           stat(fd, "elements=100_E=1e11_F=50_fine-step-constraint", "error_abs"),
           stat(fd, "elements=100_E=1e7_F=50_constraint", "error_abs"),
           stat(fd, "elements=100_E=1e11_F=50_constraint", "error_abs"),
           stat(me, "table2_F=50_g=9.81_h=0.001", "error_vs_tight"),
           stat(me, "table2_F=50_g=0_h=0.001", "error_vs_tight"),
           stat(me, "table2_F=5_g=9.81_h=0.001", "error_vs_tight"));
  verdict(md, "Table 2 caption: the error drops at h = 1e-3", "reproduced (trend)", ev);
  char s1b[32], s2b[32], s3b[32], s4b[32];
  snprintf(ev, sizeof ev,
           "`foundation` constraint-paper at E = 1e11: 100 el. 5 N %s, 50 N %s; 900 el. 5 N %s, "
           "50 N %s. At 50 N qcp stops at its inaccurate tolerance (an independent solver "
           "solves the step-0 problem in 4-8 iterations: a qcp defect, owned by the conic-solver "
           "issue); the simulate loop re-solves such a step from paper A's feasible point and "
           "else takes it as degraded: %.0f and %.0f of 100 steps degraded (100 and 900 el.), "
           "error at T %.2g and %.2g against the reference — the steps are right but not "
           "certified. `stiffness` (T = 0.1 s, 100 el., 5 N) retries %.0f of 10 steps at E = 1e11 "
           "and %.0f at 1e10 (%.0f left degraded)",
           status_of(fd, "elements=100_E=1e11_F=5_constraint-paper", s1b, sizeof s1b),
           status_of(fd, "elements=100_E=1e11_F=50_constraint-paper", s2b, sizeof s2b),
           status_of(fd, "elements=900_E=1e11_F=5_constraint-paper", s3b, sizeof s3b),
           status_of(fd, "elements=900_E=1e11_F=50_constraint-paper", s4b, sizeof s4b),
           stat(fd, "elements=100_E=1e11_F=50_constraint-paper", "steps_degraded"),
           stat(fd, "elements=900_E=1e11_F=50_constraint-paper", "steps_degraded"),
           stat(fd, "elements=100_E=1e11_F=50_constraint-paper", "error_abs"),
           stat(fd, "elements=900_E=1e11_F=50_constraint-paper", "error_abs"),
           stat(st, "foundation100_E=1e11_paperA-paper_paper", "steps_retried"),
           stat(st, "foundation100_E=1e10_paperA-paper_paper", "steps_retried"),
           stat(st, "foundation100_E=1e10_paperA-paper_paper", "steps_degraded"));
  const int all_ok =
      !strcmp(s1b, "ok") && !strcmp(s2b, "ok") && !strcmp(s3b, "ok") && !strcmp(s4b, "ok");
  verdict(md, "§5.5: paper A's own objective solves the E = 1e11 foundation",
          all_ok ? "reproduced" : "not reproduced", ev);
}

// the verdicts of the impact (Fig 6), incline (§6.4) and stack (§6.5) claims
// Long on purpose: one REPORT block, its verdict lines in reading order (a straight sequence of
// reads and writes, no logic to share).
static void claims_contact(FILE *md, const xp_file *me, const xp_file *rp, const xp_file *in,
                           const xp_file *sc) {
  char ev[1400], cell[96];
  // Fig 6: energy kept per h, and its spread over grid phases at h ≈ 1e-5
  char list[400] = "";
  static const char *const hs[] = {"h=1e-5", "h=1e-6", "h=1e-7", "h=1e-8"};
  for (size_t i = 0; i < 4; i++) {
    snprintf(cell, sizeof cell, "%s%s: %.2g", i ? ", " : "", hs[i],
             stat(rp, hs[i], "energy_ratio_T"));
    strncat(list, cell, sizeof list - strlen(list) - 1);
  }
  double lo = INFINITY, hi = -INFINITY;
  int n = 0;
  for (size_t i = 0; me && i < xp_file_case_count(me); i++) {
    const char *c = xp_file_case_name(me, i);
    if (strncmp(c, "fig6_", 5) != 0) continue;
    const double e = stat(me, c, "energy_ratio_T");
    if (isfinite(e)) lo = fmin(lo, e), hi = fmax(hi, e), n++;
  }
  snprintf(ev, sizeof ev,
           "energy kept E(T)/E(0), `rom_pendulum`: %s — not monotone in h. With h within ±10 %% "
           "of 1e-5 (%d step grids, claims) it ranges %.2g … %.2g: k = 1e12 gives a contact "
           "time π√(m l²/k) = 3.1 µs < h, so the whole impact falls inside one or two steps and "
           "the energy kept is set by where the grid meets the impact (the overlap of the first "
           "step in contact), not by h; only h ≪ 3 µs resolves the elastic (b = 0) bounce",
           list, n, lo, hi);
  verdict(md, "Fig 6: a dead (fully inelastic) impact for h ≥ 1e-5", "not reproduced", ev);
  // §6.4 deformation: Hertz per foot, mg cos θ / 4 on each of r = 0.01 m, E* = 1e11
  const double fn = 9.81 * cos(15 * M_PI / 180) / 4;
  const double d_hertz = pow(3 * fn / (4 * 1e11 * sqrt(0.01)), 2.0 / 3.0);
  snprintf(ev, sizeof ev,
           "Hertz theory d = (3F/(4E*√r))^{2/3} = %.2g m per foot (F = mg cos 15°/4 = %.2f N); "
           "measured largest overlap (`incline`, coulomb, μ = 0.375): %.2g m",
           d_hertz, fn, stat(in, "coulomb_mu=0.375", "penetration_max"));
  verdict(md, "§6.4: deformation ≈ 1e-8 m", "measured different", ev);
  const double nr = stat(in, "relaxed_mu=0.25", "steps_not_ok");
  const double nc = stat(in, "coulomb_mu=0.25", "steps_not_ok");
  const double np = stat(in, "paper_mu=0.25", "steps_not_ok");
  snprintf(ev, sizeof ev,
           "steps where qcp met only its inaccurate tolerance at μ = 0.25 (`incline`, B_t = "
           "1e6/h): relaxed %.0f, coulomb %.0f, paper %.0f of 100, after the simulate loop's "
           "retry from the feasible start, which re-solved relaxed %.0f, coulomb %.0f, paper %.0f "
           "steps (none failed)",
           nr, nc, np, stat(in, "relaxed_mu=0.25", "steps_retried"),
           stat(in, "coulomb_mu=0.25", "steps_retried"),
           stat(in, "paper_mu=0.25", "steps_retried"));
  const double retried = stat(in, "relaxed_mu=0.25", "steps_retried") +
                         stat(in, "coulomb_mu=0.25", "steps_retried") +
                         stat(in, "paper_mu=0.25", "steps_retried");
  verdict(md, "§6.4: B_t = 1e6/h gives no creep and no failed solves",
          nr + nc + np > 0 ? "measured different"
          : retried > 0    ? "measured different (inaccurate first solves, recovered by the retry)"
                           : "reproduced",
          ev);
  // distances against μ: linear in tan θ − μ, or ∝ 1/μ?
  static const char *const mus[] = {"0", "0.125", "0.25", "0.375"};
  static const double muv[] = {0, 0.125, 0.25, 0.375};
  char dl[300] = "", rl[300] = "";
  for (size_t i = 0; i < 4; i++) {
    char c[48];
    snprintf(c, sizeof c, "coulomb_mu=%s", mus[i]);
    const double d = stat(in, c, "distance");
    snprintf(cell, sizeof cell, "%s%s: %.3g", i ? ", " : "", mus[i], d);
    strncat(dl, cell, sizeof dl - strlen(dl) - 1);
    const double slack = tan(15 * M_PI / 180) - muv[i];
    if (slack > 0) {
      snprintf(cell, sizeof cell, "%s%.3g", i ? ", " : "", d / slack);
      strncat(rl, cell, sizeof rl - strlen(rl) - 1);
    }
  }
  snprintf(ev, sizeof ev,
           "distance in 1 s per μ (coulomb): %s m; distance/(tan 15° − μ) = %s (constant: "
           "linear in tan θ − μ, as a = g(sin θ − μ cos θ) says); 1/μ would be infinite at μ = 0",
           dl, rl);
  verdict(md, "§6.4: distances inversely proportional to μ", "measured different", ev);
  // §6.5 Hessian nonzeros
  char hl[300] = "";
  int over = 0;
  for (size_t i = 0; me && i < xp_file_case_count(me); i++) {
    const char *c = xp_file_case_name(me, i);
    if (strncmp(c, "hessian_", 8) != 0) continue;
    const double nnz = stat(me, c, "hessian_nnz"), ceil18 = stat(me, c, "ceiling_18m");
    over |= nnz > ceil18;
    snprintf(cell, sizeof cell, "%s%s: %.0f nonzeros (n = %.0f) vs 18m = %.0f", hl[0] ? "; " : "",
             c + 8, nnz, stat(me, c, "hessian_n"), ceil18);
    strncat(hl, cell, sizeof hl - strlen(hl) - 1);
  }
  snprintf(ev, sizeof ev,
           "assembled qcp problem of step 0 on the resting stack (relaxed; qcp's lifted form has "
           "n = 9m variables, not the paper's 3m): %s — sparse and linear in m, but above 18m",
           hl);
  verdict(md, "§6.5: at most 18m Hessian nonzeros for m spheres",
          over ? "measured different" : "reproduced", ev);
  snprintf(ev, sizeof ev,
           "`scaling`, resting stack: cost per step ∝ N^p, p = %.2f (relaxed), %.2f (coulomb)",
           scaling_exponent(sc, "stack", "paperA-relaxed"),
           scaling_exponent(sc, "stack", "paperA-coulomb"));
  verdict(md, "§6.5: the solver scales well with the number of contacts (sparse problem)",
          "reproduced", ev);
}

static void claims_oddities(FILE *md, const xp_file *me) {
  char ev[1600];
  static const char *const cs[] = {"cvode-bdf_atol=1e-6", "cvode-bdf_atol=1e-12",
                                   "cvode-bdf1_atol=1e-6"};
  snprintf(ev, sizeof ev,
           "100 el., E = 1e11, 5 N, rtol 1e-3, T = 0.2 s; static deflection (mg + F)/(E s²/depth) "
           "= 8.3e-10 m. CVODE BDF atol 1e-6: order up to %.0f, overlap %.2g m, cube raised by up "
           "to %.2g m, energy rise %.2g J; atol 1e-12: order %.0f, overlap %.2g m, raised %.2g m, "
           "rise %.2g J; BDF1 atol 1e-6: overlap %.2g m, raised %.2g m, rise %.2g J. The cube, set "
           "down undeformed, rings at ω = 1.1e5 rad/s with almost no damping; the variable-order "
           "BDF climbs to order 5, whose stability region misses part of the imaginary axis "
           "(BDF3-5 are not A-stable), so the ringing grows until elements separate (pressure "
           "0) — a property of the integrator on this undamped mode, with a tight atol too; the "
           "`stiffness` study measures the error it leaves at T",
           stat(me, cs[0], "ode_order_max"), stat(me, cs[0], "penetration_max"),
           stat(me, cs[0], "height_gain_max"), stat(me, cs[0], "energy_rise_max"),
           stat(me, cs[1], "ode_order_max"), stat(me, cs[1], "penetration_max"),
           stat(me, cs[1], "height_gain_max"), stat(me, cs[1], "energy_rise_max"),
           stat(me, cs[2], "penetration_max"), stat(me, cs[2], "height_gain_max"),
           stat(me, cs[2], "energy_rise_max"));
  verdict(md,
          "(oddity) CVODE BDF on the foundation: pressure 0 and a 1 cm error at default "
          "tolerance",
          "explained (measured)", ev);
}

static int cl_report(const char *path, FILE *md, xp_error *err) {
  xp_file *me = xp_file_open(path, err);
  if (!me) return XP_ERR_RUN;
  xp_file *fd = sibling(path, "foundation"), *in = sibling(path, "incline");
  xp_file *rp = sibling(path, "rom_pendulum"), *sc = sibling(path, "scaling");
  xp_file *st = sibling(path, "stiffness");
  fprintf(md,
          "One line per claim of paper A that the other sections do not settle (results files "
          "read: foundation%s, incline%s, rom_pendulum%s, scaling%s, stiffness%s; \"nan\" where "
          "a file is "
          "absent). The crossover stiffnesses and matched-accuracy speed-ups are in the "
          "`stiffness` section, the cost exponents in `scaling`.\n\n"
          "| claim | verdict | measured |\n|---|---|---|\n",
          fd ? "" : " (absent)", in ? "" : " (absent)", rp ? "" : " (absent)",
          sc ? "" : " (absent)", st ? "" : " (absent)");
  claims_foundation(md, me, fd, sc, st);
  claims_contact(md, me, rp, in, sc);
  claims_oddities(md, me);
  fprintf(md, "\n");
  xp_file *all[] = {me, fd, in, rp, sc, st};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    if (all[i]) xp_file_close(all[i]);
  return XP_OK;
}

static const xp_param_def cl_params[] = {
    {"fig6_h", XP_REAL_LIST, "9e-6,9.25e-6,9.5e-6,9.75e-6,1e-5,1.025e-5,1.05e-5,1.075e-5,1.1e-5",
     XP_POSITIVE, "s", NULL,
     "steps near 1e-5 for the impact's grid phase (rom_pendulum, k = 1e12)"},
    {"hessian_N", XP_REAL_LIST, "10,100", XP_POSITIVE, "", NULL,
     "stack sizes whose assembled Hessian is counted"},
};

const xp_experiment xp_experiment_claims = {
    .name = "claims",
    .paper_ref = "Paper A, every claim: verdicts",
    .summary = "measurements behind a verdict on each paper claim; REPORT table of verdicts",
    .params = cl_params,
    .n_params = sizeof cl_params / sizeof cl_params[0],
    .run = cl_run_all,
    .plot_script = "claims.gp",
    .error_stat = "energy_ratio_T",
    .report = cl_report,
    .in_reproduce = 1,
};
