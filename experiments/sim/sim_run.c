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
#include "sim/sim_mujoco.h"
#include "sim/sim_opende.h"
#include "sim/sim_simbody.h"

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
    {"frames", XP_INT, "100", XP_NONNEGATIVE, "", NULL,
     "most per-body frames stored (positions, velocities, forces; scenes only; 0: none)"},
    SIM_OPTION_DEFS  // rtol, atol, budget, start, activation (here: the scenario's), …
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

// why a peer does not apply: it rebuilds the model from its scene (mdl_model.scene)
static const char peer_not_applicable[] =
    "peers (mujoco*, ode-*, simbody): need the model's scene (mdl_scene.h: free spheres, or a box "
    "on feet), which only the stack, the pile and the incline describe";

// the optional peers: their methods exist only in a build that found the engine
typedef struct optional_peer {
  const char *name;
  int (*available)(void);
  const char *install;
} optional_peer;
static const optional_peer optional_peers[] = {
    {"mujoco", sim_mujoco_available, "libmujoco-dev"},
    {"mujoco-stiff", sim_mujoco_available, "libmujoco-dev"},
    {"ode-step", sim_opende_available, "libode-dev"},
    {"ode-quickstep", sim_opende_available, "libode-dev"},
    {"simbody", sim_simbody_available, "libsimbody-dev and g++"},
};
enum { N_OPTIONAL_PEERS = sizeof optional_peers / sizeof optional_peers[0] };

// the optional peer called name that this build lacks, or NULL
static const optional_peer *peer_not_built(const char *name) {
  for (size_t i = 0; i < N_OPTIONAL_PEERS; i++)
    if (strcmp(optional_peers[i].name, name) == 0 && !optional_peers[i].available())
      return &optional_peers[i];
  return NULL;
}

static const char *family_name(unsigned family) {
  return family == SIM_FAMILY_PAPER_A ? "paper A"
         : family == SIM_FAMILY_THETA ? "theta (paper B)"
         : family == SIM_FAMILY_ODE   ? "ODE integrators"
         : family == SIM_FAMILY_PEER  ? "peer"
                                      : "rigid DAE";
}

static int too_many_methods(const char *text, size_t cap, xp_error *err) {
  return xp_fail(err, XP_ERR_USAGE, "parameter method=%s: %s", text,
                 cap == 1 ? "this study runs one method per run" : "too many methods");
}

int sim_methods_parse(const char *text, unsigned families, const sim_scenario *sc,
                      const sim_method **list, size_t cap, size_t *n, xp_error *err) {
  *n = 0;
  if (strcmp(text, "applicable") == 0) {
    for (size_t i = 0; sim_methods[i]; i++)
      if (families & sim_methods[i]->family) {
        if (*n == cap) return too_many_methods(text, cap, err);
        list[(*n)++] = sim_methods[i];
      }
    return XP_OK;
  }
  char buf[256];
  snprintf(buf, sizeof buf, "%s", text);
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    const sim_method *m = sim_method_find(tok);
    const optional_peer *missing = m ? NULL : peer_not_built(tok);
    if (missing)
      return xp_fail(err, XP_ERR_USAGE,
                     "parameter method=%s: peer '%s' is not built (install %s and reconfigure)",
                     text, tok, missing->install);
    if (m && *n == cap) return too_many_methods(text, cap, err);
    if (!m) {
      const char *names[128];
      size_t k = 0;
      for (; sim_methods[k] && k < 128; k++) names[k] = sim_methods[k]->name;
      char hint[XP_DID_YOU_MEAN_MAX];
      xp_did_you_mean(xp_suggest(tok, names, k), hint);
      return xp_fail(err, XP_ERR_USAGE,
                     "parameter method=%s: unknown method '%s'%s (stabcon list --methods)", text,
                     tok, hint);
    }
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

int sim_study_methods(const char *text, const char *scenario, unsigned families, const char *why,
                      const sim_method **list, size_t cap, size_t *n, xp_error *err) {
  const sim_scenario *sc = sim_scenario_find(scenario);
  if (!sc) return xp_fail(err, XP_ERR_RUN, "scenario %s is not built in", scenario);
  if (sim_methods_parse(text, sc->methods & families, sc, list, cap, n, err)) return XP_ERR_USAGE;
  for (size_t i = 0; i < *n; i++)
    if (!(list[i]->family & families))
      return xp_fail(err, XP_ERR_USAGE, "parameter method=%s: %s is not run by this study (%s)",
                     text, list[i]->name, why);
  return XP_OK;
}

const char *sim_study_label(const sim_method *m, const char *const *names,
                            const char *const *labels, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (strcmp(m->name, names[k]) == 0) return labels[k];
  return m->name;
}

static sim_method_options method_options(const xp_params *p) {
  sim_method_options o = sim_method_options_default();
  sim_method_options_read(p, &o);
  o.h = xp_params_real(p, "h");
  o.frames = (size_t)xp_params_int(p, "frames");
  return o;
}

// one method on a fresh instance of the scenario, into case "method=<name>"
static int run_one(const sim_scenario *sc, const sim_method *m, const xp_params *p, xp_results *out,
                   xp_error *err) {
  const sim_method_options opt = method_options(p);
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
    if (m->family == SIM_FAMILY_PAPER_A || m->family == SIM_FAMILY_THETA ||
        strncmp(m->name, "ode-", 4) == 0)
      xp_case_param_string(c, "activation", opt.activation);
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
  if (xp_params_int(p, "frames") > SIM_FRAMES_MAX)
    return xp_fail(err, XP_ERR_USAGE, "parameter frames=%ld: at most %d",
                   xp_params_int(p, "frames"), SIM_FRAMES_MAX);
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
    // paper A's activation rule: the scenario's own (SPEC §1.5)
    if (strcmp(d[k].key, "activation") == 0 && sc->activation) d[k].default_value = sc->activation;
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
  for (size_t i = 0; i < N_OPTIONAL_PEERS; i++)
    if (!optional_peers[i].available())
      fprintf(out, "  %s: not in this build (install %s and reconfigure)\n", optional_peers[i].name,
              optional_peers[i].install);
  fputs("\nMethods:\n", out);
  for (size_t j = 0; sim_methods[j]; j++)
    fprintf(out, "  %-16s %-16s %s\n", sim_methods[j]->name, family_name(sim_methods[j]->family),
            sim_methods[j]->description);
}
