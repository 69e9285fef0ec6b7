// SPDX-License-Identifier: MIT
// Paper B's θ-method two-stage step (paper B §II.C–D, SPEC §2.1): free motion, contact, positions.
//
// Mid-step quantities (paper B eq. (8)): q^θ = θq + (1−θ)q0, v^θ = θv + (1−θ)v0,
// v^{θvq} = θvq v + (1−θvq) v0, with θ = θq = θv. The step solves
//   M(q^θ)(v − v0) = δt k(q^θ, v^θ) + Jᵀγ,   q = q0 + δt N(q^θ) v^{θvq}      (eqs. (9), (13))
// in two stages (paper B §II.D):
// 1. free motion m(v*) = M(q^θ(v*))(v* − v0) − δt k(q^θ(v*), v^θ(v*)) = 0 (eq. (15)), by Newton
//    with the SPD matrix A = M + δt²θθvq K + δt θ D (eq. (16)), K = −∂k/∂q·N, D = −∂k/∂v from the
//    model's force_jacobians (K = D = 0 when it has none: the iteration is then a fixed point).
//    q^θ(v) = q0 + θδt N(q^θ) v^{θvq}(v), with N lagged one Newton iterate (exact for N = I).
//    For θ = 0, q^θ = q0 and v^θ = v0 do not depend on v and m is affine with matrix M: one
//    mass-matrix solve v* = v0 + δt M⁻¹k(q0, v0) is exact.
// 2. contact A(v − v*) = Jᵀγ with the convex compliant approximation (eq. (17), SPEC §2.3), J and
//    φ at q0, A at (q^θ(v*), v^θ(v*)) — theta_contact.c builds (v̂, R), theta_newton.c solves the
//    primal (default) or theta_dual.c the lifted dual through qcp.
// 3. positions q = q0 + δt N(q^θ) v^{θvq} with q^θ refreshed by the post-contact v, then the
//    model's position_update hook (e.g. quaternion normalisation).
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mdl/mdl_eval.h"
#include "theta/theta.h"
#include "theta_internal.h"

struct theta_workspace {
  const mdl_model *model;
  theta_settings settings;
  int nq, nv, cap;
  size_t mass_entries;
  mdl_rows *rows;
  double *blocks;             // [mass_entries] M as the model's blocks
  double *M, *K, *D, *A, *L;  // [nv·nv] dense row-major
  double *f, *res, *vst, *vth, *vvq, *vnew, *v0, *tmp, *dx;  // [nv]
  double *q0, *qth, *qdot;                                   // [nq]
  double *scratch;                                           // [4·nv]
  double *gamma, *gamma_row;                                 // [cap] per problem row, per model row
  double *Kuse;                                              // [cap] speculative: K over the step
  unsigned char *take;                                       // [cap] speculative: rows in the step
  theta_contact_problem *prob;
  theta_newton *newton;
  theta_dual *dual;  // NULL when built without qcp
  theta_info info;
};

const char *theta_status_name(theta_status s) {
  if (mdl_common_status_is((int)s)) return mdl_common_status_name((int)s);
  switch (s) {
#define THETA_CASE(suffix, value, str, severity) \
  case THETA_##suffix:                           \
    return str;
    THETA_STEP_STATUS_LIST(THETA_CASE)
#undef THETA_CASE
    default:
      return "invalid";
  }
}

int theta_status_severity(theta_status s) {
  if (mdl_common_status_is((int)s)) return mdl_common_status_severity((int)s);
  switch (s) {
#define THETA_CASE(suffix, value, str, severity) \
  case THETA_##suffix:                           \
    return severity;
    THETA_STEP_STATUS_LIST(THETA_CASE)
#undef THETA_CASE
    default:
      return -1;
  }
}

static const struct {
  const char *name;
  double theta, theta_vq;
} scheme_table[] = {
#define THETA_SCHEME_ROW(id, str, th, thvq) {str, th, thvq},
    THETA_SCHEME_LIST(THETA_SCHEME_ROW)
#undef THETA_SCHEME_ROW
};

const char *theta_scheme_name(theta_scheme s) {
  if ((int)s < 0 || s >= THETA_SCHEME_COUNT) return "invalid";
  return scheme_table[s].name;
}

int theta_scheme_parse(const char *name, theta_scheme *s) {
  for (int i = 0; i < THETA_SCHEME_COUNT; i++)
    if (strcmp(name, scheme_table[i].name) == 0) {
      *s = (theta_scheme)i;
      return 0;
    }
  return -1;
}

