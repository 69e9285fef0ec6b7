// SPDX-License-Identifier: MIT
// The contact stage's dual conic QP through qcp, lifted so that the Delassus matrix is never
// formed.
//
// Dual (SPEC §2.3, paper B §III):  min_{γ ∈ F} ½γᵀ(W + R)γ + (Jv* − v̂)ᵀγ,  W = J A⁻¹ Jᵀ.
// With w = A⁻¹Jᵀγ, γᵀWγ = wᵀAw, so on x = (w, γ) ∈ R^{nv + nrows} it is the sparse QP
//   min ½wᵀAw + ½γᵀRγ + (Jv* − v̂)ᵀγ   s.t.  A w − Jᵀγ = 0,   γ ∈ F,
// whose KKT matrix holds only A, J and R (SPEC §1.2 "solve it sparse"). Then v = v* + w, because
// A(v − v*) = Jᵀγ (paper B eq. (17)). Cones in qcp form Gx + s = h, h = 0:
//   normal-only contacts and frictionless (μ = 0) normals:   s = γ_n ∈ R₊ (orthant rows first);
//   friction cones with μ > 0:  s = (μγ_n, γ_t) ∈ Q^{dim};  μ = 0 tangents: equality rows γ_t = 0
//   (the cone {‖γ_t‖ ≤ 0} has no interior); free (bilateral) rows: no cone.
// The qcp workspace is set up once per contact pattern and only updated while it is unchanged.
#include "theta/theta_contact.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef THETA_HAVE_QCP
#include "qcp/qcp.h"

struct theta_dual {
  int nv, cap_rows, cap_nnz;
  // current pattern and values (CSC), sized for the largest problem
  int *Pp, *Pi, *Ap, *Ai, *Gp, *Gi, *q;
  double *Px, *Ax, *Gx, *c, *b, *h;
  // pattern of the qcp workspace's setup, for reuse
  int *Pp0, *Pi0, *Ap0, *Ai0, *Gp0, *Gi0, *q0;
  int n0, p0, l0, nsoc0;
  int *grow;     // [cap_rows] G row of each γ (−1: none)
  double *gval;  // [cap_rows] its coefficient (−1 or −μ)
  int *fixrow;   // [cap_rows] equality row fixing a μ = 0 tangent (−1: none)
  int *ord;      // [cap_nnz] sort scratch
  qcp_workspace *qcp;
};

int theta_dual_available(void) { return 1; }

void theta_dual_free(theta_dual *d) {
  if (!d) return;
  void *arrays[] = {d->Pp,  d->Pi,  d->Ap,  d->Ai, d->Gp,   d->Gi,   d->q,      d->Px,
                    d->Ax,  d->Gx,  d->c,   d->b,  d->h,    d->Pp0,  d->Pi0,    d->Ap0,
                    d->Ai0, d->Gp0, d->Gi0, d->q0, d->grow, d->gval, d->fixrow, d->ord};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) free(arrays[i]);
  qcp_workspace_free(d->qcp);
  free(d);
}

theta_dual *theta_dual_create(int nv, int max_rows, int max_nnz) {
  if (nv < 1 || max_rows < 0 || max_nnz < 0) return NULL;
  theta_dual *d = calloc(1, sizeof *d);
  if (!d) return NULL;
  d->nv = nv, d->cap_rows = max_rows, d->cap_nnz = max_nnz;
  const size_t n = (size_t)nv + (size_t)max_rows + 1, r = (size_t)max_rows + 1;
  const size_t pnz = (size_t)nv * (size_t)(nv + 1) / 2 + r;
  const size_t anz = (size_t)nv * (size_t)nv + (size_t)max_nnz + r;
  int **ip[] = {&d->Pp, &d->Ap, &d->Gp, &d->Pp0, &d->Ap0, &d->Gp0};
  for (size_t i = 0; i < 6; i++) *ip[i] = calloc(n + 1, sizeof(int));
  d->Pi = calloc(pnz, sizeof(int)), d->Pi0 = calloc(pnz, sizeof(int));
  d->Ai = calloc(anz, sizeof(int)), d->Ai0 = calloc(anz, sizeof(int));
  d->Gi = calloc(r, sizeof(int)), d->Gi0 = calloc(r, sizeof(int));
  d->q = calloc(r, sizeof(int)), d->q0 = calloc(r, sizeof(int));
  d->Px = calloc(pnz, sizeof(double));
  d->Ax = calloc(anz, sizeof(double));
  d->Gx = calloc(r, sizeof(double));
  d->c = calloc(n, sizeof(double));
  d->b = calloc(n, sizeof(double));
  d->h = calloc(r, sizeof(double));
  d->grow = calloc(r, sizeof(int));
  d->gval = calloc(r, sizeof(double));
  d->fixrow = calloc(r, sizeof(int));
  d->ord = calloc((size_t)max_nnz + 1, sizeof(int));
  int ok = d->Pi && d->Pi0 && d->Ai && d->Ai0 && d->Gi && d->Gi0 && d->q && d->q0 && d->Px &&
           d->Ax && d->Gx && d->c && d->b && d->h && d->grow && d->gval && d->fixrow && d->ord;
  for (size_t i = 0; i < 6; i++) ok = ok && *ip[i];
  if (!ok) {
    theta_dual_free(d);
    return NULL;
  }
  return d;
}

