// SPDX-License-Identifier: MIT
// Paper B's primal contact solver: Newton on the unconstrained convex ℓ(v) with exact line search.
//
// The dual problem min_{γ∈F} ½γᵀ(W + R)γ + (Jv* − v̂)ᵀγ (SPEC §2.3) is equivalent to the
// unconstrained primal (paper B §IV)
//   ℓ(v) = ½‖v − v*‖²_A + ½‖γ(v)‖²_R,   γ(v) = P_F(y(v)),   y(v) = −R⁻¹(Jv − v̂),
// because ½‖P_F(y)‖²_R has gradient R P_F(y) in y (a projection in the R-norm). Hence
//   ∇ℓ = A(v − v*) − Jᵀγ(v),    ∇²ℓ = A + Σ_c J_cᵀ G_c J_c,   G_c = (∂γ_c/∂y_c) R_c⁻¹ ⪰ 0,
// and ∇ℓ = 0 is exactly the momentum balance A(v − v*) = Jᵀγ (paper B eq. (17)). ℓ is strongly
// convex (A ≻ 0) and C¹ with a piecewise-smooth gradient, so Newton with an exact line search
// (paper B §V) converges globally: the step Δv = −H⁻¹∇ℓ, then α minimising the 1-D convex
//   ℓ(v + αΔv),  dℓ/dα = Δvᵀ A(v − v* + αΔv) − (JΔv)ᵀ γ(y − α R⁻¹JΔv),
//   d²ℓ/dα² = ΔvᵀAΔv + (JΔv)ᵀ G(α) (JΔv) > 0,
// found by a safeguarded Newton–bisection on dℓ/dα over a bracket grown from [0, 1].
// Stopping rule (paper B §V): ‖D∇ℓ‖ < ε_a + ε_r max(‖D M v‖, ‖D Jᵀγ‖), D = diag(M)^{-½}.
// γ_t = −(Jv)_t / R_t carries the rounding of Jv amplified by 1/R_t ∝ 1/σ, so ‖D∇ℓ‖ cannot fall
// below ≈ u/σ relative (u the unit roundoff; measured on the spring–cylinder: σ = 1e-7 stalls at
// ε_r = 1e-10); the effective ε_r is therefore max(ε_r, 10u/σ) — no change at paper B's σ = 1e-3.
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "theta/theta_contact.h"
#include "theta_internal.h"

struct theta_newton {
  int nv, cap_rows;
  double *H;                            // [nv·nv] Hessian, factored in place
  double *grad, *dv, *Adv, *dvs;        // [nv]
  double *jtg, *tmp;                    // [nv]
  double *Jv, *Jdv, *y, *ya, *gam, *G;  // [cap_rows] (G: [3·cap_rows] blocks)
  int *region;                          // [cap_rows] per contact
};

void theta_newton_free(theta_newton *nw) {
  if (!nw) return;
  free(nw->H);
  free(nw->grad);
  free(nw->dv);
  free(nw->Adv);
  free(nw->dvs);
  free(nw->jtg);
  free(nw->tmp);
  free(nw->Jv);
  free(nw->Jdv);
  free(nw->y);
  free(nw->ya);
  free(nw->gam);
  free(nw->G);
  free(nw->region);
  free(nw);
}

theta_newton *theta_newton_create(int nv, int max_rows) {
  if (nv < 1 || max_rows < 0) return NULL;
  theta_newton *nw = calloc(1, sizeof *nw);
  if (!nw) return NULL;
  size_t n = (size_t)nv, r = (size_t)max_rows + 1;
  nw->nv = nv;
  nw->cap_rows = max_rows;
  nw->H = calloc(n * n, sizeof(double));
  nw->grad = calloc(n, sizeof(double));
  nw->dv = calloc(n, sizeof(double));
  nw->Adv = calloc(n, sizeof(double));
  nw->dvs = calloc(n, sizeof(double));
  nw->jtg = calloc(n, sizeof(double));
  nw->tmp = calloc(n, sizeof(double));
  nw->Jv = calloc(r, sizeof(double));
  nw->Jdv = calloc(r, sizeof(double));
  nw->y = calloc(r, sizeof(double));
  nw->ya = calloc(r, sizeof(double));
  nw->gam = calloc(r, sizeof(double));
  nw->G = calloc(3 * r, sizeof(double));
  nw->region = calloc(r, sizeof(int));
  if (!nw->H || !nw->grad || !nw->dv || !nw->Adv || !nw->dvs || !nw->jtg || !nw->tmp || !nw->Jv ||
      !nw->Jdv || !nw->y || !nw->ya || !nw->gam || !nw->G || !nw->region) {
    theta_newton_free(nw);
    return NULL;
  }
  return nw;
}

