// SPDX-License-Identifier: MIT
// Generated contact QPs (sphere stacks, elastic foundation) for the qcp tests and benchmark.
//
// Both families are the `relaxed` contact QP of SPEC §1.3 with the lifting of §1.2:
//   min ½λᵀCλ + ½wᵀMw − ĉᵀλ  s.t.  M w − Gᵀλ = 0,  λ ∈ K,
// C = diag(1/D_i), D_i = h²K_i + hB_i, ĉ_i = c_i/D_i, c_i = −K_iφ_i0 − (hK_i + B_i) G_i v_free
// (no bias term: p = 0, (Ġv0) = 0). Tangent rows: K_t = 0, B_t = 1e6/h (paper A §6.4). The
// conic QP variables are x = (λ, w); a contact's cone s = (μλ_n, λ_r, λ_s) ∈ Q³ is G x + s = 0 with
// G = −diag(μ, 1, 1) on its λ entries. h = 0.01 s, g = 9.81 m/s².
#include "qcp_gen.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN_H 0.01
#define GEN_G 9.81

// splitmix64: small, seedable, identical on every platform
static uint64_t rng_next(uint64_t *st) {
  uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static double rng_uniform(uint64_t *st, double a, double b) {
  return a + (b - a) * (double)(rng_next(st) >> 11) * 0x1.0p-53;
}

void qcp_gen_free(qcp_gen *g) {
  void *ptrs[] = {g->Pp, g->Pi, g->Ap, g->Ai, g->Gp, g->Gi, g->q,
                  g->Pv, g->Av, g->Gv, g->c,  g->b,  g->h,  g->x_feas};
  for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++) free(ptrs[i]);
  memset(g, 0, sizeof *g);
}

int qcp_gen_csc(int nrows, int ncols, int nt, const int *ti, const int *tj, const double *tv,
                int **colptr, int **rowind, double **values) {
  int *cp = calloc((size_t)ncols + 1, sizeof *cp), *ri = malloc(((size_t)nt + 1) * sizeof *ri);
  double *v = malloc(((size_t)nt + 1) * sizeof *v);
  int *next = malloc(((size_t)ncols + 1) * sizeof *next);
  if (!cp || !ri || !v || !next) {
    free(cp), free(ri), free(v), free(next);
    return -1;
  }
  for (int k = 0; k < nt; k++)
    if (ti[k] < 0 || ti[k] >= nrows || tj[k] < 0 || tj[k] >= ncols) {
      free(cp), free(ri), free(v), free(next);
      return -1;
    }
  for (int k = 0; k < nt; k++) cp[tj[k] + 1]++;
  for (int j = 0; j < ncols; j++) cp[j + 1] += cp[j];
  memcpy(next, cp, (size_t)ncols * sizeof *next);
  for (int k = 0; k < nt; k++) {
    int p = next[tj[k]]++;
    ri[p] = ti[k];
    v[p] = tv[k];
  }
  // sort each column by row (insertion sort: columns are short) and sum duplicates
  int out = 0;
  for (int j = 0; j < ncols; j++) {
    int beg = cp[j], end = cp[j + 1];
    for (int a = beg + 1; a < end; a++) {
      int r = ri[a];
      double x = v[a];
      int b = a - 1;
      while (b >= beg && ri[b] > r) {
        ri[b + 1] = ri[b];
        v[b + 1] = v[b];
        b--;
      }
      ri[b + 1] = r;
      v[b + 1] = x;
    }
    cp[j] = out;
    for (int a = beg; a < end; a++) {
      if (out > cp[j] && ri[out - 1] == ri[a]) {
        v[out - 1] += v[a];
      } else {
        ri[out] = ri[a];
        v[out] = v[a];
        out++;
      }
    }
  }
  cp[ncols] = out;
  free(next);
  *colptr = cp;
  *rowind = ri;
  *values = v;
  return 0;
}

// triplet list that grows as needed
typedef struct trip {
  int n, cap;
  int *i, *j;
  double *v;
} trip;

static int trip_add(trip *t, int i, int j, double v) {
  if (t->n == t->cap) {
    int cap = t->cap ? 2 * t->cap : 64;
    int *ni = realloc(t->i, (size_t)cap * sizeof *ni);
    if (ni) t->i = ni;
    int *nj = realloc(t->j, (size_t)cap * sizeof *nj);
    if (nj) t->j = nj;
    double *nv = realloc(t->v, (size_t)cap * sizeof *nv);
    if (nv) t->v = nv;
    if (!ni || !nj || !nv) return -1;
    t->cap = cap;
  }
  t->i[t->n] = i;
  t->j[t->n] = j;
  t->v[t->n] = v;
  t->n++;
  return 0;
}

