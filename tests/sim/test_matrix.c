// SPDX-License-Identifier: MIT
// The method matrix (SPEC §7): every scenario × every applicable method steps through the one
// stepper interface with ok statuses and finite states; the one simulate loop writes a case;
// steps allocate nothing once the contact pattern is set, and what a contact-set change
// allocates is counted; the dropped Hertz sphere converges to impact theory at order ≈ 1.
// Allocation calls are counted by linking with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc.
// cmocka.h needs these three first
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mbs/mbs.h"
#include "scenarios/sphere.h"
#include "sim/sim.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t s);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t s);
void *__wrap_realloc(void *p, size_t n);
static long allocations;
void *__wrap_malloc(size_t n) { return allocations++, __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t s) { return allocations++, __real_calloc(n, s); }
void *__wrap_realloc(void *p, size_t n) { return allocations++, __real_realloc(p, n); }

// the scenario's parameters at their defaults plus the given assignments
static void scenario_params(const sim_scenario *sc, xp_params *p, const char *const *set) {
  const xp_experiment *x = sim_experiment_for(sc->name);
  assert_non_null(x);
  xp_error err = {.code = 0};
  assert_int_equal(xp_params_init(p, x->params, x->n_params, &err), XP_OK);
  for (; set && *set; set++) assert_int_equal(xp_params_set(p, *set, &err), XP_OK);
}

static sim_method_options options(const xp_params *p) {
  sim_method_options o = sim_method_options_default();
  o.h = xp_params_real(p, "h"), o.rtol = 1e-8, o.atol = 1e-8, o.wall_budget = 60;
  o.start = "cold", o.zeta = 0, o.fp_max_iter = 50, o.beta = 1, o.sigma = 1e-3;
  return o;
}

static int all_finite(const double *x, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i])) return 0;
  return 1;
}

static void test_every_method_on_every_scenario(void **state) {
  (void)state;
  int pairs = 0;
  for (size_t i = 0; sim_scenarios[i]; i++) {
    const sim_scenario *sc = sim_scenarios[i];
    for (size_t j = 0; sim_methods[j]; j++) {
      const sim_method *m = sim_methods[j];
      if (!(sc->methods & m->family)) {
        // not applicable: documented (in the descriptor; a peer's reason is its own) and
        // refused when asked for
        if (m->family != SIM_FAMILY_PEER) assert_non_null(sc->not_applicable);
        const sim_method *list[2];
        size_t nl = 0;
        xp_error e = {.code = 0};
        assert_int_equal(sim_methods_parse(m->name, ~0u, sc, list, 2, &nl, &e), XP_ERR_USAGE);
        assert_non_null(strstr(e.message, "does not apply"));
        continue;
      }
      // the penalty ODE with paper A's B_t = 1e6/h is beyond an explicit integrator (rk45 on
      // spring_cylinder: 21 s for 10 ms); this test checks the interface, so it softens B_t there
      static const char *const soft[] = {"Bt=1e4", NULL};
      const int explicit_ode =
          strcmp(m->name, "rk45") == 0 && strcmp(sc->name, "spring_cylinder") == 0;
      xp_params p;
      scenario_params(sc, &p, explicit_ode ? soft : NULL);
      sim_method_options opt = options(&p);
      opt.h /= 10;  // a short run: stiff scenarios cost an explicit integrator ~h·ω steps
      const double t0 = xp_now();
      sim_instance inst;
      xp_error err = {.code = 0};
      assert_int_equal(sc->create(&p, opt.h, &inst, &err), XP_OK);
      const int nq = inst.model->nq, nv = inst.model->nv;
      double *q = malloc((size_t)(nq + nv) * sizeof *q), *v = q + nq;
      memcpy(q, inst.q0, (size_t)nq * sizeof *q);
      memcpy(v, inst.v0, (size_t)nv * sizeof *v);
      void *st = m->create(m, inst.model, &opt, 0, q, v, 5 * opt.h, &err);
      if (!st) fail_msg("%s on %s: create failed: %s", m->name, sc->name, err.message);
      for (int k = 0; k < 5; k++) {
        sim_step_report rep = {0};
        int oc = m->step(st, k * opt.h, (k + 1) * opt.h, q, v, &rep);
        if (oc != 0 || !all_finite(q, nq + nv))
          fail_msg("%s on %s, step %d: outcome %d status %s %s", m->name, sc->name, k, oc,
                   rep.status, rep.message);
      }
      m->free(st);
      free(q);
      sc->free(&inst);
      if (xp_now() - t0 > 0.5) printf("%s on %s: %.2f s\n", m->name, sc->name, xp_now() - t0);
      pairs++;
    }
  }
  printf("matrix: %d scenario × method pairs stepped ok\n", pairs);
  assert_true(pairs >= 7 * 10);
}