// out = J x (p->nrows entries)
static void jac_apply(const theta_contact_problem *p, const double *x, double *out) {
  for (int r = 0; r < p->nrows; r++) {
    double s = 0;
    for (int k = p->start[r]; k < p->start[r + 1]; k++) s += p->val[k] * x[p->col[k]];
    out[r] = s;
  }
}

// out = Jᵀ g (nv entries)
static void jac_apply_t(const theta_contact_problem *p, const double *g, double *out) {
  for (int j = 0; j < p->nv; j++) out[j] = 0;
  for (int r = 0; r < p->nrows; r++)
    for (int k = p->start[r]; k < p->start[r + 1]; k++) out[p->col[k]] += p->val[k] * g[r];
}

// γ = P_F(y) per contact; G blocks (stored at 3·first[c]) and regions when G is non-NULL
static void impulses(const theta_contact_problem *p, const double *y, double *gam, double *G,
                     int *region) {
  for (int c = 0; c < p->nc; c++) {
    const int r0 = p->first[c], dim = p->first[c + 1] - r0;
    double *Gc = G ? G + 3 * r0 : NULL;
    if (p->kind[c] == THETA_CONTACT_FREE) {
      gam[r0] = y[r0];
      if (Gc) Gc[0] = 1.0 / p->R[r0];
      if (region) region[c] = THETA_CONE_STICTION;
      continue;
    }
    theta_cone_region reg = theta_cone_project(dim, p->mu[c], p->R + r0, y + r0, gam + r0, Gc);
    if (region) region[c] = (int)reg;
  }
}

// y = −R⁻¹(Jv − v̂) from Jv
static void velocity_to_y(const theta_contact_problem *p, const double *Jv, double *y) {
  for (int r = 0; r < p->nrows; r++) y[r] = -(Jv[r] - p->vhat[r]) / p->R[r];
}

double theta_newton_cost(theta_newton *nw, const theta_contact_problem *p, const double *v) {
  const int nv = p->nv;
  for (int j = 0; j < nv; j++) nw->dvs[j] = v[j] - p->vstar[j];
  mdl_dense_matvec(p->A, nv, nw->dvs, nw->tmp);
  double l = 0.5 * mdl_dense_dot(nw->dvs, nw->tmp, nv);
  jac_apply(p, v, nw->Jv);
  velocity_to_y(p, nw->Jv, nw->y);
  impulses(p, nw->y, nw->gam, NULL, NULL);
  for (int r = 0; r < p->nrows; r++) l += 0.5 * p->R[r] * nw->gam[r] * nw->gam[r];
  return l;
}

// dℓ/dα and d²ℓ/dα² at α along Δv; a0 = Δvᵀ A(v − v*), a1 = ΔvᵀAΔv
static void ls_eval(theta_newton *nw, const theta_contact_problem *p, double a0, double a1,
                    double alpha, double *d, double *dd) {
  for (int r = 0; r < p->nrows; r++) nw->ya[r] = nw->y[r] - alpha * nw->Jdv[r] / p->R[r];
  impulses(p, nw->ya, nw->gam, nw->G, NULL);
  double g = 0, curv = 0;
  for (int c = 0; c < p->nc; c++) {
    const int r0 = p->first[c], dim = p->first[c + 1] - r0;
    const double *Gc = nw->G + 3 * r0, *u = nw->Jdv + r0;
    for (int a = 0; a < dim; a++) {
      g += u[a] * nw->gam[r0 + a];
      for (int b = 0; b < dim; b++) curv += u[a] * Gc[a * dim + b] * u[b];
    }
  }
  *d = a0 + alpha * a1 - g;
  *dd = a1 + curv;
}

// exact line search: the root of dℓ/dα on α > 0 (d(0) < 0); returns α, counts iterations
static double line_search(theta_newton *nw, const theta_contact_problem *p,
                          const theta_contact_settings *s, double a0, double a1, int *iters) {
  double d0, dd, d, lo = 0, hi = 1;
  ls_eval(nw, p, a0, a1, 0, &d0, &dd);
  if (!(d0 < 0)) return 0;
  ls_eval(nw, p, a0, a1, hi, &d, &dd);
  (*iters)++;
  // grow the bracket while the slope is still negative (rare: the Newton step is short)
  for (int k = 0; d < 0 && k < 60; k++) {
    lo = hi, hi *= 2;
    ls_eval(nw, p, a0, a1, hi, &d, &dd);
    (*iters)++;
  }
  if (d < 0) return hi;
  double alpha = hi;
  for (int it = 0; it < s->ls_max_iter; it++) {
    if (fabs(d) <= s->ls_rtol * fabs(d0)) break;
    if (d > 0)
      hi = alpha;
    else
      lo = alpha;
    double next = alpha - d / dd;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (hi - lo <= 1e-15 * hi) break;
    alpha = next;
    ls_eval(nw, p, a0, a1, alpha, &d, &dd);
    (*iters)++;
  }
  return alpha;
}

