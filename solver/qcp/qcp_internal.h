// SPDX-License-Identifier: MIT
// qcp internals shared by the library's translation units (not installed).
#ifndef QCP_INTERNAL_H
#define QCP_INTERNAL_H

#include "common/sc_dd.h"
#include "qcp/qcp.h"

// ---- memory -------------------------------------------------------------------

// Allocates n·size zeroed bytes through al; NULL on failure or overflow.
void *qcp_calloc(const qcp_allocator *al, size_t n, size_t size);
// The same without zeroing, for scratch that is written before it is read.
void *qcp_alloc_uninit(const qcp_allocator *al, size_t n, size_t size);
// Releases memory obtained from qcp_calloc or qcp_alloc_uninit.
void qcp_release(const qcp_allocator *al, void *ptr);
// Formats a message into err (may be NULL) and returns code.
// qcp's errors are sc_errors (common/sc_error.h): one formatting helper for every library
#define qcp_fail sc_error_set
// Wall-clock seconds from a monotonic clock.
double qcp_clock(void);
// the clock settings.time_limit is measured on (qcp_settings.time_limit_cpu) [s]
double qcp_limit_clock(const qcp_settings *s);

// ---- dense vector helpers ---------------------------------------------------------

double qcp_vec_norm_inf(const double *v, int n);
double qcp_vec_dot(const double *a, const double *b, int n);

// ---- fill-reducing ordering (qcp_amd.c) -------------------------------------------------

// AMD ordering of the symmetric matrix whose upper triangle (diagonal optional, a repeated entry
// ignored) is the n×n CSC pattern (Up, Ui), with every array taken from al (amd_order uses
// malloc); the same ordering as amd_order's. Returns AMD_OK, AMD_INVALID (an entry below the
// diagonal or out of range) or AMD_OUT_OF_MEMORY. With lnz, *lnz is AMD's count of nnz(L) for the
// ordering (Info[AMD_LNZ]: an upper bound, rough when rows are dense; an estimate only).
int qcp_amd_order(int n, const int *Up, const int *Ui, int *perm, const qcp_allocator *al,
                  long *lnz);

// ---- sparse LDLᵀ (qcp_ldl.c) ---------------------------------------------------------

// The pivot rule of every factor here (dynamic regularisation, as in ECOS/QOCO): a pivot d whose
// sign·d is below eps becomes sign·delta (counted in *nreg)
static inline double qcp_ldl_pivot(double d, signed char sign, double eps, double delta,
                                   int *nreg) {
  if (sign * d >= eps) return d;
  ++*nreg;
  return sign * delta;
}

// Symbolic factor of an n×n upper-triangular CSC pattern: elimination tree and L's column counts.
// Returns nnz(L) (strict lower), or -1 if the pattern has a missing diagonal.
long qcp_ldl_etree(int n, const int *Ap, const int *Ai, int *work, int *Lnz, int *etree);
// qcp_ldl_etree that also lists each row's reach as qcp_ldl_reach_order(n, …) does (the climbs that
// count L's columns are those reaches): rows 0 … *rows−1 are in (Rp[0 … *rows], Rj), *rows the
// first row whose reach would not fit in cap entries of Rj (n when all fit; then Rp[n] = nnz(L)).
// work 2n ints. Returns what qcp_ldl_etree returns.
long qcp_ldl_etree_reach(int n, const int *Ap, const int *Ai, int *work, int *Lnz, int *etree,
                         int *Rp, int *Rj, long cap, int *rows);

// Numeric factor A = L D Lᵀ of the upper-triangular CSC matrix (Ap, Ai, Ax) with the pattern used
// in qcp_ldl_etree. sign[k] = ±1 is the expected pivot sign: a pivot with sign·d < eps becomes
// sign·delta. Lp must hold the column pointers computed from Lnz. Returns the number of pivots
// replaced; iwork 3n ints, fwork n doubles (scratch).
int qcp_ldl_factor(int n, const int *Ap, const int *Ai, const double *Ax, const int *Lp, int *Li,
                   double *Lx, double *D, double *Dinv, const int *etree, const signed char *sign,
                   double eps, double delta, int *iwork, double *fwork);