theta_settings theta_settings_default(void) {
  return (theta_settings){.theta = 0.5,
                          .theta_vq = 0.5,
                          .free_max_iter = 50,
                          .free_atol = 1e-14,
                          .free_rtol = 1e-12,
                          .contact = theta_contact_settings_default(),
                          .speculative = 0,
                          .margin = 1e-4,
                          .gap_stiffness = 1e8,
                          .max_resolves = 8};
}

void theta_settings_set_scheme(theta_settings *settings, theta_scheme scheme) {
  if ((int)scheme < 0 || scheme >= THETA_SCHEME_COUNT) return;
  settings->theta = scheme_table[scheme].theta;
  settings->theta_vq = scheme_table[scheme].theta_vq;
}

int theta_settings_validate(const theta_settings *s, sc_error *err) {
  const theta_contact_settings *c = &s->contact;
  if (!(s->theta >= 0 && s->theta <= 1))
    return sc_error_set(err, SC_ERR_INPUT, "theta = %g, must be in [0, 1]", s->theta);
  if (!(s->theta_vq >= 0 && s->theta_vq <= 1))
    return sc_error_set(err, SC_ERR_INPUT, "theta_vq = %g, must be in [0, 1]", s->theta_vq);
  if (s->free_max_iter < 1)
    return sc_error_set(err, SC_ERR_INPUT, "free_max_iter = %d, must be >= 1", s->free_max_iter);
  if (!(s->free_atol >= 0) || !(s->free_rtol >= 0) || !(s->free_atol + s->free_rtol > 0))
    return sc_error_set(err, SC_ERR_INPUT,
                        "free_atol = %g, free_rtol = %g: both >= 0 and not both 0", s->free_atol,
                        s->free_rtol);
  if (!(s->margin >= 0) || !isfinite(s->margin))
    return sc_error_set(err, SC_ERR_INPUT, "margin = %g, must be finite and >= 0", s->margin);
  if (!(s->gap_stiffness > 0) || !isfinite(s->gap_stiffness))
    return sc_error_set(err, SC_ERR_INPUT, "gap_stiffness = %g, must be finite and > 0",
                        s->gap_stiffness);
  if (s->max_resolves < 0)
    return sc_error_set(err, SC_ERR_INPUT, "max_resolves = %d, must be >= 0", s->max_resolves);
  if (!(c->beta > 0) || !isfinite(c->beta))
    return sc_error_set(err, SC_ERR_INPUT, "contact.beta = %g, must be > 0", c->beta);
  if (!(c->sigma > 0) || !isfinite(c->sigma))
    return sc_error_set(err, SC_ERR_INPUT, "contact.sigma = %g, must be > 0", c->sigma);
  if (c->max_iter < 0)
    return sc_error_set(err, SC_ERR_INPUT, "contact.max_iter = %d, must be >= 0", c->max_iter);
  if (!(c->atol >= 0) || !(c->rtol >= 0) || !(c->atol + c->rtol > 0))
    return sc_error_set(err, SC_ERR_INPUT,
                        "contact.atol = %g, contact.rtol = %g: both >= 0 and not both 0", c->atol,
                        c->rtol);
  if (c->ls_max_iter < 1)
    return sc_error_set(err, SC_ERR_INPUT, "contact.ls_max_iter = %d, must be >= 1",
                        c->ls_max_iter);
  if (!(c->ls_rtol > 0))
    return sc_error_set(err, SC_ERR_INPUT, "contact.ls_rtol = %g, must be > 0", c->ls_rtol);
  if (c->solver != THETA_SOLVER_NEWTON && c->solver != THETA_SOLVER_QCP)
    return sc_error_set(err, SC_ERR_INPUT, "contact.solver = %d, must be newton (0) or qcp (1)",
                        (int)c->solver);
  if (c->solver == THETA_SOLVER_QCP && !theta_dual_available())
    return sc_error_set(err, SC_ERR_INPUT, "contact.solver = qcp, but this build has no qcp");
  if (!(c->dual_tol > 0))
    return sc_error_set(err, SC_ERR_INPUT, "contact.dual_tol = %g, must be > 0", c->dual_tol);
  return SC_OK;
}

