// SPDX-License-Identifier: MIT
// Claims as data: a verdict follows the stored measurement. For every rule kind a results file is
// written, the verdict computed, one stored value altered and the verdict seen to change; the
// README's generated block is what the verdict table writer produces from the results it names;
// paper A's Figs 1–3 statements are decided from the files the smd studies write.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_test_util.h"
#include "xp/xp.h"
#include "xp/xp_claim.h"
#include "xp/xp_file.h"
#include "xp/xp_matched.h"

static const char *readme_source;  // the project's README.md (argv[2])

// writes <test_dir>/m.h5: cases c0…c(n-1) with statistic v = values[i], parameter x = 10^i and
// status ok unless statuses[i] is 0
static void write_file(const double *values, const int *ok, size_t n) {
  char path[300];
  test_path(path, sizeof path, "m.h5");
  remove(path);
  xp_error err = {.code = 0};
  xp_results *r = xp_results_create(path, xp_experiment_find("claims"), NULL, 0, NULL, &err);
  assert_non_null(r);
  for (size_t i = 0; i < n; i++) {
    char name[16];
    snprintf(name, sizeof name, "c%zu", i);
    xp_case *c = xp_case_begin(r, name);
    assert_non_null(c);
    xp_case_param_real(c, "x", pow(10, (double)i), "");
    xp_case_stat_real(c, "v", values[i], "");
    xp_case_status(c, !ok || ok[i] ? "ok" : "failed", NULL);
    assert_int_equal(xp_case_end(c), XP_OK);
  }
  assert_int_equal(xp_results_commit(r, &err), XP_OK);
}

static xp_verdict verdict_of(const xp_claim *c) {
  xp_claim_files *fs = xp_claim_files_open(test_dir);
  assert_non_null(fs);
  const xp_verdict v = xp_claim_verdict(fs, c);
  xp_claim_files_close(fs);
  return v;
}

#define STAT(name, p) \
  { .label = name, .op = XP_MEAS_STAT, .file = "m", .cas = name, .stat = "v", .paper = p }

static const xp_meas two[] = {STAT("c0", 1e-3), STAT("c1", 2e-3)};
static const xp_meas three[] = {STAT("c0", NAN), STAT("c1", NAN), STAT("c2", NAN)};

// a file with values, then one altered: the verdicts before and after
static void check_alteration(const xp_claim *c, const double *before, const double *after, size_t n,
                             xp_verdict v_before, xp_verdict v_after) {
  write_file(before, NULL, n);
  const xp_verdict a = verdict_of(c);
  write_file(after, NULL, n);
  const xp_verdict b = verdict_of(c);
  printf("%-10s %-20s -> %s\n", c->where, xp_verdict_name(a), xp_verdict_name(b));
  assert_int_equal(a, v_before);
  assert_int_equal(b, v_after);
}

static void test_ratio(void **state) {
  (void)state;
  const xp_claim c = {"ratio", "m ≥ 2", {.kind = XP_RULE_RATIO, .a = 2, .b = 1}, two, 2, NULL,
                      0,       NULL};
  check_alteration(&c, (double[]){3, 4}, (double[]){3, 1.5}, 2, XP_VERDICT_REPRODUCED,
                   XP_VERDICT_DIFFERENT);
  check_alteration(&c, (double[]){1.5, 1.2}, (double[]){0.5, 1.2}, 2, XP_VERDICT_DIFFERENT,
                   XP_VERDICT_NOT_REPRODUCED);
  const xp_claim u = {"ratio ≤", "m ≤ 1.5", {.kind = XP_RULE_RATIO, .a = 1.5, .b = 3, .upper = 1},
                      two,       2,         NULL,
                      0,         NULL};
  check_alteration(&u, (double[]){1, 1.2}, (double[]){1, 4}, 2, XP_VERDICT_REPRODUCED,
                   XP_VERDICT_DIFFERENT);
}

