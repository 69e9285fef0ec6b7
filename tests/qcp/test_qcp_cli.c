// SPDX-License-Identifier: MIT
// The CLI entry points: solve a generated problem file (exit 0, solution written), and every
// usage / input error path returns 2 with a message.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cmd_qcp.h"
#include "qcp/qcp_io.h"
#include "qcp_gen.h"

static int run(int argc, const char **argv) { return cli_cmd_qcp_solve(argc, (char **)argv); }

static void test_cli(void **state) {
  (void)state;
  qcp_gen g;
  qcp_error err;
  assert_int_equal(qcp_gen_stack(&g, 20, 0.5, 1, 0), 0);
  assert_int_equal(qcp_io_problem_write("qcp_cli_problem.h5", &g.prob, &err), QCP_OK);
  const char *ok[] = {"qcp", "solve", "qcp_cli_problem.h5", "-o", "qcp_cli_solution.h5"};
  assert_int_equal(run(5, ok), SC_OK);
  FILE *f = fopen("qcp_cli_solution.h5", "rb");
  assert_non_null(f);
  fclose(f);
  const char *help[] = {"qcp", "solve", "--help"};
  assert_int_equal(run(3, help), SC_OK);
  const char *missing[] = {"qcp", "solve", "qcp_cli_nonexistent.h5"};
  assert_int_equal(run(3, missing), SC_ERR_INPUT);
  const char *noarg[] = {"qcp", "solve"};
  assert_int_equal(run(2, noarg), SC_ERR_INPUT);
  const char *badopt[] = {"qcp", "solve", "qcp_cli_problem.h5", "--frobnicate"};
  assert_int_equal(run(4, badopt), SC_ERR_INPUT);
  const char *badit[] = {"qcp", "solve", "qcp_cli_problem.h5", "--max-iter", "0"};
  assert_int_equal(run(5, badit), SC_ERR_INPUT);
  const char *rho[] = {"qcp", "solve", "qcp_cli_problem.h5", "--cold-rho", "1e4"};
  assert_int_equal(run(5, rho), SC_OK);
  const char *badrho[] = {"qcp", "solve", "qcp_cli_problem.h5", "--cold-rho", "-1"};
  assert_int_equal(run(5, badrho), SC_ERR_INPUT);
  const char *badsub[] = {"qcp", "dance"};
  assert_int_equal(run(2, badsub), SC_ERR_INPUT);
  const char *bench_bad[] = {"qcp", "--repeats", "x"};
  assert_int_equal(cli_cmd_bench_qcp(3, (char **)bench_bad), SC_ERR_INPUT);
  const char *bench_help[] = {"qcp", "--help"};
  assert_int_equal(cli_cmd_bench_qcp(2, (char **)bench_help), SC_OK);
  remove("qcp_cli_problem.h5");
  remove("qcp_cli_solution.h5");
  qcp_gen_free(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_cli)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