// cone rows: orthant rows first, then one Q^{dim} per friction cone; fixed μ = 0 tangents
static void cone_layout(theta_dual *d, const theta_contact_problem *p, int *l, int *nsoc, int *m,
                        int *nfix) {
  int row = 0, fix = 0;
  for (int r = 0; r < p->nrows; r++) d->grow[r] = -1, d->fixrow[r] = -1;
  for (int c = 0; c < p->nc; c++) {
    const int r0 = p->first[c], dim = p->first[c + 1] - r0, nr = r0 + dim - 1;
    if (p->kind[c] != THETA_CONTACT_CONE || (dim > 1 && p->mu[c] > 0)) continue;
    d->grow[nr] = row++, d->gval[nr] = -1;
    for (int t = r0; t < nr; t++) d->fixrow[t] = fix++;
  }
  *l = row, *nsoc = 0;
  for (int c = 0; c < p->nc; c++) {
    const int r0 = p->first[c], dim = p->first[c + 1] - r0, nr = r0 + dim - 1;
    if (p->kind[c] != THETA_CONTACT_CONE || dim == 1 || !(p->mu[c] > 0)) continue;
    d->q[(*nsoc)++] = dim;
    d->grow[nr] = row++, d->gval[nr] = -p->mu[c];
    for (int t = r0; t < nr; t++) d->grow[t] = row++, d->gval[t] = -1;
  }
  *m = row, *nfix = fix;
}

// P, A, G in CSC and c from the problem
static void assemble(theta_dual *d, const theta_contact_problem *p, int nfix) {
  const int nv = p->nv, n = nv + p->nrows;
  // P = blockdiag(A, R), upper triangle
  int k = 0;
  for (int j = 0; j < n; j++) {
    d->Pp[j] = k;
    if (j < nv)
      for (int i = 0; i <= j; i++) d->Pi[k] = i, d->Px[k++] = p->A[i * nv + j];
    else
      d->Pi[k] = j, d->Px[k++] = p->R[j - nv];
  }
  d->Pp[n] = k;
  // equality rows [A  −Jᵀ] (nv rows) and γ_t = 0 rows for μ = 0 tangents
  k = 0;
  for (int j = 0; j < n; j++) {
    d->Ap[j] = k;
    if (j < nv) {
      for (int i = 0; i < nv; i++) d->Ai[k] = i, d->Ax[k++] = p->A[i * nv + j];
      continue;
    }
    // −J_r sorted by column index, duplicates summed
    const int r = j - nv, s = p->start[r], e = p->start[r + 1];
    int cnt = 0;
    for (int t = s; t < e; t++) {
      int pos = cnt++;
      while (pos > 0 && p->col[d->ord[pos - 1]] > p->col[t]) d->ord[pos] = d->ord[pos - 1], pos--;
      d->ord[pos] = t;
    }
    for (int a = 0; a < cnt; a++) {
      const int t = d->ord[a];
      if (k > d->Ap[j] && d->Ai[k - 1] == p->col[t])
        d->Ax[k - 1] -= p->val[t];
      else
        d->Ai[k] = p->col[t], d->Ax[k++] = -p->val[t];
    }
    if (d->fixrow[r] >= 0) d->Ai[k] = nv + d->fixrow[r], d->Ax[k++] = 1;
  }
  d->Ap[n] = k;
  (void)nfix;
  // G: one entry per γ with a cone row
  k = 0;
  for (int j = 0; j < n; j++) {
    d->Gp[j] = k;
    if (j >= nv && d->grow[j - nv] >= 0) d->Gi[k] = d->grow[j - nv], d->Gx[k++] = d->gval[j - nv];
  }
  d->Gp[n] = k;
  // c = (0, Jv* − v̂)
  for (int j = 0; j < nv; j++) d->c[j] = 0;
  for (int r = 0; r < p->nrows; r++) {
    double s = -p->vhat[r];
    for (int t = p->start[r]; t < p->start[r + 1]; t++) s += p->val[t] * p->vstar[p->col[t]];
    d->c[nv + r] = s;
  }
}

static int same_ints(const int *a, const int *b, int n) {
  return n <= 0 || memcmp(a, b, (size_t)n * sizeof(int)) == 0;
}