static void test_relative(void **state) {
  (void)state;
  const xp_claim c = {
      "relative", "m ≈ p", {.kind = XP_RULE_RELATIVE, .a = 0.5, .b = 10}, two, 2, NULL, 0, NULL};
  check_alteration(&c, (double[]){1.2e-3, 2.5e-3}, (double[]){1.2e-3, 9e-3}, 2,
                   XP_VERDICT_REPRODUCED, XP_VERDICT_DIFFERENT);
  // every value within a factor 10 of the paper's, then one a factor 500 away
  check_alteration(&c, (double[]){5e-3, 1e-2}, (double[]){5e-3, 1}, 2, XP_VERDICT_DIFFERENT,
                   XP_VERDICT_NOT_REPRODUCED);
  // one value agrees, then none
  check_alteration(&c, (double[]){1.2e-3, 1e-1}, (double[]){1e-5, 1e-1}, 2, XP_VERDICT_DIFFERENT,
                   XP_VERDICT_NOT_REPRODUCED);
}

static void test_interval(void **state) {
  (void)state;
  const xp_claim c = {"interval",
                      "m in [0.9, 1.1]",
                      {.kind = XP_RULE_INTERVAL, .a = 0.9, .b = 1.1, .la = 0.5, .lb = 2},
                      two,
                      2,
                      NULL,
                      0,
                      NULL};
  check_alteration(&c, (double[]){1, 1.05}, (double[]){1, 1.5}, 2, XP_VERDICT_REPRODUCED,
                   XP_VERDICT_DIFFERENT);
  check_alteration(&c, (double[]){1.5, 1.05}, (double[]){1.5, 2.5}, 2, XP_VERDICT_DIFFERENT,
                   XP_VERDICT_NOT_REPRODUCED);
  // the fitted slope of v against x over the cases: an order within an interval
  const xp_meas slope[] = {{.label = "slope",
                            .op = XP_MEAS_SLOPE,
                            .file = "m",
                            .cas = "c",
                            .stat = "v",
                            .stat2 = "x",
                            .paper = NAN}};
  const xp_claim s = {
      "order", "order 1", {.kind = XP_RULE_INTERVAL, .a = 0.9, .b = 1.1, .la = 0.5, .lb = 1.5},
      slope,   1,         NULL,
      0,       NULL};
  check_alteration(&s, (double[]){1, 10, 100}, (double[]){1, 10, 1e4}, 3, XP_VERDICT_REPRODUCED,
                   XP_VERDICT_NOT_REPRODUCED);
}

static void test_all_ok(void **state) {
  (void)state;
  const xp_meas oks[] = {{.label = "a", .op = XP_MEAS_OK, .file = "m", .cas = "c0"},
                         {.label = "b", .op = XP_MEAS_OK, .file = "m", .cas = "c1"}};
  const xp_claim c = {"all ok", "every case ok", {.kind = XP_RULE_ALL_OK}, oks, 2, NULL, 0, NULL};
  const double v[] = {0, 0};
  write_file(v, (int[]){1, 1}, 2);
  assert_int_equal(verdict_of(&c), XP_VERDICT_REPRODUCED);
  write_file(v, (int[]){1, 0}, 2);
  assert_int_equal(verdict_of(&c), XP_VERDICT_DIFFERENT);
  write_file(v, (int[]){0, 0}, 2);
  assert_int_equal(verdict_of(&c), XP_VERDICT_NOT_REPRODUCED);
}

static void test_monotone(void **state) {
  (void)state;
  const xp_claim c = {"monotone", "falls", {.kind = XP_RULE_MONOTONE, .upper = -1}, three, 3, NULL,
                      0,          NULL};
  check_alteration(&c, (double[]){3, 2, 1}, (double[]){3, 4, 1}, 3, XP_VERDICT_REPRODUCED,
                   XP_VERDICT_DIFFERENT);
  check_alteration(&c, (double[]){3, 4, 1}, (double[]){3, 4, 5}, 3, XP_VERDICT_DIFFERENT,
                   XP_VERDICT_NOT_REPRODUCED);
}