void theta_workspace_free(theta_workspace *ws) {
  if (!ws) return;
  mdl_rows_free(ws->rows);
  double *arrays[] = {ws->blocks,  ws->M,     ws->K,         ws->D,   ws->A,   ws->L,
                      ws->f,       ws->res,   ws->vst,       ws->vth, ws->vvq, ws->vnew,
                      ws->v0,      ws->tmp,   ws->dx,        ws->q0,  ws->qth, ws->qdot,
                      ws->scratch, ws->gamma, ws->gamma_row, ws->Kuse};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) free(arrays[i]);
  free(ws->take);
  theta_contact_problem_free(ws->prob);
  theta_newton_free(ws->newton);
  theta_dual_free(ws->dual);
  free(ws);
}

theta_workspace *theta_workspace_create(const mdl_model *model, const theta_settings *settings,
                                        sc_error *err) {
  theta_settings s = settings ? *settings : theta_settings_default();
  if (mdl_model_validate(model, err) || theta_settings_validate(&s, err)) return NULL;
  theta_workspace *ws = calloc(1, sizeof *ws);
  if (!ws) return sc_error_set(err, SC_ERR_MEMORY, "out of memory"), NULL;
  ws->model = model;
  ws->settings = s;
  ws->nq = model->nq, ws->nv = model->nv, ws->cap = model->max_rows;
  ws->mass_entries = mdl_model_mass_entries(model);
  const size_t nv = (size_t)ws->nv, nq = (size_t)ws->nq, n2 = nv * nv, cap = (size_t)ws->cap + 1;
  ws->rows = mdl_rows_create(model->max_rows, model->max_nnz);
  ws->blocks = calloc(ws->mass_entries, sizeof(double));
  double **sq[] = {&ws->M, &ws->K, &ws->D, &ws->A, &ws->L};
  for (size_t i = 0; i < 5; i++) *sq[i] = calloc(n2, sizeof(double));
  double **vec[] = {&ws->f,    &ws->res, &ws->vst, &ws->vth, &ws->vvq,
                    &ws->vnew, &ws->v0,  &ws->tmp, &ws->dx};
  for (size_t i = 0; i < 9; i++) *vec[i] = calloc(nv, sizeof(double));
  ws->q0 = calloc(nq, sizeof(double));
  ws->qth = calloc(nq, sizeof(double));
  ws->qdot = calloc(nq, sizeof(double));
  ws->scratch = calloc(4 * nv, sizeof(double));
  ws->gamma = calloc(cap, sizeof(double));
  ws->gamma_row = calloc(cap, sizeof(double));
  ws->Kuse = calloc(cap, sizeof(double));
  ws->take = calloc(cap, 1);
  ws->prob = theta_contact_problem_create(ws->nv, model->max_rows, model->max_nnz);
  ws->newton = theta_newton_create(ws->nv, model->max_rows);
  if (theta_dual_available()) ws->dual = theta_dual_create(ws->nv, model->max_rows, model->max_nnz);
  int ok = ws->rows && ws->blocks && ws->q0 && ws->qth && ws->qdot && ws->scratch && ws->gamma &&
           ws->gamma_row && ws->Kuse && ws->take && ws->prob && ws->newton &&
           (ws->dual || !theta_dual_available());
  for (size_t i = 0; i < 5; i++) ok = ok && *sq[i];
  for (size_t i = 0; i < 9; i++) ok = ok && *vec[i];
  if (!ok) {
    theta_workspace_free(ws);
    sc_error_set(err, SC_ERR_MEMORY, "out of memory");
    return NULL;
  }
  return ws;
}

int theta_workspace_set_settings(theta_workspace *ws, const theta_settings *s, sc_error *err) {
  if (theta_settings_validate(s, err)) return -1;
  ws->settings = *s;
  return 0;
}

const theta_info *theta_step_info(const theta_workspace *ws) { return &ws->info; }
const mdl_rows *theta_step_rows(const theta_workspace *ws) { return ws->rows; }
const double *theta_step_gamma(const theta_workspace *ws) { return ws->gamma_row; }
const double *theta_step_vstar(const theta_workspace *ws) { return ws->vst; }
const theta_contact_problem *theta_step_problem(const theta_workspace *ws) { return ws->prob; }

// converts a callback's return code into a status and records which callback failed
static theta_status callback_status(theta_workspace *ws, const char *name, int code) {
  return (theta_status)mdl_callback_status(name, code, &ws->info.callback, &ws->info.callback_code);
}

// qdot = N(q) v (N = I when the model has no velocity map)
static int velocity_map(theta_workspace *ws, double t, const double *q, const double *v,
                        double *qdot) {
  const mdl_model *m = ws->model;
  if (m->velocity_map) return m->velocity_map(t, q, v, qdot, m->ctx);
  memcpy(qdot, v, (size_t)ws->nv * sizeof(double));
  return 0;
}

