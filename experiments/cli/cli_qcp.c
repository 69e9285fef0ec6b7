// SPDX-License-Identifier: MIT
// `stabcon qcp …` and `stabcon bench …`: the conic solver's problem files, generator and benchmark.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_commands.h"
#include "cmd_maros.h"
#include "cmd_qcp.h"
#include "qcp/qcp_io.h"
#include "qcp_gen.h"
#include "xp/xp_file.h"
#include "xp/xp_path.h"

// stabcon qcp gen stack|foundation SIZE [MU] FILE: a seeded instance of the benchmark family
static int qcp_gen_command(int argc, char **argv) {
  // SIZE [MU] FILE: a further argument is refused, not silently taken as the file
  if (argc < 4 || argc > 5 ||
      (strcmp(argv[1], "stack") != 0 && strcmp(argv[1], "foundation") != 0)) {
    fprintf(stderr,
            "usage: stabcon qcp gen stack|foundation SIZE [MU] FILE\n"
            "  stack: SIZE contacts of a vertical sphere stack (friction MU, default 0.5);\n"
            "  foundation: a 6-dof body on SIZE unilateral rows\n");
    return XP_ERR_USAGE;
  }
  char *end;
  long size = strtol(argv[2], &end, 10);
  if (*end || size < 1 || size > 1000000) {
    fprintf(stderr, "stabcon qcp gen: SIZE '%s' must be an integer in 1..1000000\n", argv[2]);
    return XP_ERR_USAGE;
  }
  double mu = 0.5;
  if (argc > 4) {
    mu = strtod(argv[3], &end);
    // the generated cone rows scale by μ: it must be a finite number > 0
    if (end == argv[3] || *end || !(mu > 0) || !isfinite(mu)) {
      fprintf(stderr, "stabcon qcp gen: MU '%s' must be a finite number > 0\n", argv[3]);
      return XP_ERR_USAGE;
    }
  }
  xp_error xerr = {.code = 0};
  if (xp_output_check("FILE", argv[argc - 1], NULL, 0, &xerr)) {
    fprintf(stderr, "stabcon qcp gen: %s\n", xerr.message);
    return XP_ERR_USAGE;
  }
  qcp_gen g;
  int rc = strcmp(argv[1], "stack") == 0 ? qcp_gen_stack(&g, (int)size, mu, 1, 0)
                                         : qcp_gen_foundation(&g, (int)size, 1, 0);
  if (rc) {
    fprintf(stderr, "stabcon qcp gen: generation failed\n");
    return XP_ERR_RUN;
  }
  qcp_error err;
  rc = qcp_io_problem_write(argv[argc - 1], &g.prob, &err);
  if (rc) fprintf(stderr, "stabcon qcp gen: %s\n", err.message);
  qcp_gen_free(&g);
  return rc ? XP_ERR_RUN : XP_OK;
}

// `qcp solve PROBLEM -o SOLUTION`: the solution must not replace the problem, a device, a
// directory or a symlink; checked here, before the problem is read (cmd_qcp.c parses the rest)
// the problem file (the first argument that is neither an option nor an option's value) and -o
static void qcp_solve_files(int argc, char **argv, const char **in, const char **out) {
  *in = *out = NULL;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && i + 1 < argc)
      *out = argv[++i];
    else if ((!strcmp(a, "--max-iter") || !strcmp(a, "--eps") || !strcmp(a, "--tol") ||
              !strcmp(a, "--time-limit") || !strcmp(a, "--cold-rho")) &&
             i + 1 < argc)
      i++;
    else if (a[0] != '-' && !*in)
      *in = a;
  }
}

static int qcp_solve_output_check(int argc, char **argv) {
  const char *in, *out;
  qcp_solve_files(argc, argv, &in, &out);
  xp_error err = {.code = 0};
  const char *inputs[1] = {in};
  if (!out || xp_output_check("-o", out, inputs, 1, &err) == XP_OK) return XP_OK;
  fprintf(stderr, "qcp solve: %s\n", err.message);
  return XP_ERR_USAGE;
}

int cli_cmd_qcp(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "gen") == 0) return qcp_gen_command(argc - 1, argv + 1);
  if (argc >= 2 && strcmp(argv[1], "solve") == 0 && qcp_solve_output_check(argc, argv))
    return XP_ERR_USAGE;
  const char *in = NULL, *out = NULL;
  if (argc >= 3 && !strcmp(argv[1], "solve")) qcp_solve_files(argc, argv, &in, &out);
  size_t len = in ? strlen(in) : 0;  // a Maros-Meszaros MATLAB problem (cmd_maros.c)
  if (len > 4 && !strcmp(in + len - 4, ".mat")) return cli_cmd_qcp_solve_mat(argc - 2, argv + 2);
  xp_error probe = {.code = 0};  // libhdf5 itself may crash on a corrupt problem: a child reads it
  if (in && access(in, F_OK) == 0 && xp_h5_probe(in, &probe) != XP_OK) {
    fprintf(stderr, "qcp solve: %s\n", probe.message);
    return probe.code == XP_ERR_USAGE ? XP_ERR_USAGE : XP_ERR_RUN;
  }
  const int help = argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h");
  int rc = cli_cmd_qcp_solve(argc, argv);
  if (help)  // the solve help, then the generator this file adds
    fputs(
        "\nstabcon qcp gen stack|foundation SIZE [MU] FILE\n"
        "  writes one seeded instance of the benchmark family (MU > 0, default 0.5) to FILE\n",
        argc < 2 ? stderr : stdout);
  return rc;
}

int cli_cmd_bench(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "qcp") == 0) return cli_cmd_bench_qcp(argc - 1, argv + 1);
  if (argc >= 2 && bench_table_has(argv[1])) return cli_cmd_bench_table(argc - 1, argv + 1);
  if (argc >= 2 && strcmp(argv[1], "maros") == 0) return cli_cmd_bench_maros(argc - 1, argv + 1);
  fprintf(
      stderr,
      "usage: stabcon bench qcp|foundation|stack|pile|maros [options]   (see stabcon bench NAME "
      "--help)\n");
  return argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) ? XP_OK
                                                                                     : XP_ERR_USAGE;
}
