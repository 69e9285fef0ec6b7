// SPDX-License-Identifier: MIT
// The method matrix as experiments: `stabcon run SCENARIO --set method=a,b,…` runs each listed
// method on the scenario through the one simulate loop (one case per method), and `stabcon list
// --methods` prints which methods apply to which scenario. The run parameters every method
// shares are declared here, once, with their units and help.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

const sim_method *sim_method_find(const char *name) {
  for (size_t i = 0; sim_methods[i]; i++)
    if (strcmp(sim_methods[i]->name, name) == 0) return sim_methods[i];
  return NULL;
}

const sim_scenario *sim_scenario_find(const char *name) {
  for (size_t i = 0; sim_scenarios[i]; i++)
    if (strcmp(sim_scenarios[i]->name, name) == 0) return sim_scenarios[i];
  return NULL;
}

// parameters of every matrix run, after the scenario's own ("h" and "T" take the scenario's
// defaults, filled in per scenario)
static const xp_param_def common_params[] = {
    {"method", XP_STRING, "applicable", XP_ANY, "", NULL,
     "comma-separated methods (stabcon list --methods), or 'applicable' for all that apply"},
    {"h", XP_REAL, "", XP_POSITIVE, "s", NULL,
     "step size; the output interval of the adaptive integrators"},
    {"T", XP_REAL, "", XP_POSITIVE, "s", NULL, "simulated time"},
    {"max_points", XP_INT, "2000", XP_POSITIVE, "", NULL, "most samples stored per series"},
    {"rtol", XP_REAL, "1e-8", XP_POSITIVE, "", NULL, "cvode-*, rk45: relative tolerance"},
    {"atol", XP_REAL, "1e-8", XP_POSITIVE, "", NULL, "cvode-*, rk45: absolute tolerance"},
    {"budget", XP_REAL, "60", XP_NONNEGATIVE, "s", NULL,
     "cvode-*, rk45: wall-time budget per run, then did-not-finish (0: none)"},
    {"start", XP_STRING, "warm", XP_ANY, "", "cold|warm|feasible",
     "paperA-*: first conic solve of a step (cold, warm, paper A's feasible point)"},
    {"activation", XP_STRING, "scenario", XP_ANY, "", "scenario|overlap|speculative",
     "paperA-*: when a contact row joins a step: overlap (paper A §5.2), speculative (SPEC §1.5), "
     "or the scenario's default"},
    {"zeta", XP_REAL, "0", XP_NONNEGATIVE, "1/s", NULL,
     "paperA-paper: objective weight zeta; 0 means 1/h (paper A §6.1)"},
    {"fp_max_iter", XP_INT, "50", XP_POSITIVE, "", NULL,
     "paperA-coulomb: most relaxed solves (fixed point) or Newton iterations per step"},
    {"coulomb_solver", XP_STRING, "newton", XP_ANY, "", "newton|fixed-point",
     "paperA-coulomb: exact Coulomb by semismooth Newton (SPEC §1.6) or the fixed point (§1.3)"},
    {"beta", XP_REAL, "1", XP_POSITIVE, "", NULL, "theta-*: near-rigid parameter (paper B)"},
    {"sigma", XP_REAL, "1e-3", XP_POSITIVE, "", NULL,
     "theta-*: tangential regularisation (paper B)"},
};
enum { N_COMMON = sizeof common_params / sizeof common_params[0], MAX_SCENARIOS = 32 };

int sim_instance_make(const char *name, const char *const *settings, size_t n, double h,
                      const sim_scenario **sc, sim_instance *inst, xp_error *err) {
  *sc = sim_scenario_find(name);
  if (!*sc) return xp_fail(err, XP_ERR_RUN, "scenario %s is not built in", name);
  xp_params p;
  int rc = xp_params_init(&p, (*sc)->params, (*sc)->n_params, err);
  for (size_t k = 0; rc == XP_OK && k < n; k++) rc = xp_params_set(&p, settings[k], err);
  return rc == XP_OK ? (*sc)->create(&p, h, inst, err) : rc;
}

// why a peer does not apply: it rebuilds the model from its scene (mbs_model.scene)
static const char peer_not_applicable[] =
    "mujoco: needs the model's scene (mbs_scene.h: free spheres, or a box on feet), which only the "
    "stack, the pile and the incline describe";

