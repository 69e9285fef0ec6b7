// SPDX-License-Identifier: MIT
// Exact Coulomb friction on steps the De Saxcé fixed point (SPEC §1.3) does not converge on:
// a corpus of step problems from the landing pile (scenarios/pile.h, paper A's step with the
// speculative rule, the coulomb formulation), each the state (t, q0, v0) at the start of a step
// on which the fixed point (or an earlier version of the Newton method) ended not ok, or that
// the Newton method found hardest. Dumped by this program (test_sim_coulomb_corpus dump N T K FILE
// [newton [MIN_IT [T0 [STARTS]]]]: the first K such steps of a run of the pile of N over T s, with
// MIN_IT also the steps of at least that many iterations, with T0 every step from T0 on, with
// STARTS the Newton starts those steps got in the run, for --starts) into tests/sim/data. A state
// of a pile with tangential stick (the pile's default law, mdl/mdl_stick.h) also carries what the
// run passes from one step to the next beside (q, v): the contacts' stored anchors ("A m E", then
// per anchor its key and MDL_STICK_SLOT values; E their potential); a state without them is stepped
// with memoryless rows (paper A's viscous tangent rows, no rolling cones). Each state is stepped
// once from a fresh workspace. The Newton method (SPEC §1.6) must converge on every one (status ok,
// the exact Coulomb conditions' residual ≤ 1e-10 relative to the step's force scale, the cone's
// excess ≤ 1e-9 of the step's largest force); the fixed point's outcome is reported beside it
// (iterations and time per step), not asserted, unless --newton-only (the pile of 200: the slow
// suite's coulomb_corpus_200). (The dropped stack of N ≤ 50 and the incline give the fixed point
// no failing step, measured: they have no entry here.) The Newton method is run from several
// starts per state (below): its convergence must not depend on which relaxed solution it is
// handed. tests/sim/data/coulomb_starts_pile_qcp.txt holds the relaxed starts of a conic solver
// whose iterative refinement stops at 1 % of the iterate's residuals (as accurate as the
// harness's, different in the last digits that matter), written by --dump-starts.
// cmocka.h needs these three first
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbs/mbs.h"
#include "mbs_internal.h"
#include "mdl/mdl_stick.h"
#include "scenarios/pile.h"
#include "xp/xp.h"

static const char *corpus_path = "tests/sim/data/coulomb_corpus_pile.txt";
static int newton_only;  // --newton-only: the fixed point is not run beside (large piles)

// The Newton method's starts (the relaxed solution it is handed, mbs_cn_start_hook) per run of a
// state: as the step computes them, replayed from a file of starts another conic solver gave
// (--starts FILE, written by --dump-starts FILE; a solve with no recorded start of its size keeps
// its own), or perturbed (--perturb SEED: the step's first start, every λ and w scaled by
// 1 + 0.3u, u uniform in [−1, 1]). Convergence must not depend on which.
enum { START_OWN, START_FILE, START_PERTURBED, START_KINDS };
static const char *start_name[] = {"own start", "recorded start", "perturbed start"};
static const char *starts_path, *dump_path;
static unsigned long perturb_seed;
static int want_perturb;

typedef struct start_ctx {
  int kind, state, call;  // the start's kind, the corpus line's state index, the solve's index
  FILE *f;                // --dump-starts: where starts go
  unsigned long rng;
  int replayed;  // starts taken from the file
} start_ctx;

// the recorded start of (state, call) with ns + nv entries into x; 1 if found
static int start_read(int state, int call, int ns, int nv, double *x) {
  FILE *f = fopen(starts_path, "r");
  if (!f) fail_msg("cannot open the starts %s", starts_path);
  int found = 0, a, b, m, k;
  while (!found && fscanf(f, "%d %d %d %d", &a, &b, &m, &k) == 4) {
    const int take = a == state && b == call && m == ns && k == nv;
    for (int i = 0; i < m + k; i++) {
      double v;
      if (fscanf(f, "%lf", &v) != 1) fail_msg("starts %s: short record", starts_path);
      if (take) x[i] = v;
    }
    found = take;
  }
  fclose(f);
  return found;
}

