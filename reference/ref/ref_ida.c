// SPDX-License-Identifier: MIT
// Rigid-joint DAE reference with SUNDIALS 6.4 IDA, stabilised index-2 (GGL) form.
//
// Index reduction: the rigid DAE M v̇ = f + Gᵀλ, φ(q) = 0 has index 3. Following Gear, Gupta and
// Leimkuhler (1985) we keep the position constraint and add the velocity constraint with a second
// multiplier μ that projects q̇ back onto the constraint manifold (N = I, so ∂φ/∂q = G):
//   F_q = q̇ − v + Gᵀμ = 0,   F_v = M v̇ − f − Gᵀλ = 0,   F_λ = G v = 0,   F_μ = φ(q) = 0,
// unknowns y = (q, v, λ, μ). This system has index 2 and μ = 0 on exact solutions; neither φ nor
// Gv drifts. λ and μ are algebraic (IDASetId 0) and are excluded from the local error test
// (IDASetSuppressAlg), as IDA requires for index-2 Hessenberg systems. Consistent initial values
// are computed here rather than by IDACalcIC (whose Newton matrix is singular at index 2):
// λ0 = (G M⁻¹ Gᵀ)⁻¹(−Ġv0 − G M⁻¹ f0), v̇0 = M⁻¹(f0 + Gᵀλ0), q̇0 = v0, μ0 = 0.
// Dense direct linear solver with IDA's difference-quotient Jacobian.
#include "ref/ref_ida.h"

#include <ida/ida.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <time.h>

ref_ida_settings ref_ida_settings_default(void) {
  return (ref_ida_settings){.rtol = 1e-10, .atol = 1e-12, .max_steps = 1000000, .max_wall = 0};
}

typedef struct ida_data {
  const mdl_model *model;
  int n, nrows;  // nq = nv = n; bilateral rows
  mdl_rows *rows;
  double *M, *f, *G;  // n×n dense, n, nrows×n dense
  double t_start, max_wall;
  int out_of_time, callback_failed;
} ida_data;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// IDA prints its errors by default; keep the message in the stats instead
static void ida_error_handler(int code, const char *module, const char *function, char *msg,
                              void *data) {
  ref_stats *st = data;
  sc_error_set(&st->error, SC_ERR_SOLVER, "%s %s (flag %d): %s", module, function, code, msg);
}

// dense M from the model's blocks
static int eval_mass(ida_data *d, double t, const double *q) {
  const mdl_model *m = d->model;
  double *blocks = d->M + (size_t)d->n * (size_t)d->n;  // scratch after M
  int rc = m->mass(t, q, blocks, m->ctx);
  if (rc) return rc;
  memset(d->M, 0, (size_t)d->n * (size_t)d->n * sizeof(double));
  int nb = m->nblocks ? m->nblocks : 1, v = 0;
  size_t off = 0;
  for (int b = 0; b < nb; b++) {
    int s = m->nblocks ? m->block_size[b] : d->n;
    for (int i = 0; i < s; i++)
      for (int j = 0; j < s; j++) d->M[(v + i) * d->n + v + j] = blocks[off + (size_t)(i * s + j)];
    off += (size_t)s * (size_t)s;
    v += s;
  }
  return 0;
}

// bilateral rows → d->G (nrows×n), phi and gdot_v into the given arrays (may be NULL)
static int eval_rows(ida_data *d, double t, const double *q, const double *v, double *phi,
                     double *gdv) {
  const mdl_model *m = d->model;
  mdl_rows_clear(d->rows);
  int rc = m->rows ? m->rows(t, q, v, d->rows, m->ctx) : 0;
  if (rc) return rc;
  if (d->rows->overflow) return -1;
  int k = 0;
  memset(d->G, 0, (size_t)d->nrows * (size_t)d->n * sizeof(double));
  for (int i = 0; i < d->rows->n; i++) {
    if (d->rows->kind[i] != MDL_ROW_BILATERAL) continue;
    if (k >= d->nrows) return -1;
    for (int e = d->rows->start[i]; e < d->rows->start[i + 1]; e++)
      d->G[k * d->n + d->rows->col[e]] += d->rows->val[e];
    if (phi) phi[k] = d->rows->phi[i];
    if (gdv) gdv[k] = d->rows->gdot_v[i];
    k++;
  }
  return k == d->nrows ? 0 : -1;
}

static int count_bilateral(const mdl_model *m, mdl_rows *rows, double t, const double *q,
                           const double *v) {
  mdl_rows_clear(rows);
  if (m->rows && m->rows(t, q, v, rows, m->ctx)) return -1;
  int k = 0;
  for (int i = 0; i < rows->n; i++) k += rows->kind[i] == MDL_ROW_BILATERAL;
  return k;
}

