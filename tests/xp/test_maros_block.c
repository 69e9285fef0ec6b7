// SPDX-License-Identifier: MIT
// The Maros–Mészáros scores in README and REPORT follow the results files of `bench maros`:
// written from synthetic files, one stored value altered and the block seen to change; a missing
// file named; the README block rewritten in place; a small real run of `bench maros` scored; the
// project's README carrying one well-formed maros block.
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
#include "xp/xp_file.h"
#include "xp/xp_maros.h"

static const char *readme_source;  // the project's README.md (argv[1])
static const char *data_dir;       // the Maros–Mészáros .mat folder (argv[3])

// one problem of a synthetic results file
typedef struct fake_case {
  const char *name, *kind;  // failure kind: "ok", "wrong_solved", "max_iterations", …
  double pass_f64, gap, gap_f64, gap_scale, time, nb_f64;  // nb_f64: of 16 neighbours
  double nb_x;  // of the 16 neighbours, how many pass the exact check
} fake_case;

// the solver's status a failure kind implies (what bench maros stores beside it)
static const char *status_of(const char *kind) {
  if (!strcmp(kind, "ok") || !strcmp(kind, "wrong_solved")) return "solved";
  if (!strcmp(kind, "inaccurate")) return "solved_inaccurate";
  return kind;
}

static const xp_experiment fake_bench = {
    .name = "bench_maros", .paper_ref = "test", .summary = "t"};

static void write_fake(const char *file, double tol, const fake_case *cs, size_t n) {
  char path[300];
  test_path(path, sizeof path, file);
  remove(path);
  xp_error err = {.code = 0};
  xp_results *r = xp_results_create(path, &fake_bench, NULL, 0, NULL, &err);
  assert_non_null(r);
  for (size_t i = 0; i < n; i++) {
    xp_case *c = xp_case_begin(r, cs[i].name);
    assert_non_null(c);
    xp_case_param_real(c, "tol", tol, "");
    xp_case_param_real(c, "time_limit", 100, "s");
    xp_case_param_string(c, "failure_kind", cs[i].kind);
    xp_case_param_string(c, "qcp_status", status_of(cs[i].kind));
    xp_case_stat_real(c, "cpu", cs[i].time, "s");
    xp_case_stat_real(c, "time", 10 * cs[i].time, "s");  // wall time: not the one scored
    xp_case_stat_real(c, "pres", 1e-14, "");
    xp_case_stat_real(c, "dres", 1e-14, "");
    xp_case_stat_real(c, "gap", cs[i].gap, "");
    xp_case_stat_real(c, "pres_f64", 1e-14, "");
    xp_case_stat_real(c, "dres_f64", 1e-14, "");
    xp_case_stat_real(c, "gap_f64", cs[i].gap_f64, "");
    xp_case_stat_real(c, "pres_scale", 1e-16, "");
    xp_case_stat_real(c, "dres_scale", 1e-16, "");
    xp_case_stat_real(c, "gap_scale", cs[i].gap_scale, "");
    xp_case_stat_real(c, "ulp_neighbours", 16, "");
    xp_case_stat_real(c, "ulp_neighbours_passing_f64", cs[i].nb_f64, "");
    xp_case_stat_real(c, "ulp_neighbours_passing", cs[i].nb_x, "");
    xp_case_stat_real(c, "pass_f64", cs[i].pass_f64, "");
    xp_case_status(c, strcmp(cs[i].kind, "ok") == 0 ? "ok" : "failed", cs[i].kind);
    assert_int_equal(xp_case_end(c), XP_OK);
  }
  assert_int_equal(xp_results_commit(r, &err), XP_OK);
}

