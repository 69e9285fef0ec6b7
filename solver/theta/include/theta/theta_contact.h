// SPDX-License-Identifier: MIT
// Paper B's convex compliant-contact stage (SPEC §2.3): the problem, the cone projection in the
// R-norm and the primal Newton solver with exact line search.
#ifndef THETA_THETA_CONTACT_H
#define THETA_THETA_CONTACT_H

#include "common/sc_error.h"
#include "mdl/mdl_model.h"

// Kind of one contact of the convex problem.
typedef enum theta_contact_kind {
  THETA_CONTACT_CONE = 0,  // 0, 1 or 2 tangent rows then one normal row: ‖γ_t‖ ≤ μ γ_n
  THETA_CONTACT_FREE = 1,  // one bilateral row: γ = y, no projection (a compliant joint)
} theta_contact_kind;

// Region of the cone projection γ = P_F(y).
typedef enum theta_cone_region {
  THETA_CONE_STICTION = 0,   // y ∈ F: γ = y
  THETA_CONE_SLIDING = 1,    // γ on the cone's surface, γ_t = μ γ_n t̂
  THETA_CONE_SEPARATED = 2,  // y in the polar cone: γ = 0
} theta_cone_region;

// Which solver handles the contact stage.
typedef enum theta_contact_solver {
  THETA_SOLVER_NEWTON = 0,  // paper B's primal Newton with exact line search (theta_newton.c)
  THETA_SOLVER_QCP = 1,     // the dual conic QP, lifted sparse, by the qcp interior-point solver
} theta_contact_solver;

// Contact-stage settings; obtain defaults from theta_contact_settings_default().
typedef struct theta_contact_settings {
  theta_contact_solver solver;  // default THETA_SOLVER_NEWTON
  double dual_tol;              // qcp's eps_abs = eps_rel for THETA_SOLVER_QCP (default 1e-9)
  double beta;                  // near-rigid parameter β of R_n (default 1, paper B)
  double sigma;                 // tangential regularisation R_t = σ w_i (default 1e-3, paper B)
  int max_iter;                 // Newton iterations allowed (default 100)
  double atol;  // ε_a of the stop ‖D∇ℓ‖ < ε_a + ε_r max(‖D M v‖, ‖D Jᵀγ‖) (default 1e-14)
  double rtol;      // ε_r (default 1e-10: below the discretisation error of convergence studies);
                    // raised to 10u/σ (u = unit roundoff), the rounding floor of γ_t ∝ 1/R_t
  int ls_max_iter;  // exact line-search iterations allowed per Newton step (default 100)
  double ls_rtol;   // line-search stop |dℓ/dα| ≤ ls_rtol·|dℓ/dα(0)| (default 1e-10)
} theta_contact_settings;

// Defaults: Newton, β = 1, σ = 1e-3, 100 iterations, ε_a = 1e-14, ε_r = 1e-10, line search
// 100 / 1e-10, dual tolerance 1e-9.
theta_contact_settings theta_contact_settings_default(void);

// Statistics of one contact-stage solve.
typedef struct theta_contact_info {
  int contacts;                      // contacts in the problem
  int rows;                          // rows in the problem
  int iterations;                    // Newton iterations (0: v* already optimal)
  int ls_iterations;                 // line-search iterations summed over the Newton iterations
  int converged;                     // 1 if the stopping rule held
  double residual;                   // final ‖D∇ℓ‖ [kg^½·m/s]
  double tolerance;                  // the stopping threshold it was compared with [kg^½·m/s]
  double cost;                       // final ℓ(v) [J·s²/kg… i.e. kg·m²/s²]
  int stiction, sliding, separated;  // cone contacts per region at the solution
} theta_contact_info;

// One convex contact problem (dual: min_{γ∈F} ½γᵀ(W+R)γ + (Jv* − v̂)ᵀγ; primal: min_v ℓ(v)).
// All arrays are owned by the struct (theta_contact_problem_create); sizes in brackets.
typedef struct theta_contact_problem {
  int nv;                    // generalised velocities
  int cap_rows, cap_nnz;     // capacities (rows = contacts at most)
  int nc, nrows;             // contacts and rows in use
  theta_contact_kind *kind;  // [cap_rows] per contact
  double *mu;                // [cap_rows] friction coefficient per contact
  int *first;        // [cap_rows + 1] contact c owns rows first[c] .. first[c+1]), normal last
  int *start, *col;  // J in CSR: [cap_rows + 1], [cap_nnz]
  double *val;       // [cap_nnz]
  double *vhat;      // [cap_rows] bias velocity v̂ per row [m/s]
  double *R;         // [cap_rows] regularisation per row [s/kg]
  int *source;       // [cap_rows] model row each problem row came from (−1: none)
  double *A;         // [nv·nv] row-major SPD A = M + δt²θθvq K + δt θ D [kg]
  double *M;         // [nv·nv] row-major mass matrix (scales the stopping rule) [kg]
  double *vstar;     // [nv] free-motion velocities v* [m/s]
} theta_contact_problem;