// a strict bound excludes the bound itself: ρ = 1 is neither unstable (> 1) nor damped (< 1)
static void test_strict(void **state) {
  (void)state;
  const xp_claim below = {
      "strict", "m < 1", {.kind = XP_RULE_RATIO, .a = 1, .b = 1, .upper = 1, .strict = 1},
      two,      2,       NULL,
      0,        NULL};
  check_alteration(&below, (double[]){0.5, 0.9}, (double[]){0.5, 1}, 2, XP_VERDICT_REPRODUCED,
                   XP_VERDICT_DIFFERENT);
  const xp_claim above = {"strict", "m > 1", {.kind = XP_RULE_RATIO, .a = 1, .b = 1, .strict = 1},
                          two,      2,       NULL,
                          0,        NULL};
  check_alteration(&above, (double[]){1.5, 1.1}, (double[]){1, 1}, 2, XP_VERDICT_REPRODUCED,
                   XP_VERDICT_NOT_REPRODUCED);
  // without strict the bound holds
  const xp_claim loose = {"ratio ≤", "m ≤ 1", {.kind = XP_RULE_RATIO, .a = 1, .b = 1, .upper = 1},
                          two,       2,       NULL,
                          0,         NULL};
  write_file((double[]){0.5, 1}, NULL, 2);
  assert_int_equal(verdict_of(&loose), XP_VERDICT_REPRODUCED);
  char rule[256];
  xp_rule_describe(&below.rule, rule, sizeof rule);
  assert_non_null(strstr(rule, "every value < 1"));
  xp_rule_describe(&above.rule, rule, sizeof rule);
  assert_non_null(strstr(rule, "every value > 1"));
  // one value, as a report decides one case's word: the same answers as the claims' verdicts
  assert_true(xp_rule_holds(&below.rule, two, 0.9));
  assert_false(xp_rule_holds(&below.rule, two, 1.0));
  assert_false(xp_rule_holds(&above.rule, two, 1.0));
  assert_true(xp_rule_holds(&above.rule, two, 1.1));
  assert_true(xp_rule_holds(&loose.rule, two, 1.0));
  assert_false(xp_rule_holds(&loose.rule, two, NAN));  // a missing value decides nothing
}

// runs the study at its defaults (and the settings given) into <test_dir>/<name>.h5
static void run_study(const char *name, const char *setting) {
  const xp_experiment *x = xp_experiment_find(name);
  assert_non_null(x);
  static xp_params p;
  xp_error err = {.code = 0};
  assert_int_equal(xp_experiment_params_init(x, &p, &err), XP_OK);
  if (setting) assert_int_equal(xp_params_set(&p, setting, &err), XP_OK);
  char path[300], file[64];
  snprintf(file, sizeof file, "%s.h5", name);
  test_path(path, sizeof path, file);
  remove(path);
  xp_results *r = xp_results_create(path, x, &p, 0, NULL, &err);
  assert_non_null(r);
  xp_progress pr = {.enabled = 0};
  assert_int_equal(x->run(&p, r, &pr, &err), XP_OK);
  assert_int_equal(xp_results_commit(r, &err), XP_OK);
}

// the REPORT section of a study's results file in test_dir, into a heap string (caller frees)
static char *report_of(const char *name) {
  const xp_experiment *x = xp_experiment_find(name);
  assert_non_null(x);
  char path[300], file[64];
  snprintf(file, sizeof file, "%s.h5", name);
  test_path(path, sizeof path, file);
  char *buf = NULL;
  size_t len = 0;
  FILE *md = open_memstream(&buf, &len);
  assert_non_null(md);
  xp_error err = {.code = 0};
  assert_int_equal(x->report(path, md, &err), XP_OK);
  fclose(md);
  return buf;
}

