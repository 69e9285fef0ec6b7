// SPDX-License-Identifier: MIT
// Maros–Mészáros convex QPs (../shared/data/maros_meszaros, format in its README): l ≤ Ax ≤ u is
// converted to equalities (l = u) and G rows (finite bounds only), solved cold, and the objective
// ½xᵀPx + qᵀx + r compared with CVXOPT's reference: |f − f_ref| ≤ 1e-6·max(1, |f_ref|).
// Default settings everywhere except HS268 (see below). Skipped (77) when the data are missing.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "qcp/qcp.h"
#include "qcp_gen.h"

static const char *dir;

// a QP in the OSQP form of the .qp files
typedef struct mm_qp {
  int n, m;
  double r;
  int *Pp, *Pi, *Ap, *Ai;
  double *Pv, *Av, *q, *l, *u;
} mm_qp;

static void mm_free(mm_qp *p) {
  free(p->Pp), free(p->Pi), free(p->Ap), free(p->Ai);
  free(p->Pv), free(p->Av), free(p->q), free(p->l), free(p->u);
}

// reads "KEY COUNT" and COUNT numbers into a fresh array
static int read_section(FILE *f, const char *key, int count, int is_int, void **out) {
  char k[64];
  int cnt;
  if (fscanf(f, "%63s %d", k, &cnt) != 2 || strcmp(k, key) != 0 || cnt != count) return -1;
  if (is_int) {
    int *a = malloc(((size_t)count + 1) * sizeof *a);
    for (int i = 0; i < count; i++)
      if (fscanf(f, "%d", &a[i]) != 1) return free(a), -1;
    *out = a;
  } else {
    double *a = malloc(((size_t)count + 1) * sizeof *a);
    char tok[64];
    for (int i = 0; i < count; i++) {
      if (fscanf(f, "%63s", tok) != 1) return free(a), -1;
      a[i] = strtod(tok, NULL);  // accepts inf / -inf
    }
    *out = a;
  }
  return 0;
}

static int mm_read(const char *path, mm_qp *p) {
  memset(p, 0, sizeof *p);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[512], key[64], val[128];
  int mg = 0, pnnz = 0, annz = 0, rc = 0;
  // comments, then 7 header lines
  long pos = ftell(f);
  while (fgets(line, sizeof line, f) && line[0] == '#') pos = ftell(f);
  fseek(f, pos, SEEK_SET);
  for (int i = 0; i < 7; i++) {
    if (fscanf(f, "%63s %127s", key, val) != 2) rc = -1;
    if (!strcmp(key, "n")) p->n = atoi(val);
    if (!strcmp(key, "m")) p->m = atoi(val);
    if (!strcmp(key, "m_general")) mg = atoi(val);
    if (!strcmp(key, "P_nnz")) pnnz = atoi(val);
    if (!strcmp(key, "A_nnz")) annz = atoi(val);
    if (!strcmp(key, "r")) p->r = strtod(val, NULL);
  }
  (void)mg;
  rc |= read_section(f, "P_colptr", p->n + 1, 1, (void **)&p->Pp);
  rc |= read_section(f, "P_rowind", pnnz, 1, (void **)&p->Pi);
  rc |= read_section(f, "P_values", pnnz, 0, (void **)&p->Pv);
  rc |= read_section(f, "A_colptr", p->n + 1, 1, (void **)&p->Ap);
  rc |= read_section(f, "A_rowind", annz, 1, (void **)&p->Ai);
  rc |= read_section(f, "A_values", annz, 0, (void **)&p->Av);
  rc |= read_section(f, "q", p->n, 0, (void **)&p->q);
  rc |= read_section(f, "l", p->m, 0, (void **)&p->l);
  rc |= read_section(f, "u", p->m, 0, (void **)&p->u);
  fclose(f);
  return rc;
}

