// SPDX-License-Identifier: MIT
// Work–precision on contact scenes (SPEC §9; not a paper figure): every applicable method swept
// over its accuracy knob — the step h of the fixed-step methods (paper A's step, the θ-family,
// ODE, MuJoCo), the tolerance of the error-controlled ones (CVODE BDF and BDF1, RK45 with
// atol = atol_ratio·tol, Simbody's accuracy), and MuJoCo's own knob besides h, solref's time
// constant at a fixed step (the curve mujoco-solref) — on dynamic scenes where contacts open,
// close and slide, each run's error against a reference plotted against its CPU time.
//
// Scenes (all through the one simulate loop, sim.h; `scenes` picks some):
//   hertz         one Hertz sphere (the stack with N = 1, B = 0) dropped from gap_impact onto the
//                 ground: error = max of the relative errors of its largest overlap and its
//                 contact time against Hertz impact theory with gravity (energy: ½v0² + gδ =
//                 (2/5)(k/m)δ^{5/2}, k = E*√r; contact time 2∫₀^δ dd/√(v0² + 2gd − (4/5)(k/m)
//                 d^{5/2}) by quadrature); the peak is the vertex of the parabola through the
//                 largest sampled overlap and its neighbours, contact times by linear
//                 interpolation of the sampled gap, for every method alike;
//   hertz_damped  the same drop with Hunt–Crossley damping (α k d^{3/2}): no closed form; error =
//                 max of the relative errors of the largest overlap and the rebound speed (at
//                 the release, interpolated like the gap) against the reference run's;
//   stack<N>      the dropped column over its landing, T_stack;
//   pile<N>       the pile over its first T_pile (before chaos amplifies rounding);
//   pile<N>_settled  the Hunt–Crossley pile at T_settled: error = max of the relative errors of
//                 the mean centre height and the energy dissipated (kinetic + gravity: each
//                 engine's contact potential differs) against the reference run's;
//   incline_mu=…  the box sliding on the 15° ramp, distance at T_incline against the rigid
//                 closed form ½g(sin θ − μ cos θ)T² (0 when μ ≥ tan θ);
//   rolling       paper B's spring–cylinder rolling (μ = 1, B_t fixed at Bt_rolling): e_q, the
//                 RMS over the output grid of x − x0 cos ωt, ω² = k_s/(1.5 m), rigid rolling.
// Stack and pile: error = RMS over bodies and sample times (every `sample` s) of the centre
// position error against the reference; frictionless (μ = 0) so that every method integrates one
// model (paper A's memoryless Coulomb uses B_t = 1e6/h, which moves with h); the incline keeps
// its friction with B_t fixed at Bt_incline for the same reason. The pile scenes pin their model
// (B, dissipation, r, m) so that a change of the pile's defaults leaves their reference valid.
// References, two independent ways, their difference stored as the floor (a target below it is
// not decidable, SPEC §8): stack, pile and damped drop — RK45 at ref_tol and CVODE BDF at
// ref_tol_bdf (RK45 out of budget: CVODE BDF at 10·ref_tol, stated in floor_kind); the settled
// pile — paper A's step and ODE's at h_ref_settled (CVODE BDF and RK45 are out of budget or
// unstable over its 3 s); hertz, incline and rolling — the closed form, and CVODE BDF at ref_tol
// on the penalty ODE, whose error is the floor.
// Matched accuracy (xp_matched_select): per scene and target, each method's cheapest run that
// reaches the target and stays there for every tighter setting; the cheapest method over all,
// paper A's best, and the speed-up of paper A's step against MuJoCo, ODE and Simbody (the other
// method's CPU time ÷ paper A's: > 1, paper A faster).
// A method's ladder stops before a run predicted to cost more than run_budget CPU seconds, a run
// stops as did-not-finish past 2 run_budget, and a ladder ends after two rungs in a row below
// the smallest accuracy level (its tighter rungs would decide nothing).
//
// Cases: <scene>_reference                       floor, floor_kind, measure, reference values
//        <scene>_<method>_<knob>                 error, its parts, cpu_time, wall_time, steps
//        <scene>_<method>_none                   status not-applicable / not-built, and why
//        <scene>_matched_L<k>                    target, cheapest, speed-ups
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scenarios/spring_cylinder.h"
#include "sim/sim.h"
#include "xp/xp.h"
#include "xp/xp_claim.h"
#include "xp/xp_file.h"
#include "xp/xp_matched.h"

// what a scene's error measures: the impact against theory, the damped impact and the settled
// pile against a reference's values, trajectories against a reference's, the incline's distance
// and the rolling cylinder's x against their closed forms
typedef enum cw_kind {
  CW_IMPACT,
  CW_IMPACT_DAMPED,
  CW_TRAJECTORY,
  CW_SETTLED,
  CW_DISTANCE,
  CW_ROLLING
} cw_kind;

enum { CW_MAX_SCENES = 12, CW_MAX_SETTINGS = 8, CW_LEVELS = 3, CW_MAX_METHODS = 32 };

typedef struct cw_scene {
  char label[48];
  const char *scenario;
  char settings[CW_MAX_SETTINGS][64];
  int ns;
  double T, sample;  // window [s]; sample interval of the error measure and output interval
  cw_kind kind;
  const double *hs;  // the fixed-step ladder
  size_t nh;
  double targets[CW_LEVELS];
  double exact;                 // incline: closed-form distance [m]
  double dmax_exact, tc_exact;  // hertz: impact theory with gravity
  double omega, x0;             // rolling: x = x0 cos(ωt), the rigid rolling closed form
  int stride;                   // q entries per body (7: free bodies; 3: the planar cylinder)
  double h_solref;              // mujoco's solref sweep: its fixed step [s]
  double ref_scale;             // trajectory references: tolerances × this (levels ÷ the stack's)
  char what[256];
} cw_scene;

// ---- the scenes ---------------------------------------------------------------------------

// Hertz impact with gravity: largest overlap from ½v0² + gδ = c δ^{5/2} (c = (2/5)k/m) by
// Newton, contact time 2∫₀^δ dd/√P(d), P = v0² + 2gd − 2c d^{5/2}, with d = δ(1 − s²) (smooth
// integrand) by composite Simpson
static void cw_impact_theory(double k, double m, double g, double gap, double *dmax, double *tc) {
  const double v2 = 2 * g * gap, c = 0.4 * k / m;
  double d = pow(0.5 * v2 / c, 0.4);
  for (int it = 0; it < 100; it++) {
    const double f = c * pow(d, 2.5) - g * d - 0.5 * v2, df = 2.5 * c * pow(d, 1.5) - g;
    const double step = f / df;
    d -= step;
    if (fabs(step) <= 1e-16 * d) break;
  }
  *dmax = d;
  const int n = 4000;  // even
  double sum = 0;
  for (int i = 0; i <= n; i++) {
    const double s = (double)i / n, x = d * (1 - s * s);
    const double P = v2 + 2 * g * x - 2 * c * pow(x, 2.5);
    double f;
    if (i == 0) {  // the limit s → 0: P ≈ −P'(δ) δ s²
      const double dP = 2 * g - 5 * c * pow(d, 1.5);
      f = 2 * d / sqrt(-dP * d);
    } else {
      f = 2 * d * s / sqrt(P);
    }
    sum += f * (i == 0 || i == n ? 1 : i % 2 ? 4 : 2);
  }
  *tc = 2 * sum / (3.0 * n);
}

static void scene_set(cw_scene *s, const char *kv) {
  if (s->ns < CW_MAX_SETTINGS) snprintf(s->settings[s->ns++], sizeof s->settings[0], "%s", kv);
}

// whether the comma list `scenes` names group (or says all)
static int cw_wanted(const xp_params *prm, const char *group) {
  const char *list = xp_params_string(prm, "scenes");
  if (strcmp(list, "all") == 0) return 1;
  const size_t n = strlen(group);
  for (const char *at = list; at && *at; at = strchr(at, ',') ? strchr(at, ',') + 1 : NULL)
    if (strncmp(at, group, n) == 0 && (at[n] == ',' || at[n] == 0)) return 1;
  return 0;
}

static const char *const cw_groups[] = {"hertz",        "hertz_damped", "stack",  "pile",
                                        "pile_settled", "incline",      "rolling"};