// Paper A's Figs 1–3 statements: "not run" without the smd files; reproduced on the files the
// smd studies write at the paper's parameters; each statement's words appear beside the case it
// judges in the study's REPORT section, with its verdict; with m = 1.2 (heavier mass, so
// hb/m < 2) explicit Euler at b = 2.1e5 is stable and that statement is not reproduced.
static void test_smd_claims(void **state) {
  (void)state;
  size_t n;
  const xp_claim *c = xp_paper_a_smd_claims(&n);
  assert_true(n >= 7);
  for (size_t i = 0; i < n; i++) assert_int_equal(verdict_of(&c[i]), XP_VERDICT_NOT_RUN);
  static const char *const studies[] = {"smd_explicit", "smd_semi", "smd_implicit"};
  for (size_t s = 0; s < 3; s++) run_study(studies[s], NULL);
  xp_claim_set set = {"Figs 1–3", c, n};
  xp_claim_sets_write(stdout, &set, 1, test_dir);
  for (size_t i = 0; i < n; i++) {
    if (verdict_of(&c[i]) != XP_VERDICT_REPRODUCED)
      fail_msg("%s: %s is %s", c[i].where, c[i].words, xp_verdict_name(verdict_of(&c[i])));
    char *md = report_of(c[i].meas[0].file), row[512];
    for (size_t j = 0; j < c[i].n_meas; j++) {
      snprintf(row, sizeof row, "| `%s` | %s |", c[i].meas[j].cas, c[i].words);
      if (!strstr(md, row)) fail_msg("%s's REPORT lacks the row '%s'", c[i].meas[0].file, row);
    }
    snprintf(row, sizeof row, "| %s: %s | **%s** |", c[i].where, c[i].words,
             xp_verdict_name(XP_VERDICT_REPRODUCED));
    if (!strstr(md, row)) fail_msg("%s's REPORT lacks the claim '%s'", c[i].meas[0].file, row);
    free(md);
  }
  // the same cases with m = 1.2: |1 − hb/m| < 1 at b = 2.1e5, so ρ < 1 there
  run_study("smd_explicit", "m=1.2");
  size_t changed = 0;
  for (size_t i = 0; i < n; i++) {
    const xp_verdict v = verdict_of(&c[i]);
    if (v == XP_VERDICT_REPRODUCED) continue;
    printf("m = 1.2: %s: %s -> %s\n", c[i].where, c[i].words, xp_verdict_name(v));
    assert_string_equal(c[i].meas[0].cas, "h=1e-5_k=1e6_b=210000");
    assert_int_equal(v, XP_VERDICT_NOT_REPRODUCED);
    changed++;
  }
  assert_int_equal(changed, 1);
  char path[300];
  test_path(path, sizeof path, "smd_explicit.h5");
  remove(path);
  for (size_t i = 0; i < n; i++)
    assert_int_equal(verdict_of(&c[i]), strcmp(c[i].meas[0].file, "smd_explicit") == 0
                                            ? XP_VERDICT_NOT_RUN
                                            : XP_VERDICT_REPRODUCED);
}

// a missing file, case or value is "not run", never a verdict
static void test_not_run(void **state) {
  (void)state;
  const xp_claim c = {"ratio", "m ≥ 2", {.kind = XP_RULE_RATIO, .a = 2, .b = 1}, three, 3, NULL,
                      0,       NULL};
  write_file((double[]){3, 4}, NULL, 2);
  assert_int_equal(verdict_of(&c), XP_VERDICT_NOT_RUN);
  write_file((double[]){3, NAN, 4}, NULL, 3);
  assert_int_equal(verdict_of(&c), XP_VERDICT_NOT_RUN);
  write_file((double[]){3, 3, 4}, NULL, 3);
  assert_int_equal(verdict_of(&c), XP_VERDICT_REPRODUCED);
}

