// SPDX-License-Identifier: MIT
// sim_scenario — what a scenario declares (SPEC §7): its model instance, parameters, the method
// families that apply, its bodies and its reference probe. The low header of the matrix: a
// scenario includes this and the model layer only (not the simulate loop, not the results
// files); sim.h builds the methods and the loop on it.
#ifndef SIM_SIM_SCENARIO_H
#define SIM_SIM_SCENARIO_H

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "mdl/mdl_model.h"
#include "xp/xp_param_list.h"
#include "xp/xp_params.h"

// Method families; a scenario declares which apply to it as a bit mask.
enum {
  SIM_FAMILY_PAPER_A = 1u << 0,    // paper A's constraint step (mbs_step), per contact formulation
  SIM_FAMILY_THETA = 1u << 1,      // paper B's θ-method with compliant contact (theta_step)
  SIM_FAMILY_ODE = 1u << 2,        // CVODE BDF / GSL RK45 on the penalty ODE (SPEC §4)
  SIM_FAMILY_RIGID = 1u << 3,      // IDA on the rigid-constraint DAE (bilateral rows only, N = I)
  SIM_FAMILY_ALL = (1u << 4) - 1,  // every family of stabcon's own methods
  // a peer simulator rebuilding the model's scene (mdl_model.scene) with its own contact law
  // (MuJoCo, sim_mujoco.h); built only when found
  SIM_FAMILY_PEER = 1u << 4,
  // every family but the rigid reference: models with contact or unilateral rows
  SIM_FAMILY_COMPLIANT = SIM_FAMILY_PAPER_A | SIM_FAMILY_THETA | SIM_FAMILY_ODE,
};

// What one step (or one advance to the next output time) reports, whatever the method.
typedef struct sim_step_report {
  int outcome;           // < 0 not taken (input error or fatal), 0 ok, > 0 taken but degraded
  const char *status;    // the method's own status name ("ok", "max-iterations", …); static
  int iterations;        // solver iterations of the step (interior-point, Newton; ODE: steps taken)
  int solves;            // conic solves of the step (coulomb fixed point), 1 otherwise
  int retried;           // 1 if the step was solved again from the feasible start (sim policy)
  int predicted;         // 1 if the step's solve was accepted from the active-set prediction
  double residual;       // the step's own residual measure (paper A: scaled row residual), or NAN
  double cone_residual;  // largest friction-cone excess max(0, ‖λ_t‖ − μλ_n) [N], or NAN
  double coulomb_residual;  // exact Coulomb conditions' relative residual (SPEC §1.6), or NAN
  const mdl_rows *rows;     // rows evaluated at the step's start (NULL: the method has none)
  const double *force;      // row forces λ [N], one per row of `rows` (NULL: not available)
  char message[160];        // what went wrong, naming the value ("" when ok)

  int rows_active;  // rows that took part in the step's solve (paper A; 0 for the others)
  int resolves;     // re-solves of the step (paper A's speculative activation), or 0
  // the step's counted work (common/sc_work.h), filled by the simulate loop: its operations and
  // sparse factorisations
  double flops, factorizations;
} sim_step_report;

// ---- scenarios ------------------------------------------------------------------------------

// The bodies of a model whose coordinates are not 7 per free body (mdl_scene.h), as its per-body
// history sees them (the sphere's height, the planar cylinder): a static description whose
// functions read the scenario's own instance (sim_instance.data).
typedef struct sim_bodies {
  const char *kind;  // "spheres", or "cylinders" (planar in x–z, axis along y)
  int n;             // bodies
  // body b's centre [m], orientation (unit quaternion w x y z), linear velocity [m/s] and radius
  // [m] at the state (q, v)
  void (*state)(const void *data, const double *q, const double *v, int b, double x[3],
                double rot[4], double xd[3], double *radius);
  // the body whose translation velocity column col is, or −1 (a rotation)
  int (*column_body)(const void *data, int col);
} sim_bodies;

// A model instance ready to simulate: model and initial state, owned by the scenario's create.
typedef struct sim_instance {
  mdl_model *model;
  double *q0, *v0;           // initial state (nq, nv entries)
  void *data;                // the scenario's own instance (for its reference statistics)
  const sim_bodies *bodies;  // optional: its bodies (NULL: the model's scene, if any)
  // optional: total energy [J] at (q, v) — kinetic + gravity + contact potential — of a scene
  // whose model energy leaves the contact springs out (it is evaluated only where the loop
  // records a sample, never inside a method's step); NULL: the model's energy
  double (*energy)(const void *data, const double *q, const double *v);
} sim_instance;