// The reach of each row k < k1 of L (the columns j its up-looking solve updates) in the order
// qcp_ldl_factor takes them: row k's in Rj[Rp[k] … Rp[k+1]−1] (Rp: k1 + 1 ints). The pattern is
// fixed, so this is done once; with Rp = Rj = NULL only the total is counted. iwork 2·k1 ints.
// Returns the total (nnz of rows < k1 of L).
long qcp_ldl_reach_order(int k1, const int *Ap, const int *Ai, const int *etree, int *iwork,
                         int *Rp, int *Rj);
// qcp_ldl_factor with the rows' reaches from qcp_ldl_reach_order(n, …): the same result bit for
// bit, without climbing the elimination tree in every factorisation.
int qcp_ldl_factor_ordered(int n, const int *Ap, const int *Ai, const double *Ax, const int *Lp,
                           int *Li, double *Lx, double *D, double *Dinv, const int *Rp,
                           const int *Rj, const signed char *sign, double eps, double delta,
                           int *iwork, double *fwork);

// First column of L's dense trailing block (columns j ≥ k0 with n−1−j entries each: a chain of
// the elimination tree ending at its root); n when column n−2 is not dense.
int qcp_ldl_dense_tail(int n, const int *Lnz);

// The factor of qcp_ldl_factor with the trailing block k0 … n−1 (k0 from qcp_ldl_dense_tail)
// factored densely: the sparse rows form the Schur complement in S ((n−k0)² doubles), which
// qcp_dense_ldl factors; same pivot rules, same L pattern and order. Scratch besides iwork and
// fwork (as qcp_ldl_factor's): tiwork, qcp_ldl_tail_iwork(n, n−k0) ints, and tfwork,
// qcp_ldl_tail_fwork(n, n−k0) doubles.
int qcp_ldl_factor_tail(int k0, int n, const int *Ap, const int *Ai, const double *Ax,
                        const int *Lp, int *Li, double *Lx, double *D, double *Dinv,
                        const int *etree, const signed char *sign, double eps, double delta,
                        int *iwork, double *fwork, double *S, int *tiwork, double *tfwork,
                        const int *Rp, const int *Rj);
size_t qcp_ldl_tail_iwork(int n, int nt);
size_t qcp_ldl_tail_fwork(int n, int nt);

// ---- dense LDLᵀ (qcp_dense.c) ----------------------------------------------------------

// In-place S = L D Lᵀ of the n×n symmetric matrix whose lower triangle S holds (column-major,
// leading dimension ld); on return the strict lower triangle holds L (unit diagonal implied).
// Pivots: sign·d < eps → sign·delta. Returns the number replaced, −1 on a non-finite pivot;
// work holds qcp_dense_ldl_work(n) doubles.
int qcp_dense_ldl(int n, double *S, int ld, double *D, double *Dinv, const signed char *sign,
                  double eps, double delta, double *work);
size_t qcp_dense_ldl_work(int n);

// S(i_a, i_b) −= Σ_k P(a,k) d_k P(b,k) for a ≥ b (a, b < m), the lower triangle of a rank-b
// update: P is m×b column-major (ldp), S column-major (ld), i_a = idx[a] (increasing) or r0 + a
// when idx is NULL. work holds qcp_dense_work(m, b) doubles.
void qcp_dense_update(int m, int b, const double *P, int ldp, const double *d, const int *idx,
                      int r0, double *S, int ld, double *work);
size_t qcp_dense_work(int m, int b);

// L's pattern by rows, for factors that meet many rows whose column of A is zero above the
// diagonal (an open contact row of paper A's prediction: its L row is then zero and needs no
// triangular solve): row k's entries are the slots Rslot[Rp[k] … Rp[k+1]−1] of L, and Lcol[p]
// is the column of slot p. The factor keeps Lend[j], one past column j's last nonzero, for the
// solves to stop there (qcp_ldl_solve_ends).
typedef struct qcp_ldl_rows {
  const int *Rp, *Rslot, *Lcol;
  int *Lend;
} qcp_ldl_rows;

// Fills Rp (n+1), Rslot and Lcol (nnz(L) each) from the pattern and the elimination tree of
// qcp_ldl_etree and Lp; iwork 3n ints.
void qcp_ldl_row_pattern(int n, const int *Ap, const int *Ai, const int *Lp, const int *etree,
                         int *iwork, int *Rp, int *Rslot, int *Lcol);