// an item the study could not decide (undecided_ok) is left out of the rule and named
// "undecidable"; the others decide; all undecided is "not run"
static void test_undecided(void **state) {
  (void)state;
  xp_meas m[3];
  memcpy(m, three, sizeof m);
  for (int i = 0; i < 3; i++) m[i].undecided_ok = 1;
  const xp_claim c = {"ratio", "m ≥ 2", {.kind = XP_RULE_RATIO, .a = 2, .b = 1}, m, 3, NULL,
                      0,       NULL};
  write_file((double[]){3, NAN, 4}, NULL, 3);
  assert_int_equal(verdict_of(&c), XP_VERDICT_REPRODUCED);
  write_file((double[]){3, NAN, 0.5}, NULL, 3);
  assert_int_equal(verdict_of(&c), XP_VERDICT_DIFFERENT);
  write_file((double[]){NAN, NAN, NAN}, NULL, 3);
  assert_int_equal(verdict_of(&c), XP_VERDICT_NOT_RUN);
}

// the one matched-accuracy rule: the cheapest run at or below the target that stays there for
// every tighter setting; a loose setting that lands near the reference by chance does not count
static void test_matched(void **state) {
  (void)state;
  // knob (tighter = smaller), error, cost: the loose 1e-3 lands at 5e-7 by chance
  xp_matched_point p[] = {{1e-3, 5e-7, 1}, {1e-4, 3e-6, 2}, {1e-5, 8e-7, 4}, {1e-6, 1e-8, 9}};
  assert_int_equal(xp_matched_select(p, 4, 1e-6, 1e-10), 2);
  assert_int_equal(xp_matched_select(p, 4, 1e-5, 1e-10), 0);
  assert_int_equal(xp_matched_select(p, 4, 1e-9, 1e-10), XP_MATCHED_NONE);
  // below the reference floor: not decidable
  assert_int_equal(xp_matched_select(p, 4, 1e-9, 1e-8), XP_MATCHED_UNDECIDABLE);
  // every study names these two outcomes alike; a chosen run has no outcome words
  assert_string_equal(xp_matched_outcome_name(XP_MATCHED_UNDECIDABLE),
                      "not decidable (below the floor)");
  assert_string_equal(xp_matched_outcome_name(XP_MATCHED_NONE), "not reached");
  assert_null(xp_matched_outcome_name(2));
  // a tighter run without an error (failed) does not meet the target
  p[3].error = NAN;
  assert_int_equal(xp_matched_select(p, 4, 1e-6, NAN), XP_MATCHED_NONE);
  // the cheapest qualifying run, whatever the order of the points
  xp_matched_point q[] = {{1e-6, 1e-8, 9}, {1e-5, 2e-8, 3}, {1e-4, 5e-8, 5}};
  assert_int_equal(xp_matched_select(q, 3, 1e-6, NAN), 1);
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  static char buf[1 << 20];
  const size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  return strdup(buf);
}

