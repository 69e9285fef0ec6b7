// SPDX-License-Identifier: MIT
// Internal exact dense solvers for the unilateral step (relaxed mixed LCP, paper A's QP). Not
// public.
#ifndef MBS_LCP_H
#define MBS_LCP_H

// Outcome of a dense solve.
enum { MBS_LCP_OK = 0, MBS_LCP_MAX_ITER = 1, MBS_LCP_SINGULAR = 2 };

// Scratch for problems of up to cap rows; all arrays allocated by mbs_lcp_ws_init.
typedef struct mbs_lcp_ws {
  int cap;
  double *F, *S, *Z, *GW, *AW;           // cap×cap each
  double *x, *r, *rhs, *e, *z, *mu, *p;  // cap each
  int *set, *idx, *bidx, *uidx, *work;   // cap each
} mbs_lcp_ws;

// Allocates scratch for cap rows; 0 on success, −1 out of memory (then call mbs_lcp_ws_free).
int mbs_lcp_ws_init(mbs_lcp_ws *w, int cap);
// Frees the scratch arrays (safe on a zeroed or partially initialised struct).
void mbs_lcp_ws_free(mbs_lcp_ws *w);

// Relaxed step: finds λ (n) with r = Aλ − b, r_i = 0 where free_row[i], and 0 ≤ λ_i ⊥ r_i ≥ 0
// elsewhere, A SPD n×n row-major with leading dimension lda. Murty's least-index principal
// pivoting (finite for P-matrices). *iters receives the pivot count.
int mbs_lcp_relaxed(mbs_lcp_ws *w, const double *A, int lda, const double *b, const int *free_row,
                    int n, int max_iter, double tol, double *lambda, int *iters);

// Paper A's QP (eqs. 83–85 with bilateral rows as equalities): min ½‖λ_U‖² subject to r_B = 0,
// r_U ≥ 0, λ_U ≥ 0 (U = rows not free). Started from the relaxed solution (feasible; a vertex),
// then a primal active-set method on the Schur complement in λ_U. *iters adds both phases.
int mbs_lcp_paper(mbs_lcp_ws *w, const double *A, int lda, const double *b, const int *free_row,
                  int n, int max_iter, double tol, double *lambda, int *iters);

#endif  // MBS_LCP_H