// a bad scene name in `scenes`: its message, or NULL
static int cw_scenes_check(const xp_params *prm, xp_error *err) {
  const char *list = xp_params_string(prm, "scenes");
  if (strcmp(list, "all") == 0) return XP_OK;
  for (const char *at = list; at && *at; at = strchr(at, ',') ? strchr(at, ',') + 1 : NULL) {
    const size_t n = strchr(at, ',') ? (size_t)(strchr(at, ',') - at) : strlen(at);
    int ok = 0;
    for (size_t g = 0; g < sizeof cw_groups / sizeof *cw_groups; g++)
      ok |= strlen(cw_groups[g]) == n && strncmp(at, cw_groups[g], n) == 0;
    if (!ok)
      return xp_fail(err, XP_ERR_USAGE,
                     "scenes: unknown scene '%.*s' (all, or a list of: "
                     "hertz,hertz_damped,stack,pile,pile_settled,incline,rolling)",
                     (int)n, at);
  }
  return XP_OK;
}

// the single sphere dropped on the ground: elastic (B = 0, impact theory) or damped
static cw_scene *cw_scene_drop(const xp_params *prm, cw_scene *s, int damped) {
  *s = (cw_scene){.scenario = "stack", .kind = damped ? CW_IMPACT_DAMPED : CW_IMPACT, .stride = 7};
  s->nh = xp_params_list(prm, "h_impact", &s->hs);
  s->h_solref = xp_params_real(prm, "h_solref_impact");
  snprintf(s->label, sizeof s->label, damped ? "hertz_damped" : "hertz");
  const double gap = xp_params_real(prm, "gap_impact"), E = 1e11, r = 0.1, g = 9.81;
  const double alpha = xp_params_real(prm, "alpha_damped");
  char kv[64];
  scene_set(s, "n=1"), scene_set(s, "mu=0"), scene_set(s, "B=0");
  if (damped) {  // Hunt–Crossley: damping α k d^{3/2}, no force jump at the touch
    snprintf(kv, sizeof kv, "alpha=%.17g", alpha);
    scene_set(s, "dissipation=hunt-crossley"), scene_set(s, kv);
  }
  snprintf(kv, sizeof kv, "gap=%.17g", gap);
  scene_set(s, kv);
  cw_impact_theory(E * sqrt(r), 1, g, gap, &s->dmax_exact, &s->tc_exact);
  // the fall, then room for a soft contact's rebound (MuJoCo's default time constant is 20 ms)
  s->T = sqrt(2 * gap / g) + fmax(3 * s->tc_exact, xp_params_real(prm, "rebound_impact"));
  s->sample = xp_params_real(prm, "sample_impact");
  const double *t;
  xp_params_list(prm, "targets_impact", &t);
  memcpy(s->targets, t, sizeof s->targets);
  if (damped)
    snprintf(s->what, sizeof s->what,
             "one Hertz sphere (E* = 1e11 Pa, r = 0.1 m, 1 kg, Hunt-Crossley alpha = %g s/m) "
             "dropped from %g m; error: largest overlap and rebound speed against the reference "
             "(relative)",
             alpha, gap);
  else
    snprintf(s->what, sizeof s->what,
             "one Hertz sphere (E* = 1e11 Pa, r = 0.1 m, 1 kg, B = 0) dropped from %g m; error: "
             "largest overlap and contact time against impact theory (relative)",
             gap);
  return s;
}

// the pile of pile_n spheres: its first T_pile (trajectories) or its settled state at T_settled
static cw_scene *cw_scene_pile(const xp_params *prm, cw_scene *s, int settled) {
  const double *hs, *t;
  const size_t nh = xp_params_list(prm, settled ? "h_settled" : "h", &hs);
  *s = (cw_scene){.scenario = "pile",
                  .kind = settled ? CW_SETTLED : CW_TRAJECTORY,
                  .hs = hs,
                  .nh = nh,
                  .stride = 7};
  // the settled pile's 3 s: MuJoCo's solref ladder at the ladder's longest step
  s->h_solref = settled ? hs[0] : xp_params_real(prm, "h_solref");
  const long pn = xp_params_int(prm, "pile_n");
  // the model pinned (the pile's own defaults may change): the stack's nearly elastic B = 1 N s/m,
  // or Hunt–Crossley damping for the pile that settles
  const double alpha = xp_params_real(prm, "alpha_damped");
  char kv[64];
  snprintf(s->label, sizeof s->label, settled ? "pile%ld_settled" : "pile%ld", pn);
  snprintf(kv, sizeof kv, "n=%ld", pn);
  scene_set(s, kv), scene_set(s, "mu=0"), scene_set(s, settled ? "B=0" : "B=1");
  scene_set(s, "r=0.1"), scene_set(s, "m=1");
  if (settled) {
    snprintf(kv, sizeof kv, "alpha=%.17g", alpha);
    scene_set(s, "dissipation=hunt-crossley"), scene_set(s, kv);
  }
  s->T = xp_params_real(prm, settled ? "T_settled" : "T_pile"),
  s->sample = xp_params_real(prm, "sample");
  xp_params_list(prm, settled ? "targets_settled" : "targets_pile", &t);
  memcpy(s->targets, t, sizeof s->targets);
  // the reference's tolerances follow the levels it judges (the stack's: 1×)
  const double *tp;
  xp_params_list(prm, "targets_position", &tp);
  s->ref_scale = settled ? 1 : s->targets[CW_LEVELS - 1] / tp[CW_LEVELS - 1];
  if (settled)
    snprintf(s->what, sizeof s->what,
             "pile of %ld Hertz spheres between walls (Hunt-Crossley alpha = %g s/m, mu = 0) at "
             "%g s; error: mean centre height and energy dissipated (kinetic + gravity) against "
             "the reference (relative)",
             pn, alpha, s->T);
  else
    snprintf(s->what, sizeof s->what,
             "pile of %ld Hertz spheres between walls (mu = 0) over its first %g s; error: RMS "
             "centre position error [m]",
             pn, s->T);
  return s;
}

// the rolling cylinder pulled by its wall spring (paper B's spring–cylinder, B_t fixed)
static cw_scene *cw_scene_rolling(const xp_params *prm, cw_scene *s) {
  *s = (cw_scene){.scenario = "spring_cylinder", .kind = CW_ROLLING, .stride = 3};
  s->nh = xp_params_list(prm, "h_rolling", &s->hs);
  snprintf(s->label, sizeof s->label, "rolling");
  char kv[64];
  const double bt = xp_params_real(prm, "Bt_rolling");
  snprintf(kv, sizeof kv, "Bt=%.17g", bt);
  scene_set(s, kv), scene_set(s, "mu=1");
  spring_cylinder_params p = spring_cylinder_params_default();
  p.mu = 1, p.bt = bt;
  s->omega = sqrt(p.ks / spring_cylinder_effective_mass(&p)), s->x0 = p.x0;
  s->T = xp_params_real(prm, "T_rolling"), s->sample = xp_params_real(prm, "sample");
  const double *t;
  xp_params_list(prm, "targets_position", &t);
  memcpy(s->targets, t, sizeof s->targets);
  snprintf(s->what, sizeof s->what,
           "cylinder rolling on a compliant ground, pulled by its wall spring (mu = 1, B_t = %g N "
           "s/m), %g s; error: e_q, RMS of x against rigid rolling x0 cos(wt) [m]",
           bt, s->T);
  return s;
}

