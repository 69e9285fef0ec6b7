// SPDX-License-Identifier: MIT
// `stabcon qcp …` and `stabcon bench qcp`: the conic solver's command-line entry points.
#ifndef XP_CMD_QCP_H
#define XP_CMD_QCP_H

// `stabcon qcp solve PROBLEM.h5 [-o SOLUTION.h5] [--max-iter N] [--eps E] [--verbose]`;
// argv[0] is "qcp". Returns 0 ok (any solver status), 2 bad usage or input file, 1 run failure.
int cli_cmd_qcp_solve(int argc, char **argv);

// `stabcon bench qcp [--repeats N] [--quick]`: Markdown table over the generated family (sphere
// stacks, elastic foundation) for cold, feasible and warm starts; argv[0] is "qcp".
int cli_cmd_bench_qcp(int argc, char **argv);

#endif  // XP_CMD_QCP_H