static void trip_free(trip *t) {
  free(t->i);
  free(t->j);
  free(t->v);
}

// assembles the lifted QP from per-row Jacobians: nrow rows of G_phys (nb dofs), compliance C,
// ĉ, masses Mdiag; cone rows given by gq (triplets on λ) and cone sizes
static int assemble(qcp_gen *g, int nrow, int ndof, const trip *J, const double *Cd,
                    const double *chat, const double *Md, const trip *Gq, int l, int nsoc,
                    int qdim) {
  int n = nrow + ndof, rc = 0;
  trip P = {0}, A = {0};
  for (int i = 0; i < nrow; i++) rc |= trip_add(&P, i, i, Cd[i]);
  for (int d = 0; d < ndof; d++) rc |= trip_add(&P, nrow + d, nrow + d, Md[d]);
  // A = [−Gᵀ, M]: row d of A holds −G(:, d)ᵀ on λ and M_d on w_d
  for (int k = 0; k < J->n; k++) rc |= trip_add(&A, J->j[k], J->i[k], -J->v[k]);
  for (int d = 0; d < ndof; d++) rc |= trip_add(&A, d, nrow + d, Md[d]);
  int m = l + nsoc * qdim;
  rc |= qcp_gen_csc(n, n, P.n, P.i, P.j, P.v, &g->Pp, &g->Pi, &g->Pv);
  rc |= qcp_gen_csc(ndof, n, A.n, A.i, A.j, A.v, &g->Ap, &g->Ai, &g->Av);
  rc |= qcp_gen_csc(m, n, Gq->n, Gq->i, Gq->j, Gq->v, &g->Gp, &g->Gi, &g->Gv);
  trip_free(&P);
  trip_free(&A);
  g->c = calloc((size_t)n, sizeof *g->c);
  g->b = calloc((size_t)ndof, sizeof *g->b);
  g->h = calloc((size_t)m + 1, sizeof *g->h);
  g->q = malloc(((size_t)nsoc + 1) * sizeof *g->q);
  g->x_feas = calloc((size_t)n, sizeof *g->x_feas);
  if (rc || !g->c || !g->b || !g->h || !g->q || !g->x_feas) return -1;
  for (int i = 0; i < nrow; i++) g->c[i] = -chat[i];
  for (int k = 0; k < nsoc; k++) g->q[k] = qdim;
  g->prob = (qcp_problem){.n = n,
                          .p = ndof,
                          .l = l,
                          .nsoc = nsoc,
                          .q = g->q,
                          .P = {n, n, g->Pp, g->Pi, g->Pv},
                          .A = {ndof, n, g->Ap, g->Ai, g->Av},
                          .G = {m, n, g->Gp, g->Gi, g->Gv},
                          .c = g->c,
                          .b = g->b,
                          .h = g->h};
  return 0;
}

// w = M⁻¹ Gᵀ λ for the feasible start
static void feasible_w(qcp_gen *g, int nrow, int ndof, const trip *J, const double *Md) {
  double *w = g->x_feas + nrow;
  for (int d = 0; d < ndof; d++) w[d] = 0.0;
  for (int k = 0; k < J->n; k++) w[J->j[k]] += J->v[k] * g->x_feas[J->i[k]];
  for (int d = 0; d < ndof; d++) w[d] /= Md[d];
}

// The stack family's working data: sizes and physics, the random streams (st: the instance,
// pst: the perturbation between variants) and the arrays the rows are assembled from.
typedef struct stack_build {
  int N, variant;
  double r, h, K, Bn, Bt, mu;
  uint64_t st, pst;
  double *Md, *v0, *Cd, *chat, *vf, *mass;  // 6N, 6N, 3N, 3N, 6N, N entries
  trip J, Gq;
} stack_build;

static void stack_build_free(stack_build *sb) {
  free(sb->Md), free(sb->v0), free(sb->Cd), free(sb->chat), free(sb->vf), free(sb->mass);
  trip_free(&sb->J);
  trip_free(&sb->Gq);
}

