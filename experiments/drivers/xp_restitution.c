// SPDX-License-Identifier: MIT
// Restitution of a Hertz sphere dropped on the ground against impact speed, per dissipation law
// and step size (not a paper figure): paper A's step (relaxed) on the `sphere`
// scenario through the simulate loop. Each case stores the measured restitution (the sphere's
// probe) beside the law's small-damping closed form (hertz.h), and the undamped run at the same h
// gives the step's own loss, so a reader sees the law's part: (1 − e) − (1 − e₀).
// Cases: law=<law>_h=<h>_v0=<v0>, params dissipation, h, v0.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim.h"
#include "xp/xp.h"
#include "xp/xp_file.h"

static const char *const rs_laws[] = {"none", "paper", "hunt-crossley", "sap"};
enum { RS_NLAWS = sizeof rs_laws / sizeof rs_laws[0] };

// one drop: law (none = paper with B = 0), step h, speed v0, into its case
static int rs_case(const xp_params *prm, const char *law, double h, double v0, xp_results *out,
                   xp_error *err) {
  char kv[5][64];
  snprintf(kv[0], sizeof kv[0], "dissipation=%s", law[0] == 'n' ? "paper" : law);
  snprintf(kv[1], sizeof kv[1], "B=%.17g", law[0] == 'n' ? 0 : xp_params_real(prm, "B"));
  snprintf(kv[2], sizeof kv[2], "alpha=%.17g", xp_params_real(prm, "alpha"));
  snprintf(kv[3], sizeof kv[3], "tau_d=%.17g", xp_params_real(prm, "tau_d"));
  snprintf(kv[4], sizeof kv[4], "v0=%.17g", v0);
  const char *settings[] = {kv[0], kv[1], kv[2], kv[3], kv[4]};
  const sim_scenario *sc;
  sim_instance inst = {0};
  int rc = sim_instance_make("sphere", settings, 5, h, &sc, &inst, err);
  if (rc != XP_OK) return rc;
  sim_probe probe = {0}, *pp = NULL;
  if (sc->probe && sc->probe(&inst, &probe) == 0) pp = &probe;
  char name[128];
  snprintf(name, sizeof name, "law=%s_h=%g_v0=%g", law, h, v0);
  xp_case *c = xp_case_begin(out, name);
  if (c) {
    xp_case_param_string(c, "dissipation", law);
    xp_case_param_real(c, "v0", v0, "m/s");
    sim_method_options opt = sim_method_options_default();
    sim_method_options_read(prm, &opt);  // start: cold (the study's default)
    opt.h = h;
    sim_outcome oc;
    rc = sim_simulate(sim_method_find(xp_params_string(prm, "method")), &opt, &inst,
                      xp_params_real(prm, "T"), 200, pp, c, &oc, err);
  }
  if (pp && probe.free) probe.free(probe.ctx);
  sc->free(&inst);
  if (!c) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  if (rc != XP_OK) return rc;
  return xp_case_end(c) ? xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out)) : XP_OK;
}

static int rs_run(const xp_params *prm, xp_results *out, xp_progress *progress, xp_error *err) {
  const double *hs, *vs;
  const size_t nh = xp_params_list(prm, "h", &hs), nv = xp_params_list(prm, "v0", &vs);
  size_t done = 0, nm = 0;
  const sim_method *m = NULL;
  if (sim_study_methods(xp_params_string(prm, "method"), "sphere", SIM_FAMILY_ALL | SIM_FAMILY_PEER,
                        "", &m, 1, &nm, err))
    return XP_ERR_USAGE;
  for (size_t l = 0; l < RS_NLAWS; l++)
    for (size_t i = 0; i < nh; i++)
      for (size_t k = 0; k < nv; k++) {
        int rc = rs_case(prm, rs_laws[l], hs[i], vs[k], out, err);
        if (rc != XP_OK) return rc;
        xp_progress_update(progress, (double)++done / (double)(RS_NLAWS * nh * nv));
      }
  return XP_OK;
}