static double start_uniform(unsigned long *r) {  // u in [−1, 1] (a 64-bit LCG's top bits)
  *r = *r * 6364136223846793005UL + 1442695040888963407UL;
  return (double)(*r >> 11) / (double)(1UL << 52) - 1;
}

static void start_hook(void *ctx, int ns, int nv, double *x) {
  start_ctx *c = ctx;
  if (c->f) {
    fprintf(c->f, "%d %d %d %d", c->state, c->call, ns, nv);
    for (int i = 0; i < ns + nv; i++) fprintf(c->f, " %.17g", x[i]);
    fprintf(c->f, "\n");
    fflush(c->f);
  }
  if (c->kind == START_FILE) c->replayed += start_read(c->state, c->call, ns, nv, x);
  if (c->kind == START_PERTURBED && c->call == 0)  // the step's first start (later ones follow)
    for (int i = 0; i < ns + nv; i++) x[i] *= 1 + 0.3 * start_uniform(&c->rng);
  c->call++;
}

typedef struct step_out {
  mbs_status st;
  int solves, newton_it;
  double residual, cone, us;
  double lmax;  // largest row force |λ| of the step [N]
} step_out;

static mbs_workspace *pile_workspace(pile *s, mbs_coulomb_solver cs) {
  mbs_settings set = mbs_settings_default();
  set.formulation = MBS_COULOMB;
  set.coulomb_solver = cs;
  set.activation = MBS_ACTIVATION_SPECULATIVE;
  return mbs_workspace_create(&s->model, &set, NULL);
}

static step_out step_once(pile *s, mbs_coulomb_solver cs, double t, const double *q0,
                          const double *v0, double *q1, double *v1) {
  mbs_workspace *ws = pile_workspace(s, cs);
  assert_non_null(ws);
  const double t0 = xp_now();
  step_out o = {.st = mbs_step(ws, t, 0.01, q0, v0, q1, v1)};
  o.us = 1e6 * (xp_now() - t0);
  const mbs_info *in = mbs_step_info(ws);
  o.solves = in->fp_iterations, o.newton_it = in->newton_iterations;
  o.residual = in->coulomb_residual, o.cone = in->cone_residual;
  const double *lam = mbs_step_lambda(ws);
  for (int i = 0; i < mbs_step_rows(ws)->n; i++) o.lmax = fmax(o.lmax, fabs(lam[i]));
  mbs_workspace_free(ws);
  return o;
}

// a corpus line: the pile's size, the step's start time, q0 and v0 (13 n), and the stick anchors
// (na < 0: none, memoryless rows)
typedef struct corpus_state {
  int n, na;
  double t, energy, *x;
  unsigned long long *keys;
  double *vals;
} corpus_state;

static void state_free(corpus_state *cs) {
  free(cs->x), free(cs->keys), free(cs->vals);
  *cs = (corpus_state){.na = -1};
}