// masses, inertias and initial velocities of the N spheres; then v_free = v0 + h M⁻¹ f with
// gravity only
static void stack_bodies(stack_build *sb) {
  const int N = sb->N, ndof = 6 * N;
  const double r = sb->r, h = sb->h;
  double *Md = sb->Md, *v0 = sb->v0;
  for (int b = 0; b < N; b++) {
    sb->mass[b] = rng_uniform(&sb->st, 0.5, 2.0);
    double I = 0.4 * sb->mass[b] * r * r;
    for (int d = 0; d < 3; d++) {
      Md[6 * b + d] = sb->mass[b];
      Md[6 * b + 3 + d] = I;
    }
    // ~30 % of the spheres slide or spin relative to the one below, the rest co-move (stick)
    if (rng_uniform(&sb->st, 0, 1) < 0.3) {
      v0[6 * b + 0] = rng_uniform(&sb->st, -0.05, 0.05);
      v0[6 * b + 1] = rng_uniform(&sb->st, -0.05, 0.05);
      v0[6 * b + 3] = rng_uniform(&sb->st, -0.5, 0.5);
      v0[6 * b + 4] = rng_uniform(&sb->st, -0.5, 0.5);
    } else if (b > 0) {
      for (int d = 0; d < 6; d++) v0[6 * b + d] = v0[6 * (b - 1) + d];
    }
  }
  for (int d = 0; d < ndof; d++)
    v0[d] *= 1.0 + (sb->variant ? rng_uniform(&sb->pst, -0.01, 0.01) : 0.0);
  for (int b = 0; b < N; b++)
    for (int d = 0; d < 6; d++) sb->vf[6 * b + d] = v0[6 * b + d] - (d == 2 ? h * GEN_G : 0.0);
}

// Jacobian rows of contact b (below sphere b; a = b − 1 the body below, −1 = ground): normal z,
// tangents x, y of v_rel = (v_b + ω_b × (−r e_z)) − (v_a + ω_a × (r e_z)); 0 or −1 (no memory)
static int stack_contact_jacobian(trip *J, int b, double r) {
  const int a = b - 1, rn = 3 * b, rx = 3 * b + 1, ry = 3 * b + 2;
  int rc = 0;
  rc |= trip_add(J, rn, 6 * b + 2, 1.0);
  rc |= trip_add(J, rx, 6 * b + 0, 1.0);
  rc |= trip_add(J, rx, 6 * b + 4, -r);
  rc |= trip_add(J, ry, 6 * b + 1, 1.0);
  rc |= trip_add(J, ry, 6 * b + 3, r);
  if (a >= 0) {
    rc |= trip_add(J, rn, 6 * a + 2, -1.0);
    rc |= trip_add(J, rx, 6 * a + 0, -1.0);
    rc |= trip_add(J, rx, 6 * a + 4, -r);
    rc |= trip_add(J, ry, 6 * a + 1, -1.0);
    rc |= trip_add(J, ry, 6 * a + 3, r);
  }
  return rc;
}

// contact b carrying the weight `above`: its rows, compliance and right-hand side, and its cone
// s = (μλ_n, λ_r, λ_s); 0 or −1 (no memory)
static int stack_contact(stack_build *sb, int b, double above) {
  const int rn = 3 * b, rx = 3 * b + 1, ry = 3 * b + 2;
  const double h = sb->h, K = sb->K, Bn = sb->Bn, Bt = sb->Bt;
  int rc = stack_contact_jacobian(&sb->J, b, sb->r);
  const trip *J = &sb->J;
  double gv[3] = {0, 0, 0};
  for (int k = J->n - (b > 0 ? 10 : 5); k < J->n; k++)
    gv[J->i[k] - rn] += J->v[k] * sb->vf[J->j[k]];
  // static deflection of the carried weight, ±10 % (and ±1 % between variants)
  double phi = -above * GEN_G / K * rng_uniform(&sb->st, 0.9, 1.1);
  if (sb->variant) phi *= 1.0 + rng_uniform(&sb->pst, -0.01, 0.01);
  double Dn = h * h * K + h * Bn, cn = -K * phi - (h * K + Bn) * gv[0];
  double Dt = h * Bt;
  sb->Cd[rn] = 1.0 / Dn;
  sb->chat[rn] = cn / Dn;
  sb->Cd[rx] = sb->Cd[ry] = 1.0 / Dt;
  sb->chat[rx] = -Bt * gv[1] / Dt;
  sb->chat[ry] = -Bt * gv[2] / Dt;
  rc |= trip_add(&sb->Gq, rn, rn, -sb->mu);
  rc |= trip_add(&sb->Gq, rx, rx, -1.0);
  rc |= trip_add(&sb->Gq, ry, ry, -1.0);
  return rc;
}

