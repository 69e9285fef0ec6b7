// SPDX-License-Identifier: MIT
// The stiffness study at its default size on the 100-element foundation (slow suite): the
// signature measures of the study — the reference floor is far below the error target at every
// stiffness it reaches, paper A's fixed-step cost is flat in E while RK45's grows with it
// (stability-bound, h ≲ 3/ω with ω ∝ √E), and every method has a case under both protocols.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
// cmocka needs the four headers above first
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cli_test_util.h"
#include "xp/xp.h"
#include "xp/xp_file.h"

static double stat_of(const xp_file *f, const char *c, const char *key) {
  double v = NAN;
  xp_file_case_stat(f, c, key, &v);
  return v;
}

static void test_stiffness_foundation(void **state) {
  (void)state;
  const char *args[] = {"run", "stiffness", "--set", "scenarios=foundation100",
                        "-o",  "st.h5",     NULL};
  assert_int_equal(test_run(args), 0);
  char path[300];
  test_path(path, sizeof path, "st.h5");
  xp_error err;
  xp_file *f = xp_file_open(path, &err);
  assert_non_null(f);
  static const char *const Es[] = {"100000", "1e6", "1e7", "1e8", "1e9", "1e10", "1e11", "1e12"};
  double a_min = INFINITY, a_max = 0;
  int refs = 0;
  printf("E        floor      paperA [s]  rk45 [s]\n");
  for (size_t k = 0; k < 8; k++) {
    char c[128], status[64];
    snprintf(c, sizeof c, "foundation100_E=%s_reference", Es[k]);
    assert_int_equal(xp_file_case_status(f, c, status, sizeof status), 0);
    const double fl = stat_of(f, c, "floor_abs");
    if (strcmp(status, "ok") == 0) {
      refs++;
      assert_true(fl < 1e-7);  // 10× below the 1e-6 target
    }
    snprintf(c, sizeof c, "foundation100_E=%s_paperA-relaxed_paper", Es[k]);
    assert_int_equal(xp_file_case_status(f, c, status, sizeof status), 0);
    assert_string_equal(status, "ok");
    const double ta = stat_of(f, c, "wall_min");
    a_min = fmin(a_min, ta), a_max = fmax(a_max, ta);
    snprintf(c, sizeof c, "foundation100_E=%s_rk45_paper", Es[k]);
    printf("%-8s %-10.2g %-11.3g %.3g\n", Es[k], fl, ta, stat_of(f, c, "wall_min"));
  }
  assert_true(refs >= 6);
  // paper A's step: cost independent of the stiffness (within timing noise)
  assert_true(a_max < 5 * a_min);
  // RK45: the stiffest run is at least 30× the softest (or over the budget)
  char status[64];
  xp_file_case_status(f, "foundation100_E=1e12_rk45_paper", status, sizeof status);
  const double r_lo = stat_of(f, "foundation100_E=100000_rk45_paper", "wall_min");
  const double r_hi = stat_of(f, "foundation100_E=1e12_rk45_paper", "wall_min");
  assert_true(strcmp(status, "ok") != 0 || r_hi > 30 * r_lo);
  xp_file_close(f);
}

static int setup(void **state) {
  (void)state;
  return test_dir_create("studies-slow");
}

static int teardown(void **state) {
  (void)state;
  return test_dir_remove();
}

int main(int argc, char **argv) {
  if (argc < 2 || test_stabcon_set(argv[1]) != 0) {
    fprintf(stderr, "usage: test_studies_slow PATH-TO-STABCON\n");
    return 1;
  }
  xp_library_init();
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_stiffness_foundation)};
  return cmocka_run_group_tests(tests, setup, teardown);
}