// The same factor after a change of A confined to rows and columns k0 … n−1: rows < k0 of L and
// D are kept (L must hold the factor of the previous A; k0 ≤ 0: none), rows ≥ k0 recomputed.
// rows (NULL: none) lets a row whose column of A is zero above the diagonal skip its solve.
// Returns the number of pivots replaced among the recomputed ones.
int qcp_ldl_refactor(int k0, int n, const int *Ap, const int *Ai, const double *Ax, const int *Lp,
                     int *Li, double *Lx, double *D, double *Dinv, const int *etree,
                     const qcp_ldl_rows *rows, const signed char *sign, double eps, double delta,
                     int *iwork, double *fwork);

// Solves L D Lᵀ x = b in place (x holds b on entry).
void qcp_ldl_solve(int n, const int *Lp, const int *Li, const double *Lx, const double *Dinv,
                   double *x);

// The same, reading column j of L up to Lend[j] only (entries past it are zero)
void qcp_ldl_solve_ends(int n, const int *Lp, const int *Lend, const int *Li, const double *Lx,
                        const double *Dinv, double *x);

// ---- cones (qcp_cone.c) ----------------------------------------------------------------

// Cone layout: l orthant entries, then nsoc cones of dims q[k] starting at off[k].
typedef struct qcp_cones {
  int l, nsoc, m, deg;  // deg = l + nsoc (the barrier degree)
  const int *q;         // nsoc
  int *off;             // nsoc offsets into the m-vector
} qcp_cones;

// Nesterov–Todd scaling data: orthant w_i = √(s_i/z_i); SOC η and w̄ (q entries per cone).
typedef struct qcp_nt {
  double *w;    // m: orthant w_i; for SOC the normalised w̄ of that cone
  double *eta;  // nsoc
} qcp_nt;

// Minimum eigenvalue of each cone block of v, minimised over cones (+inf if m = 0).
double qcp_cone_min_eig(const qcp_cones *K, const double *v);
// Adds t·e (the cone identity) to v.
void qcp_cone_add_identity(const qcp_cones *K, double *v, double t);
// Computes NT scaling from interior s, z and λ = W z; returns 0, or -1 if s or z is not interior.
int qcp_cone_nt(const qcp_cones *K, const double *s, const double *z, qcp_nt *nt, double *lambda);
// out = W v (inv = 0) or W⁻¹ v (inv = 1); out and v must differ.
void qcp_cone_scale(const qcp_cones *K, const qcp_nt *nt, int inv, const double *v, double *out);
// Jordan product out = u ∘ v.
void qcp_cone_prod(const qcp_cones *K, const double *u, const double *v, double *out);
// Inverse product: out solves λ ∘ out = v (λ interior); out and v must differ.
void qcp_cone_div(const qcp_cones *K, const double *lambda, const double *v, double *out);
// Largest α ≤ amax with v + α dv in the cone (v interior).
double qcp_cone_step(const qcp_cones *K, const double *v, const double *dv, double amax);
// out = μ · v⁻¹ (the Jordan inverse); v interior.
void qcp_cone_inverse(const qcp_cones *K, const double *v, double mu, double *out);

// ---- KKT system (qcp_kkt.c) ------------------------------------------------------------