// One instance of the stack family: the bodies, then the contacts from the top down (each
// carries the weight above it), the assembly and the feasible point.
int qcp_gen_stack(qcp_gen *g, int N, double mu, unsigned seed, int variant) {
  memset(g, 0, sizeof *g);
  if (N < 1 || !(mu > 0.0)) return -1;
  const int nrow = 3 * N, ndof = 6 * N;
  stack_build sb = {.N = N,
                    .variant = variant,
                    .r = 0.1,
                    .h = GEN_H,
                    .Bn = 0.0,
                    .Bt = 1e6 / GEN_H,
                    .mu = mu,
                    .st = 0x5eedULL * (seed + 1),
                    .pst = 0xabcdULL * (seed + 1) + 7919ULL * (unsigned)variant};
  sb.Md = malloc((size_t)ndof * sizeof *sb.Md), sb.v0 = calloc((size_t)ndof, sizeof *sb.v0);
  sb.Cd = malloc((size_t)nrow * sizeof *sb.Cd), sb.chat = malloc((size_t)nrow * sizeof *sb.chat);
  sb.vf = malloc((size_t)ndof * sizeof *sb.vf), sb.mass = malloc((size_t)N * sizeof *sb.mass);
  int rc = 0;
  if (!sb.Md || !sb.v0 || !sb.Cd || !sb.chat || !sb.vf || !sb.mass) {
    rc = -1;
    goto out;
  }
  sb.K = pow(10.0, rng_uniform(&sb.st, 6.0, 11.0));  // normal stiffness, N/m
  stack_bodies(&sb);
  double above = 0.0;
  for (int b = N - 1; b >= 0; b--) {
    above += sb.mass[b];  // weight carried by contact b (below sphere b)
    rc |= stack_contact(&sb, b, above);
  }
  if (rc || assemble(g, nrow, ndof, &sb.J, sb.Cd, sb.chat, sb.Md, &sb.Gq, 0, N, 3)) {
    rc = -1;
    goto out;
  }
  // feasible start (paper A, Appendix A): normal forces large — twice the weight each contact
  // carries — tangential zero, w = M⁻¹Gᵀλ
  double w = 0.0;
  for (int b = N - 1; b >= 0; b--) {
    w += sb.mass[b] * GEN_G;
    g->x_feas[3 * b] = 2.0 * w;
  }
  feasible_w(g, nrow, ndof, &sb.J, sb.Md);
  snprintf(g->name, sizeof g->name, "stack%d_mu%g", N, mu);
out:
  stack_build_free(&sb);
  if (rc) qcp_gen_free(g);
  return rc;
}

