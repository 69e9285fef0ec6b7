// SPDX-License-Identifier: MIT
// Solution polishing: on orthant-only problems (elastic foundations of 100 … 2500 rows) the
// polished point is exactly complementary (every s_i z_i = 0), passes the independent checker and
// has the same objective as the interior-point point; with second-order cones polishing is not
// attempted.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "qcp/qcp.h"
#include "qcp_gen.h"

// largest |s_i z_i| of the returned point
static double worst_product(const qcp_workspace *ws, int m) {
  const double *s = qcp_solution_s(ws), *z = qcp_solution_z(ws);
  double worst = 0;
  for (int i = 0; i < m; i++) worst = fmax(worst, fabs(s[i] * z[i]));
  return worst;
}

static void test_polish_is_exact_on_orthants(void **state) {
  (void)state;
  const int sizes[] = {100, 900, 2500};
  for (int k = 0; k < 3; k++) {
    qcp_gen g;
    assert_int_equal(qcp_gen_foundation(&g, sizes[k], 1, 0), 0);
    const int m = g.prob.l;
    double obj[2], prod[2];
    for (int pol = 0; pol < 2; pol++) {
      qcp_settings set = qcp_settings_contact();  // the foundation, as the steps solve it
      set.polish = pol;
      qcp_workspace *ws = NULL;
      qcp_error err;
      assert_int_equal(qcp_setup(&ws, &g.prob, &set, &err), QCP_OK);
      assert_int_equal(qcp_solve(ws, QCP_START_COLD, NULL, NULL, NULL, NULL, &err), QCP_OK);
      const qcp_info *info = qcp_info_get(ws);
      assert_int_equal(info->status, QCP_SOLVED);
      assert_int_equal(info->polished, pol);
      qcp_check_result chk;
      qcp_check(&g.prob, qcp_solution_x(ws), qcp_solution_s(ws), qcp_solution_y(ws),
                qcp_solution_z(ws), &chk);
      assert_true(qcp_check_passes(&chk, 1e-8));
      obj[pol] = chk.pobj;
      prod[pol] = worst_product(ws, m);
      qcp_workspace_free(ws);
    }
    printf(
        "foundation%d: max |s_i z_i| %.3e (interior point) → %.3e (polished); objective "
        "%.15g vs %.15g\n",
        sizes[k], prod[0], prod[1], obj[0], obj[1]);
    assert_true(prod[0] > 0);     // the interior-point point is only approximately complementary
    assert_true(prod[1] == 0.0);  // the polished one exactly
    assert_true(fabs(obj[1] - obj[0]) <= 1e-8 * fmax(1, fabs(obj[0])));
    qcp_gen_free(&g);
  }
}

static void test_no_polish_with_cones(void **state) {
  (void)state;
  qcp_gen g;
  assert_int_equal(qcp_gen_stack(&g, 10, 0.5, 1, 0), 0);
  qcp_workspace *ws = NULL;
  qcp_error err;
  assert_int_equal(qcp_setup(&ws, &g.prob, NULL, &err), QCP_OK);
  assert_int_equal(qcp_solve(ws, QCP_START_COLD, NULL, NULL, NULL, NULL, &err), QCP_OK);
  assert_int_equal(qcp_info_get(ws)->status, QCP_SOLVED);
  assert_int_equal(qcp_info_get(ws)->polished, 0);
  qcp_workspace_free(ws);
  qcp_gen_free(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_polish_is_exact_on_orthants),
      cmocka_unit_test(test_no_polish_with_cones),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