// Gaussian elimination with partial pivoting: A (n×n, destroyed) x = b (in place); 0 or −1
static int gauss_solve(double *A, int n, double *b) {
  for (int c = 0; c < n; c++) {
    int p = c;
    for (int r = c + 1; r < n; r++)
      if (fabs(A[r * n + c]) > fabs(A[p * n + c])) p = r;
    if (!(fabs(A[p * n + c]) > 0)) return -1;
    if (p != c) {
      for (int j = 0; j < n; j++) {
        double tmp = A[c * n + j];
        A[c * n + j] = A[p * n + j], A[p * n + j] = tmp;
      }
      double tmp = b[c];
      b[c] = b[p], b[p] = tmp;
    }
    for (int r = c + 1; r < n; r++) {
      double l = A[r * n + c] / A[c * n + c];
      for (int j = c; j < n; j++) A[r * n + j] -= l * A[c * n + j];
      b[r] -= l * b[c];
    }
  }
  for (int r = n - 1; r >= 0; r--) {
    double s = b[r];
    for (int j = r + 1; j < n; j++) s -= A[r * n + j] * b[j];
    b[r] = s / A[r * n + r];
  }
  return 0;
}

static int ida_residual(sunrealtype t, N_Vector yy, N_Vector yp, N_Vector rr, void *user) {
  ida_data *d = user;
  if (d->max_wall > 0 && now() - d->t_start > d->max_wall) return d->out_of_time = 1, -1;
  const int n = d->n, m = d->nrows;
  const double *y = N_VGetArrayPointer(yy), *ydot = N_VGetArrayPointer(yp);
  double *res = N_VGetArrayPointer(rr);
  const double *q = y, *v = y + n, *lam = y + 2 * n, *mu = y + 2 * n + m;
  int rc;
  if ((rc = eval_rows(d, t, q, v, res + 2 * n + m, NULL)) || (rc = eval_mass(d, t, q)) ||
      (rc = d->model->forces(t, q, v, d->f, d->model->ctx))) {
    if (rc < 0) d->callback_failed = 1;
    return rc;
  }
  for (int i = 0; i < n; i++) {
    double gm = 0, gl = 0, mv = 0;
    for (int k = 0; k < m; k++) gm += d->G[k * n + i] * mu[k], gl += d->G[k * n + i] * lam[k];
    for (int j = 0; j < n; j++) mv += d->M[i * n + j] * ydot[n + j];
    res[i] = ydot[i] - v[i] + gm;
    res[n + i] = mv - d->f[i] - gl;
  }
  for (int k = 0; k < m; k++) {
    double s = 0;
    for (int j = 0; j < n; j++) s += d->G[k * n + j] * v[j];
    res[2 * n + k] = s;
  }
  return 0;
}

// consistent λ0, v̇0 (see the file header); writes into y and yp
static int initial_values(ida_data *d, double t0, double *y, double *yp) {
  const int n = d->n, m = d->nrows;
  const double *q = y, *v = y + n;
  double *gdv = calloc((size_t)m + 1, sizeof(double));
  double *A = calloc((size_t)n * (size_t)n + 1, sizeof(double));
  double *Y = calloc((size_t)n * (size_t)(m + 1), sizeof(double));  // M⁻¹Gᵀ columns, then M⁻¹f
  double *W = calloc((size_t)m * (size_t)m + 1, sizeof(double));
  double *rhs = calloc((size_t)m + 1, sizeof(double));
  int rc = -1;
  if (!gdv || !A || !Y || !W || !rhs) goto done;
  if (eval_rows(d, t0, q, v, NULL, gdv) || eval_mass(d, t0, q) ||
      d->model->forces(t0, q, v, d->f, d->model->ctx))
    goto done;
  for (int c = 0; c <= m; c++) {
    double *col = Y + (size_t)c * (size_t)n;
    for (int j = 0; j < n; j++) col[j] = c < m ? d->G[c * n + j] : d->f[j];
    memcpy(A, d->M, (size_t)n * (size_t)n * sizeof(double));
    if (gauss_solve(A, n, col)) goto done;
  }
  for (int a = 0; a < m; a++) {
    double s = -gdv[a];
    for (int j = 0; j < n; j++) s -= d->G[a * n + j] * Y[(size_t)m * (size_t)n + (size_t)j];
    rhs[a] = s;
    for (int b = 0; b < m; b++) {
      double w = 0;
      for (int j = 0; j < n; j++) w += d->G[a * n + j] * Y[(size_t)b * (size_t)n + (size_t)j];
      W[a * m + b] = w;
    }
  }
  if (m > 0 && gauss_solve(W, m, rhs)) goto done;
  for (int j = 0; j < n; j++) {
    double a = Y[(size_t)m * (size_t)n + (size_t)j];
    for (int b = 0; b < m; b++) a += Y[(size_t)b * (size_t)n + (size_t)j] * rhs[b];
    yp[j] = v[j];
    yp[n + j] = a;
  }
  for (int b = 0; b < m; b++) y[2 * n + b] = rhs[b], y[2 * n + m + b] = 0;
  for (int k = 2 * n; k < 2 * n + 2 * m; k++) yp[k] = 0;
  rc = 0;
done:
  free(gdv), free(A), free(Y), free(W), free(rhs);
  return rc;
}