// the scenes of this run from the parameters; their count
static size_t cw_scenes_make(const xp_params *prm, cw_scene *sc) {
  size_t n = 0;
  const double *hs, *ns, *mus;
  const size_t nh = xp_params_list(prm, "h", &hs);
  const size_t nn = xp_params_list(prm, "stack_n", &ns), nmu = xp_params_list(prm, "mu", &mus);
  const double *tt, *td;
  xp_params_list(prm, "targets_position", &tt);
  xp_params_list(prm, "targets_distance", &td);
  char kv[64];
  cw_scene *s;
  if (cw_wanted(prm, "hertz")) cw_scene_drop(prm, &sc[n++], 0);
  if (cw_wanted(prm, "hertz_damped")) cw_scene_drop(prm, &sc[n++], 1);
  // dropped stacks
  for (size_t i = 0; cw_wanted(prm, "stack") && i < nn && n < CW_MAX_SCENES; i++) {
    s = &sc[n++];
    *s = (cw_scene){.scenario = "stack", .kind = CW_TRAJECTORY, .hs = hs, .nh = nh, .stride = 7};
    s->h_solref = xp_params_real(prm, "h_solref");
    snprintf(s->label, sizeof s->label, "stack%d", (int)ns[i]);
    snprintf(kv, sizeof kv, "n=%d", (int)ns[i]);
    scene_set(s, kv), scene_set(s, "mu=0");
    s->T = xp_params_real(prm, "T_stack"), s->sample = xp_params_real(prm, "sample");
    memcpy(s->targets, tt, sizeof s->targets);
    snprintf(s->what, sizeof s->what,
             "dropped column of %d Hertz spheres (E = 1e11 Pa, B = 1, mu = 0) over %g s; error: "
             "RMS centre position error [m]",
             (int)ns[i], s->T);
  }
  if (cw_wanted(prm, "pile")) cw_scene_pile(prm, &sc[n++], 0);
  if (cw_wanted(prm, "pile_settled")) cw_scene_pile(prm, &sc[n++], 1);
  // the incline, each μ
  const double th = 15 * M_PI / 180, Ti = xp_params_real(prm, "T_incline"), g = 9.81;
  for (size_t i = 0; cw_wanted(prm, "incline") && i < nmu && n < CW_MAX_SCENES; i++) {
    s = &sc[n++];
    *s = (cw_scene){.scenario = "incline", .kind = CW_DISTANCE, .hs = hs, .nh = nh, .stride = 7};
    s->h_solref = xp_params_real(prm, "h_solref");
    snprintf(s->label, sizeof s->label, "incline_mu=%g", mus[i]);
    snprintf(kv, sizeof kv, "mu=%.17g", mus[i]);
    scene_set(s, kv);
    snprintf(kv, sizeof kv, "Bt=%.17g", xp_params_real(prm, "Bt_incline"));
    scene_set(s, kv);
    s->T = Ti, s->sample = xp_params_real(prm, "sample");
    const double a = g * (sin(th) - mus[i] * cos(th));
    s->exact = a > 0 ? 0.5 * a * Ti * Ti : 0;
    memcpy(s->targets, td, sizeof s->targets);
    snprintf(s->what, sizeof s->what,
             "box on four Hertz feet on the 15° ramp, mu = %g, B_t = %g N s/m, %g s; error: "
             "distance against the rigid closed form [m]",
             mus[i], xp_params_real(prm, "Bt_incline"), Ti);
  }
  if (cw_wanted(prm, "rolling") && n < CW_MAX_SCENES) cw_scene_rolling(prm, &sc[n++]);
  return n;
}

// ---- one run: the loop with a probe sampling what the error measure needs ------------------

typedef struct cw_trace {
  const cw_scene *s;
  int nb, stride;
  size_t nsamp, filled;
  double *x;           // nsamp × nb × 3 centre positions at the sample times
  double *cur, *prev;  // nb × 3
  double t_prev;
  double x0, xT;  // incline: the box's x at the start and at T
  // impact: overlap of sphere 0 with the ground
  double r, d1, d2, t1, w1;  // the last two samples (d1 latest), t1 its time, w1 its speed up
  double t_in, t_out, dmax, v_out;
  int phase, finite;
  // settled pile: kinetic + gravity energy at the start and at T, the mean centre height at T
  double e0, eT, zT;
  double rolling_sum;  // rolling: Σ (x − x_exact)² over the sample times
  size_t rolling_n;
  double cpu0, cpu_cap;  // a run stops as did-not-finish past cpu_cap CPU seconds
} cw_trace;

static void cw_trace_free(cw_trace *tr) {
  free(tr->x), free(tr->cur);
  tr->x = tr->cur = tr->prev = NULL;
}

static int cw_trace_init(cw_trace *tr, const cw_scene *s, int nb, double r) {
  *tr =
      (cw_trace){.s = s, .nb = nb, .stride = s->stride, .r = r, .d1 = NAN, .d2 = NAN, .finite = 1};
  tr->nsamp = s->kind == CW_TRAJECTORY ? (size_t)llround(s->T / s->sample) + 1 : 0;
  tr->x = malloc((tr->nsamp * (size_t)nb * 3 + 1) * sizeof *tr->x);
  tr->cur = malloc((size_t)nb * 6 * sizeof *tr->cur);
  if (!tr->x || !tr->cur) return cw_trace_free(tr), -1;
  tr->prev = tr->cur + 3 * nb;
  return 0;
}

// the impact: first touch and release by linear interpolation of the gap, the peak as the
// parabola's vertex through the largest sample and its neighbours (equal spacing), the rebound
// speed w (upward) at the release by the same interpolation
static void cw_impact(cw_trace *tr, double t, double d, double w) {
  if (tr->phase == 0 && d > 0 && tr->d1 == tr->d1) {
    tr->t_in = tr->t1 + (-tr->d1 / (d - tr->d1)) * (t - tr->t1);
    tr->phase = 1;
  } else if (tr->phase == 1 && d <= 0) {
    const double a = tr->d1 / (tr->d1 - d);
    tr->t_out = tr->t1 + a * (t - tr->t1);
    tr->v_out = tr->w1 + a * (w - tr->w1);
    tr->phase = 2;
  }
  if (tr->phase == 1 || (tr->phase == 2 && tr->t_out > tr->t1)) {
    if (tr->d1 > 0 && tr->d1 >= tr->d2 && tr->d1 > d) {  // d1 a local maximum
      const double den = 2 * tr->d1 - tr->d2 - d;
      double peak = tr->d1;
      if (den > 0 && tr->d2 == tr->d2) {
        const double sv = (d - tr->d2) / (2 * den);
        if (fabs(sv) <= 1) peak = tr->d1 + (d - tr->d2) * (d - tr->d2) / (8 * den);
      }
      tr->dmax = fmax(tr->dmax, peak);
    }
  }
  tr->d2 = tr->d1, tr->d1 = d, tr->t1 = t, tr->w1 = w;
}

// kinetic + gravity energy of the free spheres (m = 1 kg, r = 0.1 m, pinned by the scene): the
// contact potential left out, as each engine's contact model has its own
static double cw_energy_mechanical(const cw_trace *tr, const double *q, const double *v) {
  const double m = 1, r = 0.1, g = 9.81, I = 0.4 * m * r * r;
  double e = 0;
  for (int b = 0; b < tr->nb; b++) {
    const double *w = v + 6 * b;
    e += 0.5 * m * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) +
         0.5 * I * (w[3] * w[3] + w[4] * w[4] + w[5] * w[5]) + m * g * q[7 * b + 2];
  }
  return e;
}

static void cw_sample(void *ctx, size_t k, double t, const double *q, const double *v,
                      const sim_step_report *rep) {
  (void)rep;
  cw_trace *tr = ctx;
  const int nb = tr->nb, st = tr->stride;
  for (int b = 0; b < nb; b++)
    for (int i = 0; i < 3; i++) {
      tr->cur[3 * b + i] = q[st * b + i];
      if (!isfinite(q[st * b + i])) tr->finite = 0;
    }
  if (k == 0) tr->x0 = q[0];
  tr->xT = q[0];
  const cw_kind kind = tr->s->kind;
  if (kind == CW_IMPACT || kind == CW_IMPACT_DAMPED) cw_impact(tr, t, tr->r - q[2], v[2]);
  if (kind == CW_SETTLED) {
    const double e = cw_energy_mechanical(tr, q, v);
    if (k == 0) tr->e0 = e;
    tr->eT = e, tr->zT = 0;
    for (int b = 0; b < nb; b++) tr->zT += tr->cur[3 * b + 2] / nb;
  }
  if (kind == CW_ROLLING) {  // e_q on the output grid: h of the fixed-step methods, else sample
    const double dx = q[0] - tr->s->x0 * cos(tr->s->omega * t);
    tr->rolling_sum += dx * dx, tr->rolling_n++;
  }
  if (kind == CW_TRAJECTORY) {
    const double dt = tr->s->sample;
    while (tr->filled < tr->nsamp && (double)tr->filled * dt <= t + 1e-9 * dt) {
      double *x = tr->x + tr->filled * (size_t)nb * 3;
      if (k == 0 || t <= tr->t_prev) {
        memcpy(x, tr->cur, (size_t)nb * 3 * sizeof *x);
      } else {  // linear between the step ends around the sample time (exact on the grid)
        const double a =
            fmin(1, fmax(0, ((double)tr->filled * dt - tr->t_prev) / (t - tr->t_prev)));
        for (int i = 0; i < 3 * nb; i++) x[i] = tr->prev[i] + a * (tr->cur[i] - tr->prev[i]);
      }
      tr->filled++;
    }
  }
  memcpy(tr->prev, tr->cur, (size_t)nb * 3 * sizeof *tr->cur);
  tr->t_prev = t;
}

static double cw_cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const char *cw_stop(void *ctx) {
  const cw_trace *tr = ctx;
  return cw_cpu_now() - tr->cpu0 > tr->cpu_cap ? "did-not-finish" : NULL;
}

