// SPDX-License-Identifier: MIT
// The generated contact family (sphere stacks, elastic foundation) solved to 1e-8 from cold,
// feasible and warm starts with the independent checker passing; zero allocations inside
// update + solve (counting allocator); determinism of a repeated solve.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "qcp/qcp.h"
#include "qcp_gen.h"

// ---- counting allocator ----
typedef struct counter {
  long allocs, frees;
} counter;

static void *count_alloc(size_t bytes, void *ctx) {
  ((counter *)ctx)->allocs++;
  return malloc(bytes);
}

static void count_release(void *ptr, void *ctx) {
  ((counter *)ctx)->frees++;
  free(ptr);
}

// checker at 1e-8 on the solution held by ws; prints the measures on failure
static void assert_checker(const char *name, const char *start, qcp_workspace *ws,
                           const qcp_problem *pr) {
  qcp_check_result cr;
  qcp_check(pr, qcp_solution_x(ws), qcp_solution_s(ws), qcp_solution_y(ws), qcp_solution_z(ws),
            &cr);
  if (!qcp_check_passes(&cr, 1e-8)) {
    print_error("%s (%s): checker pres %.2e dres %.2e gap %.2e s %.2e z %.2e hgx %.2e\n", name,
                start, cr.pres_rel, cr.dres_rel, cr.gap_rel, cr.s_cone, cr.z_cone, cr.infeas_hgx);
    fail();
  }
}

// cold, feasible, then warm on the next "time step" (variant 1, same pattern, via update)
static void run_instance(qcp_gen *g0, qcp_gen *g1, counter *cnt) {
  qcp_settings set = qcp_settings_contact();  // contact loads: as the steps solve them
  set.allocator = (qcp_allocator){count_alloc, count_release, cnt};
  qcp_workspace *ws = NULL;
  qcp_error err;
  assert_int_equal(qcp_setup(&ws, &g0->prob, &set, &err), QCP_OK);
  long allocs_after_setup = cnt->allocs;
  int n = g0->prob.n, p = g0->prob.p, m = g0->prob.G.nrows;
  int it[3];
  double ms[3];
  // cold
  assert_int_equal(qcp_solve(ws, QCP_START_COLD, NULL, NULL, NULL, NULL, &err), QCP_OK);
  const qcp_info *info = qcp_info_get(ws);
  if (info->status != QCP_SOLVED)
    print_error("%s cold: %s\n", g0->name, qcp_status_string(info->status));
  assert_int_equal(info->status, QCP_SOLVED);
  assert_checker(g0->name, "cold", ws, &g0->prob);
  it[0] = info->iterations;
  ms[0] = info->solve_time * 1e3;
  double pobj_cold = info->pobj;
  // feasible-centred
  assert_int_equal(qcp_solve(ws, QCP_START_FEASIBLE, g0->x_feas, NULL, NULL, NULL, &err), QCP_OK);
  assert_int_equal(info->status, QCP_SOLVED);
  assert_checker(g0->name, "feasible", ws, &g0->prob);
  assert_true(fabs(info->pobj - pobj_cold) <= 1e-7 * fmax(1.0, fabs(pobj_cold)));
  it[1] = info->iterations;
  ms[1] = info->solve_time * 1e3;
  // warm: the previous solution, then the next step's values
  double *x = malloc((size_t)n * sizeof *x), *s = malloc((size_t)m * sizeof *s);
  double *y = malloc((size_t)p * sizeof *y), *z = malloc((size_t)m * sizeof *z);
  assert_non_null(x);
  memcpy(x, qcp_solution_x(ws), (size_t)n * sizeof *x);
  memcpy(s, qcp_solution_s(ws), (size_t)m * sizeof *s);
  memcpy(y, qcp_solution_y(ws), (size_t)p * sizeof *y);
  memcpy(z, qcp_solution_z(ws), (size_t)m * sizeof *z);
  long before = cnt->allocs;
  assert_int_equal(qcp_update(ws, g1->Pv, g1->Av, g1->Gv, g1->c, g1->b, g1->h, &err), QCP_OK);
  assert_int_equal(qcp_solve(ws, QCP_START_WARM, x, s, y, z, &err), QCP_OK);
  assert_int_equal(info->status, QCP_SOLVED);
  assert_checker(g0->name, "warm", ws, &g1->prob);
  it[2] = info->iterations;
  ms[2] = info->solve_time * 1e3;
  // no allocation inside update and solve (all three starts)
  assert_int_equal(cnt->allocs, before);
  assert_int_equal(cnt->allocs, allocs_after_setup);
  printf("| %-22s | %5d | %5d | %5d | %8.2f | %8.2f | %8.2f | %8ld |\n", g0->name, it[0], it[1],
         it[2], ms[0], ms[1], ms[2], info->nnz_l);
  // the iteration targets (≤ 20 cold, ≤ 12 feasible/warm) as regression bounds
  assert_true(it[0] <= 20);
  assert_true(it[1] <= 12);
  assert_true(it[2] <= 12);
  qcp_workspace_free(ws);
  assert_int_equal(cnt->allocs, cnt->frees);
  free(x), free(s), free(y), free(z);
}