// Allocates an empty problem for nv velocities and at most max_rows rows and max_nnz Jacobian
// entries (heap, owned by the caller); NULL on failure.
theta_contact_problem *theta_contact_problem_create(int nv, int max_rows, int max_nnz);
// Frees a problem; NULL is a no-op.
void theta_contact_problem_free(theta_contact_problem *p);
// Removes every contact (keeps A, M, v*).
void theta_contact_problem_clear(theta_contact_problem *p);
// Appends one contact of dim rows (tangents first, normal last) with dense Jacobian rows jac
// (dim×nv row-major, zeros skipped), v̂ and R (dim entries each); returns its index or −1 when the
// capacity is exceeded. For tests and hand-made problems.
int theta_contact_problem_add(theta_contact_problem *p, theta_contact_kind kind, double mu, int dim,
                              const double *jac, const double *vhat, const double *R);

// Fills p's contacts from model rows at q0 for step h [s] (SPEC §2.3): normal and tangent rows
// grouped by rows->contact into cones, unilateral rows as frictionless cones, bilateral rows as
// free rows; per contact v̂_n = −φ0 K/(Kh + B) (= −φ0/(h + τ_d), τ_d = B/K),
// R_n = max(β²/(4π²) w, 1/(h(Kh + B))), R_t = σ w, w = ‖W_cc‖_F/3 with the exact block
// W_cc = J_c A⁻¹ J_cᵀ. L is the row-major Cholesky factor of p->A (nv·nv), scratch holds 4·nv
// doubles. Rows with K = B = 0 exert no force and are left out. Returns 0, or SC_ERR_INPUT with
// err (may be NULL) naming a bad row (K or B < 0, column out of range, tangent without its normal,
// > 2 tangents) or the capacity exceeded.
int theta_contact_problem_build(theta_contact_problem *p, const mdl_rows *rows, double h,
                                const theta_contact_settings *s, const double *L, double *scratch,
                                sc_error *err);
// As theta_contact_problem_build with each row's stiffness taken from K (rows->n entries; NULL:
// rows->K) and only the rows whose take[i] is non-zero (NULL: every row; a tangent row follows
// its normal row).
int theta_contact_problem_build_with(theta_contact_problem *p, const mdl_rows *rows,
                                     const double *K, const unsigned char *take, double h,
                                     const theta_contact_settings *s, const double *L,
                                     double *scratch, sc_error *err);

// Projects y (dim = 1, 2 or 3 entries: tangents then normal) onto the friction cone
// {‖γ_t‖ ≤ μ γ_n} in the norm ‖·‖_R (R: dim positive entries), in closed form (paper B §IV):
// stiction γ = y; sliding γ_n = (y_n + μ̂‖y_t‖)/(1 + μ̃²), γ_t = μγ_n t̂, μ̃ = μ√(R_t/R_n),
// μ̂ = μR_t/R_n; otherwise γ = 0. If G is non-NULL it receives the symmetric PSD dim×dim
// (row-major) matrix (∂γ/∂y) R⁻¹, the contact's block of the Newton Hessian. Returns the region.
theta_cone_region theta_cone_project(int dim, double mu, const double *R, const double *y,
                                     double *gamma, double *G);

// Primal Newton solver workspace (paper B §V): allocated once for nv and max_rows.
typedef struct theta_newton theta_newton;

// Allocates the solver's scratch for problems up to nv velocities and max_rows rows; NULL on
// failure.
theta_newton *theta_newton_create(int nv, int max_rows);
// Frees the solver; NULL is a no-op.
void theta_newton_free(theta_newton *nw);
// Minimises ℓ(v) = ½‖v − v*‖²_A + ½‖P_F(y(v))‖²_R, y = −R⁻¹(Jv − v̂), by Newton with an exact
// line search, starting from v (nv, in/out) and writing the impulses γ [N·s] (p->nrows) and the
// statistics. Allocates nothing. Returns 0 converged, 1 iteration limit (last iterate kept),
// −1 singular Hessian or non-finite data.
int theta_newton_solve(theta_newton *nw, const theta_contact_problem *p,
                       const theta_contact_settings *s, double *v, double *gamma,
                       theta_contact_info *info);

// Cost ℓ(v) of problem p at v (nv), using the solver's scratch; for tests and diagnostics.
double theta_newton_cost(theta_newton *nw, const theta_contact_problem *p, const double *v);

// Dual solver workspace (SPEC §2.3): min ½wᵀAw + ½γᵀRγ + (Jv* − v̂)ᵀγ s.t. Aw − Jᵀγ = 0, γ ∈ F,
// solved by qcp on x = (w, γ); W = J A⁻¹ Jᵀ is never formed. Available when stabcon is built with
// qcp (theta_dual_available() = 1).
typedef struct theta_dual theta_dual;

// 1 if the library was built with qcp (the dual solver exists), else 0.
int theta_dual_available(void);
// Allocates the dual solver's arrays for nv velocities and max_rows rows, max_nnz Jacobian
// entries; NULL on failure or without qcp. The qcp workspace itself is set up at the first solve
// and again only when the contact pattern changes (a changed pattern allocates).
theta_dual *theta_dual_create(int nv, int max_rows, int max_nnz);
// Frees the solver; NULL is a no-op.
void theta_dual_free(theta_dual *d);
// Solves p's dual: writes v = v* + w (nv) and γ [N·s] (p->nrows) and the statistics (iterations:
// interior-point iterations; residual: max relative primal/dual residual). Returns 0 solved,
// 1 not solved to s->dual_tol (qcp's status in info->converged = 0), −1 setup or input failure.
int theta_dual_solve(theta_dual *d, const theta_contact_problem *p, const theta_contact_settings *s,
                     double *v, double *gamma, theta_contact_info *info);

#endif  // THETA_THETA_CONTACT_H