// model and settings usable by ref_ida_rigid: 0, or SC_ERR_INPUT naming the value
static int ida_check_input(const mdl_model *model, const ref_ida_settings *s, sc_error *err) {
  if (mdl_model_validate(model, err)) return SC_ERR_INPUT;
  if (model->velocity_map || model->nq != model->nv)
    return sc_error_set(err, SC_ERR_INPUT,
                        "ref_ida_rigid needs N = I (velocity_map NULL, nq == nv)");
  if (!(s->rtol > 0) || !(s->atol > 0) || s->max_steps < 1)
    return sc_error_set(err, SC_ERR_INPUT,
                        "ref_ida settings: rtol = %g, atol = %g must be > 0, max_steps = %ld >= 1",
                        s->rtol, s->atol, s->max_steps);
  return SC_OK;
}

// integrates through the output times, copying (q, v) at each; the status of the run
static ref_status ida_outputs(void *mem, const ida_data *d, N_Vector y, N_Vector yp,
                              const double *tout, int nout, double *qout, double *vout,
                              ref_stats *st) {
  const int n = d->n;
  const double *yv = N_VGetArrayPointer(y);
  for (int k = 0; k < nout; k++) {
    sunrealtype tret;
    int flag = IDASolve(mem, tout[k], &tret, y, yp, IDA_NORMAL);
    st->t_reached = tret;
    if (flag < 0) {
      char why[sizeof st->error.message];
      snprintf(why, sizeof why, "%s", st->error.message);  // IDA's own message, if it gave one
      sc_error_set(&st->error, SC_ERR_SOLVER,
                   "IDASolve failed with flag %d at t = %g (output %d)%s%.150s", flag, tret, k,
                   why[0] ? ": " : "", why);
      // the max_steps budget running out is did-not-finish, like the wall-time budget
      return d->out_of_time || flag == IDA_TOO_MUCH_WORK ? REF_DID_NOT_FINISH
             : d->callback_failed                        ? REF_CALLBACK_FAILED
                                                         : REF_SOLVER_FAILED;
    }
    memcpy(qout + (size_t)k * (size_t)n, yv, (size_t)n * sizeof(double));
    memcpy(vout + (size_t)k * (size_t)n, yv + n, (size_t)n * sizeof(double));
  }
  return REF_OK;
}

// IDA's counters into the stats
static void ida_read_stats(void *mem, ref_stats *st) {
  long nst = 0, nre = 0, nje = 0, nni = 0, nnf = 0, netf = 0;
  if (IDAGetNumSteps(mem, &nst) == IDA_SUCCESS) st->steps = nst;
  if (IDAGetNumResEvals(mem, &nre) == IDA_SUCCESS) st->rhs_evals = nre;
  if (IDAGetNumLinResEvals(mem, &nre) == IDA_SUCCESS) st->rhs_evals_jac = nre;
  if (IDAGetNumJacEvals(mem, &nje) == IDA_SUCCESS) st->jac_evals = nje;
  if (IDAGetNumNonlinSolvIters(mem, &nni) == IDA_SUCCESS) st->newton_iters = nni;
  if (IDAGetNumNonlinSolvConvFails(mem, &nnf) == IDA_SUCCESS) st->newton_fails = nnf;
  if (IDAGetNumErrTestFails(mem, &netf) == IDA_SUCCESS) st->err_fails = netf;
}

