// SPDX-License-Identifier: MIT
// Seeded generator of the contact conic QPs shared by the qcp tests and `stabcon bench qcp`.
#ifndef QCP_GEN_H
#define QCP_GEN_H

#include "qcp/qcp.h"

// One generated instance; every array is owned by the struct (free with qcp_gen_free).
typedef struct qcp_gen {
  qcp_problem prob;  // points into the arrays below
  int *Pp, *Pi, *Ap, *Ai, *Gp, *Gi, *q;
  double *Pv, *Av, *Gv, *c, *b, *h;
  double *x_feas;  // n: strictly feasible start (normal forces large, tangential zero)
  char name[64];
} qcp_gen;

// Vertical stack of `ncontacts` spheres on the ground, relaxed contact QP of SPEC §1.3 lifted
// (x = (λ ∈ R^{3N}, w ∈ R^{6N}), M w − Gᵀλ = 0, one Q³ per contact after diag(μ,1,1)); rows are in
// compliance form (C = 1/D, ĉ = c/D). variant > 0 perturbs φ0 and v0 by ~1% (next time step, same
// pattern). Returns 0, or -1 on bad arguments / out of memory.
int qcp_gen_stack(qcp_gen *g, int ncontacts, double mu, unsigned seed, int variant);

// A 6-dof box on an elastic foundation of `nrows` unilateral rows (λ ≥ 0) with total stiffness
// log-uniform in [1e6, 1e11] N/m, slightly tilted and rocking so that some rows separate.
int qcp_gen_foundation(qcp_gen *g, int nrows, unsigned seed, int variant);

// A small problem from dense row-major matrices (P n×n, upper part used; A p×n; G m×n, zeros
// skipped) for hand-made tests; q holds nsoc cone sizes. x_feas is left zero.
int qcp_gen_dense(qcp_gen *g, int n, int p, int l, int nsoc, const int *q, const double *P,
                  const double *A, const double *G, const double *c, const double *b,
                  const double *h);

// Frees the arrays of g (not g itself).
void qcp_gen_free(qcp_gen *g);

// Builds a CSC matrix (rows sorted, duplicates summed) from nt triplets; arrays malloc'ed.
int qcp_gen_csc(int nrows, int ncols, int nt, const int *ti, const int *tj, const double *tv,
                int **colptr, int **rowind, double **values);

#endif  // QCP_GEN_H