// unknown and duplicate methods are refused with the name; 'applicable' expands
static void test_method_list_validation(void **state) {
  (void)state;
  const xp_experiment *x = sim_experiment_for("sphere");
  xp_params p;
  xp_error err = {.code = 0};
  assert_int_equal(xp_params_init(&p, x->params, x->n_params, &err), XP_OK);
  assert_int_equal(xp_params_set(&p, "method=paperA-coulomb,nope", &err), XP_OK);
  char path[] = "/tmp/stabcon_matrix_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  xp_results *r = xp_results_create(path, x, &p, 0, NULL, &err);
  assert_non_null(r);
  assert_int_equal(x->run(&p, r, NULL, &err), XP_ERR_USAGE);
  assert_non_null(strstr(err.message, "unknown method 'nope'"));
  // a repeated method is refused when the parameter is set (xp_params: no repeated list items)
  assert_int_equal(xp_params_set(&p, "method=rk45,rk45", &err), XP_ERR_USAGE);
  assert_non_null(strstr(err.message, "listed twice"));
  // the one simulate loop writes a case with its status
  assert_int_equal(xp_params_set(&p, "method=paperA-coulomb,cvode-bdf", &err), XP_OK);
  assert_int_equal(x->run(&p, r, NULL, &err), XP_OK);
  assert_int_equal(xp_results_commit(r, &err), XP_OK);
  unlink(path);
}

// steps over a fixed contact pattern allocate nothing; a contact that joins or leaves sets up a
// new pattern from the method's own memory: the count per change is printed and bounded
// method settings not made by sim_method_options_default are refused where they are consumed:
// an assertion in a debug build, else an error naming the defaults function (a child process
// takes either, so the test sees both builds)
static void test_zero_filled_options_refused(void **state) {
  (void)state;
  const sim_scenario *sc = sim_scenario_find("sphere");
  assert_non_null(sc);
  sim_instance inst;
  xp_error err = {.code = 0};
  assert_int_equal(sim_instance_make("sphere", NULL, 0, 1e-4, &sc, &inst, &err), XP_OK);
  const sim_method *m = sim_method_find("paperA-relaxed");
  assert_non_null(m);
  const sim_method_options zeroed = {.h = 1e-4, .start = "cold"};
  fflush(stdout);
  const pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    sim_outcome out;
    const int rc = sim_simulate(m, &zeroed, &inst, 1e-3, 10, NULL, NULL, &out, &err);
    void *st = m->create(m, inst.model, &zeroed, 0, inst.q0, inst.v0, 1e-3, &err);
    _exit(rc == XP_ERR_RUN && !st && strstr(err.message, "sim_method_options_default") ? 3 : 4);
  }
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  const int aborted = WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
  const int refused = WIFEXITED(status) && WEXITSTATUS(status) == 3;
  printf("zero-filled method settings: %s\n", aborted   ? "assertion (debug build)"
                                              : refused ? "refused with an error"
                                                        : "ACCEPTED");
  assert_true(aborted || refused);
  // the same settings from the defaults function run
  sim_method_options opt = sim_method_options_default();
  opt.h = 1e-4, opt.start = "cold";
  sim_outcome out;
  assert_int_equal(sim_simulate(m, &opt, &inst, 1e-3, 10, NULL, NULL, &out, &err), XP_OK);
  assert_string_equal(out.status, "ok");
  sc->free(&inst);
}