int qcp_gen_foundation(qcp_gen *g, int R, unsigned seed, int variant) {
  memset(g, 0, sizeof *g);
  if (R < 1) return -1;
  uint64_t st = 0xf00dULL * (seed + 1), pst = 0xbeefULL * (seed + 1) + 7919ULL * (unsigned)variant;
  const double h = GEN_H, mass = 1000.0, side = 1.0;
  const double I = mass * (side * side + side * side) / 12.0;
  int ndof = 6, rc = 0;
  double Md[6] = {mass, mass, mass, I, I, I};
  double *Cd = malloc((size_t)R * sizeof *Cd), *chat = malloc((size_t)R * sizeof *chat);
  trip J = {0}, Gq = {0};
  if (!Cd || !chat) {
    rc = -1;
    goto out;
  }
  double Ktot = pow(10.0, rng_uniform(&st, 6.0, 11.0)), Ki = Ktot / R, Bi = 0.0;
  double d0 = mass * GEN_G / Ktot;  // static sinkage
  double thx = rng_uniform(&st, -1.5, 1.5) * d0 / side,
         thy = rng_uniform(&st, -1.5, 1.5) * d0 / side;
  double v0[6] = {0,
                  0,
                  rng_uniform(&st, -0.01, 0.01),
                  rng_uniform(&st, -0.01, 0.01),
                  rng_uniform(&st, -0.01, 0.01),
                  0};
  if (variant)
    for (int d = 0; d < 6; d++) v0[d] *= 1.0 + rng_uniform(&pst, -0.01, 0.01);
  double vf[6];
  for (int d = 0; d < 6; d++) vf[d] = v0[d] - (d == 2 ? h * GEN_G : 0.0);
  int side_n = (int)ceil(sqrt((double)R));
  for (int i = 0; i < R; i++) {
    double px = ((i % side_n) + 0.5) / side_n * side - 0.5 * side;
    double py = ((i / side_n) + 0.5) / side_n * side - 0.5 * side;
    // normal row: v_z + ω_x p_y − ω_y p_x
    rc |= trip_add(&J, i, 2, 1.0);
    rc |= trip_add(&J, i, 3, py);
    rc |= trip_add(&J, i, 4, -px);
    double gv = vf[2] + vf[3] * py - vf[4] * px;
    double phi = -d0 + thx * py - thy * px;
    if (variant) phi += d0 * rng_uniform(&pst, -0.01, 0.01);
    double D = h * h * Ki + h * Bi, c = -Ki * phi - (h * Ki + Bi) * gv;
    Cd[i] = 1.0 / D;
    chat[i] = c / D;
    rc |= trip_add(&Gq, i, i, -1.0);
  }
  if (rc || assemble(g, R, ndof, &J, Cd, chat, Md, &Gq, R, 0, 3)) {
    rc = -1;
    goto out;
  }
  // normal forces large: twice the body's weight shared evenly by the rows
  for (int i = 0; i < R; i++) g->x_feas[i] = 2.0 * mass * GEN_G / R;
  feasible_w(g, R, ndof, &J, Md);
  snprintf(g->name, sizeof g->name, "foundation%d", R);
out:
  free(Cd), free(chat);
  trip_free(&J);
  trip_free(&Gq);
  if (rc) qcp_gen_free(g);
  return rc;
}

// dense row-major → CSC, keeping entries that are nonzero (and in the upper part when upper)
static int dense_csc(int nr, int nc, const double *M, int upper, int **cp, int **ri, double **v) {
  trip t = {0};
  int rc = 0;
  for (int i = 0; i < nr; i++)
    for (int j = 0; j < nc; j++)
      if (M && M[i * nc + j] != 0.0 && (!upper || i <= j)) rc |= trip_add(&t, i, j, M[i * nc + j]);
  rc |= qcp_gen_csc(nr, nc, t.n, t.i, t.j, t.v, cp, ri, v);
  trip_free(&t);
  return rc;
}

int qcp_gen_dense(qcp_gen *g, int n, int p, int l, int nsoc, const int *q, const double *P,
                  const double *A, const double *G, const double *c, const double *b,
                  const double *h) {
  memset(g, 0, sizeof *g);
  int m = l, rc = 0;
  for (int k = 0; k < nsoc; k++) m += q[k];
  rc |= dense_csc(n, n, P, 1, &g->Pp, &g->Pi, &g->Pv);
  rc |= dense_csc(p, n, A, 0, &g->Ap, &g->Ai, &g->Av);
  rc |= dense_csc(m, n, G, 0, &g->Gp, &g->Gi, &g->Gv);
  g->c = calloc((size_t)n, sizeof *g->c);
  g->b = calloc((size_t)p + 1, sizeof *g->b);
  g->h = calloc((size_t)m + 1, sizeof *g->h);
  g->q = calloc((size_t)nsoc + 1, sizeof *g->q);
  g->x_feas = calloc((size_t)n, sizeof *g->x_feas);
  if (rc || !g->c || !g->b || !g->h || !g->q || !g->x_feas) {
    qcp_gen_free(g);
    return -1;
  }
  if (c) memcpy(g->c, c, (size_t)n * sizeof *c);
  if (b && p) memcpy(g->b, b, (size_t)p * sizeof *b);
  if (h && m) memcpy(g->h, h, (size_t)m * sizeof *h);
  if (nsoc) memcpy(g->q, q, (size_t)nsoc * sizeof *q);
  g->prob = (qcp_problem){.n = n,
                          .p = p,
                          .l = l,
                          .nsoc = nsoc,
                          .q = g->q,
                          .P = {n, n, g->Pp, g->Pi, g->Pv},
                          .A = {p, n, g->Ap, g->Ai, g->Av},
                          .G = {m, n, g->Gp, g->Gi, g->Gv},
                          .c = g->c,
                          .b = g->b,
                          .h = g->h};
  snprintf(g->name, sizeof g->name, "dense%dx%d", n, m);
  return 0;
}