// the README's block is replaced by the table of the results it names, the rest kept; the
// project's README carries exactly one such block, written by the same writer
static void test_readme_block(void **state) {
  (void)state;
  const xp_claim c = {"ratio", "m ≥ 2", {.kind = XP_RULE_RATIO, .a = 2, .b = 1}, two, 2, NULL,
                      0,       NULL};
  write_file((double[]){3, 4}, NULL, 2);
  char path[300];
  test_path(path, sizeof path, "README.md");
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f, "# title\n\nprose\n%s\nstale\n%s\nmore prose\n", XP_README_BEGIN, XP_README_END);
  fclose(f);
  xp_error err = {.code = 0};
  const xp_claim_set set = {"test", &c, 1};
  assert_int_equal(xp_claims_readme_update(path, &set, 1, test_dir, &err), XP_OK);
  char *block = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&block, &len);
  xp_claims_readme_block(mem, &set, 1, test_dir);
  fclose(mem);
  char *want = NULL;
  mem = open_memstream(&want, &len);
  fprintf(mem, "# title\n\nprose\n%s\n%s%s\nmore prose\n", XP_README_BEGIN, block, XP_README_END);
  fclose(mem);
  char *got = slurp(path);
  assert_string_equal(got, want);
  assert_non_null(strstr(got, "| ratio: m ≥ 2 | **reproduced** |"));
  // a second update is a fixed point
  assert_int_equal(xp_claims_readme_update(path, &set, 1, test_dir, &err), XP_OK);
  free(got);
  got = slurp(path);
  assert_string_equal(got, want);
  free(got), free(want), free(block);
  // the project's README: one block, holding the verdict table of every paper claim
  char *readme = slurp(readme_source);
  const char *b = strstr(readme, XP_README_BEGIN "\n"), *e = b ? strstr(b, XP_README_END) : NULL;
  assert_non_null(b);
  assert_non_null(e);
  assert_null(strstr(e + 1, XP_README_BEGIN));
  xp_claim_set sets[XP_CLAIM_SETS];
  const size_t ns = xp_claim_sets_all(sets);
  for (size_t k = 0; k < ns; k++)
    for (size_t i = 0; i < sets[k].n; i++) {
      char row[512];
      snprintf(row, sizeof row, "| %s: %s | **", sets[k].claims[i].where, sets[k].claims[i].words);
      const char *r = strstr(b, row);
      if (!r || r > e) fail_msg("README's block lacks the claim '%s'", row);
    }
  assert_non_null(strstr(b, "computed by `stabcon verdicts`"));
  free(readme);
}

// ---- claims decided by a work count -----------------------------------------------------------

// the claim of paper A whose words contain `words`
static const xp_claim *paper_claim(const char *words) {
  size_t n;
  const xp_claim *c = xp_paper_claims(&n);
  for (size_t i = 0; i < n; i++)
    if (strstr(c[i].words, words)) return &c[i];
  fail_msg("no claim of paper A says '%s'", words);
  return NULL;
}

// <test_dir>/<stem>.h5 written as experiment `stem` would, with no cases yet
static xp_results *results_create(const char *stem) {
  char path[300], file[64];
  snprintf(file, sizeof file, "%s.h5", stem);
  test_path(path, sizeof path, file);
  remove(path);
  xp_error err = {.code = 0};
  xp_results *r = xp_results_create(path, xp_experiment_find(stem), NULL, 0, NULL, &err);
  assert_non_null(r);
  return r;
}

static void results_commit(xp_results *r) {
  xp_error err = {.code = 0};
  assert_int_equal(xp_results_commit(r, &err), XP_OK);
}

// scaling.h5 as the scaling study writes it: per size of each family and each of the method
// names, flops_step ∝ size^pw and cpu_step_min ∝ size^pc
static void write_scaling(double pw_foundation, double pw_stack, double pc) {
  xp_results *r = results_create("scaling");
  static const char *const families[] = {"foundation", "stack"};
  static const char *const methods[2][2] = {{"paperA-relaxed", "paperA-paper"},
                                            {"paperA-relaxed", "paperA-coulomb"}};
  static const double sizes[2][4] = {{4, 16, 64, 256}, {1, 3, 10, 30}};
  for (int f = 0; f < 2; f++)
    for (int m = 0; m < 2; m++)
      for (int k = 0; k < 4; k++) {
        char name[96];
        snprintf(name, sizeof name, "%s_size=%g_%s", families[f], sizes[f][k], methods[f][m]);
        xp_case *c = xp_case_begin(r, name);
        assert_non_null(c);
        const double x = sizes[f][k];
        xp_case_param_real(c, "size", x, "");
        xp_case_stat_real(c, "flops_step", 100 * pow(x, f ? pw_stack : pw_foundation), "");
        xp_case_stat_real(c, "cpu_step_min", 1e-6 * pow(x, pc), "s");
        xp_case_status(c, "ok", NULL);
        assert_int_equal(xp_case_end(c), XP_OK);
      }
  results_commit(r);
}