// Long on purpose: one solve of the dual (lift, set up or update, solve, map back) in sequence.
int theta_dual_solve(theta_dual *d, const theta_contact_problem *p, const theta_contact_settings *s,
                     double *v, double *gamma, theta_contact_info *info) {
  const int nv = p->nv, n = nv + p->nrows;
  memset(info, 0, sizeof *info);
  info->contacts = p->nc, info->rows = p->nrows;
  if (p->nrows == 0) {
    memcpy(v, p->vstar, (size_t)nv * sizeof(double));
    info->converged = 1;
    return 0;
  }
  int l, nsoc, m, nfix;
  cone_layout(d, p, &l, &nsoc, &m, &nfix);
  assemble(d, p, nfix);
  const int np = nv + nfix;
  for (int i = 0; i < np; i++) d->b[i] = 0;
  for (int i = 0; i < m; i++) d->h[i] = 0;
  qcp_problem prob = {.n = n,
                      .p = np,
                      .l = l,
                      .nsoc = nsoc,
                      .q = d->q,
                      .P = {n, n, d->Pp, d->Pi, d->Px},
                      .A = {np, n, d->Ap, d->Ai, d->Ax},
                      .G = {m, n, d->Gp, d->Gi, d->Gx},
                      .c = d->c,
                      .b = d->b,
                      .h = d->h};
  qcp_error err;
  // same pattern as the workspace's: update values only
  const int same = d->qcp && n == d->n0 && np == d->p0 && l == d->l0 && nsoc == d->nsoc0 &&
                   same_ints(d->q, d->q0, nsoc) && same_ints(d->Pp, d->Pp0, n + 1) &&
                   same_ints(d->Pi, d->Pi0, d->Pp[n]) && same_ints(d->Ap, d->Ap0, n + 1) &&
                   same_ints(d->Ai, d->Ai0, d->Ap[n]) && same_ints(d->Gp, d->Gp0, n + 1) &&
                   same_ints(d->Gi, d->Gi0, d->Gp[n]);
  qcp_settings qs = qcp_settings_contact();
  qs.eps_abs = qs.eps_rel = s->dual_tol;
  qs.eps_inacc = fmax(qs.eps_inacc, s->dual_tol);  // qcp needs eps_inacc ≥ eps
  qs.max_iter = 100;
  if (same) {
    // the settings may have changed since setup (theta_workspace_set_settings)
    if (qcp_settings_set(d->qcp, &qs, &err) != QCP_OK) return -1;
    if (qcp_update(d->qcp, d->Px, d->Ax, d->Gx, d->c, d->b, d->h, &err) != QCP_OK) return -1;
  } else {  // a new contact pattern: qcp's setup allocates (the only allocation of a step)
    qcp_workspace_free(d->qcp);
    d->qcp = NULL;
    if (qcp_setup(&d->qcp, &prob, &qs, &err) != QCP_OK) return -1;
    d->n0 = n, d->p0 = np, d->l0 = l, d->nsoc0 = nsoc;
    memcpy(d->q0, d->q, (size_t)nsoc * sizeof(int));
    memcpy(d->Pp0, d->Pp, (size_t)(n + 1) * sizeof(int));
    memcpy(d->Pi0, d->Pi, (size_t)d->Pp[n] * sizeof(int));
    memcpy(d->Ap0, d->Ap, (size_t)(n + 1) * sizeof(int));
    memcpy(d->Ai0, d->Ai, (size_t)d->Ap[n] * sizeof(int));
    memcpy(d->Gp0, d->Gp, (size_t)(n + 1) * sizeof(int));
    memcpy(d->Gi0, d->Gi, (size_t)d->Gp[n] * sizeof(int));
  }
  if (qcp_solve(d->qcp, QCP_START_COLD, NULL, NULL, NULL, NULL, &err) != QCP_OK) return -1;
  const qcp_info *qi = qcp_info_get(d->qcp);
  const double *x = qcp_solution_x(d->qcp);
  for (int j = 0; j < nv; j++) v[j] = p->vstar[j] + x[j];
  for (int r = 0; r < p->nrows; r++) gamma[r] = x[nv + r];
  info->iterations = qi->iterations;
  info->residual = fmax(qi->pres, qi->dres);
  info->tolerance = s->dual_tol;
  info->cost = qi->pobj;
  info->converged = qi->status == QCP_SOLVED;
  // regions read off the impulses (relative to the cone's size)
  for (int c = 0; c < p->nc; c++) {
    const int r0 = p->first[c], dim = p->first[c + 1] - r0, nr = r0 + dim - 1;
    if (p->kind[c] != THETA_CONTACT_CONE) continue;
    double gt = 0;
    for (int t = r0; t < nr; t++) gt += gamma[t] * gamma[t];
    gt = sqrt(gt);
    const double gn = gamma[nr], scale = fabs(gn) + gt;
    if (gn <= 1e-7 * fmax(scale, 1e-300) || scale == 0)
      info->separated++;
    else if (dim > 1 && gt >= p->mu[c] * gn * (1 - 1e-6))
      info->sliding++;
    else
      info->stiction++;
  }
  return info->converged ? 0 : 1;
}

#else  // built without qcp

int theta_dual_available(void) { return 0; }
theta_dual *theta_dual_create(int nv, int max_rows, int max_nnz) {
  (void)nv, (void)max_rows, (void)max_nnz;
  return NULL;
}
void theta_dual_free(theta_dual *d) { (void)d; }
int theta_dual_solve(theta_dual *d, const theta_contact_problem *p, const theta_contact_settings *s,
                     double *v, double *gamma, theta_contact_info *info) {
  (void)d, (void)p, (void)s, (void)v, (void)gamma;
  memset(info, 0, sizeof *info);
  return -1;
}

#endif