typedef struct cw_result {
  int ok;
  char status[32], message[200];
  double cpu, wall;
  size_t steps;
} cw_result;

// runs m on a fresh instance of the scene into tr (initialised here; the caller frees it)
static int cw_run(const cw_scene *s, const sim_method *m, const sim_method_options *opt,
                  double cpu_cap, cw_trace *tr, cw_result *res, xp_error *err) {
  const char *set[CW_MAX_SETTINGS];
  for (int i = 0; i < s->ns; i++) set[i] = s->settings[i];
  const sim_scenario *sc;
  sim_instance inst = {0};
  int rc = sim_instance_make(s->scenario, set, (size_t)s->ns, opt->h, &sc, &inst, err);
  if (rc != XP_OK) return rc;
  if (cw_trace_init(tr, s, inst.model->nq / s->stride, 0.1)) {
    sc->free(&inst);
    return xp_fail(err, XP_ERR_RUN, "out of memory");
  }
  tr->cpu0 = cw_cpu_now(), tr->cpu_cap = cpu_cap;
  sim_probe probe = {.ctx = tr, .sample = cw_sample, .stop = cw_stop};
  sim_outcome oc;
  rc = sim_simulate(m, opt, &inst, s->T, 2, &probe, NULL, &oc, err);
  sc->free(&inst);
  if (rc != XP_OK) return rc;
  *res = (cw_result){.ok = !oc.failed && !oc.stopped && tr->finite,
                     .cpu = oc.cpu_time,
                     .wall = oc.wall_time,
                     .steps = oc.steps_taken};
  snprintf(res->status, sizeof res->status, "%s",
           !tr->finite && !oc.failed ? "blown-up"
           : oc.status               ? oc.status
                                     : "failed");
  snprintf(res->message, sizeof res->message, "%s", oc.message);
  return XP_OK;
}

// the relative difference of a to b
static double cw_rel(double a, double b) { return fabs(a - b) / fabs(b); }

// the error of a run against the reference trace (trajectory, damped impact, settled pile) or
// the exact values (impact theory, the incline's and the rolling cylinder's closed forms)
static double cw_error(const cw_scene *s, const cw_trace *tr, const cw_trace *ref) {
  if (!tr->finite) return NAN;
  if (s->kind == CW_IMPACT) {
    if (tr->phase != 2) return NAN;
    return fmax(cw_rel(tr->dmax, s->dmax_exact), cw_rel(tr->t_out - tr->t_in, s->tc_exact));
  }
  if (s->kind == CW_IMPACT_DAMPED) {
    if (tr->phase != 2 || !ref || ref->phase != 2) return NAN;
    return fmax(cw_rel(tr->dmax, ref->dmax), cw_rel(tr->v_out, ref->v_out));
  }
  if (s->kind == CW_SETTLED) {
    if (!ref) return NAN;
    return fmax(cw_rel(tr->zT, ref->zT), cw_rel(tr->e0 - tr->eT, ref->e0 - ref->eT));
  }
  if (s->kind == CW_DISTANCE) return fabs(tr->xT - tr->x0 - s->exact);
  if (s->kind == CW_ROLLING) return tr->rolling_n ? sqrt(tr->rolling_sum / tr->rolling_n) : NAN;
  if (!ref || tr->filled < tr->nsamp || ref->filled < ref->nsamp || tr->nsamp < 2) return NAN;
  double sum = 0;
  const size_t n = (tr->nsamp - 1) * (size_t)tr->nb;
  for (size_t j = 3 * (size_t)tr->nb; j < tr->nsamp * (size_t)tr->nb * 3; j += 3) {
    const double dx = tr->x[j] - ref->x[j], dy = tr->x[j + 1] - ref->x[j + 1],
                 dz = tr->x[j + 2] - ref->x[j + 2];
    sum += dx * dx + dy * dy + dz * dz;
  }
  return sqrt(sum / (double)n);
}

// whether a scene's errors are measured against a reference run (not a closed form)
static int cw_needs_ref(const cw_scene *s) {
  return s->kind == CW_TRAJECTORY || s->kind == CW_IMPACT_DAMPED || s->kind == CW_SETTLED;
}

// ---- the study ------------------------------------------------------------------------------

typedef struct cw_config {
  const double *tols, *solref;
  size_t ntol, nsolref;
  double ref_tol, ref_tol_bdf, ref_budget, run_budget, atol_ratio, h_ref_settled;
  sim_method_options base;
} cw_config;

static int cw_adaptive(const sim_method *m) {
  return m->family == SIM_FAMILY_ODE || strcmp(m->name, "simbody") == 0;
}

static int cw_end(xp_results *out, xp_case *c, xp_error *err) {
  if (!c || xp_case_end(c)) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
  return XP_OK;
}

static xp_case *cw_case(xp_results *out, const cw_scene *s, const char *method, const char *tail) {
  char name[160];
  snprintf(name, sizeof name, "%.40s_%.60s%s%.50s", s->label, method, tail[0] ? "_" : "", tail);
  xp_case *c = xp_case_begin(out, name);
  if (!c) return NULL;
  xp_case_param_string(c, "scene", s->label);
  xp_case_param_string(c, "method", method);
  return c;
}

// the exact or reference values a scene's errors are measured against
static void cw_reference_values(xp_case *c, const cw_scene *s, const cw_trace *ref) {
  if (s->kind == CW_IMPACT) {
    xp_case_stat_real(c, "overlap_max_theory", s->dmax_exact, "m");
    xp_case_stat_real(c, "contact_time_theory", s->tc_exact, "s");
  }
  if (s->kind == CW_DISTANCE) xp_case_stat_real(c, "distance_exact", s->exact, "m");
  if (s->kind == CW_IMPACT_DAMPED) {
    xp_case_stat_real(c, "overlap_max_ref", ref->dmax, "m");
    xp_case_stat_real(c, "rebound_speed_ref", ref->v_out, "m/s");
    xp_case_stat_real(c, "contact_time_ref", ref->t_out - ref->t_in, "s");
  }
  if (s->kind == CW_SETTLED) {
    xp_case_stat_real(c, "mean_height_ref", ref->zT, "m");
    xp_case_stat_real(c, "energy_dissipated_ref", ref->e0 - ref->eT, "J");
  }
  if (s->kind == CW_ROLLING) xp_case_stat_real(c, "omega", s->omega, "1/s");
}

// the reference of a scene: *ref receives the trace the errors are measured against (trajectory
// scenes: RK45 at ref_tol, the cheaper of the two there; else CVODE BDF at ref_tol), *floor its
// floor: the trajectory's difference to CVODE BDF at ref_tol_bdf (RK45 out of budget: CVODE BDF
// at ref_tol against 10·ref_tol), or the closed form's difference to CVODE BDF
static int cw_reference(const cw_scene *s, const cw_config *cf, xp_results *out, cw_trace *ref,
                        double *floor, xp_error *err) {
  const sim_method *bdf = sim_method_find("cvode-bdf"), *rk = sim_method_find("rk45");
  const int traj = cw_needs_ref(s), settled = s->kind == CW_SETTLED;
  const double scale = s->ref_scale > 0 ? s->ref_scale : 1;
  sim_method_options o = cf->base;
  o.h = s->sample, o.rtol = scale * cf->ref_tol, o.atol = o.rtol * cf->atol_ratio;
  o.wall_budget = cf->ref_budget;
  // the settled pile: paper A's step and ODE's at a small step (CVODE BDF and RK45 cost or fail
  // over its 3 s, stated in the report)
  const sim_method *first = settled ? sim_method_find("paperA-relaxed") : traj ? rk : bdf;
  const sim_method *second = settled ? sim_method_find("ode-step") : bdf;
  const char *kind = settled ? "paperA-relaxed vs ode-step at h_ref_settled"
                     : traj  ? "rk45 at ref_tol vs cvode-bdf at ref_tol_bdf"
                             : "closed form vs cvode-bdf at ref_tol";
  if (settled) o.h = cf->h_ref_settled;
  if (settled && !second) {
    second = first, kind = "paperA-relaxed at h_ref_settled vs its half (ODE not built)";
  }
  cw_result a, b = {0};
  int rc = cw_run(s, first, &o, cf->ref_budget, ref, &a, err);
  if (rc != XP_OK) return rc;
  if (traj && !settled && !a.ok) {
    cw_trace_free(ref);
    kind = "cvode-bdf at ref_tol vs 10 ref_tol (rk45 out of budget)";
    rc = cw_run(s, bdf, &o, cf->ref_budget, ref, &a, err);
    if (rc != XP_OK) return rc;
    o.rtol *= 10, o.atol *= 10;
  } else if (settled && second == first) {
    o.h *= 0.5;
  } else if (traj && !settled) {
    o.rtol = scale * cf->ref_tol_bdf, o.atol = o.rtol * cf->atol_ratio;
  }
  *floor = NAN;
  if (a.ok && !traj) {
    *floor = cw_error(s, ref, NULL);
  } else if (a.ok) {
    cw_trace other = {0};
    rc = cw_run(s, second, &o, cf->ref_budget, &other, &b, err);
    if (rc == XP_OK && b.ok) *floor = cw_error(s, &other, ref);
    cw_trace_free(&other);
    if (rc != XP_OK) return rc;
  }
  xp_case *c = cw_case(out, s, "reference", "");
  if (!c) return cw_end(out, c, err);
  char kinds[160];
  if (scale != 1)
    snprintf(kinds, sizeof kinds, "%s, both x %g (the scene's levels over the stack's)", kind,
             scale);
  else
    snprintf(kinds, sizeof kinds, "%s", kind);
  xp_case_param_string(c, "floor_kind", kinds);
  xp_case_param_string(c, "measure", s->what);
  xp_case_param_real(c, "ref_tol", scale * cf->ref_tol, "");
  xp_case_param_real(c, "ref_tol_bdf", scale * cf->ref_tol_bdf, "");
  xp_case_param_real(c, "T", s->T, "s");
  xp_case_stat_real(c, "floor", *floor, "");
  xp_case_stat_real(c, "cpu_time", a.cpu + b.cpu, "s");
  for (int k = 0; k < CW_LEVELS; k++) {
    char key[16];
    snprintf(key, sizeof key, "target_%d", k + 1);
    xp_case_stat_real(c, key, s->targets[k], "");
  }
  cw_reference_values(c, s, ref);
  xp_case_status(c, a.ok && *floor == *floor ? "ok" : "no-reference",
                 a.ok ? NULL : "the reference did not reach T within ref_budget");
  return cw_end(out, c, err);
}