// dense M from the model's diagonal blocks
static void mass_assemble(theta_workspace *ws) {
  const mdl_model *m = ws->model;
  const int nv = ws->nv;
  memset(ws->M, 0, (size_t)nv * (size_t)nv * sizeof(double));
  if (m->nblocks == 0) {
    memcpy(ws->M, ws->blocks, (size_t)nv * (size_t)nv * sizeof(double));
    return;
  }
  size_t off = 0;
  int o = 0;
  for (int b = 0; b < m->nblocks; b++) {
    const int s = m->block_size[b];
    for (int i = 0; i < s; i++)
      for (int j = 0; j < s; j++)
        ws->M[(o + i) * nv + o + j] = ws->blocks[off + (size_t)(i * s + j)];
    off += (size_t)s * (size_t)s, o += s;
  }
}

// evaluates m(v) into res and A at the iterate v (q^θ, v^θ, v^{θvq} refreshed)
static theta_status free_evaluate(theta_workspace *ws, double t, double h, const double *v) {
  const mdl_model *m = ws->model;
  const double th = ws->settings.theta, tvq = ws->settings.theta_vq, tt = t + th * h;
  const int nv = ws->nv, nq = ws->nq;
  int code;
  for (int j = 0; j < nv; j++) {
    ws->vth[j] = th * v[j] + (1 - th) * ws->v0[j];
    ws->vvq[j] = tvq * v[j] + (1 - tvq) * ws->v0[j];
  }
  // q^θ = q0 + θ δt N(q^θ_prev) v^{θvq}, N lagged one iterate
  if (th > 0) {
    if ((code = velocity_map(ws, t, ws->qth, ws->vvq, ws->qdot)))
      return callback_status(ws, "velocity_map", code);
    for (int i = 0; i < nq; i++) ws->qth[i] = ws->q0[i] + th * h * ws->qdot[i];
  }
  if ((code = m->mass(tt, ws->qth, ws->blocks, m->ctx))) return callback_status(ws, "mass", code);
  if ((code = m->forces(tt, ws->qth, ws->vth, ws->f, m->ctx)))
    return callback_status(ws, "forces", code);
  mass_assemble(ws);
  const size_t n2 = (size_t)nv * (size_t)nv;
  memset(ws->K, 0, n2 * sizeof(double));
  memset(ws->D, 0, n2 * sizeof(double));
  if (th > 0 && m->force_jacobians &&
      (code = m->force_jacobians(tt, ws->qth, ws->vth, ws->K, ws->D, m->ctx)))
    return callback_status(ws, "force_jacobians", code);
  if (!mdl_finite(ws->M, nv * nv) || !mdl_finite(ws->f, nv) || !mdl_finite(ws->K, nv * nv) ||
      !mdl_finite(ws->D, nv * nv))
    return THETA_NONFINITE;
  for (size_t k = 0; k < n2; k++)
    ws->A[k] = ws->M[k] + h * h * th * tvq * ws->K[k] + h * th * ws->D[k];
  // m(v) = M(v − v0) − δt k
  for (int j = 0; j < nv; j++) ws->dx[j] = v[j] - ws->v0[j];
  mdl_dense_matvec(ws->M, nv, ws->dx, ws->res);
  for (int j = 0; j < nv; j++) ws->res[j] -= h * ws->f[j];
  return THETA_OK;
}

// ‖D x‖, D = diag(M)^{-½}
static double mass_scaled_norm(const theta_workspace *ws, const double *x) {
  double s = 0;
  for (int j = 0; j < ws->nv; j++) s += x[j] * x[j] / ws->M[j * ws->nv + j];
  return sqrt(s);
}