// l ≤ Ax ≤ u → A_eq x = b (l = u), G x ≤ h (finite u: +a_i; finite l: −a_i)
static int mm_convert(const mm_qp *p, qcp_gen *g) {
  memset(g, 0, sizeof *g);
  int n = p->n, nnz = p->Ap[n];
  int *eqrow = malloc(((size_t)p->m + 1) * sizeof *eqrow),
      *ur = malloc(((size_t)p->m + 1) * sizeof *ur);
  int *lr = malloc(((size_t)p->m + 1) * sizeof *lr);
  int neq = 0, nin = 0;
  for (int i = 0; i < p->m; i++) {
    eqrow[i] = ur[i] = lr[i] = -1;
    if (p->l[i] == p->u[i]) {
      eqrow[i] = neq++;
      continue;
    }
    if (isfinite(p->u[i])) ur[i] = nin++;
    if (isfinite(p->l[i])) lr[i] = nin++;
  }
  int *ai = malloc((2 * (size_t)nnz + 1) * sizeof *ai),
      *aj = malloc((2 * (size_t)nnz + 1) * sizeof *aj);
  int *gi = malloc((2 * (size_t)nnz + 1) * sizeof *gi),
      *gj = malloc((2 * (size_t)nnz + 1) * sizeof *gj);
  double *av = malloc((2 * (size_t)nnz + 1) * sizeof *av),
         *gv = malloc((2 * (size_t)nnz + 1) * sizeof *gv);
  int na = 0, ng = 0;
  for (int j = 0; j < n; j++)
    for (int k = p->Ap[j]; k < p->Ap[j + 1]; k++) {
      int i = p->Ai[k];
      if (eqrow[i] >= 0) ai[na] = eqrow[i], aj[na] = j, av[na++] = p->Av[k];
      if (ur[i] >= 0) gi[ng] = ur[i], gj[ng] = j, gv[ng++] = p->Av[k];
      if (lr[i] >= 0) gi[ng] = lr[i], gj[ng] = j, gv[ng++] = -p->Av[k];
    }
  int rc = qcp_gen_csc(neq, n, na, ai, aj, av, &g->Ap, &g->Ai, &g->Av);
  rc |= qcp_gen_csc(nin, n, ng, gi, gj, gv, &g->Gp, &g->Gi, &g->Gv);
  g->Pp = malloc(((size_t)n + 1) * sizeof *g->Pp);
  g->Pi = malloc(((size_t)p->Pp[n] + 1) * sizeof *g->Pi);
  g->Pv = malloc(((size_t)p->Pp[n] + 1) * sizeof *g->Pv);
  memcpy(g->Pp, p->Pp, ((size_t)n + 1) * sizeof *g->Pp);
  memcpy(g->Pi, p->Pi, (size_t)p->Pp[n] * sizeof *g->Pi);
  memcpy(g->Pv, p->Pv, (size_t)p->Pp[n] * sizeof *g->Pv);
  g->c = malloc((size_t)n * sizeof *g->c);
  memcpy(g->c, p->q, (size_t)n * sizeof *g->c);
  g->b = calloc((size_t)neq + 1, sizeof *g->b);
  g->h = calloc((size_t)nin + 1, sizeof *g->h);
  for (int i = 0; i < p->m; i++) {
    if (eqrow[i] >= 0) g->b[eqrow[i]] = p->l[i];
    if (ur[i] >= 0) g->h[ur[i]] = p->u[i];
    if (lr[i] >= 0) g->h[lr[i]] = -p->l[i];
  }
  g->prob = (qcp_problem){.n = n,
                          .p = neq,
                          .l = nin,
                          .nsoc = 0,
                          .q = NULL,
                          .P = {n, n, g->Pp, g->Pi, g->Pv},
                          .A = {neq, n, g->Ap, g->Ai, g->Av},
                          .G = {nin, n, g->Gp, g->Gi, g->Gv},
                          .c = g->c,
                          .b = g->b,
                          .h = g->h};
  free(eqrow), free(ur), free(lr), free(ai), free(aj), free(av), free(gi), free(gj), free(gv);
  return rc;
}