// the values a run's error is made of (impacts, the settled pile), for the reader
static void cw_values_write(xp_case *c, const cw_scene *s, const cw_trace *tr) {
  if (s->kind == CW_IMPACT || s->kind == CW_IMPACT_DAMPED) {
    const int done = tr->phase == 2;
    xp_case_stat_real(c, "overlap_max", tr->phase ? tr->dmax : NAN, "m");
    xp_case_stat_real(c, "contact_time", done ? tr->t_out - tr->t_in : NAN, "s");
    xp_case_stat_real(c, "rebound_speed", done ? tr->v_out : NAN, "m/s");
  }
  if (s->kind == CW_SETTLED) {
    xp_case_stat_real(c, "mean_height", tr->zT, "m");
    xp_case_stat_real(c, "energy_dissipated", tr->e0 - tr->eT, "J");
  }
}

// a ladder: the method's knob (h, tolerance or MuJoCo's solref time constant) over its values
typedef struct cw_knob {
  const char *kind, *curve;  // "h", "tol" or "solref"; the curve's name (the method's, or its own)
  const double *values;
  size_t n;
} cw_knob;

static cw_knob cw_knob_of(const cw_scene *s, const sim_method *m, const cw_config *cf) {
  if (cw_adaptive(m)) return (cw_knob){"tol", m->name, cf->tols, cf->ntol};
  return (cw_knob){"h", m->name, s->hs, s->nh};
}

// the settings of one rung
static sim_method_options cw_rung(const cw_scene *s, const cw_knob *kn, double knob,
                                  const cw_config *cf) {
  sim_method_options o = cf->base;
  if (strcmp(kn->kind, "tol") == 0) {
    o.h = s->sample, o.rtol = knob, o.atol = knob * cf->atol_ratio;
    o.wall_budget = 4 * cf->run_budget;
  } else if (strcmp(kn->kind, "solref") == 0) {
    o.h = s->h_solref, o.mujoco_timeconst = knob;
  } else {
    o.h = knob;
  }
  return o;
}

// one method's ladder on a scene: its cases, and the points of the matched-accuracy rule
static int cw_ladder(const cw_scene *s, const sim_method *m, const cw_knob *kn, const cw_config *cf,
                     const cw_trace *ref, xp_results *out, xp_matched_point *pts, size_t *npts,
                     xp_error *err) {
  const int adaptive = strcmp(kn->kind, "tol") == 0, solref = strcmp(kn->kind, "solref") == 0;
  *npts = 0;
  for (size_t i = 0; i < kn->n; i++) {
    const double knob = kn->values[i];
    if (solref && knob < 2 * s->h_solref * (1 - 1e-12)) continue;  // MuJoCo's floor: 2h
    sim_method_options o = cw_rung(s, kn, knob, cf);
    cw_trace tr = {0};
    cw_result res;
    int rc = cw_run(s, m, &o, 2 * cf->run_budget, &tr, &res, err);
    if (rc != XP_OK) return cw_trace_free(&tr), rc;
    const double e = res.ok ? cw_error(s, &tr, ref) : NAN;
    char tail[32];
    snprintf(tail, sizeof tail, "%s=%g", kn->kind, knob);
    xp_case *c = cw_case(out, s, kn->curve, tail);
    if (!c) return cw_trace_free(&tr), cw_end(out, c, err);
    cw_values_write(c, s, &tr);
    cw_trace_free(&tr);
    xp_case_param_string(c, "knob_kind", kn->kind);
    xp_case_param_real(c, "knob", knob, adaptive ? "" : "s");
    if (solref) xp_case_param_real(c, "h", o.h, "s");
    xp_case_stat_real(c, "error", e, "");
    xp_case_stat_real(c, "cpu_time", res.cpu, "s");
    xp_case_stat_real(c, "wall_time", res.wall, "s");
    xp_case_stat_real(c, "steps", (double)res.steps, "");
    const int measured = res.ok && e == e;
    xp_case_status(c,
                   measured ? "ok"
                   : res.ok ? "no-measure"
                            : res.status,
                   measured ? NULL
                   : res.ok ? "the run gave no measure (no rebound within T)"
                            : res.message);
    if ((rc = cw_end(out, c, err)) != XP_OK) return rc;
    pts[(*npts)++] = (xp_matched_point){.knob = knob, .error = e, .cost = res.cpu};
    // the next rung's predicted cost (fixed step: this one's × the step ratio; a tolerance: × 3;
    // a time constant at the same step: the same)
    const double ratio = adaptive ? 3 : solref ? 1 : i + 1 < kn->n ? knob / kn->values[i + 1] : 0;
    if (i + 1 < kn->n && ratio * res.cpu > cf->run_budget) break;
    // two rungs in a row below the smallest level: the tighter ones decide nothing more
    const double last = s->targets[CW_LEVELS - 1];
    if (*npts >= 2 && e < last && pts[*npts - 2].error < last) break;
  }
  return XP_OK;
}

// the peers the study names in its speed-ups, by family of engine
static const char *const cw_engines[3][3] = {{"mujoco", "mujoco-stiff", "mujoco-solref"},
                                             {"ode-step", "ode-quickstep", NULL},
                                             {"simbody", NULL, NULL}};
static const char *const cw_engine_names[3] = {"mujoco", "ode", "simbody"};
static const char *const cw_optional[] = {"mujoco", "mujoco-stiff", "ode-step", "ode-quickstep",
                                          "simbody"};

typedef struct cw_method_points {
  const sim_method *m;
  const char *name;  // the curve: the method's name, or mujoco-solref
  xp_matched_point pts[XP_MAX_LIST];
  size_t n;
} cw_method_points;

// the cheapest matched CPU time among the methods whose name is in names (NULL-ended, or prefix
// "paperA-" when names is NULL); INFINITY when none reaches, NAN when undecidable
static double cw_best(const cw_method_points *mp, size_t nm, const char *const *names, size_t nn,
                      double target, double floor, const char **which) {
  double best = INFINITY;
  *which = "";
  for (size_t j = 0; j < nm; j++) {
    int in = names == NULL ? strncmp(mp[j].name, "paperA-", 7) == 0 : 0;
    for (size_t k = 0; names && k < nn; k++) in |= names[k] && strcmp(names[k], mp[j].name) == 0;
    if (!in) continue;
    const int i = xp_matched_select(mp[j].pts, mp[j].n, target, floor);
    if (i == XP_MATCHED_UNDECIDABLE) return NAN;
    if (i >= 0 && mp[j].pts[i].cost < best) best = mp[j].pts[i].cost, *which = mp[j].name;
  }
  return best;
}