// stage 1: v* with m(v*) = 0; leaves A at v* and its Cholesky factor in L
static theta_status free_motion(theta_workspace *ws, double t, double h) {
  const theta_settings *s = &ws->settings;
  const int nv = ws->nv;
  theta_info *info = &ws->info;
  memcpy(ws->qth, ws->q0, (size_t)ws->nq * sizeof(double));
  memcpy(ws->vst, ws->v0, (size_t)nv * sizeof(double));
  theta_status st;
  for (int it = 0;; it++) {
    if ((st = free_evaluate(ws, t, h, ws->vst)) != THETA_OK) return st;
    memcpy(ws->L, ws->A, (size_t)nv * (size_t)nv * sizeof(double));
    if (mdl_chol_factor_rel(ws->L, nv, nv, THETA_PIVOT_REL)) return THETA_SINGULAR;
    // convergence test on the residual at the current iterate
    for (int j = 0; j < nv; j++) ws->tmp[j] = h * ws->f[j];
    info->free_residual = mass_scaled_norm(ws, ws->res);
    mdl_dense_matvec(ws->M, nv, ws->vst, ws->dx);
    const double tol = s->free_atol + s->free_rtol * fmax(mass_scaled_norm(ws, ws->dx),
                                                          mass_scaled_norm(ws, ws->tmp));
    if (info->free_residual <= tol && it > 0) return THETA_OK;
    if (it >= s->free_max_iter) return THETA_FREE_MAX_ITERATIONS;
    // Newton update A Δ = −m
    for (int j = 0; j < nv; j++) ws->dx[j] = -ws->res[j];
    mdl_chol_solve(ws->L, nv, nv, ws->dx);
    for (int j = 0; j < nv; j++) ws->vst[j] += ws->dx[j];
    info->free_iterations = it + 1;
    if (!mdl_finite(ws->vst, nv)) return THETA_NONFINITE;
    // θ = 0: m is affine with matrix M = A, one solve is exact (A, L unchanged)
    if (s->theta == 0) {
      info->free_residual = 0;
      return THETA_OK;
    }
  }
}

// stage 2: contact impulses and v from v*, A and L
static theta_status contact_stage(theta_workspace *ws, double h) {
  const int nv = ws->nv;
  theta_contact_problem *p = ws->prob;
  memcpy(p->A, ws->A, (size_t)nv * (size_t)nv * sizeof(double));
  memcpy(p->M, ws->M, (size_t)nv * (size_t)nv * sizeof(double));
  memcpy(p->vstar, ws->vst, (size_t)nv * sizeof(double));
  const int spec = ws->settings.speculative;
  if (theta_contact_problem_build_with(p, ws->rows, spec ? ws->Kuse : NULL, spec ? ws->take : NULL,
                                       h, &ws->settings.contact, ws->L, ws->scratch, NULL))
    return THETA_BAD_ROW;
  memcpy(ws->vnew, ws->vst, (size_t)nv * sizeof(double));
  const theta_contact_settings *cs = &ws->settings.contact;
  const int dual = cs->solver == THETA_SOLVER_QCP;
  int rc = dual ? theta_dual_solve(ws->dual, p, cs, ws->vnew, ws->gamma, &ws->info.contact)
                : theta_newton_solve(ws->newton, p, cs, ws->vnew, ws->gamma, &ws->info.contact);
  for (int i = 0; i < ws->rows->n; i++) ws->gamma_row[i] = 0;
  for (int r = 0; r < p->nrows; r++)
    if (p->source[r] >= 0) ws->gamma_row[p->source[r]] = ws->gamma[r];
  if (rc < 0 && dual) return THETA_CONTACT_FAILED;
  if (rc < 0) return mdl_finite(ws->vnew, nv) ? THETA_SINGULAR : THETA_NONFINITE;
  return rc == 0 ? THETA_OK : THETA_CONTACT_MAX_ITERATIONS;
}

// stage 3: q1 = q0 + δt N(q^θ) v^{θvq} with q^θ refreshed by the post-contact v
static theta_status position_update(theta_workspace *ws, double t, double h, double *q1) {
  const mdl_model *m = ws->model;
  const double th = ws->settings.theta, tvq = ws->settings.theta_vq;
  const int nv = ws->nv, nq = ws->nq;
  int code;
  for (int j = 0; j < nv; j++) ws->vvq[j] = tvq * ws->vnew[j] + (1 - tvq) * ws->v0[j];
  if (m->velocity_map && th > 0) {
    if ((code = velocity_map(ws, t, ws->qth, ws->vvq, ws->qdot)))
      return callback_status(ws, "velocity_map", code);
    for (int i = 0; i < nq; i++) ws->qth[i] = ws->q0[i] + th * h * ws->qdot[i];
  }
  if ((code = velocity_map(ws, t, ws->qth, ws->vvq, ws->qdot)))
    return callback_status(ws, "velocity_map", code);
  for (int i = 0; i < nq; i++) q1[i] = ws->q0[i] + h * ws->qdot[i];
  if (m->position_update && (code = m->position_update(q1, m->ctx)))
    return callback_status(ws, "position_update", code);
  return mdl_finite(q1, nq) ? THETA_OK : THETA_NONFINITE;
}