// stack.h5's scaling case: the exponents of the operations (pw) and of the time (pc) per step
static void write_stack(double pw, double pc) {
  xp_results *r = results_create("stack");
  xp_case *c = xp_case_begin(r, "scaling");
  assert_non_null(c);
  xp_case_stat_real(c, "fitted_exponent_flops", pw, "");
  xp_case_stat_real(c, "fitted_exponent_flops_rest", pw, "");
  xp_case_stat_real(c, "fitted_exponent", pc, "");
  xp_case_stat_real(c, "fitted_exponent_rest", pc, "");
  xp_case_status(c, "ok", NULL);
  assert_int_equal(xp_case_end(c), XP_OK);
  results_commit(r);
}

// claims.h5's steady cases: BDF1's steps and CPU time to T = 3 s are `steps` and `cpu` times
// those to T = 1 s
static void write_steady(double steps, double cpu) {
  xp_results *r = results_create("claims");
  static const double Fs[] = {5, 50}, Ts[] = {1, 3};
  for (int f = 0; f < 2; f++)
    for (int t = 0; t < 2; t++) {
      char name[64];
      snprintf(name, sizeof name, "steady_F=%g_T=%g", Fs[f], Ts[t]);
      xp_case *c = xp_case_begin(r, name);
      assert_non_null(c);
      xp_case_stat_real(c, "ode_steps", 100 * (t ? steps : 1), "");
      xp_case_stat_real(c, "cpu_time_min", 0.01 * (t ? cpu : 1), "s");
      xp_case_status(c, "ok", NULL);
      assert_int_equal(xp_case_end(c), XP_OK);
    }
  results_commit(r);
}

static void remove_results(const char *stem) {
  char path[300], file[64];
  snprintf(file, sizeof file, "%s.h5", stem);
  test_path(path, sizeof path, file);
  remove(path);
}

// The cost claims (§5.5 cubic, §6.5 near-linear, Table 1's steady state) are decided by the work
// counts, not by the times beside them: the verdict follows the operations (or steps) and stays
// when only the times move, and is "not run" without the files.
static void test_work_claims(void **state) {
  (void)state;
  const xp_claim *cubic = paper_claim("scales cubically");
  const xp_claim *contacts = paper_claim("number of contacts");
  const xp_claim *steady = paper_claim("steady state");
  remove_results("scaling"), remove_results("stack"), remove_results("claims");
  assert_int_equal(verdict_of(cubic), XP_VERDICT_NOT_RUN);
  assert_int_equal(verdict_of(contacts), XP_VERDICT_NOT_RUN);
  assert_int_equal(verdict_of(steady), XP_VERDICT_NOT_RUN);
  // §5.5: operations cubic in the elements, the time linear (and the reverse)
  write_scaling(3, 1, 1);
  assert_int_equal(verdict_of(cubic), XP_VERDICT_REPRODUCED);
  write_scaling(1, 1, 3);
  assert_int_equal(verdict_of(cubic), XP_VERDICT_DIFFERENT);
  // §6.5: linear operations with the times of a loaded machine (exponent 1.6) reproduce it;
  // operations growing as N^1.6 do not, whatever the times; the stack study's file is needed
  write_stack(1, 1.6);
  write_scaling(1, 1, 1.6);
  assert_int_equal(verdict_of(contacts), XP_VERDICT_REPRODUCED);
  write_scaling(1, 1.6, 1);
  assert_int_equal(verdict_of(contacts), XP_VERDICT_DIFFERENT);
  write_scaling(1, 1, 1);
  write_stack(1.6, 1);
  assert_int_equal(verdict_of(contacts), XP_VERDICT_DIFFERENT);
  remove_results("stack");
  assert_int_equal(verdict_of(contacts), XP_VERDICT_NOT_RUN);
  // Table 1: the steps to T = 3 s barely above those to T = 1 s; three times the steps is not
  // "nearly independent of T" even when the times say so
  write_steady(1.1, 3);
  assert_int_equal(verdict_of(steady), XP_VERDICT_REPRODUCED);
  write_steady(3, 1.1);
  assert_int_equal(verdict_of(steady), XP_VERDICT_NOT_REPRODUCED);
  remove_results("scaling"), remove_results("claims");
}