static int cw_matched(const cw_scene *s, const cw_method_points *mp, size_t nm, double floor,
                      xp_results *out, xp_error *err) {
  for (int k = 0; k < CW_LEVELS; k++) {
    const double target = s->targets[k];
    const char *all_names[CW_MAX_METHODS], *cheapest, *pa;
    for (size_t j = 0; j < nm; j++) all_names[j] = mp[j].name;
    const double best = cw_best(mp, nm, all_names, nm, target, floor, &cheapest);
    const double pa_cpu = cw_best(mp, nm, NULL, 0, target, floor, &pa);
    char tail[16];
    snprintf(tail, sizeof tail, "L%d", k + 1);
    xp_case *c = cw_case(out, s, "matched", tail);
    if (!c) return cw_end(out, c, err);
    xp_case_param_real(c, "target", target, "");
    xp_case_param_real(c, "level", k + 1, "");
    xp_case_param_string(c, "cheapest", best == best && isfinite(best) ? cheapest : "none");
    xp_case_param_string(c, "paper_a_method", pa_cpu == pa_cpu && isfinite(pa_cpu) ? pa : "none");
    xp_case_stat_real(c, "cheapest_cpu", isfinite(best) ? best : NAN, "s");
    xp_case_stat_real(c, "paper_a_cpu", isfinite(pa_cpu) ? pa_cpu : NAN, "s");
    // paper A's advantage: the cheapest other method's time ÷ paper A's (> 1: paper A cheapest)
    double other = INFINITY;
    const char *ow;
    for (size_t j = 0; j < nm; j++) {
      if (strncmp(mp[j].name, "paperA-", 7) == 0) continue;
      const char *one[1] = {mp[j].name};
      const double t = cw_best(mp, nm, one, 1, target, floor, &ow);
      if (t == t) other = fmin(other, t);
    }
    const double adv = best != best        ? NAN  // undecidable
                       : !isfinite(pa_cpu) ? (isfinite(other) ? 0 : NAN)
                       : !isfinite(other)  ? INFINITY
                                           : other / pa_cpu;
    xp_case_stat_real(c, "paper_a_advantage", adv, "");
    for (int e = 0; e < 3; e++) {
      const char *w;
      const double t = cw_best(mp, nm, cw_engines[e], 3, target, floor, &w);
      int present = 0;  // the engine runs on this scene in this build
      for (size_t j = 0; j < nm; j++)
        for (int k2 = 0; k2 < 3; k2++)
          present |= cw_engines[e][k2] && strcmp(cw_engines[e][k2], mp[j].name) == 0;
      char key[32];
      snprintf(key, sizeof key, "speedup_%s", cw_engine_names[e]);
      xp_case_stat_real(c, key, present && t == t && isfinite(pa_cpu) ? t / pa_cpu : NAN, "");
      snprintf(key, sizeof key, "best_%s", cw_engine_names[e]);
      xp_case_param_string(c, key, !present ? "not-run" : t == t && isfinite(t) ? w : "none");
    }
    xp_case_status(c,
                   best != best     ? "not-decidable"
                   : isfinite(best) ? "ok"
                                    : "none-reached",
                   NULL);
    int rc = cw_end(out, c, err);
    if (rc != XP_OK) return rc;
  }
  return XP_OK;
}

// a method that does not run on a scene: its case and reason
static int cw_reason(xp_results *out, const cw_scene *s, const char *method, const char *status,
                     const char *why, xp_error *err) {
  xp_case *c = cw_case(out, s, method, "none");
  if (!c) return cw_end(out, c, err);
  xp_case_status(c, status, why);
  return cw_end(out, c, err);
}

static int cw_scene_run(const cw_scene *s, const sim_method *const *ms, size_t nm,
                        const cw_config *cf, xp_results *out, xp_error *err) {
  const sim_scenario *sc = sim_scenario_find(s->scenario);
  if (!sc) return xp_fail(err, XP_ERR_RUN, "scenario %s is not built in", s->scenario);
  cw_trace ref = {0};
  double floor;
  int rc = cw_reference(s, cf, out, &ref, &floor, err);
  static cw_method_points mp[CW_MAX_METHODS];
  size_t n = 0;
  for (size_t j = 0; rc == XP_OK && j < nm; j++) {
    if (!(sc->methods & ms[j]->family)) {
      rc = cw_reason(out, s, ms[j]->name, "not-applicable",
                     ms[j]->family == SIM_FAMILY_RIGID ? SIM_IDA_NOT_APPLICABLE
                     : ms[j]->family == SIM_FAMILY_PEER
                         ? "the engines rebuild scenes of free spheres or a box on feet only"
                         : "the scenario does not declare it",
                     err);
      continue;
    }
    cw_knob kn = cw_knob_of(s, ms[j], cf);
    mp[n].m = ms[j], mp[n].name = kn.curve;
    rc = cw_ladder(s, ms[j], &kn, cf, cw_needs_ref(s) ? &ref : NULL, out, mp[n].pts, &mp[n].n, err);
    n++;
    // MuJoCo's own accuracy knob beside h: solref's time constant at a fixed step
    if (rc == XP_OK && strcmp(ms[j]->name, "mujoco") == 0 && cf->nsolref && n < CW_MAX_METHODS) {
      kn = (cw_knob){"solref", "mujoco-solref", cf->solref, cf->nsolref};
      mp[n].m = ms[j], mp[n].name = kn.curve;
      rc = cw_ladder(s, ms[j], &kn, cf, cw_needs_ref(s) ? &ref : NULL, out, mp[n].pts, &mp[n].n,
                     err);
      n++;
    }
  }
  for (size_t j = 0; rc == XP_OK && j < sizeof cw_optional / sizeof *cw_optional; j++)
    if (!sim_method_find(cw_optional[j]))
      rc = cw_reason(out, s, cw_optional[j], "not-built",
                     "this build did not find the engine (install it and reconfigure)", err);
  cw_trace_free(&ref);
  if (rc == XP_OK) rc = cw_matched(s, mp, n, floor, out, err);
  return rc;
}

static int cw_run_all(const xp_params *prm, xp_results *out, xp_progress *progress, xp_error *err) {
  cw_config cf = {.ref_tol = xp_params_real(prm, "ref_tol"),
                  .ref_tol_bdf = xp_params_real(prm, "ref_tol_bdf"),
                  .ref_budget = xp_params_real(prm, "ref_budget"),
                  .run_budget = xp_params_real(prm, "run_budget"),
                  .atol_ratio = xp_params_real(prm, "atol_ratio"),
                  .h_ref_settled = xp_params_real(prm, "h_ref_settled"),
                  .base = sim_method_options_default()};
  sim_method_options_read(prm, &cf.base);
  cf.ntol = xp_params_list(prm, "tol", &cf.tols);
  cf.nsolref = xp_params_list(prm, "solref", &cf.solref);
  const sim_method *ms[CW_MAX_METHODS];
  size_t nm = 0;
  if (sim_methods_parse(xp_params_string(prm, "method"), SIM_FAMILY_ALL | SIM_FAMILY_PEER, NULL, ms,
                        CW_MAX_METHODS, &nm, err))
    return XP_ERR_USAGE;
  if (cw_scenes_check(prm, err)) return XP_ERR_USAGE;
  static cw_scene scenes[CW_MAX_SCENES];
  const size_t ns = cw_scenes_make(prm, scenes);
  for (size_t i = 0; i < ns; i++) {
    int rc = cw_scene_run(&scenes[i], ms, nm, &cf, out, err);
    if (rc != XP_OK) return rc;
    xp_progress_update(progress, (double)(i + 1) / (double)ns);
  }
  return XP_OK;
}

// ---- the report ---------------------------------------------------------------------------

// the claim tested, judged from this study's results file: per scene, the smallest advantage of
// paper A's step over its levels (the cheapest other method's matched time ÷ paper A's)
#define CW_CLAIM_MEAS(label, prefix)                                                          \
  {                                                                                           \
    label, XP_MEAS_MIN, "contact_wp", prefix, "paper_a_advantage", NULL, NULL, NULL, NAN, "", \
        NULL, 0, 1, 0                                                                         \
  }
