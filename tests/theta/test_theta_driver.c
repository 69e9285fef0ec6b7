// SPDX-License-Identifier: MIT
// The spring–cylinder experiment driver at reduced size: every case is written with its status,
// the stored fitted order of the midpoint rule is 2, bad parameters are usage errors.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xp/xp.h"
#include "xp/xp_file.h"

extern const xp_experiment xp_experiment_spring_cylinder;

static void test_driver_small_run(void **state) {
  (void)state;
  const xp_experiment *x = &xp_experiment_spring_cylinder;
  xp_params prm;
  xp_error err;
  assert_int_equal(xp_params_init(&prm, x->params, x->n_params, &err), XP_OK);
  const char *sets[] = {"levels=5", "h_conv_max=0.01", "fit_h_max=6.25e-4,5e-3,6.25e-4,0.01"};
  for (size_t i = 0; i < 3; i++) assert_int_equal(xp_params_set(&prm, sets[i], &err), XP_OK);
  char dir[] = "/tmp/theta_driver_XXXXXX", path[128];
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/sc.h5", dir);
  char *argv[] = {"test"};
  xp_results *out = xp_results_create(path, x, &prm, 1, argv, &err);
  assert_non_null(out);
  xp_progress pr = {0};
  if (x->run(&prm, out, &pr, &err) != XP_OK) fail_msg("run: %s", err.message);
  assert_int_equal(xp_results_commit(out, &err), XP_OK);
  xp_file *f = xp_file_open(path, &err);
  assert_non_null(f);
  const size_t n = xp_file_case_count(f);
  printf("%zu cases\n", n);
  assert_int_equal(n, 2 * 4 * 2 + 2 * 2);
  for (size_t i = 0; i < n; i++) {
    char st[256] = "";
    xp_file_case_status(f, xp_file_case_name(f, i), st, sizeof st);
    printf("  %-30s %s\n", xp_file_case_name(f, i), st);
    if (strncmp(xp_file_case_name(f, i), "paperA", 6) != 0) assert_string_equal(st, "ok");
  }
  double order, p2p;
  assert_int_equal(xp_file_case_stat(f, "order_mu=1_midpoint", "fitted_order", &order), 0);
  assert_int_equal(xp_file_case_stat(f, "energy_mu=1_midpoint", "energy_peak_to_peak_rel", &p2p),
                   0);
  printf("stored: midpoint mu = 1 fitted order %.3f, energy peak-to-peak %.4e\n", order, p2p);
  assert_true(fabs(order - 2) < 0.2);
  assert_true(p2p < 5e-3);
  xp_file_close(f);
  unlink(path);
  rmdir(dir);
  // a bad scheme name is a usage error naming the value
  assert_int_equal(xp_params_set(&prm, "method=theta-midpoint,rk4", &err), XP_OK);
  snprintf(path, sizeof path, "/tmp/theta_driver_bad_%d.h5", (int)getpid());
  out = xp_results_create(path, x, &prm, 1, argv, &err);
  assert_non_null(out);
  assert_int_equal(x->run(&prm, out, &pr, &err), XP_ERR_USAGE);
  printf("bad scheme: %s\n", err.message);
  assert_non_null(strstr(err.message, "rk4"));
  xp_results_abort(out);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_driver_small_run)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
