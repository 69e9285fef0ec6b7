// SPDX-License-Identifier: MIT
// qcp_io — HDF5 problem and solution files of the qcp solver (format in solver/qcp/README.md).
#ifndef QCP_QCP_IO_H
#define QCP_QCP_IO_H

#include "qcp/qcp.h"

// A problem read from a file; prob points into arrays owned by this struct.
typedef struct qcp_io_problem {
  qcp_problem prob;
  int *Pp, *Pi, *Ap, *Ai, *Gp, *Gi, *q;
  double *Pv, *Av, *Gv, *c, *b, *h;
} qcp_io_problem;

// Writes prob to an HDF5 file at path (written as path.partial, then renamed). Returns QCP_OK or
// QCP_ERR_IO / QCP_ERR_INPUT with a message naming the file or the bad item.
int qcp_io_problem_write(const char *path, const qcp_problem *prob, qcp_error *err);

// Reads and fully validates (sizes, CSC patterns, P upper, finiteness) a problem file into *out
// (caller frees with qcp_io_problem_free). On error *out is left empty and err names the problem.
int qcp_io_problem_read(const char *path, qcp_io_problem *out, qcp_error *err);

// Frees the arrays of a problem read by qcp_io_problem_read (not the struct itself).
void qcp_io_problem_free(qcp_io_problem *p);

// Writes a solution file: datasets x (n), s (m), y (p), z (m); attributes status (string),
// iterations, objective, and the checker's measures chk (may be NULL: not written).
int qcp_io_solution_write(const char *path, const qcp_problem *prob, const double *x,
                          const double *s, const double *y, const double *z, const qcp_info *info,
                          const qcp_check_result *chk, qcp_error *err);

#endif  // QCP_QCP_IO_H