// the runs' statistic stat of every case of <test_dir>/scaling.h5 into v (NaN where absent)
static size_t scaling_stats(const char *stat, double *v, size_t cap) {
  char path[300];
  test_path(path, sizeof path, "scaling.h5");
  xp_error err = {.code = 0};
  xp_file *f = xp_file_open(path, &err);
  assert_non_null(f);
  size_t n = xp_file_case_count(f);
  assert_true(n <= cap);
  for (size_t i = 0; i < n; i++) {
    v[i] = NAN;
    xp_file_case_stat(f, xp_file_case_name(f, i), stat, &v[i]);
  }
  xp_file_close(f);
  return n;
}

// the scaling study's operation counts: positive for paper A's methods, absent for a method whose
// linear algebra is not counted, and the same numbers in a second run (the times are not)
static void run_scaling_small(void) {
  const xp_experiment *x = xp_experiment_find("scaling");
  static xp_params p;
  xp_error err = {.code = 0};
  assert_int_equal(xp_experiment_params_init(x, &p, &err), XP_OK);
  static const char *const set[] = {"foundation_n=2,4", "stack_n=1,3", "repeats=1",
                                    "method=paperA-relaxed,paperA-coulomb,cvode-bdf1"};
  for (size_t i = 0; i < 4; i++) assert_int_equal(xp_params_set(&p, set[i], &err), XP_OK);
  xp_results *r = results_create("scaling");
  xp_progress pr = {.enabled = 0};
  assert_int_equal(x->run(&p, r, &pr, &err), XP_OK);
  results_commit(r);
}

static void test_work_count_runs(void **state) {
  (void)state;
  double a[32], b[32];
  run_scaling_small();
  const size_t n = scaling_stats("flops_step", a, 32);
  assert_int_equal(n, 12);  // 2 sizes × 3 methods × 2 families
  char path[300];
  test_path(path, sizeof path, "scaling.h5");
  xp_error err = {.code = 0};
  xp_file *f = xp_file_open(path, &err);
  for (size_t i = 0; i < n; i++) {
    const char *name = xp_file_case_name(f, i);
    if (strstr(name, "cvode"))
      assert_true(isnan(a[i]));
    else if (!(a[i] > 0))
      fail_msg("%s: flops_step %g", name, a[i]);
  }
  xp_file_close(f);
  run_scaling_small();
  assert_int_equal(scaling_stats("flops_step", b, 32), n);
  for (size_t i = 0; i < n; i++)
    if (!(isnan(a[i]) && isnan(b[i])) && memcmp(&a[i], &b[i], sizeof a[i]) != 0)
      fail_msg("case %zu: flops_step %.17g then %.17g", i, a[i], b[i]);
  remove_results("scaling");
}

static int setup(void **state) {
  (void)state;
  return test_dir_create("claims");
}

static int teardown(void **state) {
  (void)state;
  return test_dir_remove();
}

int main(int argc, char **argv) {
  xp_library_init();
  if (argc < 2) {
    fprintf(stderr, "usage: test_xp_claims README.md\n");
    return 1;
  }
  readme_source = argv[1];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ratio),           cmocka_unit_test(test_relative),
      cmocka_unit_test(test_interval),        cmocka_unit_test(test_all_ok),
      cmocka_unit_test(test_monotone),        cmocka_unit_test(test_not_run),
      cmocka_unit_test(test_undecided),       cmocka_unit_test(test_readme_block),
      cmocka_unit_test(test_matched),         cmocka_unit_test(test_strict),
      cmocka_unit_test(test_smd_claims),      cmocka_unit_test(test_work_claims),
      cmocka_unit_test(test_work_count_runs),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