static void test_maros(void **state) {
  (void)state;
  char path[1024], line[4096];
  snprintf(path, sizeof path, "%s/reference_objectives.csv", dir);
  FILE *csv = fopen(path, "r");
  assert_non_null(csv);
  assert_non_null(fgets(line, sizeof line, csv));  // header
  int total = 0, matched = 0;
  double worst = 0.0;
  printf("| %-9s | %4s | %4s | %-17s | %3s | %-19s | %-19s | %-8s | %7s |\n", "problem", "n", "m",
         "status", "it", "objective", "reference", "rel err", "ms");
  while (fgets(line, sizeof line, csv)) {
    char name[64];
    double fref;
    // name,n,m,objective_cvxopt,...
    char *tok = strtok(line, ",");
    if (!tok) continue;
    snprintf(name, sizeof name, "%s", tok);
    strtok(NULL, ",");
    strtok(NULL, ",");
    fref = strtod(strtok(NULL, ","), NULL);
    snprintf(path, sizeof path, "%s/%s.qp", dir, name);
    mm_qp qp;
    if (mm_read(path, &qp)) {
      print_error("%s: cannot read %s\n", name, path);
      fail();
    }
    qcp_gen g;
    assert_int_equal(mm_convert(&qp, &g), 0);
    qcp_settings set = qcp_settings_default();
    set.max_iter = 200;
    // HS268: optimum exactly 0, P with condition ~1e6 — at the default 1e-8 stopping tolerances
    // the objective is 1.2e-5 off (x lies in a flat valley); documented exception, solved to 1e-11
    if (!strcmp(name, "HS268")) set.eps_abs = set.eps_rel = 1e-11;
    if (getenv("QCP_MM_EPS")) set.eps_abs = set.eps_rel = atof(getenv("QCP_MM_EPS"));
    if (getenv("QCP_MM_VERBOSE") && strstr(getenv("QCP_MM_VERBOSE"), name)) set.verbose = 1;
    qcp_workspace *ws = NULL;
    qcp_error err;
    int rc = qcp_setup(&ws, &g.prob, &set, &err);
    if (rc) print_error("%s: %s\n", name, err.message);
    assert_int_equal(rc, QCP_OK);
    assert_int_equal(qcp_solve(ws, QCP_START_COLD, NULL, NULL, NULL, NULL, &err), QCP_OK);
    const qcp_info *info = qcp_info_get(ws);
    double f = info->pobj + qp.r;
    double rel = fabs(f - fref) / fmax(1.0, fabs(fref));
    int ok = rel <= 1e-6 && (info->status == QCP_SOLVED || info->status == QCP_SOLVED_INACCURATE);
    printf("| %-9s | %4d | %4d | %-17s | %3d | %+.12e | %+.12e | %.2e | %7.2f |%s\n", name, qp.n,
           qp.m, qcp_status_string(info->status), info->iterations, f, fref, rel,
           info->solve_time * 1e3, ok ? "" : " MISMATCH");
    total++;
    matched += ok;
    worst = fmax(worst, rel);
    qcp_workspace_free(ws);
    qcp_gen_free(&g);
    mm_free(&qp);
  }
  fclose(csv);
  printf("matched %d of %d (worst relative error %.2e)\n", matched, total, worst);
  assert_true(total > 0);  // an empty reference list must not pass
  assert_int_equal(matched, total);
}

// one cold solve of NAME.qp with the default settings but cold_rho (200 iterations); returns
// the iterations, the objective ½xᵀPx + qᵀx + r in *f
static int solve_named(const char *name, double cold_rho, double *f) {
  qcp_workspace *ws = NULL;
  qcp_error err;
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.qp", dir, name);
  mm_qp qp;
  assert_int_equal(mm_read(path, &qp), 0);
  qcp_gen g;
  assert_int_equal(mm_convert(&qp, &g), 0);
  qcp_settings set = qcp_settings_default();
  set.max_iter = 200;
  if (cold_rho > 0) set.cold_rho = cold_rho;
  assert_int_equal(qcp_setup(&ws, &g.prob, &set, &err), QCP_OK);
  assert_int_equal(qcp_solve(ws, QCP_START_COLD, NULL, NULL, NULL, NULL, &err), QCP_OK);
  const qcp_info *info = qcp_info_get(ws);
  int it = info->iterations;
  *f = info->pobj + qp.r;
  assert_int_equal(info->status, QCP_SOLVED);
  qcp_workspace_free(ws);
  qcp_gen_free(&g);
  mm_free(&qp);
  return it;
}

// the default cold start is CVXOPT's ρ = 1 point, which centres general QPs: CVXQP2_S (100
// variables, 25 equalities, 75 bounded rows) from the library's default start against the
// all-active start that contact callers set (ρ = 1e4, whose short first steps the start switch
// then moves to ρ = 1): fewer iterations, and the same optimum as Maros and Mészáros's reference
// (8120.94047725, reference_objectives.csv)
static void test_default_start(void **state) {
  (void)state;
  const double fref = 8120.94047725;
  double f_def, f_act;
  int it_def = solve_named("CVXQP2_S", 0.0, &f_def);
  int it_act = solve_named("CVXQP2_S", 1e4, &f_act);
  printf("CVXQP2_S: default start %d iterations (objective %.12e), rho = 1e4 %d (%.12e)\n", it_def,
         f_def, it_act, f_act);
  assert_true(fabs(f_def - fref) <= 1e-6 * fabs(fref));
  assert_true(fabs(f_act - fref) <= 1e-6 * fabs(fref));
  assert_true(it_def <= 12);
  assert_true(it_def + 5 <= it_act);
}

int main(void) {
  dir = getenv("QCP_MAROS_DIR");
  char probe[1100];
  snprintf(probe, sizeof probe, "%s/reference_objectives.csv", dir ? dir : ".");
  FILE *f = dir ? fopen(probe, "r") : NULL;
  if (!f) {
    printf("skipped: Maros-Meszaros data not found (QCP_MAROS_DIR)\n");
    return 77;
  }
  fclose(f);
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_maros),
                                     cmocka_unit_test(test_default_start)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