// The quasidefinite KKT matrix [P+δI, Aᵀ, Gᵀ; A, −δI, 0; G, 0, −W²−δI], permuted by AMD and
// stored as an upper triangle, with maps from the problem's entries to the permuted storage.
typedef struct qcp_kkt {
  int n, p, m, N;
  int *perm, *pinv;         // N: new index → old and inverse
  int *Kp, *Ki;             // permuted upper CSC pattern
  double *Kx;               // values (with static regularisation)
  int *mapP, *mapA, *mapG;  // problem entry → Kx index
  int *mapW;                // W-block entries: orthant diagonals then per-SOC upper columns
  int *mapD;                // N: diagonal entry of each original row
  int diag_once;            // 1: each column of K holds its diagonal once, at mapD (kkt_residual)
  int nW;
  signed char *sign;           // N (permuted order): +1 x block, −1 y and z blocks
  int *etree, *Lnz, *Lp, *Li;  // symbolic factor
  int *Rp, *Rj;                // rows' reaches in factor order (qcp_ldl_reach_order; NULL: tail)
  double *Lx, *D, *Dinv;
  int *iwork;
  double *fwork, *rhs, *sol, *res, *cor;  // N each (permuted order)
  long double *resld;                     // N: the residual of qcp_kkt_solve_accurate
  int tail_k0;                            // dense trailing block of L from here (N: none)
  double *tail_S, *tail_work;             // its Schur complement, the dense kernels' scratch
  int *tail_iwork;
  long nnzK, nnzL;
  double delta;         // static regularisation used in Kx
  double rhs_norm;      // ‖rhs‖∞ of the last qcp_kkt_solve
  int solves, refines;  // counts since the caller last zeroed them
  // refinement may stop once the residual of the x rows is below lim_d and that of the y and z
  // rows below lim_p (0: only the relative tolerance of the solve counts)
  double lim_d, lim_p;
  int met_limits;       // 1 if the last solve's refinement stopped there
  double res_d, res_p;  // the last refinement residual's ‖·‖∞ on the x rows and on the others
  int dyn_pivots;       // pivots the last factorisation replaced (qcp_kkt_factor)
  int against_reg;      // 1: residuals are taken against Kx itself, δ included (proximal solves)
  // 1: the proximal solve measures its residual against K rather than taking it to be δ·S·sol
  // (the endgame, where the factor's rounding may exceed δ·S·sol)
  int measure_res;
  // 1: rhs, sol and res hold the last proximal solve's right-hand side, solution and residual
  // against K, for the factor and δ in place; from_kept (the caller's): the next proximal solve
  // starts from them
  int prox_kept, from_kept;
} qcp_kkt;

// Builds the KKT pattern, orders it with AMD and runs the symbolic factorisation.
int qcp_kkt_setup(qcp_kkt *kkt, const qcp_problem *prob, const qcp_cones *K,
                  const qcp_allocator *al, qcp_error *err);
// Frees all arrays of kkt.
void qcp_kkt_free(qcp_kkt *kkt, const qcp_allocator *al);
// Writes P, A, G values and the static regularisation; W block set to −I − δ.
void qcp_kkt_fill(qcp_kkt *kkt, const qcp_problem *prob, const qcp_cones *K, double delta);
// Replaces the static regularisation δ on the diagonal by delta (the W blocks take it at the
// next qcp_kkt_set_w).
void qcp_kkt_set_delta(qcp_kkt *kkt, double delta);
// Writes the −W² − δ blocks (nt = NULL: W² = rho·I).
void qcp_kkt_set_w(qcp_kkt *kkt, const qcp_cones *K, const qcp_nt *nt, double rho);
// Numeric factorisation; returns the number of dynamically regularised pivots, or -1 on NaN.
int qcp_kkt_factor(qcp_kkt *kkt, double eps, double dyn_delta);
// Solves K sol = rhs (original order, N each) with iterative refinement against K without the
// static regularisation; returns the final ‖residual‖∞.
double qcp_kkt_solve(qcp_kkt *kkt, const double *rhs, double *sol, int max_refine, double tol);
// The same with each refinement residual accumulated in long double: the solution converges to
// the working-precision one even when cond(K)·ε is far above the rounding of a double residual.
double qcp_kkt_solve_accurate(qcp_kkt *kkt, const double *rhs, double *sol, int max_refine,
                              double tol);
// The accurate solve refined from the point guess instead of K_reg⁻¹ rhs: each step is a
// proximal-point step, so where K is singular (redundant rows: a degenerate active set, whose
// multipliers are not unique) the solution is the one nearest to guess, not the smallest one.
double qcp_kkt_refine_from(qcp_kkt *kkt, const double *rhs, const double *guess, double *sol,
                           int max_refine, double tol);