// Long on purpose: the SUNDIALS object set-up, its flag checks and the output loop are one
// sequence with one cleanup path (every flag checked and converted at the border, STYLE.md).
ref_status ref_ida_rigid(const mdl_model *model, const ref_ida_settings *settings, double t0,
                         const double *q0, const double *v0, const double *tout, int nout,
                         double *qout, double *vout, ref_stats *stats) {
  ref_stats local;
  ref_stats *st = stats ? stats : &local;
  memset(st, 0, sizeof *st);
  st->t_reached = t0;
  ref_ida_settings s = settings ? *settings : ref_ida_settings_default();
  for (int k = 0; k < nout * (model ? model->nq : 0); k++) qout[k] = NAN;
  for (int k = 0; k < nout * (model ? model->nv : 0); k++) vout[k] = NAN;
  if (ida_check_input(model, &s, &st->error)) return st->status = REF_BAD_INPUT;
  ida_data d = {.model = model, .n = model->nv, .t_start = now(), .max_wall = s.max_wall};
  SUNContext ctx = NULL;
  N_Vector y = NULL, yp = NULL, id = NULL;
  SUNMatrix A = NULL;
  SUNLinearSolver LS = NULL;
  void *mem = NULL;
  ref_status result = REF_SETUP_FAILED;
  d.rows = mdl_rows_create(model->max_rows, model->max_nnz);
  if (!d.rows) goto cleanup;
  d.nrows = count_bilateral(model, d.rows, t0, q0, v0);
  if (d.nrows < 0) {
    sc_error_set(&st->error, SC_ERR_SOLVER, "rows callback failed at t0");
    result = REF_CALLBACK_FAILED;
    goto cleanup;
  }
  const int n = d.n, m = d.nrows, N = 2 * n + 2 * m;
  size_t me = mdl_model_mass_entries(model);
  d.M = calloc((size_t)n * (size_t)n + me, sizeof(double));
  d.f = calloc((size_t)n, sizeof(double));
  d.G = calloc((size_t)(m > 0 ? m : 1) * (size_t)n, sizeof(double));
  if (!d.M || !d.f || !d.G) goto cleanup;

  int flag;
#define IDA_CHECK(call)                                                               \
  do {                                                                                \
    if ((flag = (call)) < 0) {                                                        \
      sc_error_set(&st->error, SC_ERR_SOLVER, "%s failed with flag %d", #call, flag); \
      goto cleanup;                                                                   \
    }                                                                                 \
  } while (0)
  if (SUNContext_Create(NULL, &ctx)) {
    sc_error_set(&st->error, SC_ERR_SOLVER, "SUNContext_Create failed");
    goto cleanup;
  }
  y = N_VNew_Serial(N, ctx), yp = N_VNew_Serial(N, ctx), id = N_VNew_Serial(N, ctx);
  if (!y || !yp || !id) goto cleanup;
  double *yv = N_VGetArrayPointer(y), *ypv = N_VGetArrayPointer(yp), *idv = N_VGetArrayPointer(id);
  memcpy(yv, q0, (size_t)n * sizeof(double));
  memcpy(yv + n, v0, (size_t)n * sizeof(double));
  for (int k = 0; k < N; k++) idv[k] = k < 2 * n ? 1.0 : 0.0;
  if (initial_values(&d, t0, yv, ypv)) {
    sc_error_set(&st->error, SC_ERR_SOLVER,
                 "consistent initial values: singular M or G M^-1 G^T, or a callback failed");
    result = REF_BAD_INPUT;
    goto cleanup;
  }
  result = REF_SOLVER_FAILED;
  mem = IDACreate(ctx);
  if (!mem) goto cleanup;
  IDA_CHECK(IDASetErrHandlerFn(mem, ida_error_handler, st));
  IDA_CHECK(IDAInit(mem, ida_residual, t0, y, yp));
  IDA_CHECK(IDASStolerances(mem, s.rtol, s.atol));
  IDA_CHECK(IDASetUserData(mem, &d));
  IDA_CHECK(IDASetId(mem, id));
  IDA_CHECK(IDASetSuppressAlg(mem, SUNTRUE));
  IDA_CHECK(IDASetMaxNumSteps(mem, s.max_steps));
  A = SUNDenseMatrix(N, N, ctx);
  LS = A ? SUNLinSol_Dense(y, A, ctx) : NULL;
  if (!A || !LS) goto cleanup;
  IDA_CHECK(IDASetLinearSolver(mem, LS, A));
  result = ida_outputs(mem, &d, y, yp, tout, nout, qout, vout, st);
  ida_read_stats(mem, st);
#undef IDA_CHECK
cleanup:
  if (result == REF_SETUP_FAILED && !st->error.message[0])
    sc_error_set(&st->error, SC_ERR_SOLVER, "out of memory or SUNDIALS setup failed");
  IDAFree(&mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(y), N_VDestroy(yp), N_VDestroy(id);
  if (ctx) SUNContext_Free(&ctx);
  mdl_rows_free(d.rows);
  free(d.M), free(d.f), free(d.G);
  st->wall_time = now() - d.t_start;
  return st->status = result;
}