// H = A + Σ J_cᵀ G_c J_c from the G blocks of the current iterate
static void hessian_assemble(theta_newton *nw, const theta_contact_problem *p) {
  const int nv = p->nv;
  memcpy(nw->H, p->A, (size_t)nv * (size_t)nv * sizeof(double));
  for (int c = 0; c < p->nc; c++) {
    const int r0 = p->first[c], dim = p->first[c + 1] - r0;
    const double *Gc = nw->G + 3 * r0;
    for (int a = 0; a < dim; a++)
      for (int b = 0; b < dim; b++) {
        const double g = Gc[a * dim + b];
        if (g == 0) continue;
        for (int k = p->start[r0 + a]; k < p->start[r0 + a + 1]; k++)
          for (int l = p->start[r0 + b]; l < p->start[r0 + b + 1]; l++)
            nw->H[p->col[k] * nv + p->col[l]] += p->val[k] * g * p->val[l];
      }
  }
}

// ‖D x‖ with D = diag(M)^{-½}
static double scaled_norm(const theta_contact_problem *p, const double *x) {
  double s = 0;
  for (int j = 0; j < p->nv; j++) s += x[j] * x[j] / p->M[j * p->nv + j];
  return sqrt(s);
}

int theta_newton_solve(theta_newton *nw, const theta_contact_problem *p,
                       const theta_contact_settings *s, double *v, double *gamma,
                       theta_contact_info *info) {
  const int nv = p->nv;
  memset(info, 0, sizeof *info);
  info->contacts = p->nc;
  info->rows = p->nrows;
  int rc = 1;
  for (int it = 0;; it++) {
    // gradient ∇ℓ = A(v − v*) − Jᵀγ and the Hessian blocks at v
    jac_apply(p, v, nw->Jv);
    velocity_to_y(p, nw->Jv, nw->y);
    impulses(p, nw->y, nw->gam, nw->G, nw->region);
    jac_apply_t(p, nw->gam, nw->jtg);
    for (int j = 0; j < nv; j++) nw->dvs[j] = v[j] - p->vstar[j];
    mdl_dense_matvec(p->A, nv, nw->dvs, nw->grad);
    for (int j = 0; j < nv; j++) nw->grad[j] -= nw->jtg[j];
    if (!mdl_finite(nw->grad, nv)) {
      rc = -1;
      break;
    }
    // stopping rule of paper B §V
    mdl_dense_matvec(p->M, nv, v, nw->tmp);
    info->residual = scaled_norm(p, nw->grad);
    const double rtol = fmax(s->rtol, 10 * DBL_EPSILON / s->sigma);
    info->tolerance = s->atol + rtol * fmax(scaled_norm(p, nw->tmp), scaled_norm(p, nw->jtg));
    if (info->residual < info->tolerance) {
      rc = 0;
      break;
    }
    if (it >= s->max_iter) break;
    // Newton direction H Δv = −∇ℓ
    hessian_assemble(nw, p);
    if (mdl_chol_factor_rel(nw->H, nv, nv, THETA_PIVOT_REL)) {
      rc = -1;
      break;
    }
    for (int j = 0; j < nv; j++) nw->dv[j] = -nw->grad[j];
    mdl_chol_solve(nw->H, nv, nv, nw->dv);
    // exact line search along Δv
    mdl_dense_matvec(p->A, nv, nw->dv, nw->Adv);
    // A(v − v*) = ∇ℓ + Jᵀγ
    const double a0 = mdl_dense_dot(nw->dv, nw->grad, nv) + mdl_dense_dot(nw->dv, nw->jtg, nv);
    const double a1 = mdl_dense_dot(nw->dv, nw->Adv, nv);
    jac_apply(p, nw->dv, nw->Jdv);
    const double alpha = line_search(nw, p, s, a0, a1, &info->ls_iterations);
    info->iterations = it + 1;
    if (alpha == 0) break;  // no descent left: stagnation at rounding level, reported
    for (int j = 0; j < nv; j++) v[j] += alpha * nw->dv[j];
  }
  // impulses and regions at the returned v
  jac_apply(p, v, nw->Jv);
  velocity_to_y(p, nw->Jv, nw->y);
  impulses(p, nw->y, gamma, NULL, nw->region);
  info->converged = rc == 0 && info->residual < info->tolerance;
  info->cost = theta_newton_cost(nw, p, v);
  for (int c = 0; c < p->nc; c++) {
    if (p->kind[c] != THETA_CONTACT_CONE) continue;
    info->stiction += nw->region[c] == THETA_CONE_STICTION;
    info->sliding += nw->region[c] == THETA_CONE_SLIDING;
    info->separated += nw->region[c] == THETA_CONE_SEPARATED;
  }
  return rc;
}