// parses a corpus line into cs; 0, or −1 if malformed
static int state_parse(const char *line, corpus_state *cs) {
  char *end;
  const char *p = line;
  *cs = (corpus_state){.na = -1};
  cs->n = (int)strtol(p, &end, 10);
  if (end == p || cs->n <= 0 || cs->n > 1000) return -1;
  p = end;
  cs->t = strtod(p, &end);
  if (end == p) return -1;
  p = end;
  const size_t nx = 13 * (size_t)cs->n;
  cs->x = malloc(nx * sizeof *cs->x);
  if (!cs->x) return -1;
  for (size_t j = 0; j < nx; j++, p = end) {
    cs->x[j] = strtod(p, &end);
    if (end == p) return state_free(cs), -1;
  }
  while (*p == ' ') p++;
  if (*p != 'A') return 0;
  cs->na = (int)strtol(p + 1, &end, 10);
  if (end == p + 1 || cs->na < 0) return state_free(cs), -1;
  p = end;
  cs->energy = strtod(p, &end);
  if (end == p) return state_free(cs), -1;
  p = end;
  cs->keys = malloc(((size_t)cs->na + 1) * sizeof *cs->keys);
  cs->vals = malloc(((size_t)cs->na + 1) * MDL_STICK_SLOT * sizeof *cs->vals);
  if (!cs->keys || !cs->vals) return state_free(cs), -1;
  for (int k = 0; k < cs->na; k++) {
    cs->keys[k] = strtoull(p, &end, 10);
    if (end == p) return state_free(cs), -1;
    p = end;
    for (int j = 0; j < MDL_STICK_SLOT; j++, p = end) {
      cs->vals[MDL_STICK_SLOT * k + j] = strtod(p, &end);
      if (end == p) return state_free(cs), -1;
    }
  }
  return 0;
}

// the pile's contact memory as the state's: its anchors (memory on), or none (memory never
// switched on: memoryless rows); 0, or −1 if the pile keeps no anchors or they do not fit
static int state_apply(const corpus_state *cs, pile *s) {
  if (cs->na < 0) return 0;
  return s->stick ? mdl_stick_import(s->stick, cs->na, cs->keys, cs->vals, cs->energy) : -1;
}

// writes a state line: n, t, q0 v0 (x) and the pile's stored anchors (when its memory is on)
static void state_write(FILE *f, const pile *s, double t, const double *x) {
  const int n = s->p.s.n;
  fprintf(f, "%d %.17g", n, t);
  for (size_t j = 0; j < 13 * (size_t)n; j++) fprintf(f, " %.17g", x[j]);
  if (s->stick && mdl_stick_on(s->stick)) {
    const int m = mdl_stick_count(s->stick);
    unsigned long long *keys = malloc(((size_t)m + 1) * sizeof *keys);
    double *vals = malloc(((size_t)m + 1) * MDL_STICK_SLOT * sizeof *vals);
    assert_true(keys && vals && mdl_stick_export(s->stick, m, keys, vals) == m);
    fprintf(f, " A %d %.17g", m, mdl_stick_energy(s->stick));
    for (int k = 0; k < m; k++) {
      fprintf(f, " %llu", keys[k]);
      for (int j = 0; j < MDL_STICK_SLOT; j++) fprintf(f, " %.17g", vals[MDL_STICK_SLOT * k + j]);
    }
    free(keys), free(vals);
  }
  fprintf(f, "\n");
}

// a pile of n spheres at the scenario's defaults, or (stick = 0) with paper A's viscous tangent
// rows, the law of the states without anchors (NULL when it cannot be made)
static pile *pile_of(int n, int stick) {
  pile *s = malloc(sizeof *s);
  pile_params pp = pile_params_default();
  pp.s.n = n;
  if (!stick) pp.tangent = PILE_TANGENT_VISCOUS;
  if (s && pile_init(s, &pp)) free(s), s = NULL;
  return s;
}

