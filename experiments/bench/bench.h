// SPDX-License-Identifier: MIT
// The benchmark table's entry point (bench_table.c), called by the command line (cli_qcp.c); it
// returns the libraries' error codes (sc_error.h), which the command line turns into exit codes.
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

// 1 if name is an entry of the benchmark table (stack, foundation, pile), else 0.
int bench_table_has(const char *name);
// `stabcon bench NAME …` (argv[0] = NAME, an entry of the table): cost per step of a registry
// method on the entry's scenario against its size.
int cli_cmd_bench_table(int argc, char **argv);

#endif  // BENCH_BENCH_H