static char *scores(void) {
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  assert_non_null(mem);
  xp_maros_scores_write(mem, test_dir);
  fclose(mem);
  return text;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  char buf[4096];
  size_t k;
  while ((k = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, k, mem);
  fclose(f), fclose(mem);
  return text;
}

static void clean_files(void) {
  char path[300];
  for (int t = 0; t < XP_MAROS_NTOL; t++) {
    char name[64];
    xp_maros_file_name(name, sizeof name, xp_maros_tols[t]);
    test_path(path, sizeof path, name);
    remove(path);
  }
}

// counts, the disagreement and its rounding scale, the expected passes and the time are those of
// the stored values; altering one stored value changes them
static void test_scores_follow_files(void **state) {
  (void)state;
  clean_files();
  // A passes both; B passes exactly only (its float64 gap above tol, at a scale above tol); C is
  // said solved and fails both; D hit the iteration limit
  fake_case cs[] = {
      {"A", "ok", 1, 1e-12, 1e-12, 1e-15, 1.0, 16, 16},
      {"B", "ok", 0, 5e-10, 2e-9, 3e-9, 2.0, 8, 6},
      {"C", "wrong_solved", 0, 1e-6, 1e-6, 1e-15, 3.0, 0, 0},
      {"D", "max_iterations", 0, 1e-3, 1e-3, 1e-15, 50.0, 0, 16},
  };
  char name9[64], name6[64];
  xp_maros_file_name(name9, sizeof name9, 1e-9);
  xp_maros_file_name(name6, sizeof name6, 1e-6);
  write_fake(name9, 1e-9, cs, 4);
  char *text = scores();
  // float64 1 of 4 (headline), exact 2; said solved and failing: 2 in float64, 1 exactly;
  // expected exact passes over the three said solved (D stopped at its limit: not counted, its
  // neighbours' passes notwithstanding): 16/16 + 6/16 + 0 = 1.375, sd √(0.375·0.625) = 0.48;
  // expected float64 passes over them: 16/16 + 8/16 + 0 = 1.5, sd √0.25
  assert_non_null(strstr(text, "| 1e-09 | **1 / 4** | 2 / 4 | 2 / 1 | 1.4 ± 0.5 | 1.5 ± 0.5 |"));
  // shifted geometric mean, failures at the stored limit of 100 s
  char sgm[64];
  const double g64 = exp((log(11.0) + 3 * log(110.0)) / 4) - 10;
  const double gx = exp((log(11.0) + log(12.0) + 2 * log(110.0)) / 4) - 10;
  snprintf(sgm, sizeof sgm, "| %.3g s (exact: %.3g s) |", g64, gx);
  assert_non_null(strstr(text, sgm));
  assert_non_null(strstr(text, "time limit 100 s"));
  assert_non_null(strstr(text, "differ on 1 problem (the same point"));
  assert_non_null(strstr(text, "in 1 of them a deciding measure's rounding scale"));
  assert_non_null(strstr(
      text, "B (passes exactly only: gap 5.0e-10 exact, 2.0e-09 float64, rounding scale 3.0e-09)"));
  // the other file is named, not scored
  char absent[128];
  snprintf(absent, sizeof absent, "At 1e-06: `%s` is absent", name6);
  assert_non_null(strstr(text, absent));
  assert_null(strstr(text, "| 1e-06 |"));
  free(text);

  // B's float64 gap below tol: both checks agree, the headline rises
  cs[1].pass_f64 = 1, cs[1].gap_f64 = 8e-10, cs[1].nb_f64 = 16;
  write_fake(name9, 1e-9, cs, 4);
  write_fake(name6, 1e-6, cs, 3);
  text = scores();
  assert_non_null(strstr(text, "| 1e-09 | **2 / 4** | 2 / 4 | 1 / 1 | 1.4 ± 0.5 | 2.0 ± 0.0 |"));
  assert_non_null(strstr(text, "At 1e-09 the two checks differ on 0 problems."));
  // the 1e-6 file: C's gap 1e-6 passes, but it is a wrong_solved case by its stored kind
  assert_non_null(strstr(text, "| 1e-06 | **2 / 3** | 2 / 3 |"));
  assert_null(strstr(text, "is absent"));
  free(text);

  // D ended solved_inaccurate instead: its neighbours' exact passes count (the solver's label
  // follows its exact check), not its float64 ones (the float64 expectation is over the solved)
  cs[3].kind = "inaccurate";
  write_fake(name9, 1e-9, cs, 4);
  text = scores();
  assert_non_null(strstr(text, "| 1e-09 | **2 / 4** | 2 / 4 | 1 / 1 | 2.4 ± 0.5 | 2.0 ± 0.0 |"));
  free(text);
  cs[3].kind = "max_iterations";

  // a file whose cases were solved at another tolerance than its name says
  write_fake(name6, 1e-9, cs, 3);
  text = scores();
  assert_non_null(strstr(text, "**3 of `"));
  free(text);
  clean_files();
}

// no file: the block says which are missing, and REPORT gets no section
static void test_missing_files(void **state) {
  (void)state;
  clean_files();
  char *text = scores();
  for (int t = 0; t < XP_MAROS_NTOL; t++) {
    char name[64], want[128];
    xp_maros_file_name(name, sizeof name, xp_maros_tols[t]);
    snprintf(want, sizeof want, "`%s` is absent in the results directory; no score.", name);
    assert_non_null(strstr(text, want));
  }
  assert_null(strstr(text, "| tolerance |"));
  free(text);
  FILE *null = fopen("/dev/null", "w");
  assert_int_equal(xp_maros_report(null, test_dir), 0);
  // an unreadable file is named as such
  char name[64], path[300];
  xp_maros_file_name(name, sizeof name, 1e-9);
  test_path(path, sizeof path, name);
  FILE *f = fopen(path, "w");
  fputs("not HDF5", f);
  fclose(f);
  text = scores();
  char want[128];
  snprintf(want, sizeof want, "`%s` is unreadable", name);
  assert_non_null(strstr(text, want));
  free(text);
  assert_int_equal(xp_maros_report(null, test_dir), 1);
  fclose(null);
  clean_files();
}

// the README's block is replaced by the scores, the rest kept; a file without it is refused
static void test_readme_update(void **state) {
  (void)state;
  clean_files();
  fake_case one = {"A", "ok", 1, 1e-12, 1e-12, 1e-15, 1.0, 16, 16};
  char name9[64];
  xp_maros_file_name(name9, sizeof name9, 1e-9);
  write_fake(name9, 1e-9, &one, 1);
  char path[300];
  test_path(path, sizeof path, "README.md");
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f, "# title\n\nprose\n%s\nstale 99 / 99\n%s\nmore prose\n", XP_MAROS_BEGIN, XP_MAROS_END);
  fclose(f);
  xp_error err = {.code = 0};
  assert_int_equal(xp_maros_readme_update(path, test_dir, &err), XP_OK);
  char *block = scores(), *want = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&want, &len);
  fprintf(mem, "# title\n\nprose\n%s\n%s%s\nmore prose\n", XP_MAROS_BEGIN, block, XP_MAROS_END);
  fclose(mem);
  char *got = slurp(path);
  assert_string_equal(got, want);
  assert_null(strstr(got, "stale"));
  // a fixed point
  assert_int_equal(xp_maros_readme_update(path, test_dir, &err), XP_OK);
  free(got);
  got = slurp(path);
  assert_string_equal(got, want);
  free(got), free(want), free(block);
  f = fopen(path, "w");
  fprintf(f, "# no block\n");
  fclose(f);
  assert_int_equal(xp_maros_readme_update(path, test_dir, &err), XP_ERR_USAGE);
  clean_files();
}