// REPORT.md: per law, the measured e against impact speed at each step beside the law's
// small-damping closed form (and the undamped run's e₀: the step's own loss)
static int rs_report(const char *path, FILE *md, xp_error *err) {
  xp_file *f = xp_file_open(path, err);
  if (!f) return XP_ERR_RUN;
  double hs[8], vs[16];
  size_t nh = 0, nv = 0;
  for (size_t i = 0; i < xp_file_case_count(f); i++) {
    const char *c = xp_file_case_name(f, i);
    double h = NAN, v = NAN;
    if (sscanf(c, "law=%*[^_]_h=%lg_v0=%lg", &h, &v) != 2) continue;
    size_t j = 0;
    while (j < nh && hs[j] != h) j++;
    if (j == nh && nh < 8) hs[nh++] = h;
    for (j = 0; j < nv && vs[j] != v;) j++;
    if (j == nv && nv < 16) vs[nv++] = v;
  }
  fprintf(md,
          "Coefficient of restitution e = v_out/v_in of the sphere against impact speed v0, per "
          "dissipation law and step h, beside each law's small-damping closed form (\"theory\"); "
          "`none` (paper A's law with B = 0) is the step's own loss. A cell reads e at h = ");
  for (size_t j = 0; j < nh; j++) fprintf(md, "%s%g s", j ? " / " : "", hs[j]);
  fprintf(md, ".\n\n| law | |");
  for (size_t k = 0; k < nv; k++) fprintf(md, " v0 = %g m/s |", vs[k]);
  fprintf(md, "\n|---|---|");
  for (size_t k = 0; k < nv; k++) fprintf(md, "---|");
  fprintf(md, "\n");
  for (size_t l = 0; l < RS_NLAWS; l++)
    for (int row = 0; row < 2; row++) {
      if (row == 1 && l == 0) continue;  // no damping: no law to compare
      fprintf(md, "| %s | %s |", row ? "" : rs_laws[l], row ? "theory" : "measured");
      for (size_t k = 0; k < nv; k++) {
        fprintf(md, " ");
        for (size_t j = 0; j < (row ? 1 : nh); j++) {
          char name[128], status[32] = "absent";
          double e = NAN;
          snprintf(name, sizeof name, "law=%s_h=%g_v0=%g", rs_laws[l], hs[j], vs[k]);
          xp_file_case_status(f, name, status, sizeof status);
          xp_file_case_stat(f, name, row ? "restitution_small_damping" : "restitution", &e);
          if (e == e)
            fprintf(md, "%s%.4f", j ? " / " : "", e);
          else
            fprintf(md, "%s— (%s)", j ? " / " : "",
                    strcmp(status, "ok") ? status : "no rebound within T");
        }
        fprintf(md, " |");
      }
      fprintf(md, "\n");
    }
  fprintf(md, "\n");
  xp_file_close(f);
  return XP_OK;
}

static const xp_param_def rs_params[] = {
    {"h", XP_REAL_LIST, "4e-6,1e-6", XP_POSITIVE, "s", NULL, "step sizes"},
    {"v0", XP_REAL_LIST, "0.1,0.2,0.5,1,2,3", XP_POSITIVE, "m/s", NULL, "impact speeds"},
    {"B", XP_REAL, "2", XP_NONNEGATIVE, "N*s/m", NULL, "paper A's constant damping"},
    {"alpha", XP_REAL, "0.02", XP_NONNEGATIVE, "s/m", NULL, "Hunt-Crossley alpha"},
    {"tau_d", XP_REAL, "2e-5", XP_NONNEGATIVE, "s", NULL, "SAP dissipation time scale"},
    {"T", XP_REAL, "0.05", XP_POSITIVE, "s", NULL, "simulated time (covers the slowest impact)"},
    {"method", XP_STRING, "paperA-relaxed", XP_ANY, "", NULL,
     "the method (stabcon list --methods): paper A's step by default, any other that applies to "
     "the sphere, one per run"},
    SIM_OPTION_DEFS};

// each solve starts cold
static const char *const rs_defaults[] = {"start=cold", NULL};

const xp_experiment xp_experiment_restitution = {
    .name = "restitution",
    .paper_ref = "Hertz impact per dissipation law (not a paper figure)",
    .summary = "Hertz sphere drop: restitution vs impact speed per dissipation law and step",
    .params = rs_params,
    .n_params = sizeof rs_params / sizeof rs_params[0],
    .run = rs_run,
    .plot_script = "restitution.gp",
    .error_stat = "restitution",
    .defaults = rs_defaults,
    .report = rs_report,
    .in_reproduce = 1,
};
