// SPDX-License-Identifier: MIT
// qcp_mm — QPs in the two-sided form of the Maros–Mészáros set (min ½xᵀPx + qᵀx + r,
// l ≤ Ax ≤ u): conversion to a qcp_problem, the row multipliers of a qcp solution, and the
// benchmark's independent score (qpbenchmark's absolute residuals, in double-double).
#ifndef QCP_QCP_MM_H
#define QCP_QCP_MM_H

#include "qcp/qcp.h"

// Bounds with |value| >= QCP_MM_INF are infinite (the set stores them as ±1e20).
#define QCP_MM_INF 1e19

// A QP  min ½xᵀPx + qᵀx + r  s.t.  l ≤ Ax ≤ u. P is n×n with BOTH triangles stored; A is m×n.
// Infinite bounds are stored as ±INFINITY. All arrays owned by the struct (qcp_mm_free).
typedef struct qcp_mm {
  int n, m;
  double r;
  int *Pp, *Pi, *Ap, *Ai;  // CSC column pointers (n+1) and sorted row indices
  double *Pv, *Av;
  double *q, *l, *u;  // n, m, m
} qcp_mm;

// The conic form of a qcp_mm: rows with l = u become equalities (A x = b), each finite side of
// the other rows one orthant row (a x ≤ u: G row a, h = u; a x ≥ l: G row −a, h = −l); rows with
// both bounds infinite are dropped. prob points into the owned arrays below.
typedef struct qcp_mm_conic {
  qcp_problem prob;
  int *Pp, *Pi, *Ap, *Ai, *Gp, *Gi;
  double *Pv, *Av, *Gv, *c, *b, *h;
  int *eq_row;          // p: original row of each equality
  int *g_row;           // l: original row of each orthant row
  signed char *g_sign;  // l: +1 for an upper side, −1 for a lower side
} qcp_mm_conic;

// Independent optimality measures of a point (x, y) of a qcp_mm, absolute, accumulated in
// double-double from the original data (qpbenchmark's definitions, y the multipliers of the rows of
// A with the sign convention Px + q + Aᵀy = 0, y > 0 on an active upper bound).
typedef struct qcp_mm_score {
  double pres;  // max_i of the violation of l_i ≤ a_i x ≤ u_i (0 if none)
  double dres;  // ‖Px + q + Aᵀy‖∞
  double gap;   // |xᵀPx + qᵀx + Σ u_i max(y_i, 0) + l_i min(y_i, 0)| (inf if an infinite bound
                // carries a multiplier)
  double obj;   // ½xᵀPx + qᵀx + r
  // the rounding scale of each measure at this point: what rounding every component of the point
  // to double (relative error u = 2⁻⁵³, independent) changes it by, root mean square — u times
  // the root sum of squares of the terms that cancel in it (row i: a_ij x_j and its bound;
  // column j: p_jk x_k, q_j, a_ij y_i; the gap: column j's scale times x_j and row i's times
  // y_i). A tolerance below a measure's scale asks for more than the exact solution rounded to
  // double typically gives. It is a guide, not a bound: a point refined with extended-precision
  // residuals on few rows against many terms goes below it (HUES-MOD at 1e-9: the primal
  // residual 1.2e-15 at a scale of 1.1e-12, the gap 2.3e-10 at 2.0e-8).
  double pres_scale, dres_scale, gap_scale;
} qcp_mm_score;

// Reads a MATLAB v5 file of the set (variables n, m, P, q, r, A, l, u; format in the data's
// README) into *out. Returns QCP_OK, QCP_ERR_IO (file, or the library was built without libmatio)
// or QCP_ERR_INPUT naming the bad variable; on error *out is empty.
int qcp_mm_read_mat(const char *path, qcp_mm *out, qcp_error *err);

// Checks and normalises a qcp_mm read from path before any use (qcp_mm_check.c lists the rules):
// CSC structure, rows sorted (sorted here) and unique, P symmetric, NaN refused, ±1e19 turned into
// ±INFINITY where it means "no bound" and refused elsewhere. QCP_OK or QCP_ERR_INPUT naming the
// variable. qcp_mm_to_conic and the score require a checked qcp_mm.
int qcp_mm_check(qcp_mm *mm, const char *path, qcp_error *err);

// Frees the arrays of a qcp_mm (not the struct).
void qcp_mm_free(qcp_mm *mm);

// Builds the conic form of mm into *out (caller frees with qcp_mm_conic_free). Returns QCP_OK or
// QCP_ERR_ALLOC.
int qcp_mm_to_conic(const qcp_mm *mm, qcp_mm_conic *out, qcp_error *err);

// Frees the arrays of a conic form.
void qcp_mm_conic_free(qcp_mm_conic *c);

// Row multipliers yrow (m = mm->m) of a conic solution (y p, z l): equality rows take y, an upper
// side adds z, a lower side subtracts z; dropped rows get 0.
void qcp_mm_row_duals(const qcp_mm_conic *c, int m, const double *y, const double *z, double *yrow);

// Scores the point (x n, yrow m) of mm (see qcp_mm_score).
void qcp_mm_score_point(const qcp_mm *mm, const double *x, const double *yrow, qcp_mm_score *out);

// The same three measures and the objective as the field's published tables compute them: every
// sum in float64 (double), in the order a sparse matrix–vector product over the CSC data takes
// (Ax and Px scattered column by column, (Aᵀy)_j summed down column j, r = (Px + q) + Aᵀy, each
// dot product of the gap summed in index order) — qpbenchmark's numpy/scipy evaluation. Where a
// measure is below its rounding scale (qcp_mm_score) the two scores differ by rounding alone:
// on objectives near 1e11 a float64 gap cannot resolve 1e-9. The scales are left NaN.
void qcp_mm_score_point_f64(const qcp_mm *mm, const double *x, const double *yrow,
                            qcp_mm_score *out);

// How far the last bit of a point moves its score: every nonzero component of x and y moved by one
// ulp in a random direction (a component that is exactly 0 — a variable at a zero bound, an
// inactive row's multiplier — stays 0), rescored, `draws` times from a seeded generator. A
// measure whose median move is at least the tolerance is decided by rounding at this point,
// whatever the solver does short of choosing last bits; a passing point with failing neighbours
// passed partly by luck.
typedef struct qcp_mm_ulp {
  int draws;        // neighbours scored
  int passing;      // of them, how many meet tol in all three measures
  int passing_f64;  // of them, how many meet tol summed in float64 (qcp_mm_score_point_f64): a
                    // pass that few neighbours share was luck of the scorer's rounding
  double pres_move, dres_move, gap_move;  // median |measure(neighbour) − measure(point)|
} qcp_mm_ulp;

// Fills *out (draws ≥ 1) for the point scored as *at at tolerance tol; returns 0, or −1 if out of
// memory (then *out holds NaN moves and 0 draws).
int qcp_mm_ulp_moves(const qcp_mm *mm, const double *x, const double *yrow, const qcp_mm_score *at,
                     double tol, int draws, unsigned seed, qcp_mm_ulp *out);

#endif  // QCP_QCP_MM_H
