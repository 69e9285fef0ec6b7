// SPDX-License-Identifier: MIT
// Workspace discipline: mbs_step allocates nothing after mbs_workspace_create (dense path, and
// the qcp path once its pattern is set up), and a run is bit-for-bit deterministic.
// Allocation calls are counted by linking with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "mbs/mbs.h"
#include "ref/ref_pendulum.h"
#include "scenarios/incline.h"
#include "scenarios/pendulum.h"
#include "scenarios/rom_pendulum.h"
#include "scenarios/stack.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

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

static void test_no_allocation_in_steps(void **state) {
  (void)state;
  // bilateral pendulum
  pendulum pd;
  pendulum_params p = pendulum_params_default();
  pendulum_init(&pd, &p);
  mbs_workspace *ws = mbs_workspace_create(&pd.model, NULL, NULL);
  assert_non_null(ws);
  double q[3], v[3];
  pendulum_initial_state(&pd, q, v);
  long before = allocations;
  for (int i = 0; i < 1000; i++) assert_int_equal(mbs_step(ws, i * 1e-3, 1e-3, q, v, q, v), MBS_OK);
  printf("pendulum: %ld allocations in 1000 steps (after %ld at setup)\n", allocations - before,
         before);
  assert_int_equal(allocations - before, 0);
  mbs_workspace_free(ws);
  // unilateral impact, dense and qcp
  rom_pendulum_params rpp = rom_pendulum_params_default();
  double w0 = sqrt(rpp.g / rpp.l), t0 = ref_pendulum_quarter_period(w0, M_PI / 2) - 1e-6;
  for (int s = 0; s < 2; s++) {
    rom_pendulum rp;
    rom_pendulum_init(&rp, &rpp);
    mbs_settings set = mbs_settings_default();
    set.solver = s ? MBS_SOLVER_QCP : MBS_SOLVER_DENSE;
    ws = mbs_workspace_create(&rp.model, &set, NULL);
    double th, thd;
    assert_int_equal(ref_pendulum_exact(w0, M_PI / 2, t0, &th, &thd), 0);
    // the first active step sets up qcp's pattern (allocates once); count after it
    long active = 0, counted_from = -1, setup_allocs = 0;
    for (int i = 0; i < 1000; i++) {
      long a0 = allocations;
      assert_int_equal(mbs_step(ws, t0 + i * 1e-8, 1e-8, &th, &thd, &th, &thd), MBS_OK);
      if (mbs_step_info(ws)->rows_unilateral) {
        if (active++ == 0) setup_allocs = allocations - a0, counted_from = allocations;
      }
    }
    long after = counted_from >= 0 ? allocations - counted_from : -1;
    printf(
        "rom_pendulum %s: %ld active steps, %ld allocations at the first active step, %ld in "
        "the rest\n",
        s ? "qcp" : "dense", active, setup_allocs, after);
    assert_true(active > 100);
    assert_int_equal(after, 0);
    if (!s) assert_int_equal(setup_allocs, 0);
    mbs_workspace_free(ws);
  }
}

// FNV-1a hash of the final state bits of a 2000-step pendulum run
static uint64_t run_hash(void) {
  pendulum pd;
  pendulum_params p = pendulum_params_default();
  pendulum_init(&pd, &p);
  mbs_workspace *ws = mbs_workspace_create(&pd.model, NULL, NULL);
  double q[3], v[3];
  pendulum_initial_state(&pd, q, v);
  for (int i = 0; i < 2000; i++) mbs_step(ws, i * 5e-4, 5e-4, q, v, q, v);
  mbs_workspace_free(ws);
  uint64_t h = 1469598103934665603ull;
  unsigned char bytes[6 * sizeof(double)];
  memcpy(bytes, q, sizeof q), memcpy(bytes + sizeof q, v, sizeof v);
  for (size_t i = 0; i < sizeof bytes; i++) h = (h ^ bytes[i]) * 1099511628211ull;
  return h;
}