static const xp_meas cw_claim_meas[] = {
    CW_CLAIM_MEAS("Hertz drop", "hertz_matched_"),
    CW_CLAIM_MEAS("damped Hertz drop", "hertz_damped_matched_"),
    CW_CLAIM_MEAS("dropped stack N = 10", "stack10_matched_"),
    CW_CLAIM_MEAS("pile N = 30", "pile30_matched_"),
    CW_CLAIM_MEAS("settled pile N = 30", "pile30_settled_matched_"),
    CW_CLAIM_MEAS("incline mu = 0", "incline_mu=0_matched_"),
    CW_CLAIM_MEAS("incline mu = 0.125", "incline_mu=0.125_matched_"),
    CW_CLAIM_MEAS("incline mu = 0.25", "incline_mu=0.25_matched_"),
    CW_CLAIM_MEAS("incline mu = 0.375", "incline_mu=0.375_matched_"),
    CW_CLAIM_MEAS("rolling cylinder", "rolling_matched_"),
};
static const xp_claim cw_claims[] = {
    {.where = "contact scenes (SPEC §9)",
     .words = "paper A's step is the cheapest way to a given accuracy on contact scenes",
     .rule = {.kind = XP_RULE_RATIO, .a = 1, .b = 0.5, .upper = 0},
     .meas = cw_claim_meas,
     .n_meas = sizeof cw_claim_meas / sizeof cw_claim_meas[0],
     .note = "per scene, the smallest over its three accuracy levels of the cheapest other "
             "method's matched CPU time divided by paper A's best (any formulation); 0 where "
             "paper A does not reach a level another method reaches; a scene where no method "
             "reaches any level is undecidable and left out"}};

static void cw_cell_speedup(FILE *md, double v, const char *best) {
  if (strcmp(best, "not-run") == 0)
    fprintf(md, " no runs (not built, or not applicable) |");
  else if (v != v)
    fprintf(md, " — |");
  else if (isinf(v))
    fprintf(md, " it does not reach |");
  else if (v == 0)
    fprintf(md, " paper A does not reach |");
  else
    fprintf(md, " %.3g |", v);
}

// every method on a scene: its runs and smallest error, or its reason (one pass over the cases)
static void cw_report_curves(FILE *md, const xp_file *f, const char *scene) {
  enum { CAP = CW_MAX_METHODS * 2 };
  struct {
    char name[48], why[200];
    int runs, measured;
    double emin;
  } m[CAP];
  size_t nm = 0;
  const size_t len = strlen(scene);
  for (size_t i = 0; i < xp_file_case_count(f); i++) {
    const char *c = xp_file_case_name(f, i);
    if (strncmp(c, scene, len) != 0 || c[len] != '_') continue;
    char name[48] = "", status[48] = "";
    xp_file_case_text(f, c, "params", "method", name, sizeof name);
    if (!name[0] || strcmp(name, "reference") == 0 || strcmp(name, "matched") == 0) continue;
    size_t j = 0;
    while (j < nm && strcmp(m[j].name, name) != 0) j++;
    if (j == nm) {
      if (nm == CAP) continue;
      snprintf(m[nm].name, sizeof m[nm].name, "%s", name);
      m[nm].why[0] = 0, m[nm].runs = m[nm].measured = 0, m[nm].emin = INFINITY;
      nm++;
    }
    xp_file_case_status(f, c, status, sizeof status);
    if (strcmp(status, "not-applicable") == 0 || strcmp(status, "not-built") == 0) {
      char msg[150] = "";
      xp_file_case_text(f, c, "", "message", msg, sizeof msg);
      snprintf(m[j].why, sizeof m[j].why, "%s%s%s", status, msg[0] ? ": " : "", msg);
      continue;
    }
    double e = NAN;
    m[j].runs++;
    if (xp_file_case_stat(f, c, "error", &e) == 0 && e == e)
      m[j].measured++, m[j].emin = fmin(m[j].emin, e);
  }
  fprintf(md, "\nCurves: ");
  for (size_t j = 0; j < nm; j++) {
    if (m[j].why[0])
      fprintf(md, "%s%s — %s", j ? "; " : "", m[j].name, m[j].why);
    else
      fprintf(md, "%s%s — %d runs, %d measured%s", j ? "; " : "", m[j].name, m[j].runs,
              m[j].measured,
              m[j].measured ? "" : " (every run failed or blew up: drawn at the axis floor)");
    if (m[j].measured) fprintf(md, ", smallest error %.2g", m[j].emin);
  }
  fprintf(md, ".\n\n");
}

// per scene: the reference, the three levels and every method's curve or reason
static void cw_report_scene(FILE *md, const xp_file *f, const char *scene) {
  char name[200], kind[200] = "", status[48];
  double floor = NAN, T = NAN;
  snprintf(name, sizeof name, "%s_reference", scene);
  xp_file_case_stat(f, name, "floor", &floor);
  xp_file_case_param(f, name, "T", &T);
  xp_file_case_text(f, name, "params", "floor_kind", kind, sizeof kind);
  char measure[256] = "";
  xp_file_case_text(f, name, "params", "measure", measure, sizeof measure);
  fprintf(md, "**%s** (T = %g s; reference floor %.3g, %s)%s%s\n\n", scene, T, floor, kind,
          measure[0] ? ": " : "", measure);
  fprintf(md,
          "| target | cheapest method (CPU s) | paper A's best (CPU s) | speed-up vs MuJoCo | vs "
          "ODE | vs Simbody |\n|---|---|---|---|---|---|\n");
  for (int k = 1; k <= CW_LEVELS; k++) {
    snprintf(name, sizeof name, "%s_matched_L%d", scene, k);
    double target = NAN, cc = NAN, pc = NAN, sp[3] = {NAN, NAN, NAN};
    char bests[3][48] = {"", "", ""};
    char cheapest[48] = "—", pa[48] = "—";
    if (xp_file_case_param(f, name, "target", &target)) continue;
    xp_file_case_status(f, name, status, sizeof status);
    xp_file_case_text(f, name, "params", "cheapest", cheapest, sizeof cheapest);
    xp_file_case_text(f, name, "params", "paper_a_method", pa, sizeof pa);
    xp_file_case_stat(f, name, "cheapest_cpu", &cc);
    xp_file_case_stat(f, name, "paper_a_cpu", &pc);
    for (int e = 0; e < 3; e++) {
      char key[32];
      snprintf(key, sizeof key, "speedup_%s", cw_engine_names[e]);
      xp_file_case_stat(f, name, key, &sp[e]);
      snprintf(key, sizeof key, "best_%s", cw_engine_names[e]);
      snprintf(bests[e], sizeof bests[e], "none");
      xp_file_case_text(f, name, "params", key, bests[e], sizeof bests[e]);
      if (strcmp(bests[e], "none") == 0 && pc == pc) sp[e] = INFINITY;
    }
    if (strcmp(status, "not-decidable") == 0) {
      fprintf(md, "| %.3g | %s | | | | |\n", target,
              xp_matched_outcome_name(XP_MATCHED_UNDECIDABLE));
      continue;
    }
    fprintf(md, "| %.3g | %s (%.3g) | %s (%.3g) |", target, cheapest, cc, pa, pc);
    for (int e = 0; e < 3; e++) cw_cell_speedup(md, pc == pc ? sp[e] : 0, bests[e]);
    fprintf(md, "\n");
  }
  cw_report_curves(md, f, scene);
}

static int cw_report(const char *path, FILE *md, xp_error *err) {
  xp_file *f = xp_file_open(path, err);
  if (!f) return XP_ERR_RUN;
  fprintf(md,
          "Work–precision on contact scenes: every applicable method swept over its accuracy "
          "knob (step h, or tolerance), error against a reference computed two independent "
          "ways (their difference is the floor), cost in CPU seconds. Per scene and target, the "
          "cheapest method by the matched-accuracy rule, paper A's best run, and the speed-up "
          "of paper A's step against each engine at that target. %s; \"it does not reach\": "
          "the engine does not reach the target at any of its settings.\n\n",
          XP_SPEEDUP_HEADER);
  fprintf(md,
          "What each method integrates: paper A's step, the θ-family and the ODE integrators the "
          "same penalty ODE with Hertz rows (the θ-family at paper B's β = 1, whose near-rigid "
          "bound softens a stiff contact to a period of about 1/β steps, so its overlaps and "
          "contact times are not Hertz's); ODE a linear spring–damper per contact from the Hertz "
          "secant stiffness over the step; MuJoCo its soft constraint (solref/solimp): mujoco at "
          "its defaults over h, mujoco-solref over solref's time constant at a fixed step "
          "(critically damped, its knob besides h), mujoco-stiff at the 2h floor following h; "
          "Simbody Hunt–Crossley contact. On the dropped stack and the pile the reference's "
          "collisions are nearly elastic (B = 1): an implicit step longer than a contact's "
          "duration makes them inelastic, so a fixed-step method's error stays at the size of a "
          "bounce until h resolves the impact. The settled pile's statistics are decided by the "
          "pile's chaotic path: its floor (two converged runs of different engines) is their "
          "spread, and only levels above it are decidable. The engines rebuild scenes of free "
          "spheres or a box on feet, not the planar rolling cylinder.\n\n");
  for (size_t i = 0; i < xp_file_case_count(f); i++) {
    const char *c = xp_file_case_name(f, i);
    const size_t n = strlen(c), suffix = strlen("_reference");
    if (n <= suffix || strcmp(c + n - suffix, "_reference") != 0) continue;
    char scene[64];
    snprintf(scene, sizeof scene, "%.*s", (int)(n - suffix), c);
    cw_report_scene(md, f, scene);
  }
  xp_file_close(f);
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", path);
  xp_claims_table(md, cw_claims, sizeof cw_claims / sizeof cw_claims[0], dirname(dir));
  fprintf(md, "\n");
  return XP_OK;
}