// dump N T K FILE: the fixed point's failing step states of the pile of N over T s (at most K)
// (and, when given, every step from t0 on and every one that took at least min_it iterations)
static int dump(int n, double T, int kmax, const char *path, mbs_coulomb_solver cs, int min_it,
                double t0, const char *starts) {
  pile *s = pile_of(n, 1);
  if (!s) return 1;
  const size_t nq = 7 * (size_t)n, nv = 6 * (size_t)n;
  double *q = malloc((nq + nv) * 2 * sizeof *q), *v = q + nq, *q0 = v + nv, *v0 = q0 + nq;
  pile_initial_state(s, q, v);
  mbs_workspace *ws = pile_workspace(s, cs);
  FILE *f = fopen(path, "w");
  if (!ws || !f) return 1;
  const mdl_model *m = &s->model;
  if (m->memory && m->memory(0, q, v, NULL, NULL, m->ctx)) return 1;
  // with STARTS, the Newton starts of the steps written from t0 on (as --dump-starts writes them)
  start_ctx sc = {.kind = START_OWN};
  if (starts && !(sc.f = fopen(starts, "w"))) return 1;
  fprintf(f, "# pile N=%d: step states (N, t, q0, v0) where the %s failed\n", n,
          cs == MBS_COULOMB_NEWTON ? "Newton method" : "De Saxcé fixed point");
  int k = 0, steps = 0, bad = 0;
  double res_max = 0, iters = 0, us = 0, erise = 0, e0 = pile_energy(s, q, v);
  for (long i = 1; i <= lround(T / 0.01) && k < kmax; i++) {
    const double t = (double)(i - 1) * 0.01, c0 = xp_now();
    memcpy(q0, q, (nq + nv) * sizeof *q);
    sc.state = k, sc.call = 0;
    mbs_cn_start_hook(sc.f && t >= t0 - 1e-9 ? start_hook : NULL, &sc);
    const mbs_status st = mbs_step(ws, t, 0.01, q0, v0, q, v);
    mbs_cn_start_hook(NULL, NULL);
    us += 1e6 * (xp_now() - c0);
    if (mbs_status_severity(st) < 0) break;
    const mbs_info *in = mbs_step_info(ws);
    const int its = cs == MBS_COULOMB_NEWTON ? in->newton_iterations : in->fp_iterations;
    if (st == MBS_MAX_ITERATIONS || its >= min_it || t >= t0 - 1e-9)
      state_write(f, s, t, q0), k++;  // the anchors are still the step's
    if (m->memory && m->memory(0.01, q, v, mbs_step_rows(ws), mbs_step_lambda(ws), m->ctx)) break;
    const double e1 = pile_energy(s, q, v);  // with the anchors the step left
    steps++, bad += st != MBS_OK, erise = fmax(erise, e1 - e0), e0 = e1;
    res_max = fmax(res_max, in->coulomb_residual), iters += its;
    if (getenv("CORPUS_TRACE"))
      printf("t %.2f %s newton %d fp %d res %.2e resolves %d contacts %d us %.0f E %.17g\n", t,
             mbs_status_name(st), in->newton_iterations, in->fp_iterations, in->coulomb_residual,
             in->resolves, in->contacts, 1e6 * (xp_now() - c0), e1);
  }
  fclose(f);
  if (sc.f) fclose(sc.f);
  printf(
      "%d steps: %d not ok, largest Coulomb residual %.2e (Newton), %.1f %s and %.0f us per "
      "step, largest energy rise over a step %.2e J; wrote %d states to %s\n",
      steps, bad, res_max, steps ? iters / steps : 0,
      cs == MBS_COULOMB_NEWTON ? "Newton iterations" : "relaxed solves", steps ? us / steps : 0,
      erise, k, path);
  mbs_workspace_free(ws);
  free(q), pile_free(s), free(s);
  return 0;
}

static char line_buf[1 << 22];  // a corpus line (the pile of 200 with its anchors: ~0.3 MB)