// res = rhs − K x in permuted order (K without the static δ unless against_reg), accumulated in
// long double when accurate; returns ‖res‖∞ (res_d, res_p: its blocks', as refinement keeps them).
// x is only read (not const: it shares the pass that refinement uses to update x).
double qcp_kkt_residual(qcp_kkt *kkt, const double *rhs, double *x, double *res, int accurate);
// Vectors of the Krylov basis of qcp_kkt_refine_krylov; its scratch is QCP_KRYLOV_WORK·N doubles.
#define QCP_KRYLOV_BASIS 16
#define QCP_KRYLOV_WORK (QCP_KRYLOV_BASIS + 3)
// One refinement step of sol (original order, updated in place) towards K sol = rhs for the
// current factor: the correction equation for the residual accumulated in long double solved by
// a GMRES cycle preconditioned with the factor (qcp_krylov.c); returns the new ‖residual‖∞.
double qcp_kkt_refine_krylov(qcp_kkt *kkt, const double *rhs, double *sol, double *work);
// The proximal Newton solve: K_reg sol = rhs with K_reg the factored matrix itself (δ is a
// proximal term centred at the iterate, not an error to remove). Only a factor whose pivots the
// dynamic regularisation replaced is refined against K_reg (at most max_reg steps); the solve's
// residual against K is then δ·S·sol (S the sign diagonal), known without a product (computed
// when measure_res is set: rounding is then not negligible against it), and only
// when it exceeds the caller's block limits lim_d, lim_p is sol refined against K towards them
// (at most max_exact steps, as qcp_kkt_solve; met_limits as there). Refinement stops at
// tol·(1 + ‖rhs‖∞). With kkt->from_kept set, a proximal solve that follows another with the
// same factor and δ (no other solve, no qcp_kkt_set_w / set_delta in between) starts from that
// one's refined solution and solves only for the difference of the right-hand sides, keeping
// that refinement. Returns the final ‖residual‖∞ against K.
double qcp_kkt_solve_prox(qcp_kkt *kkt, const double *rhs, double *sol, int max_reg, int max_exact,
                          double tol);

// ---- Ruiz equilibration (qcp_scale.c) ------------------------------------------------------

// x = D x̄, s = E_z⁻¹ s̄, y = E_y ȳ / cost, z = E_z z̄ / cost (one E_z value per second-order cone).
typedef struct qcp_scaling {
  int passes;           // Ruiz passes (0: all scales 1)
  double *D, *Ey, *Ez;  // n, p, m
  double cost;          // cost scale κ
  int applied;          // 1 if the data was scaled (0: norms spread ≤ 1e4, or passes = 0)
  double *work;         // n + p + m scratch: the norms
  double *fac;          // n + p + m scratch: one pass's factors
} qcp_scaling;

// Computes the scaling of src (passes from sc->passes) and, when it is applied (sc->applied),
// writes the scaled values into dst, which shares src's sizes and patterns and owns its value
// arrays; otherwise dst is not written and the problem to iterate on is src itself.
void qcp_scale_compute(qcp_scaling *sc, const qcp_problem *src, const qcp_cones *K,
                       qcp_problem *dst);
// Scaled iterate → original variables, in place.
void qcp_scale_unscale(const qcp_scaling *sc, int n, int p, int m, double *x, double *s, double *y,
                       double *z);
// Original variables → scaled iterate, in place (NULL s, y, z skipped).
void qcp_scale_scale(const qcp_scaling *sc, int n, int p, int m, double *x, double *s, double *y,
                     double *z);

// ---- last-bit selection (qcp_lastbit.c) ------------------------------------------------------

// Row-wise copies of A and G, P with both triangles, and double-double residuals: the scratch of
// qcp_lastbit_select, allocated at setup.
typedef struct qcp_lastbit {
  int *Arp, *Arj, *Grp, *Grj, *Pcp, *Pci;
  double *Arv, *Grv, *Pcv;
  sc_dd *px, *rd, *rp;  // Px, Px + c + Aᵀy + Gᵀz (n), Ax − b then Gx + s − h (p + m)
} qcp_lastbit;

// Allocates the scratch for problems of pr's sizes and patterns; 0 or −1 (out of memory).
int qcp_lastbit_alloc(qcp_lastbit *lb, const qcp_problem *pr, const qcp_allocator *al);
void qcp_lastbit_free(qcp_lastbit *lb, const qcp_allocator *al);

// Moves components of the point (x, s, y, z) of pr (orthant cones only, original data) so that
// |Ax − b|, |Gx + s − h| ≤ tp, |Px + c + Aᵀy + Gᵀz| ≤ td and |xᵀPx + cᵀx + bᵀy + hᵀz| ≤ tg
// entrywise, measured exactly; 1 if they all are by its own bookkeeping (the caller re-judges).
int qcp_lastbit_select(qcp_lastbit *lb, const qcp_problem *pr, double *x, double *s, double *y,
                       double *z, double tp, double td, double tg);

