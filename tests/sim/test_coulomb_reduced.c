// SPDX-License-Identifier: MIT
// The exact Coulomb Newton method (SPEC §1.6) with its linear systems solved through the reduced
// matrix S = A + B (C + G M⁻¹ G_Sᵀ) (w eliminated through M's blocks) on every iteration: the
// product takes S only for the patterns whose full-matrix factor fills in (the pile of 200's hard
// steps), which the default suite's states do not reach. On each state of the landing corpus
// (tests/sim/data/coulomb_corpus_pile.txt, N = 30 and 50) the step must converge with S as with
// the full matrix: status ok and the exact Coulomb conditions' residual ≤ 1e-10 relative to the
// step's force scale; the iterations of both are reported.
// cmocka.h needs these three first
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <stdlib.h>

#include "mbs/mbs.h"
#include "mbs_internal.h"
#include "scenarios/pile.h"

static const char *corpus_path = "tests/sim/data/coulomb_corpus_pile.txt";

// one step of the pile of n from (q0, v0) at t with Newton; its status, iterations, residual
static mbs_status step_newton(pile *s, double t, const double *q0, const double *v0, double *q1,
                              double *v1, int *it, double *res) {
  mbs_settings set = mbs_settings_default();
  set.formulation = MBS_COULOMB;
  set.coulomb_solver = MBS_COULOMB_NEWTON;
  set.activation = MBS_ACTIVATION_SPECULATIVE;
  mbs_workspace *ws = mbs_workspace_create(&s->model, &set, NULL);
  assert_non_null(ws);
  const mbs_status st = mbs_step(ws, t, 0.01, q0, v0, q1, v1);
  *it = mbs_step_info(ws)->newton_iterations, *res = mbs_step_info(ws)->coulomb_residual;
  mbs_workspace_free(ws);
  return st;
}

static void test_reduced(void **state) {
  (void)state;
  FILE *f = fopen(corpus_path, "r");
  if (!f) fail_msg("cannot open the corpus %s", corpus_path);
  static char line[1 << 16];
  int cases = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    char *p = line, *end;
    const int n = (int)strtol(p, &end, 10);
    assert_true(end != p && n > 0);
    p = end;
    const double t = strtod(p, &end);
    p = end;
    pile *s = malloc(sizeof *s);
    pile_params pp = pile_params_default();
    pp.s.n = n;
    assert_true(s && !pile_init(s, &pp));
    const size_t nx = 13 * (size_t)n;
    double *x0 = malloc(2 * nx * sizeof *x0), *x1 = x0 + nx;
    assert_non_null(x0);
    for (size_t j = 0; j < nx; j++, p = end) {
      x0[j] = strtod(p, &end);
      assert_true(end != p);
    }
    int it[2];
    double res[2];
    mbs_status st[2];
    for (int always = 0; always < 2; always++) {
      mbs_cn_reduced_hook(always);
      st[always] = step_newton(s, t, x0, x0 + 7 * (size_t)n, x1, x1 + 7 * (size_t)n, &it[always],
                               &res[always]);
    }
    mbs_cn_reduced_hook(0);
    printf(
        "N=%d t=%.2f: product's choice %s, %d iterations, residual %.2e; reduced always %s, "
        "%d iterations, residual %.2e\n",
        n, t, mbs_status_name(st[0]), it[0], res[0], mbs_status_name(st[1]), it[1], res[1]);
    assert_int_equal(st[1], MBS_OK);
    assert_true(res[1] <= 1e-10);
    assert_true(it[1] > 0);  // the state needs Newton (the reduced solves were made)
    cases++;
    free(x0), pile_free(s), free(s);
  }
  fclose(f);
  assert_true(cases > 0);
}

int main(int argc, char **argv) {
  if (argc > 1) corpus_path = argv[1];
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_reduced)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