// run FILE K T: from the K-th state of a corpus file, the pile's steps to time T in one (warm)
// workspace carrying the contact memory as a run does, each step's status, Newton iterations and
// residual; 1 if any step was not ok
static int run_from(const char *path, int kth, double T) {
  FILE *f = fopen(path, "r");
  if (!f) return fprintf(stderr, "cannot open %s\n", path), 2;
  int k = -1;
  while (k < kth && fgets(line_buf, sizeof line_buf, f))
    if (line_buf[0] != '#') k++;
  fclose(f);
  corpus_state cs;
  if (k != kth || state_parse(line_buf, &cs))
    return fprintf(stderr, "%s: no state %d\n", path, kth), 2;
  const int n = cs.n;
  pile *s = pile_of(n, cs.na >= 0);
  if (!s || state_apply(&cs, s)) return 1;
  const size_t nq = 7 * (size_t)n, nv = 6 * (size_t)n;
  double *q = malloc((nq + nv) * 2 * sizeof *q), *v = q + nq, *q0 = v + nv, *v0 = q0 + nq;
  memcpy(q, cs.x, (nq + nv) * sizeof *q);
  mbs_workspace *ws = pile_workspace(s, MBS_COULOMB_NEWTON);
  const mdl_model *m = cs.na >= 0 ? &s->model : NULL;  // memoryless states stay so
  int bad = 0;
  for (double t = cs.t; t < T - 1e-9; t += 0.01) {
    memcpy(q0, q, (nq + nv) * sizeof *q);
    const double c0 = xp_now();
    const mbs_status st = mbs_step(ws, t, 0.01, q0, v0, q, v);
    const mbs_info *in = mbs_step_info(ws);
    printf("t %.2f %s newton %d res %.2e resolves %d contacts %d us %.0f\n", t, mbs_status_name(st),
           in->newton_iterations, in->coulomb_residual, in->resolves, in->contacts,
           1e6 * (xp_now() - c0));
    fflush(stdout);
    bad += st != MBS_OK;
    if (mbs_status_severity(st) < 0) break;
    if (m && m->memory(0.01, q, v, mbs_step_rows(ws), mbs_step_lambda(ws), m->ctx)) break;
  }
  mbs_workspace_free(ws);
  free(q), pile_free(s), free(s), state_free(&cs);
  return bad > 0;
}