static const char *family_name(unsigned family) {
  return family == SIM_FAMILY_PAPER_A ? "paper A"
         : family == SIM_FAMILY_THETA ? "theta (paper B)"
         : family == SIM_FAMILY_ODE   ? "ODE integrators"
         : family == SIM_FAMILY_PEER  ? "peer"
                                      : "rigid DAE";
}

int sim_methods_parse(const char *text, unsigned families, const sim_scenario *sc,
                      const sim_method **list, size_t cap, size_t *n, xp_error *err) {
  *n = 0;
  if (strcmp(text, "applicable") == 0) {
    for (size_t i = 0; sim_methods[i] && *n < cap; i++)
      if (families & sim_methods[i]->family) list[(*n)++] = sim_methods[i];
    return XP_OK;
  }
  char buf[256];
  snprintf(buf, sizeof buf, "%s", text);
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    const sim_method *m = sim_method_find(tok);
    if (!m || *n == cap)
      return xp_fail(err, XP_ERR_USAGE,
                     "parameter method=%s: unknown method '%s' (stabcon list --methods)", text,
                     tok);
    if (sc && !(sc->methods & m->family))
      return xp_fail(err, XP_ERR_USAGE,
                     "parameter method=%s: %s does not apply to scenario %s (%s)", text, tok,
                     sc->name,
                     m->family == SIM_FAMILY_PEER ? peer_not_applicable
                     : sc->not_applicable         ? sc->not_applicable
                                                  : "");
    list[(*n)++] = m;
  }
  return *n ? XP_OK : xp_fail(err, XP_ERR_USAGE, "parameter method: empty list");
}

static sim_method_options method_options(const sim_scenario *sc, const xp_params *p) {
  const char *act = xp_params_string(p, "activation");
  if (strcmp(act, "scenario") == 0) act = sc->activation ? sc->activation : "overlap";
  return (sim_method_options){.activation = act,
                              .h = xp_params_real(p, "h"),
                              .rtol = xp_params_real(p, "rtol"),
                              .atol = xp_params_real(p, "atol"),
                              .wall_budget = xp_params_real(p, "budget"),
                              .start = xp_params_string(p, "start"),
                              .zeta = xp_params_real(p, "zeta"),
                              .fp_max_iter = xp_params_int(p, "fp_max_iter"),
                              .coulomb_solver = xp_params_string(p, "coulomb_solver"),
                              .beta = xp_params_real(p, "beta"),
                              .sigma = xp_params_real(p, "sigma")};
}

// one method on a fresh instance of the scenario, into case "method=<name>"
static int run_one(const sim_scenario *sc, const sim_method *m, const xp_params *p, xp_results *out,
                   xp_error *err) {
  const sim_method_options opt = method_options(sc, p);
  sim_instance inst = {0};
  int rc = sc->create(p, opt.h, &inst, err);
  if (rc != XP_OK) return rc;
  sim_probe probe = {0}, *pp = NULL;
  if (sc->probe && sc->probe(&inst, &probe) == 0) pp = &probe;
  char name[96];
  snprintf(name, sizeof name, "method=%s", m->name);
  xp_case *c = xp_case_begin(out, name);
  sim_outcome oc;
  if (c) {
    xp_case_param_string(c, "scenario", sc->name);
    if (m->family == SIM_FAMILY_PAPER_A) xp_case_param_string(c, "activation", opt.activation);
    rc = sim_simulate(m, &opt, &inst, xp_params_real(p, "T"),
                      (size_t)xp_params_int(p, "max_points"), pp, c, &oc, err);
  }
  if (pp && probe.free) probe.free(probe.ctx);
  sc->free(&inst);
  if (!c) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  if (rc != XP_OK) return rc;
  if (xp_case_end(c)) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  return XP_OK;
}

static int matrix_run(const xp_params *p, xp_results *out, xp_progress *progress, xp_error *err) {
  const sim_scenario *sc = sim_scenario_find(xp_params_string(p, "scenario"));
  if (!sc)
    return xp_fail(err, XP_ERR_USAGE, "unknown scenario '%s'", xp_params_string(p, "scenario"));
  const sim_method *list[64];
  size_t n = 0;
  if (sim_methods_parse(xp_params_string(p, "method"), sc->methods, sc, list, 64, &n, err))
    return XP_ERR_USAGE;
  for (size_t i = 0; i < n; i++) {
    int rc = run_one(sc, list[i], p, out, err);
    if (rc != XP_OK) return rc;
    xp_progress_update(progress, (double)(i + 1) / (double)n);
  }
  return XP_OK;
}