static void header(void) {
  printf("| %-22s | %5s | %5s | %5s | %8s | %8s | %8s | %8s |\n", "instance", "cold", "feas",
         "warm", "cold ms", "feas ms", "warm ms", "nnz(L)");
}

// number of seeds per instance: QCP_FAMILY_SEEDS (the slow sweep) or the defaults below
static unsigned seeds(unsigned dflt) {
  const char *e = getenv("QCP_FAMILY_SEEDS");
  return e && atoi(e) > 0 ? (unsigned)atoi(e) : dflt;
}

static void test_stacks(void **state) {
  (void)state;
  int Ns[] = {10, 100, 300, 1000};
  double mus[] = {0.1, 0.5, 1.0};
  header();
  for (size_t i = 0; i < 4; i++)
    for (size_t k = 0; k < 3; k++)
      for (unsigned seed = 1; seed <= seeds(Ns[i] <= 100 ? 3u : 1u); seed++) {
        qcp_gen g0, g1;
        counter cnt = {0, 0};
        assert_int_equal(qcp_gen_stack(&g0, Ns[i], mus[k], seed, 0), 0);
        assert_int_equal(qcp_gen_stack(&g1, Ns[i], mus[k], seed, 1), 0);
        run_instance(&g0, &g1, &cnt);
        qcp_gen_free(&g0);
        qcp_gen_free(&g1);
      }
}

static void test_foundations(void **state) {
  (void)state;
  int Rs[] = {100, 900, 2500};
  header();
  for (size_t i = 0; i < 3; i++)
    for (unsigned seed = 1; seed <= seeds(3u); seed++) {
      qcp_gen g0, g1;
      counter cnt = {0, 0};
      assert_int_equal(qcp_gen_foundation(&g0, Rs[i], seed, 0), 0);
      assert_int_equal(qcp_gen_foundation(&g1, Rs[i], seed, 1), 0);
      run_instance(&g0, &g1, &cnt);
      qcp_gen_free(&g0);
      qcp_gen_free(&g1);
    }
}

// FNV-1a over the bytes of the solution: a repeated solve must be bitwise identical
static uint64_t hash_doubles(const double *v, int n, uint64_t h) {
  const unsigned char *b = (const unsigned char *)v;
  for (size_t i = 0; i < (size_t)n * sizeof *v; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
  return h;
}

static void test_determinism(void **state) {
  (void)state;
  qcp_gen g;
  assert_int_equal(qcp_gen_stack(&g, 100, 0.5, 7, 0), 0);
  uint64_t hashes[2];
  for (int r = 0; r < 2; r++) {
    qcp_workspace *ws = NULL;
    qcp_error err;
    assert_int_equal(qcp_setup(&ws, &g.prob, NULL, &err), QCP_OK);
    assert_int_equal(qcp_solve(ws, QCP_START_COLD, NULL, NULL, NULL, NULL, &err), QCP_OK);
    hashes[r] = hash_doubles(qcp_solution_x(ws), g.prob.n, 0xcbf29ce484222325ULL);
    hashes[r] = hash_doubles(qcp_solution_z(ws), g.prob.G.nrows, hashes[r]);
    int count = 0;
    const qcp_iter_record *rec = qcp_records_get(ws, &count);
    assert_int_equal(count, qcp_info_get(ws)->iterations + 1);
    // the records are the iteration history: the last one meets the tolerance
    assert_true(rec[count - 1].pres <= 1e-8 && rec[count - 1].dres <= 1e-8);
    assert_true(rec[0].step > 0.0 && rec[0].sigma >= 0.0);
    qcp_workspace_free(ws);
  }
  assert_true(hashes[0] == hashes[1]);
  qcp_gen_free(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stacks),
      cmocka_unit_test(test_foundations),
      cmocka_unit_test(test_determinism),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