// Allocates a zeroed instance structure of data_size bytes (inst->data) and the initial state
// (nq + nv entries: inst->q0, inst->v0) for a scenario's create; 0, or −1 out of memory (nothing
// kept). sim_instance_release frees both (the scenario frees what its init allocated first).
static inline int sim_instance_alloc(sim_instance *inst, size_t data_size, int nq, int nv) {
  void *data = calloc(1, data_size);
  double *x = calloc((size_t)(nq + nv), sizeof *x);
  if (!data || !x) {
    free(data), free(x);
    return -1;
  }
  *inst = (sim_instance){.model = NULL, .q0 = x, .v0 = x + nq, .data = data, .energy = NULL};
  return 0;
}
static inline void sim_instance_release(sim_instance *inst) {
  free(inst->data);
  free(inst->q0);
  *inst = (sim_instance){0};
}

// Statistics sink: key, value, unit (written as case statistics).
typedef void (*sim_emit_fn)(void *ctx, const char *key, double value, const char *unit);

// A scenario's own observer of a run (reference statistics: impact theory, exact solutions…):
// sees every step's state; writes its statistics at the end.
typedef struct sim_probe {
  void *ctx;
  // step k ≥ 1 ended at (t, q, v) with report rep; k = 0 is the initial state (rep NULL)
  void (*sample)(void *ctx, size_t k, double t, const double *q, const double *v,
                 const sim_step_report *rep);
  void (*finish)(void *ctx, sim_emit_fn emit, void *emit_ctx);
  void (*free)(void *ctx);
  // optional: asked after every step but the last; a non-NULL answer stops the run there and
  // becomes the case status (a study's own stop: divergence, a wall-time budget)
  const char *(*stop)(void *ctx);
  // optional: receives the method's statistics of the run (integrator counters), also when the
  // loop writes no case
  void (*method_stat)(void *ctx, const char *key, double value, const char *unit);
} sim_probe;

// Why the rigid reference (IDA) does not apply to a model with unilateral or contact rows: the
// not_applicable text of every such scenario.
#define SIM_IDA_NOT_APPLICABLE \
  "ida: the rigid DAE holds bilateral rows only, and this model has unilateral or contact rows"

// A scenario descriptor: parameters declared once (name, kind, default, range, unit, help), the
// methods that apply, and how to build the model from the parameters.
typedef struct sim_scenario {
  const char *name;     // CLI name ("sphere", "incline", …)
  const char *summary;  // one line
  const xp_param_def *params;
  size_t n_params;
  unsigned methods;             // SIM_FAMILY_* bits that apply
  const char *not_applicable;   // why the other families do not (shown by list --methods)
  double default_h, default_T;  // the scenario's usual step and duration [s]
  const char *activation;       // paper A's activation rule by default (SPEC §1.5); NULL: overlap
  // Builds the model from the validated parameters and the step size actually used (derived
  // defaults such as B_t = 1e6/h come from h). 0, or an XP_ERR_* code with a message in err.
  int (*create)(const xp_params *p, double h, sim_instance *inst, xp_error *err);
  void (*free)(sim_instance *inst);
  // optional: a probe computing the scenario's reference statistics (NULL: none); 0 or −1
  int (*probe)(const sim_instance *inst, sim_probe *probe);
} sim_scenario;

// NULL-terminated table of every scenario (generated from the build list, sim_registry.c).
extern const sim_scenario *const sim_scenarios[];
// Looks a scenario up by name; NULL if unknown.
const sim_scenario *sim_scenario_find(const char *name);
// Builds an instance of scenario `name` from its declared defaults with the n "key=value"
// settings applied, for the step h actually used; XP_OK with *sc set, or an XP_ERR_* code with a
// message naming the scenario or the bad setting (nothing to free then).
int sim_instance_make(const char *name, const char *const *settings, size_t n, double h,
                      const sim_scenario **sc, sim_instance *inst, xp_error *err);

// Tangential damping B_t [N·s/m] of the memoryless Coulomb friction: the parameter when > 0,
// else paper A §6.4's rule B_t = 1e6/h for the step h actually used — the one place it is written.
static inline double sim_tangent_damping(double bt_param, double h) {
  return bt_param > 0 ? bt_param : 1e6 / h;
}

#endif  // SIM_SIM_SCENARIO_H