// a small real run: the counts in the block are those of the file bench maros wrote
static void test_bench_run(void **state) {
  (void)state;
  char probe[1200];
  snprintf(probe, sizeof probe, "%s/HS21.mat", data_dir);
  if (access(probe, R_OK) != 0) {
    printf("skipped: Maros-Meszaros data not found in %s\n", data_dir);
    skip();
  }
  clean_files();
  char name6[64], out[300];
  xp_maros_file_name(name6, sizeof name6, 1e-6);
  test_path(out, sizeof out, name6);
  const char *run[] = {
      "bench", "maros",  "--tol",    "1e-6", "--only", "HS21,QAFIRO,DUALC1", "--time-limit", "60",
      "--dir", data_dir, "--output", out,    NULL};
  assert_int_equal(test_run(run), 0);
  xp_error err = {.code = 0};
  xp_file *f = xp_file_open(out, &err);
  assert_non_null(f);
  int f64 = 0, exact = 0;
  for (size_t i = 0; i < xp_file_case_count(f); i++) {
    const char *c = xp_file_case_name(f, i);
    double v = NAN;
    char kind[64] = "";
    xp_file_case_stat(f, c, "pass_f64", &v);
    xp_file_case_text(f, c, "params", "failure_kind", kind, sizeof kind);
    f64 += v == 1, exact += strcmp(kind, "ok") == 0;
  }
  assert_int_equal(xp_file_case_count(f), 3);
  xp_file_close(f);
  char readme[300];
  test_path(readme, sizeof readme, "R.md");
  FILE *r = fopen(readme, "w");
  fprintf(r, "%s\n%s\n", XP_MAROS_BEGIN, XP_MAROS_END);
  fclose(r);
  const char *upd[] = {"bench", "maros", "--readme", readme, "--results", test_dir, NULL};
  assert_int_equal(test_run(upd), 0);
  char *got = slurp(readme), want[128];
  snprintf(want, sizeof want, "| 1e-06 | **%d / 3** | %d / 3 |", f64, exact);
  assert_non_null(strstr(got, want));
  assert_non_null(strstr(got, "time limit 60 s"));
  free(got);
  // --results alone is refused
  const char *bad[] = {"bench", "maros", "--results", test_dir, NULL};
  assert_int_not_equal(test_run(bad), 0);
  clean_files();
}