// per scenario: its experiment object and parameter table, built on first use
static xp_experiment matrix_experiments[MAX_SCENARIOS];
static xp_param_def matrix_params[MAX_SCENARIOS][XP_MAX_PARAMS];
static char matrix_text[MAX_SCENARIOS][4][64];  // name, summary, h and T defaults

static const xp_experiment *build_experiment(size_t i) {
  const sim_scenario *sc = sim_scenarios[i];
  xp_experiment *x = &matrix_experiments[i];
  if (x->name) return x;
  if (i >= MAX_SCENARIOS || 1 + sc->n_params + N_COMMON > XP_MAX_PARAMS) return NULL;
  char(*text)[64] = matrix_text[i];
  snprintf(text[0], sizeof text[0], "%s_methods", sc->name);
  snprintf(text[2], sizeof text[2], "%g", sc->default_h);
  snprintf(text[3], sizeof text[3], "%g", sc->default_T);
  xp_param_def *d = matrix_params[i];
  size_t k = 0;
  d[k++] = (xp_param_def){"scenario",
                          XP_STRING,
                          sc->name,
                          XP_ANY,
                          "",
                          sc->name,
                          "the scenario (fixed by the command line)"};
  for (size_t j = 0; j < sc->n_params; j++) d[k++] = sc->params[j];
  for (size_t j = 0; j < N_COMMON; j++) {
    d[k] = common_params[j];
    if (strcmp(d[k].key, "h") == 0) d[k].default_value = text[2];
    if (strcmp(d[k].key, "T") == 0) d[k].default_value = text[3];
    k++;
  }
  *x = (xp_experiment){.name = text[0],
                       .paper_ref = "method matrix (SPEC §7)",
                       .summary = sc->summary,
                       .params = d,
                       .n_params = k,
                       .run = matrix_run,
                       .plot_script = "methods.gp",
                       .error_stat = "penetration_max"};
  return x;
}

const xp_experiment *sim_experiment_for(const char *name) {
  size_t len = strlen(name);
  const size_t suffix = strlen("_methods");
  for (size_t i = 0; sim_scenarios[i]; i++) {
    const char *sn = sim_scenarios[i]->name;
    if (strcmp(sn, name) == 0 ||
        (len == strlen(sn) + suffix && strncmp(name, sn, strlen(sn)) == 0 &&
         strcmp(name + strlen(sn), "_methods") == 0))
      return build_experiment(i);
  }
  return NULL;
}

void sim_print_matrix(FILE *out) {
  fprintf(out, "%-16s", "scenario");
  for (size_t j = 0; sim_methods[j]; j++) fprintf(out, " %s", sim_methods[j]->name);
  fputc('\n', out);
  for (size_t i = 0; sim_scenarios[i]; i++) {
    const sim_scenario *sc = sim_scenarios[i];
    fprintf(out, "%-16s", sc->name);
    for (size_t j = 0; sim_methods[j]; j++)
      fprintf(out, " %*s", (int)strlen(sim_methods[j]->name),
              sc->methods & sim_methods[j]->family ? "x" : "-");
    fputc('\n', out);
  }
  fputs("\nx: applies, -: not applicable. Why not:\n", out);
  for (size_t i = 0; sim_scenarios[i]; i++)
    if ((sim_scenarios[i]->methods & SIM_FAMILY_ALL) != SIM_FAMILY_ALL)
      fprintf(out, "  %s: %s\n", sim_scenarios[i]->name,
              sim_scenarios[i]->not_applicable ? sim_scenarios[i]->not_applicable : "");
  int have_peer = 0;
  for (size_t j = 0; sim_methods[j]; j++) have_peer |= sim_methods[j]->family == SIM_FAMILY_PEER;
  if (have_peer) fprintf(out, "  %s\n", peer_not_applicable);
  fputs("\nMethods:\n", out);
  for (size_t j = 0; sim_methods[j]; j++)
    fprintf(out, "  %-16s %-16s %s\n", sim_methods[j]->name, family_name(sim_methods[j]->family),
            sim_methods[j]->description);
}