// ---- workspace ----------------------------------------------------------------------------

struct qcp_workspace {
  qcp_settings set;
  qcp_allocator al;
  qcp_problem prob;  // the EQUILIBRATED problem the iteration works on (values below)
  int *Pp, *Pi, *Ap, *Ai, *Gp, *Gi, *q;
  double *Pv, *Av, *Gv, *c, *b, *h;        // the values iterated on: sPv … or oPv … (not owned)
  double *sPv, *sAv, *sGv, *sc, *sb, *sh;  // the equilibrated values, used when scl.applied
  qcp_problem oprob;  // the caller's problem (same patterns, original values below)
  double *oPv, *oAv, *oGv, *oc, *ob, *oh;
  double norm_b, norm_h, norm_c;  // ‖ob‖∞, ‖oh‖∞, ‖oc‖∞ (set with the scaling)
  double row_len[2];   // √(largest number of entries in a row) of A and of G (compute_residuals)
  int rows_dd;         // bit 0: A's rows, bit 1: G's rows summed in double-double (this solve)
  double res_dots[4];  // bᵀy, hᵀz, cᵀx, xᵀPx of the last compute_residuals (certify)
  qcp_scaling scl;
  double *ux, *us, *uy, *uz;  // unscaled copy of a candidate point (termination check)
  qcp_cones K;
  qcp_kkt kkt;
  qcp_nt nt;
  // iterate, residuals, directions
  double *x, *s, *y, *z, *lambda;
  double *rx, *ry, *rz;
  double *dx, *ds, *dy, *dz, *dsa, *dza;
  double *cdx, *cds, *cdy, *cdz;  // a direction kept while a centrality corrector is tried
  double *bs, *t1, *t2, *t3;      // m-vectors of scratch
  double *rhs, *sol;              // N
  double *kry;                    // QCP_KRYLOV_WORK·N: the polish's Krylov scratch (or NULL)
  double *Px, *Atz, *tn;          // n-vectors of scratch
  // best iterate
  double *bx, *bsv, *by, *bz;
  // the best iterate of the run before a cold restart (valid when first_run_kept), polished in
  // turn when the best of the whole solve cannot be
  double *fx, *fsv, *fy, *fz;
  int first_run_kept;
  int early_polished;    // 1: the iteration ended on a polished point (early_polish)
  double cand_units;     // the final polish's most accurate sign-keeping point (in cd*), its
                         // worst exact measure in units of the test (INFINITY: none kept)
  int early_wide;        // 1: early_polish's try at a relative gap (EARLY_POLISH_REL) was made
  int polish_waited;     // 1: early_polish left its next try to the step forecast to end the solve
  double tl0;            // qcp_limit_clock at the solve's start
  int time_out;          // 1: work was left undone for settings.time_limit (time_fits)
  sc_dd *ddn, *ddm;      // n and max(p, m) double-double scratch (termination check)
  qcp_lastbit lastbit;   // scratch of the last-bit selection (set->polish only)
  double kkt_worst;      // largest relative KKT refinement residual of the current iteration
  double kkt_worst_abs;  // the same, absolute
  double prox_frac;      // the proximal solves' error limit, a share of the residuals (ipm_iterate)
  // the current iterate's ‖r_x‖∞ and max(‖r_y‖∞, ‖r_z‖∞), taken once per iteration for its
  // solves' refinement limits (ipm_iterate)
  double rnorm_d, rnorm_p;
  // the smallest factor by which the scaling multiplies a caller's dual residual (x rows) and
  // primal residual (y, z rows) (equilibrate), and the proximal solves' block limits' floor in
  // the scaled rows (ipm_iterate: tolerance_floor)
  double scale_min_d, scale_min_p, lim_floor_d, lim_floor_p;
  double relax_from, relax_rel;  // δ before the last relaxation (0: none pending), its residual
  int relax_off;                 // 1: the static regularisation is not relaxed again in this solve
  int dual_stall;  // 1: the last corrector's proximal error was at least half the dual residual
  qcp_iter_record *rec;
  int rec_cap;
  qcp_info info;
  int max_iter_setup;
  void *scratch;  // one block holding the arrays setup leaves unwritten (scratch_parts)
};

#endif  // QCP_INTERNAL_H