// frictional contact: the box on the ramp with all four feet active, every formulation
// and start; after the first step (qcp's pattern set up) no step allocates
static void test_no_allocation_contact(void **state) {
  (void)state;
  for (int f = 0; f < MBS_FORMULATION_COUNT; f++)
    for (int st = 0; st <= MBS_START_FEASIBLE; st++) {
      incline s;
      incline_params p = incline_params_default();
      p.mu = 0.375;  // sticks: the four feet stay active, the pattern stays
      incline_init(&s, &p);
      mbs_settings set = mbs_settings_default();
      set.formulation = (mbs_formulation)f;
      set.start = (mbs_start)st;
      mbs_workspace *ws = mbs_workspace_create(&s.model, &set, NULL);
      assert_non_null(ws);
      double q[7], v[6];
      incline_initial_state(&s, q, v);
      assert_int_equal(mbs_step(ws, 0, 0.01, q, v, q, v), MBS_OK);
      long before = allocations;
      for (int i = 1; i < 100; i++)
        assert_int_equal(mbs_step(ws, i * 0.01, 0.01, q, v, q, v), MBS_OK);
      printf("contact steps, %s, start %s: %ld allocations in 99 steps\n",
             mbs_formulation_name((mbs_formulation)f), mbs_start_name((mbs_start)st),
             allocations - before);
      assert_int_equal(allocations - before, 0);
      mbs_workspace_free(ws);
    }
}

// a landing column: contacts join as the spheres land (overlap rule: a row joins
// when it overlaps and leaves when it opens, so bounces change the pattern on many steps;
// speculative: open rows join early and stay). Each new pattern is set up in the workspace's
// arena, sized at creation for the model's capacities (it would grow only for a pattern larger
// than that): no step allocates, in the first drop or the same drop run again.
static void test_no_allocation_landing(void **state) {
  (void)state;
  for (int act = 0; act < 2; act++) {
    stack s;
    stack_params p = stack_params_default();
    p.n = 10;
    assert_int_equal(stack_init(&s, &p), 0);
    mbs_settings set = mbs_settings_default();
    set.activation = act ? MBS_ACTIVATION_SPECULATIVE : MBS_ACTIVATION_OVERLAP;
    mbs_workspace *ws = mbs_workspace_create(&s.model, &set, NULL);
    assert_non_null(ws);
    double q[7 * 10], v[6 * 10];
    assert_true(s.model.nq <= 70 && s.model.nv <= 60);
    for (int run = 0; run < 2; run++) {
      stack_initial_state(&s, q, v);
      long changes = 0, change_allocs = 0, allocating_changes = 0, other_allocs = 0;
      for (int i = 0; i < 150; i++) {
        const long a0 = allocations;
        assert_true(mbs_step(ws, i * 0.01, 0.01, q, v, q, v) >= MBS_OK);
        const long a = allocations - a0;
        if (mbs_step_info(ws)->pattern_setups > 0)
          changes++, change_allocs += a, allocating_changes += a > 0;
        else
          other_allocs += a;
      }
      printf(
          "landing stack N=10, %s, drop %d: %ld steps with a new pattern, %ld allocations in %ld "
          "of them, %ld in the other steps\n",
          mbs_activation_name(set.activation), run + 1, changes, change_allocs, allocating_changes,
          other_allocs);
      assert_true(changes >= (act ? 2 : 10));
      assert_int_equal(other_allocs, 0);
      assert_int_equal(change_allocs, 0);
    }
    mbs_workspace_free(ws);
    stack_free(&s);
  }
}

static void test_determinism(void **state) {
  (void)state;
  uint64_t a = run_hash(), b = run_hash();
  printf("state hash: %016llx %016llx\n", (unsigned long long)a, (unsigned long long)b);
  assert_true(a == b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_no_allocation_in_steps),
      cmocka_unit_test(test_no_allocation_contact),
      cmocka_unit_test(test_no_allocation_landing),
      cmocka_unit_test(test_determinism),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