static void test_corpus(void **state) {
  (void)state;
  FILE *f = fopen(corpus_path, "r");
  if (!f) fail_msg("cannot open the corpus %s", corpus_path);
  int cases = 0, fp_failed = 0, failures = 0, runs[START_KINDS] = {0}, it_max[START_KINDS] = {0};
  double us_newton[START_KINDS] = {0}, us_fp = 0, it_newton[START_KINDS] = {0}, solves_fp = 0;
  FILE *dump = dump_path ? fopen(dump_path, "w") : NULL;
  if (dump_path && !dump) fail_msg("cannot write the starts %s", dump_path);
  while (fgets(line_buf, sizeof line_buf, f)) {
    if (line_buf[0] == '#') continue;
    corpus_state cst;
    assert_int_equal(state_parse(line_buf, &cst), 0);
    const int n = cst.n;
    const double t = cst.t;
    assert_true(n <= 200);
    pile *s = pile_of(n, cst.na >= 0);
    assert_non_null(s);
    assert_int_equal(state_apply(&cst, s), 0);
    const size_t nx = 13 * (size_t)n;
    double *x1 = malloc(nx * sizeof *x1);
    assert_non_null(x1);
    const double *q0 = cst.x, *v0 = cst.x + 7 * (size_t)n;
    double *q1 = x1, *v1 = x1 + 7 * (size_t)n;
    for (int kind = 0; kind < START_KINDS; kind++) {
      if ((kind == START_FILE && !starts_path) || (kind == START_PERTURBED && !want_perturb))
        continue;
      start_ctx sc = {.kind = kind, .state = cases, .rng = perturb_seed + 977UL * (unsigned)cases};
      if (kind == START_OWN && dump_path) sc.f = dump;
      mbs_cn_start_hook(start_hook, &sc);
      const step_out nw = step_once(s, MBS_COULOMB_NEWTON, t, q0, v0, q1, v1);
      mbs_cn_start_hook(NULL, NULL);
      printf("N=%d t=%.2f %s: newton %s, %d iterations, residual %.2e, cone excess %.1e N, %.0f us",
             n, t, start_name[kind], mbs_status_name(nw.st), nw.newton_it, nw.residual, nw.cone,
             nw.us);
      if (kind == START_FILE) printf(" (%d of %d starts replayed)", sc.replayed, sc.call);
      printf("\n");
      // every state and start is run; the failures are counted and fail the test at the end
      // (the residual bounds the cone's excess: (1 + μ)√2 times it, relative to the force scale)
      const int bad = nw.st != MBS_OK || !(nw.residual <= 1e-10) || !(nw.cone <= 1e-9 * nw.lmax);
      if (bad)
        printf(
            "NOT OK: t = %.2f, %s: newton %s, residual %.3e, cone excess %.3e N (largest force "
            "%.3e N)\n",
            t, start_name[kind], mbs_status_name(nw.st), nw.residual, nw.cone, nw.lmax);
      failures += bad;
      runs[kind]++, us_newton[kind] += nw.us, it_newton[kind] += nw.newton_it;
      it_max[kind] = it_max[kind] > nw.newton_it ? it_max[kind] : nw.newton_it;
    }
    if (!newton_only) {
      const step_out fp = step_once(s, MBS_COULOMB_FIXED_POINT, t, q0, v0, q1, v1);
      printf("N=%d t=%.2f: fixed point %s, %d solves, %.0f us\n", n, t, mbs_status_name(fp.st),
             fp.solves, fp.us);
      fp_failed += fp.st != MBS_OK, us_fp += fp.us, solves_fp += fp.solves;
    }
    cases++;
    free(x1), pile_free(s), free(s), state_free(&cst);
  }
  fclose(f);
  if (dump) fclose(dump);
  assert_true(cases > 0);
  for (int kind = 0; kind < START_KINDS; kind++)
    if (runs[kind])
      printf("%d steps, %s: newton %.1f iterations per step (max %d), %.0f us per step\n",
             runs[kind], start_name[kind], it_newton[kind] / runs[kind], it_max[kind],
             us_newton[kind] / runs[kind]);
  if (!newton_only)
    printf("%d steps: fixed point %.1f solves, %.0f us per step, %d not ok\n", cases,
           solves_fp / cases, us_fp / cases, fp_failed);
  if (failures) fail_msg("%d Newton solves not ok", failures);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "dump")) {
    // dump N T K FILE [newton]: the failing steps of the fixed point (or of Newton)
    // [MIN_IT [T0]]: also the steps of at least MIN_IT iterations, and every step from T0 on
    if (argc < 6 || argc > 10)
      return fprintf(stderr, "usage: %s dump N T K FILE [newton [MIN_IT [T0 [STARTS]]]]\n",
                     argv[0]),
             2;
    const mbs_coulomb_solver cs =
        argc >= 7 && !strcmp(argv[6], "newton") ? MBS_COULOMB_NEWTON : MBS_COULOMB_FIXED_POINT;
    return dump(atoi(argv[2]), atof(argv[3]), atoi(argv[4]), argv[5], cs,
                argc >= 8 ? atoi(argv[7]) : 1 << 30, argc >= 9 ? atof(argv[8]) : INFINITY,
                argc >= 10 ? argv[9] : NULL);
  }
  if (argc == 5 && !strcmp(argv[1], "run")) return run_from(argv[2], atoi(argv[3]), atof(argv[4]));
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--newton-only"))
      newton_only = 1;
    else if (!strcmp(argv[a], "--starts") && a + 1 < argc)
      starts_path = argv[++a];
    else if (!strcmp(argv[a], "--dump-starts") && a + 1 < argc)
      dump_path = argv[++a];
    else if (!strcmp(argv[a], "--perturb") && a + 1 < argc)
      want_perturb = 1, perturb_seed = strtoul(argv[++a], NULL, 10);
    else
      corpus_path = argv[a];
  }
  FILE *sf = starts_path ? fopen(starts_path, "r") : NULL;
  if (starts_path && !sf) return fprintf(stderr, "cannot open the starts %s\n", starts_path), 2;
  if (sf) fclose(sf);
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_corpus)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
