// SPDX-License-Identifier: MIT
// Parameter parsing and validation: every bad value is refused with a message naming it.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "xp/xp.h"

static const xp_param_def defs[] = {
    {"h", XP_REAL_LIST, "1e-5,1e-2", XP_POSITIVE, "s", NULL, "steps"},
    {"k", XP_REAL, "1e6", XP_NONNEGATIVE, "N/m", NULL, "stiffness"},
    {"x0", XP_REAL, "1", XP_ANY, "m", NULL, "start"},
    {"n", XP_INT, "10", XP_POSITIVE, "", NULL, "count"},
    {"contact", XP_STRING, "coulomb", XP_ANY, "", "paper|relaxed|coulomb", "formulation"},
};

static void test_defaults(void **state) {
  (void)state;
  xp_params p;
  xp_error err;
  assert_int_equal(xp_params_init(&p, defs, 5, &err), XP_OK);
  const double *h;
  assert_int_equal(xp_params_list(&p, "h", &h), 2);
  assert_true(h[0] == 1e-5 && h[1] == 1e-2);
  assert_true(xp_params_real(&p, "k") == 1e6);
  assert_int_equal(xp_params_int(&p, "n"), 10);
  assert_string_equal(xp_params_string(&p, "contact"), "coulomb");
}

static void test_good_assignments(void **state) {
  (void)state;
  xp_params p;
  xp_error err;
  xp_params_init(&p, defs, 5, &err);
  assert_int_equal(xp_params_set(&p, "h=0.1", &err), XP_OK);
  assert_int_equal(xp_params_set(&p, "k=0", &err), XP_OK);
  assert_int_equal(xp_params_set(&p, "x0=-2.5", &err), XP_OK);
  assert_int_equal(xp_params_set(&p, "contact=paper", &err), XP_OK);
  const double *h;
  assert_int_equal(xp_params_list(&p, "h", &h), 1);
  assert_true(h[0] == 0.1);
  assert_true(xp_params_real(&p, "x0") == -2.5);
  assert_string_equal(xp_params_string(&p, "contact"), "paper");
}

typedef struct bad_case {
  const char *assignment;
  const char *message_part;  // the message must name the bad value
} bad_case;

static void test_bad_assignments(void **state) {
  (void)state;
  const bad_case bad[] = {
      {"h=0", "h=0: must be > 0"},
      {"h=1e-3,-1", "h=1e-3,-1: entry '-1' must be > 0"},
      {"k=-1", "k=-1: must be >= 0"},
      {"k=abc", "'abc' is not a finite number"},
      {"k=nan", "'nan' is not a finite number"},
      {"k=inf", "'inf' is not a finite number"},
      {"k=1e400", "'1e400' is not a finite number"},
      {"k=1,2", "takes one number"},
      {"k=", "empty value"},
      {"n=2.5", "n=2.5: not an integer"},
      {"n=0", "n=0: must be > 0"},
      {"contact=lcp", "contact=lcp: must be one of paper|relaxed|coulomb"},
      {"mu=1", "unknown parameter 'mu'"},
      {"=1", "expected key=value"},
      {"k", "expected key=value"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    xp_params p;
    xp_error err = {.code = 0};
    xp_params_init(&p, defs, 5, &err);
    int rc = xp_params_set(&p, bad[i].assignment, &err);
    if (rc != XP_ERR_USAGE || !strstr(err.message, bad[i].message_part))
      print_error("'%s' → rc %d, message '%s'\n", bad[i].assignment, rc, err.message);
    assert_int_equal(rc, XP_ERR_USAGE);
    assert_non_null(strstr(err.message, bad[i].message_part));
    // a refused value leaves the previous one in place
    assert_true(xp_params_real(&p, "k") == 1e6);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_defaults),
      cmocka_unit_test(test_good_assignments),
      cmocka_unit_test(test_bad_assignments),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
