// SPDX-License-Identifier: MIT
// `stabcon qcp solve NAME.mat` and `stabcon bench maros`: the conic solver on the Maros–Mészáros
// set (MATLAB files, ../shared/data/maros_meszaros_full), scored as qpbenchmark scores solvers.
#ifndef XP_CMD_MAROS_H
#define XP_CMD_MAROS_H

// `stabcon qcp solve NAME.mat [--tol T] [--max-iter N] [--time-limit S] [--verbose]`; argv[0] is
// the file name. Returns 0 (any outcome), 2 bad usage or file, 1 run failure.
int cli_cmd_qcp_solve_mat(int argc, char **argv);

// `stabcon bench maros [--tol T] [--only A,B] [--max-iter N] [--time-limit S] [--dir D]
// [--output F.h5] [--plot DIR]`; argv[0] is "maros". Returns 0, 2 bad usage, 1 run failure.
int cli_cmd_bench_maros(int argc, char **argv);

#endif  // XP_CMD_MAROS_H