static int row_pushes(const mdl_rows *r, int i) {
  return r->kind[i] == MDL_ROW_UNILATERAL || r->kind[i] == MDL_ROW_NORMAL;
}

// speculative: the open rows whose gap could close within the step, φ0 − δt Σ_j |G_ij v*_j| ≤
// margin, join with K = gap_stiffness (paper B's law on φ0 + δt v_n pushes only if the gap would
// close); closed rows keep their K(φ0)
static void speculative_predict(theta_workspace *ws, double h) {
  const mdl_rows *r = ws->rows;
  for (int i = 0; i < r->n; i++) {
    ws->Kuse[i] = r->K[i];
    ws->take[i] = 1;
    if (!row_pushes(r, i) || r->phi[i] <= 0) continue;
    ws->Kuse[i] = ws->settings.gap_stiffness;
    double reach = 0;
    for (int k = r->start[i]; k < r->start[i + 1]; k++)
      reach += fabs(r->val[k] * ws->vst[r->col[k]]);
    ws->take[i] = r->phi[i] - h * reach <= ws->settings.margin;
  }
  // a tangent row goes with its normal row (the problem takes it through the normal)
}

// speculative: after a solve, rows left out that end penetrating (φ0 + δt G v < 0) join; a row
// that ends closed takes its stiffness at the end-of-step gap, K(φ1), when that exceeds the one
// used by more than 2× (raised only: lowering made the coupled passes of a pile cycle in paper
// A's step, mbs_step.c), and an open row that closes leaves gap_stiffness for K(φ1) either way.
// 1 if anything changed (the stage is solved again), 0 if the step stands.
static int speculative_update(theta_workspace *ws, double h) {
  const mdl_model *m = ws->model;
  const mdl_rows *r = ws->rows;
  int changed = 0;
  for (int i = 0; i < r->n; i++) {
    if (!row_pushes(r, i)) continue;
    const double phi1 = r->phi[i] + h * mdl_eval_row_dot(r, i, ws->vnew);
    if (!ws->take[i]) {
      if (phi1 < 0) ws->take[i] = 1, changed = 1, ws->info.rows_joined++;
      continue;
    }
    if (mdl_row_stiffness_over_step(m, r, i, phi1, ws->Kuse[i], ws->settings.gap_stiffness,
                                    &ws->Kuse[i]))
      changed = 1, ws->info.stiffness_updates++;
  }
  return changed;
}

// stage 2, with the speculative passes when on
static theta_status contact_passes(theta_workspace *ws, double h) {
  if (!ws->settings.speculative) return contact_stage(ws, h);
  speculative_predict(ws, h);
  for (int pass = 0;; pass++) {
    theta_status st = contact_stage(ws, h);
    if (theta_status_severity(st) < 0 || pass == ws->settings.max_resolves ||
        !speculative_update(ws, h))
      return st;
    ws->info.resolves++;
  }
}

theta_status theta_step(theta_workspace *ws, double t, double h, const double *q0, const double *v0,
                        double *q1, double *v1) {
  const mdl_model *m = ws->model;
  theta_info *info = &ws->info;
  memset(info, 0, sizeof *info);
  info->energy = NAN;
  memcpy(ws->q0, q0, (size_t)ws->nq * sizeof(double));
  memcpy(ws->v0, v0, (size_t)ws->nv * sizeof(double));
  theta_status st = THETA_OK;
  if (!(h > 0) || !isfinite(h)) {  // a step size is input, checked before any work
    info->status = THETA_NONFINITE;
    return THETA_NONFINITE;
  }
  // contact rows at (t0, q0, v0)
  st = (theta_status)mdl_rows_evaluate(m, t, ws->q0, ws->v0, ws->rows, &info->callback,
                                       &info->callback_code);
  info->rows = ws->rows->n;
  if (st == THETA_OK) st = free_motion(ws, t, h);
  if (st == THETA_OK) st = contact_passes(ws, h);
  if (st == THETA_OK || st == THETA_CONTACT_MAX_ITERATIONS) {
    theta_status ps = position_update(ws, t, h, q1);
    if (ps != THETA_OK) st = ps;
    memcpy(v1, ws->vnew, (size_t)ws->nv * sizeof(double));
  }
  if ((st == THETA_OK || st == THETA_CONTACT_MAX_ITERATIONS) && !mdl_finite(v1, ws->nv))
    st = THETA_NONFINITE;
  if (st == THETA_OK && m->energy && m->energy(t + h, q1, v1, &info->energy, m->ctx))
    info->energy = NAN;
  info->status = st;
  return st;
}