// the project's README: one maros block, its markers alone on their lines and in order, holding
// for each tolerance either its row or the name of its missing file
static void test_project_readme(void **state) {
  (void)state;
  char *text = slurp(readme_source);
  const char *b = strstr(text, "\n" XP_MAROS_BEGIN "\n");
  assert_non_null(b);
  const char *e = strstr(b + 1, "\n" XP_MAROS_END "\n");
  assert_non_null(e);
  assert_null(strstr(b + 2, XP_MAROS_BEGIN));
  assert_null(strstr(e + 2, XP_MAROS_END));
  for (int t = 0; t < XP_MAROS_NTOL; t++) {
    char row[64], name[64], absent[128];
    snprintf(row, sizeof row, "\n| %.0e | **", xp_maros_tols[t]);
    xp_maros_file_name(name, sizeof name, xp_maros_tols[t]);
    snprintf(absent, sizeof absent, "`%s` is absent", name);
    const char *r = strstr(b, row), *a = strstr(b, absent);
    if (!((r && r < e) || (a && a < e)))
      fail_msg("README's maros block has neither a row nor an absent line for %s", name);
  }
  assert_non_null(strstr(b, "computed by `stabcon bench maros --readme`"));
  free(text);
}

static int setup(void **state) {
  (void)state;
  return test_dir_create("maros_block");
}

static int teardown(void **state) {
  (void)state;
  return test_dir_remove();
}

int main(int argc, char **argv) {
  xp_library_init();
  if (argc < 4) {
    fprintf(stderr, "usage: test_xp_maros_block README.md STABCON DATA_DIR\n");
    return 1;
  }
  readme_source = argv[1];
  data_dir = argv[3];
  if (test_stabcon_set(argv[2]) != 0) return 1;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scores_follow_files), cmocka_unit_test(test_missing_files),
      cmocka_unit_test(test_readme_update),       cmocka_unit_test(test_bench_run),
      cmocka_unit_test(test_project_readme),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
