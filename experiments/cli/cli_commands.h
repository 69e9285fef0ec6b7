// SPDX-License-Identifier: MIT
// Subcommands contributed by the solver libraries (wired in experiments/meson.build).
#ifndef CLI_COMMANDS_H
#define CLI_COMMANDS_H

#define STABCON_EXTRA_COMMANDS                                                           \
  {"qcp", cli_cmd_qcp, "conic QP solver: solve a problem file, generate test problems"}, \
      {"bench", cli_cmd_bench,                                                           \
       "benchmarks: bench qcp (solver table), bench foundation|stack|pile (cost vs N)"}, \
      {"verdicts", cli_cmd_verdicts, "verdicts on the paper's claims from stored results files"},

// `stabcon qcp solve|gen …` and `stabcon bench qcp …` (cli_qcp.c).
int cli_cmd_qcp(int argc, char **argv);
int cli_cmd_bench(int argc, char **argv);
#include "bench.h"  // bench_table_has, cli_cmd_bench_table
// `stabcon verdicts [--results DIR] [--readme FILE]` (cli_verdicts.c).
int cli_cmd_verdicts(int argc, char **argv);
// Rewrites the README's generated results block from the results files in dir (reproduce
// --gallery); XP_OK, or the error after a message on stderr.
int cli_readme_refresh(const char *readme, const char *dir);

#include "xp/xp_sweep.h"

// Prepares, runs and merges a sweep: serially, or over MPI ranks when built with -Dmpi=true
// (sets opt->rank/ranks; every rank returns the same code). Defined in cli_sweep.c.
int cli_sweep_execute(xp_sweep_spec *spec, xp_sweep_options *opt, xp_error *err);

#endif  // CLI_COMMANDS_H
