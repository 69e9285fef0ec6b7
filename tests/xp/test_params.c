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
#include "xp/xp_param_list.h"

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

// ---- a parameter list of every kind (xp_param_list.h) --------------------------------------

typedef enum shade { SHADE_LIGHT = 0, SHADE_DARK = 1 } shade;

static int shade_parse(const char *name, shade *out) {
  if (strcmp(name, "light") == 0) return *out = SHADE_LIGHT, 0;
  if (strcmp(name, "dark") == 0) return *out = SHADE_DARK, 0;
  return -1;
}

#define DEMO_PARAM_LIST(X)                            \
  X(REAL, mass, m, 2.5, XP_POSITIVE, "kg", "mass")    \
  X(DEG, angle, angle_deg, 30, XP_ANY, "angle")       \
  X(INT, count, n, unsigned, 7, XP_POSITIVE, "count") \
  X(ENUM, tone, tone, shade, SHADE_DARK, "dark", "light|dark", "the shade")

typedef struct demo_params {
  DEMO_PARAM_LIST(XP_PARAM_FIELD)
} demo_params;

static const xp_param_def demo_defs[] = {DEMO_PARAM_LIST(XP_PARAM_DEF)};

static int demo_read(const xp_params *prm, demo_params *out, xp_error *err) {
  DEMO_PARAM_LIST(XP_PARAM_READ)
  return XP_OK;
}

// the list's table, defaults and reader agree; set values reach the fields converted
static void test_param_list(void **state) {
  (void)state;
  assert_int_equal(sizeof demo_defs / sizeof demo_defs[0], 4);
  assert_string_equal(demo_defs[0].key, "m");
  assert_string_equal(demo_defs[0].default_value, "2.5");
  assert_string_equal(demo_defs[0].unit, "kg");
  assert_string_equal(demo_defs[1].key, "angle_deg");
  assert_string_equal(demo_defs[1].unit, "deg");
  assert_int_equal(demo_defs[2].kind, XP_INT);
  assert_int_equal(demo_defs[3].kind, XP_STRING);
  assert_string_equal(demo_defs[3].choices, "light|dark");
  assert_string_equal(demo_defs[3].default_value, "dark");
  xp_params p;
  xp_error err;
  assert_int_equal(xp_params_init(&p, demo_defs, 4, &err), XP_OK);
  const demo_params def = {DEMO_PARAM_LIST(XP_PARAM_VALUE)};
  demo_params got = {0};
  assert_int_equal(demo_read(&p, &got, &err), XP_OK);
  assert_true(got.mass == def.mass && got.angle == def.angle);
  assert_true(got.count == def.count && got.tone == def.tone);
  assert_true(fabs(got.angle - M_PI / 6) < 1e-15);
  assert_int_equal(xp_params_set(&p, "tone=light", &err), XP_OK);
  assert_int_equal(xp_params_set(&p, "n=3", &err), XP_OK);
  assert_int_equal(xp_params_set(&p, "angle_deg=90", &err), XP_OK);
  assert_int_equal(demo_read(&p, &got, &err), XP_OK);
  assert_int_equal(got.tone, SHADE_LIGHT);
  assert_int_equal(got.count, 3);
  assert_true(got.angle == 90 * M_PI / 180.0);
  assert_int_equal(xp_params_set(&p, "tone=grey", &err), XP_ERR_USAGE);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_defaults),
      cmocka_unit_test(test_good_assignments),
      cmocka_unit_test(test_bad_assignments),
      cmocka_unit_test(test_param_list),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
