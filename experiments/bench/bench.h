// SPDX-License-Identifier: MIT
// The benchmarks' entry points, called by the command line (cli_qcp.c); they return the
// libraries' error codes (sc_error.h), which the command line turns into exit codes.
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

// `stabcon bench foundation`: constraint-solver cost per step against element count.
int cli_cmd_bench_foundation(int argc, char **argv);
// `stabcon bench stack`: contact step cost per step against the number of spheres.
int cli_cmd_bench_stack(int argc, char **argv);

#endif  // BENCH_BENCH_H