static void test_allocation_per_step(void **state) {
  (void)state;
  static const char *const set[] = {"initial=resting", "n=20", NULL};
  const sim_scenario *sc = sim_scenario_find("stack");
  xp_params p;
  scenario_params(sc, &p, set);
  const sim_method_options opt = options(&p);
  const sim_method *methods[] = {sim_method_find("paperA-coulomb"),
                                 sim_method_find("paperA-relaxed"),
                                 sim_method_find("theta-implicit")};
  for (size_t j = 0; j < 3; j++) {
    sim_instance inst;
    xp_error err = {.code = 0};
    assert_int_equal(sc->create(&p, opt.h, &inst, &err), XP_OK);
    const int nq = inst.model->nq;
    double *q = inst.q0, *v = inst.v0;
    (void)nq;
    void *st = methods[j]->create(methods[j], inst.model, &opt, 0, q, v, 1, &err);
    assert_non_null(st);
    sim_step_report rep = {0};
    assert_int_equal(methods[j]->step(st, 0, opt.h, q, v, &rep), 0);  // sets the pattern up
    const long before = allocations;
    for (int k = 1; k < 50; k++)
      assert_true(methods[j]->step(st, k * opt.h, (k + 1) * opt.h, q, v, &rep) >= 0);
    printf("resting stack N=20, %s: %ld allocations in 49 steps\n", methods[j]->name,
           allocations - before);
    assert_int_equal(allocations - before, 0);
    methods[j]->free(st);
    sc->free(&inst);
  }
  // the dropped sphere: the contact joins, then leaves; paper A's step sets up each new pattern
  // in its arena (sized at creation: no malloc)
  const char *const dropped[] = {"paperA-coulomb", "theta-implicit"};
  for (size_t j = 0; j < 2; j++) {
    const sim_scenario *ss = sim_scenario_find("sphere");
    scenario_params(ss, &p, NULL);
    sim_instance inst;
    xp_error err = {.code = 0};
    const sim_method_options o2 = options(&p);
    assert_int_equal(ss->create(&p, o2.h, &inst, &err), XP_OK);
    const sim_method *m = sim_method_find(dropped[j]);
    void *st = m->create(m, inst.model, &o2, 0, inst.q0, inst.v0, 1, &err);
    int changes = 0, active_prev = -1;
    long change_allocs = 0, steady_allocs = 0;
    for (int k = 0; k < 2000; k++) {
      sim_step_report rep = {0};
      const long a0 = allocations;
      assert_int_equal(m->step(st, k * o2.h, (k + 1) * o2.h, inst.q0, inst.v0, &rep), 0);
      // the row takes part while it overlaps at the step's start (paper A §5.2)
      const int active = rep.rows->n > 0 && rep.rows->phi[0] <= 0;
      if (active != active_prev && active_prev >= 0)
        changes++, change_allocs += allocations - a0;
      else
        steady_allocs += allocations - a0;
      active_prev = active;
    }
    printf(
        "dropped sphere, %s: %d contact-set changes, %ld allocations at the changes "
        "(%.1f per change), %ld in the other steps\n",
        m->name, changes, change_allocs, changes ? (double)change_allocs / changes : 0.0,
        steady_allocs);
    assert_int_equal(changes, 2);  // the contact joins once and leaves once
    assert_int_equal(steady_allocs, 0);
    assert_int_equal(change_allocs, 0);  // the arena was sized at creation
    m->free(st);
    ss->free(&inst);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_method_on_every_scenario),
      cmocka_unit_test(test_method_list_validation),
      cmocka_unit_test(test_allocation_per_step),
      cmocka_unit_test(test_zero_filled_options_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