static const xp_param_def cw_params[] = {
    {"method", XP_STRING, "applicable", XP_ANY, "", NULL,
     "methods (stabcon list --methods), or applicable: every method of the build"},
    {"h", XP_REAL_LIST, "1e-2,5e-3,2e-3,1e-3,5e-4,2e-4,1e-4,5e-5,2e-5,1e-5,5e-6,2e-6,1e-6",
     XP_POSITIVE, "s", NULL,
     "step sizes of the fixed-step methods (stack, pile, incline), cheap to expensive"},
    {"h_impact", XP_REAL_LIST, "1e-5,5e-6,2e-6,1e-6,5e-7", XP_POSITIVE, "s", NULL,
     "step sizes of the fixed-step methods on the Hertz drop"},
    {"tol", XP_REAL_LIST, "1e-3,1e-4,1e-5,1e-6,1e-7,1e-8", XP_POSITIVE, "", NULL,
     "tolerances (rtol; atol = atol_ratio rtol) of the error-controlled methods"},
    {"atol_ratio", XP_REAL, "1e-3", XP_POSITIVE, "m", NULL,
     "absolute tolerance per unit of relative tolerance (positions of um overlaps)"},
    {"ref_tol", XP_REAL, "1e-10", XP_POSITIVE, "", NULL,
     "tolerance of the references (RK45 on stack and pile, CVODE BDF on the others)"},
    {"ref_tol_bdf", XP_REAL, "1e-8", XP_POSITIVE, "", NULL,
     "tolerance of the second reference on stack and pile (CVODE BDF)"},
    {"rebound_impact", XP_REAL, "0.05", XP_POSITIVE, "s", NULL,
     "Hertz drop: time after the touch the window leaves for the rebound"},
    {"ref_budget", XP_REAL, "120", XP_POSITIVE, "s", NULL, "wall budget of a reference run"},
    {"run_budget", XP_REAL, "0.5", XP_POSITIVE, "s", NULL,
     "a method's ladder stops before a run predicted to cost more CPU seconds than this (its "
     "last run's cost times the step ratio; a tolerance: times 3)"},
    {"stack_n", XP_REAL_LIST, "10", XP_POSITIVE, "", NULL, "dropped stacks: sphere counts"},
    {"pile_n", XP_INT, "30", XP_POSITIVE, "", NULL, "pile: sphere count"},
    {"mu", XP_REAL_LIST, "0,0.125,0.25,0.375", XP_NONNEGATIVE, "", NULL,
     "incline: friction coefficients (paper A §6.4)"},
    {"gap_impact", XP_REAL, "1e-3", XP_POSITIVE, "m", NULL, "Hertz drop: initial gap"},
    {"sample_impact", XP_REAL, "1e-6", XP_POSITIVE, "s", NULL,
     "Hertz drop: output interval of the error-controlled methods"},
    {"sample", XP_REAL, "0.01", XP_POSITIVE, "s", NULL,
     "sample interval of the position error (and output interval) on the other scenes"},
    {"T_stack", XP_REAL, "0.3", XP_POSITIVE, "s", NULL, "dropped stack: window (its landing)"},
    {"T_pile", XP_REAL, "0.3", XP_POSITIVE, "s", NULL, "pile: window of the trajectory error"},
    {"T_settled", XP_REAL, "3", XP_POSITIVE, "s", NULL, "settled pile: when it is measured"},
    {"h_ref_settled", XP_REAL, "1e-4", XP_POSITIVE, "s", NULL,
     "settled pile: the step of its two references (paper A's step and ODE's)"},
    {"h_settled", XP_REAL_LIST, "1e-2,5e-3,2e-3,1e-3,5e-4", XP_POSITIVE, "s", NULL,
     "settled pile: step sizes of the fixed-step methods"},
    {"targets_settled", XP_REAL_LIST, "1e-1,5e-2,2e-2", XP_POSITIVE, "", NULL,
     "settled pile: the three accuracy levels (relative error)"},
    {"alpha_damped", XP_REAL, "1", XP_POSITIVE, "s/m", NULL,
     "damped Hertz drop and settled pile: Hunt-Crossley dissipation alpha of the rows"},
    {"T_rolling", XP_REAL, "2", XP_POSITIVE, "s", NULL, "rolling cylinder: window"},
    {"Bt_rolling", XP_REAL, "1e6", XP_POSITIVE, "N*s/m", NULL,
     "rolling cylinder: tangential damping, fixed for every h"},
    {"h_rolling", XP_REAL_LIST, "2e-2,1e-2,5e-3,2e-3,1e-3,5e-4,2e-4,1e-4,5e-5", XP_POSITIVE, "s",
     NULL, "rolling cylinder: step sizes of the fixed-step methods"},
    {"solref", XP_REAL_LIST, "2e-2,5e-3,1e-3,2e-4,5e-5,1e-5,2e-6", XP_POSITIVE, "s", NULL,
     "mujoco: solref time constants of its second ladder at a fixed step (those >= 2h run)"},
    {"h_solref", XP_REAL, "1e-4", XP_POSITIVE, "s", NULL,
     "mujoco's solref ladder: its step (stack, pile, incline)"},
    {"h_solref_impact", XP_REAL, "1e-6", XP_POSITIVE, "s", NULL,
     "mujoco's solref ladder: its step on the Hertz drops"},
    {"scenes", XP_STRING, "all", XP_ANY, "", NULL,
     "all, or a comma list of hertz, hertz_damped, stack, pile, pile_settled, incline, rolling"},
    {"T_incline", XP_REAL, "0.5", XP_POSITIVE, "s", NULL, "incline: window"},
    {"Bt_incline", XP_REAL, "1e6", XP_POSITIVE, "N*s/m", NULL,
     "incline: tangential damping, fixed for every h"},
    {"targets_impact", XP_REAL_LIST, "1e-1,1e-2,1e-3", XP_POSITIVE, "", NULL,
     "Hertz drop: the three accuracy levels (relative error)"},
    {"targets_pile", XP_REAL_LIST, "1e-2,3e-3,1e-3", XP_POSITIVE, "m", NULL,
     "pile: the three accuracy levels (RMS position error; its nearly elastic bounces over 0.3 "
     "s keep the implicit steps near 1 cm)"},
    {"targets_position", XP_REAL_LIST, "1e-3,1e-4,1e-5", XP_POSITIVE, "m", NULL,
     "stack, rolling cylinder: the three accuracy levels (RMS position error, e_q)"},
    {"targets_distance", XP_REAL_LIST, "1e-3,1e-4,1e-5", XP_POSITIVE, "m", NULL,
     "incline: the three accuracy levels (distance error)"},
    SIM_OPTION_DEFS};

// speculative activation for every method that has it (the dropped column needs it, SPEC §1.5)
static const char *const cw_defaults[] = {"activation=speculative", NULL};
// --full: the column of 100 as well, its references with room (RK45 over 100 spheres takes
// minutes), the ladders ten times longer
static const char *const cw_full[] = {"stack_n=10,100", "run_budget=5", "ref_budget=3600", NULL};

const xp_experiment xp_experiment_contact_wp = {
    .name = "contact_wp",
    .paper_ref = "work-precision on contact scenes, every method and peer (SPEC §9)",
    .summary = "contact scenes at matched accuracy: error vs CPU time per method and scene",
    .params = cw_params,
    .n_params = sizeof cw_params / sizeof cw_params[0],
    .run = cw_run_all,
    .plot_script = "contact_wp.gp",
    .error_stat = "error",
    .report = cw_report,
    .full_size = cw_full,
    .in_reproduce = 1,
    .defaults = cw_defaults,
};
