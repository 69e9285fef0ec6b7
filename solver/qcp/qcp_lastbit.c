// SPDX-License-Identifier: MIT
// Last-bit selection: the components of a converged point moved so that its residuals, computed
// exactly from the original data, meet the tolerances.
//
// Why. A point of doubles cannot be the exact optimum; its residuals are sums of products in which
// the last bit of every component counts. Where the data is large (HUESTIS, objective 3.5e11;
// POWELL20, QSHELL), moving every component of the long-double-refined point by one ulp moves the
// gap by 1e-4 … 1e-3, far above an absolute tolerance of 1e-6; the point rounded to nearest is then
// as likely to fail as any neighbour. Which neighbour passes is decided by the exact residuals,
// so this step computes them exactly (double-double, sc_dd.h) and moves one component at a time:
// each move is the rounding to double of the correction that would zero one residual entry (or the
// gap) through that component, shortened to where another entry it touches would reach its target
// (to first order; then checked exactly) — sub-ulp corrections become one-ulp moves, and where a
// measure has room a move can be many ulps. A move is taken only if it lowers that entry and
// pushes no other entry above its target or further above it. The targets start at a thousandth
// of the caller's and grow tenfold per stage, so that what can be fixed with little collateral is.
// It is a greedy coordinate search on the residuals; every update of the residuals is exact, and
// the caller judges the result with its own recomputation.
//
// Moves keep the point's structure: z_i moves only on rows with s_i = 0 and stays ≥ 0, s_i only on
// rows with z_i = 0 and stays ≥ 0 (after a move of x, such a row's slack is refitted). Orthant
// cones only (the caller skips second-order cones).
#include <math.h>
#include <string.h>

#include "qcp_internal.h"

// ---- patterns --------------------------------------------------------------------------------

// M (CSC) by rows into rp (nrows + 1), rj, rv
static void by_rows(const qcp_csc *M, int *rp, int *rj, double *rv) {
  int rows = M->nrows, cols = M->colptr ? M->ncols : 0;
  memset(rp, 0, ((size_t)rows + 1) * sizeof *rp);
  for (int j = 0; j < cols; j++)
    for (int k = M->colptr[j]; k < M->colptr[j + 1]; k++) rp[M->rowind[k] + 1]++;
  for (int i = 0; i < rows; i++) rp[i + 1] += rp[i];
  for (int j = 0; j < cols; j++)  // rp[i] runs through row i; shifted back below
    for (int k = M->colptr[j]; k < M->colptr[j + 1]; k++) {
      int d = rp[M->rowind[k]]++;
      rj[d] = j, rv[d] = M->values[k];
    }
  for (int i = rows; i > 0; i--) rp[i] = rp[i - 1];
  rp[0] = 0;
}

// P from its upper triangle to both triangles, by columns (Pcp n + 1, Pci, Pcv)
static void full_symmetric(const qcp_csc *P, int *cp, int *ci, double *cv) {
  int n = P->ncols;
  memset(cp, 0, ((size_t)n + 1) * sizeof *cp);
  for (int j = 0; j < n; j++)
    for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++) {
      cp[j + 1]++;
      if (P->rowind[k] != j) cp[P->rowind[k] + 1]++;
    }
  for (int j = 0; j < n; j++) cp[j + 1] += cp[j];
  for (int j = 0; j < n; j++)
    for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++) {
      int i = P->rowind[k], d = cp[j]++;
      ci[d] = i, cv[d] = P->values[k];
      if (i != j) d = cp[i]++, ci[d] = j, cv[d] = P->values[k];
    }
  for (int j = n; j > 0; j--) cp[j] = cp[j - 1];
  cp[0] = 0;
}

int qcp_lastbit_alloc(qcp_lastbit *lb, const qcp_problem *pr, const qcp_allocator *al) {
  int n = pr->n, p = pr->p, m = pr->G.nrows;
  int nA = p > 0 && pr->A.colptr ? pr->A.colptr[n] : 0, nG = pr->G.colptr[n];
  int nP = 2 * pr->P.colptr[n];
  memset(lb, 0, sizeof *lb);
  // scratch written before it is read (patterns at each use, residuals by measure): not zeroed
  lb->Arp = qcp_alloc_uninit(al, (size_t)p + 1, sizeof *lb->Arp);
  lb->Arj = qcp_alloc_uninit(al, (size_t)nA + 1, sizeof *lb->Arj);
  lb->Arv = qcp_alloc_uninit(al, (size_t)nA + 1, sizeof *lb->Arv);
  lb->Grp = qcp_alloc_uninit(al, (size_t)m + 1, sizeof *lb->Grp);
  lb->Grj = qcp_alloc_uninit(al, (size_t)nG + 1, sizeof *lb->Grj);
  lb->Grv = qcp_alloc_uninit(al, (size_t)nG + 1, sizeof *lb->Grv);
  lb->Pcp = qcp_alloc_uninit(al, (size_t)n + 1, sizeof *lb->Pcp);
  lb->Pci = qcp_alloc_uninit(al, (size_t)nP + 1, sizeof *lb->Pci);
  lb->Pcv = qcp_alloc_uninit(al, (size_t)nP + 1, sizeof *lb->Pcv);
  lb->px = qcp_alloc_uninit(al, (size_t)n + 1, sizeof *lb->px);
  lb->rd = qcp_alloc_uninit(al, (size_t)n + 1, sizeof *lb->rd);
  lb->rp = qcp_alloc_uninit(al, (size_t)p + m + 1, sizeof *lb->rp);
  return lb->Arp && lb->Arj && lb->Arv && lb->Grp && lb->Grj && lb->Grv && lb->Pcp && lb->Pci &&
                 lb->Pcv && lb->px && lb->rd && lb->rp
             ? 0
             : -1;
}

void qcp_lastbit_free(qcp_lastbit *lb, const qcp_allocator *al) {
  void *v[] = {lb->Arp, lb->Arj, lb->Arv, lb->Grp, lb->Grj, lb->Grv,
               lb->Pcp, lb->Pci, lb->Pcv, lb->px,  lb->rd,  lb->rp};
  for (size_t k = 0; k < sizeof v / sizeof *v; k++) qcp_release(al, v[k]);
  memset(lb, 0, sizeof *lb);
}

// passes over the entries above target (each pass visits every one once)
#define LASTBIT_PASSES 8
// an entry taken to this fraction of its target is fixed: no further candidates are tried
#define LASTBIT_GOOD 0.5
// rows with more entries are not tried on a dual residual entry
#define LASTBIT_SHORT 64

// ---- the search ------------------------------------------------------------------------------

typedef struct lb_state {
  const qcp_problem *pr;
  qcp_lastbit *lb;
  double *x, *s, *y, *z;
  sc_dd gap;          // xᵀPx + cᵀx + bᵀy + hᵀz
  double tp, td, tg;  // targets of |r_p|, |r_d| and |gap|
  long moves, max_moves;
} lb_state;

// |v| in units of its target t
static double units(sc_dd v, double t) { return fabs(sc_dd_value(v)) / t; }

// |v + a·d| in units of t (v unchanged)
static double units_after(sc_dd v, double a, double d, double t) {
  sc_dd_add_prod(&v, a, d);
  return fabs(sc_dd_value(v)) / t;
}

// The step from v to the double nearest v + want (one ulp towards it when that rounds back to v),
// 0 if the difference is not exact in double (then no move is made)
static double step_towards(double v, double want) {
  if (!(fabs(want) > 0.0) || !isfinite(want)) return 0.0;
  double to = v + want;
  if (to == v) to = nextafter(v, want > 0.0 ? INFINITY : -INFINITY);
  double d = to - v;
  return (v + d == to && to - d == v) ? d : 0.0;
}

// the change of the gap when x_j += d, exactly: d·(2(Px)_j + c_j) + P_jj·d²
static sc_dd gap_change_x(const lb_state *st, int j, double d) {
  const qcp_lastbit *lb = st->lb;
  sc_dd g = {0.0, 0.0};
  sc_dd_add_dd_prod(&g, lb->px[j], 2.0 * d);
  sc_dd_add_prod(&g, st->pr->c[j], d);
  for (int k = lb->Pcp[j]; k < lb->Pcp[j + 1]; k++)
    if (lb->Pci[k] == j) {
      double t = lb->Pcv[k] * d, e = fma(lb->Pcv[k], d, -t);
      sc_dd_add_prod(&g, t, d);
      g.lo += e * d;
    }
  return g;
}

// the residual of orthant row i after the slack absorbs what it can (rows with z_i = 0): s_i takes
// the double nearest h_i − G_i x, kept ≥ 0
static void refit_slack(lb_state *st, int i) {
  int row = st->pr->p + i;
  if (st->z[i] != 0.0) return;
  sc_dd want = st->lb->rp[row];  // r = Gx + s − h: the slack that zeroes it is s − r
  want.hi = -want.hi, want.lo = -want.lo;
  sc_dd_add(&want, st->s[i]);
  double s_new = fmax(0.0, sc_dd_value(want)), d = s_new - st->s[i];
  if (st->s[i] + d != s_new) return;  // not exact: leave the row as it is
  sc_dd_add(&st->lb->rp[row], d);
  st->s[i] = s_new;
}

// the worst of the entries x_j touches after x_j += d, in units (the gap's too), and whether
// any entry would rise above 1 that was below, or rise further where it was above. The slack of an
// orthant row with z_i = 0 absorbs its change as long as it stays ≥ 0.
static int x_move_ok(const lb_state *st, int j, double d) {
  const qcp_problem *pr = st->pr;
  const qcp_lastbit *lb = st->lb;
  for (int k = lb->Pcp[j]; k < lb->Pcp[j + 1]; k++) {
    sc_dd r = lb->rd[lb->Pci[k]];
    double now = units(r, st->td), after = units_after(r, lb->Pcv[k], d, st->td);
    if (after > fmax(1.0, now)) return 0;
  }
  for (int k = pr->p > 0 ? pr->A.colptr[j] : 0; k < (pr->p > 0 ? pr->A.colptr[j + 1] : 0); k++) {
    sc_dd r = lb->rp[pr->A.rowind[k]];
    if (units_after(r, pr->A.values[k], d, st->tp) > fmax(1.0, units(r, st->tp))) return 0;
  }
  for (int k = pr->G.colptr[j]; k < pr->G.colptr[j + 1]; k++) {
    int i = pr->G.rowind[k];
    sc_dd r = lb->rp[pr->p + i];
    sc_dd_add_prod(&r, pr->G.values[k], d);
    // an inactive row's slack takes up the change if it stays nonnegative
    if (st->z[i] == 0.0 && st->s[i] - sc_dd_value(r) >= 0.0) continue;
    if (units(r, st->tp) > fmax(1.0, units(lb->rp[pr->p + i], st->tp))) return 0;
  }
  return 1;
}

static void apply_x(lb_state *st, int j, double d) {
  const qcp_problem *pr = st->pr;
  qcp_lastbit *lb = st->lb;
  sc_dd_add_dd(&st->gap, gap_change_x(st, j, d));
  for (int k = lb->Pcp[j]; k < lb->Pcp[j + 1]; k++) {
    sc_dd_add_prod(&lb->px[lb->Pci[k]], lb->Pcv[k], d);
    sc_dd_add_prod(&lb->rd[lb->Pci[k]], lb->Pcv[k], d);
  }
  for (int k = pr->p > 0 ? pr->A.colptr[j] : 0; k < (pr->p > 0 ? pr->A.colptr[j + 1] : 0); k++)
    sc_dd_add_prod(&lb->rp[pr->A.rowind[k]], pr->A.values[k], d);
  for (int k = pr->G.colptr[j]; k < pr->G.colptr[j + 1]; k++) {
    sc_dd_add_prod(&lb->rp[pr->p + pr->G.rowind[k]], pr->G.values[k], d);
    refit_slack(st, pr->G.rowind[k]);
  }
  st->x[j] += d;
  st->moves++;
}

// a row multiplier (y_i for row < p, else z_{row−p}) moved by d: the dual residual's entries along
// the row, in units, stay within max(1, now)
static int dual_move_ok(const lb_state *st, int row, double d) {
  const qcp_lastbit *lb = st->lb;
  int p = st->pr->p, a = row < p ? lb->Arp[row] : lb->Grp[row - p];
  int b = row < p ? lb->Arp[row + 1] : lb->Grp[row - p + 1];
  const int *cols = row < p ? lb->Arj : lb->Grj;
  const double *vals = row < p ? lb->Arv : lb->Grv;
  for (int k = a; k < b; k++) {
    sc_dd r = lb->rd[cols[k]];
    if (units_after(r, vals[k], d, st->td) > fmax(1.0, units(r, st->td))) return 0;
  }
  return 1;
}

static void apply_dual(lb_state *st, int row, double d) {
  qcp_lastbit *lb = st->lb;
  int p = st->pr->p, a = row < p ? lb->Arp[row] : lb->Grp[row - p];
  int b = row < p ? lb->Arp[row + 1] : lb->Grp[row - p + 1];
  const int *cols = row < p ? lb->Arj : lb->Grj;
  const double *vals = row < p ? lb->Arv : lb->Grv;
  for (int k = a; k < b; k++) sc_dd_add_prod(&lb->rd[cols[k]], vals[k], d);
  sc_dd_add_prod(&st->gap, row < p ? st->pr->b[row] : st->pr->h[row - p], d);
  if (row < p)
    st->y[row] += d;
  else
    st->z[row - p] += d;
  st->moves++;
}

// ---- how far a component may move ------------------------------------------------------------

// the largest |d| in direction dir that keeps an entry (value v, coefficient a) within max(t, |v|)
static double entry_limit(double v, double a, double t, double dir) {
  double ad = a * dir, lim = fmax(t, fabs(v));
  if (ad == 0.0) return INFINITY;
  return ad > 0.0 ? (lim - v) / ad : (-lim - v) / ad;
}

// the limit of x_j: the dual residual along P's column, the rows of its column (an orthant row
// with z_i = 0 only once its slack is used up), the gap to first order
static double x_limit(const lb_state *st, int j, double dir) {
  const qcp_problem *pr = st->pr;
  const qcp_lastbit *lb = st->lb;
  int p = pr->p;
  double lim = INFINITY;
  for (int k = lb->Pcp[j]; k < lb->Pcp[j + 1]; k++)
    lim = fmin(lim, entry_limit(sc_dd_value(lb->rd[lb->Pci[k]]), lb->Pcv[k], st->td, dir));
  for (int k = p > 0 ? pr->A.colptr[j] : 0; k < (p > 0 ? pr->A.colptr[j + 1] : 0); k++)
    lim =
        fmin(lim, entry_limit(sc_dd_value(lb->rp[pr->A.rowind[k]]), pr->A.values[k], st->tp, dir));
  for (int k = pr->G.colptr[j]; k < pr->G.colptr[j + 1]; k++) {
    int i = pr->G.rowind[k];
    double r = sc_dd_value(lb->rp[p + i]), a = pr->G.values[k] * dir;
    if (st->z[i] != 0.0)
      lim = fmin(lim, entry_limit(r, pr->G.values[k], st->tp, dir));
    else if (a > 0.0)  // Gx + s − h with the slack refitted: r − s + a·d may reach the target
      lim = fmin(lim, (fmax(st->tp, r - st->s[i]) - (r - st->s[i])) / a);
  }
  double g = 2.0 * sc_dd_value(lb->px[j]) + pr->c[j];
  return fmin(lim, entry_limit(sc_dd_value(st->gap), g, st->tg, dir));
}

// the limit of the multiplier of `row`: the dual residual along the row, the gap, z ≥ 0; 0 for an
// orthant row with s > 0 (its multiplier stays 0)
static double dual_limit(const lb_state *st, int row, double dir) {
  const qcp_lastbit *lb = st->lb;
  int p = st->pr->p, i = row - p;
  if (row >= p && st->s[i] != 0.0) return 0.0;
  int a = row < p ? lb->Arp[row] : lb->Grp[i], b = row < p ? lb->Arp[row + 1] : lb->Grp[i + 1];
  const int *cols = row < p ? lb->Arj : lb->Grj;
  const double *vals = row < p ? lb->Arv : lb->Grv;
  double lim = row >= p && dir < 0.0 ? st->z[i] : INFINITY;
  for (int k = a; k < b; k++)
    lim = fmin(lim, entry_limit(sc_dd_value(lb->rd[cols[k]]), vals[k], st->td, dir));
  double rhs = row < p ? st->pr->b[row] : st->pr->h[i];
  return fmin(lim, entry_limit(sc_dd_value(st->gap), rhs, st->tg, dir));
}

// the gap in units after a move, and whether it stays within max(1, now)
static int gap_ok(const lb_state *st, int var, double d, double *after) {
  int n = st->pr->n, p = st->pr->p;
  sc_dd g = st->gap;
  if (var < n)
    sc_dd_add_dd(&g, gap_change_x(st, var, d));
  else
    sc_dd_add_prod(&g, var - n < p ? st->pr->b[var - n] : st->pr->h[var - n - p], d);
  *after = units(g, st->tg);
  return *after <= fmax(1.0, units(st->gap, st->tg));
}

// the exact test of a move: no entry it touches rises above max(target, now)
static int move_ok(const lb_state *st, int var, double d) {
  double g;
  int n = st->pr->n;
  return gap_ok(st, var, d, &g) && (var < n ? x_move_ok(st, var, d) : dual_move_ok(st, var - n, d));
}

static double *component(const lb_state *st, int var) {
  int n = st->pr->n, p = st->pr->p;
  return var < n ? &st->x[var] : var - n < p ? &st->y[var - n] : &st->z[var - n - p];
}

// The exact step of a component towards want (one ulp where want is below its last bit), at most
// as far as its limit; checked exactly (the limit is first order), halved once if that fails; 0 if
// no step is possible
static double clipped_step(const lb_state *st, int var, double want) {
  if (!(fabs(want) > 0.0) || !isfinite(want)) return 0.0;
  int n = st->pr->n, p = st->pr->p;
  double dir = want > 0.0 ? 1.0 : -1.0;
  double lim = var < n ? x_limit(st, var, dir) : dual_limit(st, var - n, dir);
  if (!(lim > 0.0)) return 0.0;
  double v = *component(st, var), d = step_towards(v, dir * fmin(fabs(want), lim));
  if (var >= n + p && v + d < 0.0) d = -v;  // z stays ≥ 0
  if (d != 0.0 && !move_ok(st, var, d)) d = step_towards(v, d / 2);
  return d != 0.0 && (var < n + p || v + d >= 0.0) && move_ok(st, var, d) ? d : 0.0;
}

// ---- the three kinds of entries ------------------------------------------------------------

static void apply(lb_state *st, int var, double d) {
  if (var < st->pr->n)
    apply_x(st, var, d);
  else
    apply_dual(st, var - st->pr->n, d);
}

// the best move on an entry (value r, target t) through component var with coefficient a
typedef struct lb_move {
  int var;
  double d, after;  // the step and the entry's units after it
} lb_move;

static void consider(const lb_state *st, lb_move *best, int var, sc_dd r, double a, double t) {
  if (a == 0.0) return;
  double d = clipped_step(st, var, -sc_dd_value(r) / a);
  if (d == 0.0) return;
  double after = units_after(r, a, d, t);
  if (after < best->after) *best = (lb_move){var, d, after};
}

// the number of entries of row `row` (equalities first, then orthant rows)
static int row_length(const qcp_lastbit *lb, int p, int row) {
  return row < p ? lb->Arp[row + 1] - lb->Arp[row] : lb->Grp[row - p + 1] - lb->Grp[row - p];
}

// dual residual entry j: through x along P's column j, then the multipliers of the short rows (up
// to LASTBIT_SHORT entries) in column j; the search stops at a move that takes the entry to a
// hundredth of its target. Long rows are left to the gap's pass: a row's limit costs its length,
// and HUESTIS's two dense rows took 5.1 of its 5.4 s here with no effect on the result.
static void fix_dual(lb_state *st, int j) {
  const qcp_problem *pr = st->pr;
  const qcp_lastbit *lb = st->lb;
  int n = pr->n, p = pr->p;
  sc_dd r = lb->rd[j];
  lb_move best = {-1, 0.0, units(r, st->td)};
  for (int k = lb->Pcp[j]; k < lb->Pcp[j + 1] && best.after > LASTBIT_GOOD; k++)
    consider(st, &best, lb->Pci[k], r, lb->Pcv[k], st->td);
  for (int k = pr->G.colptr[j]; k < pr->G.colptr[j + 1] && best.after > LASTBIT_GOOD; k++)
    if (row_length(lb, p, p + pr->G.rowind[k]) <= LASTBIT_SHORT)
      consider(st, &best, n + p + pr->G.rowind[k], r, pr->G.values[k], st->td);
  int a = p > 0 ? pr->A.colptr[j] : 0, b = p > 0 ? pr->A.colptr[j + 1] : 0;
  for (int k = a; k < b && best.after > LASTBIT_GOOD; k++)
    if (row_length(lb, p, pr->A.rowind[k]) <= LASTBIT_SHORT)
      consider(st, &best, n + pr->A.rowind[k], r, pr->A.values[k], st->td);
  if (best.var >= 0) apply(st, best.var, best.d);
}

// primal residual entry `row` (equality rows first, then the orthant rows): the slack where it is
// free, else x along the row
static void fix_primal(lb_state *st, int row) {
  const qcp_problem *pr = st->pr;
  qcp_lastbit *lb = st->lb;
  int p = pr->p;
  if (row >= p) refit_slack(st, row - p);
  sc_dd r = lb->rp[row];
  if (units(r, st->tp) <= 1.0) return;
  lb_move best = {-1, 0.0, units(r, st->tp)};
  int a = row < p ? lb->Arp[row] : lb->Grp[row - p];
  int b = row < p ? lb->Arp[row + 1] : lb->Grp[row - p + 1];
  const int *cols = row < p ? lb->Arj : lb->Grj;
  const double *vals = row < p ? lb->Arv : lb->Grv;
  for (int k = a; k < b && best.after > LASTBIT_GOOD; k++)
    consider(st, &best, cols[k], r, vals[k], st->tp);
  if (best.var >= 0) apply(st, best.var, best.d);
}

// the gap through every component in turn: a multiplier's coefficient is its row's right-hand
// side, x_j's is 2(Px)_j + c_j (to first order; the move's exact change is what is judged)
static void fix_gap(lb_state *st) {
  const qcp_problem *pr = st->pr;
  int n = pr->n, p = pr->p, rows = p + pr->G.nrows;
  for (int var = 0; var < n + rows && units(st->gap, st->tg) > 1.0; var++) {
    int row = var - n;
    double a = var < n   ? 2.0 * sc_dd_value(st->lb->px[var]) + pr->c[var]
               : row < p ? pr->b[row]
                         : pr->h[row - p];
    if (a == 0.0) continue;
    double d = clipped_step(st, var, -sc_dd_value(st->gap) / a), after;
    if (d != 0.0 && gap_ok(st, var, d, &after) && after < units(st->gap, st->tg)) apply(st, var, d);
  }
}

// ---- driver ------------------------------------------------------------------------------------

// the residuals and the gap of the point, exactly (double-double)
static void measure(lb_state *st) {
  const qcp_problem *pr = st->pr;
  qcp_lastbit *lb = st->lb;
  int n = pr->n, p = pr->p, m = pr->G.nrows;
  st->gap = (sc_dd){0.0, 0.0};
  for (int j = 0; j < n; j++) {
    lb->px[j] = (sc_dd){0.0, 0.0};
    for (int k = lb->Pcp[j]; k < lb->Pcp[j + 1]; k++)
      sc_dd_add_prod(&lb->px[j], lb->Pcv[k], st->x[lb->Pci[k]]);
    lb->rd[j] = lb->px[j];
    sc_dd_add(&lb->rd[j], pr->c[j]);
    sc_dd_add_dd_prod(&st->gap, lb->rd[j], st->x[j]);
  }
  for (int i = 0; i < p; i++) lb->rp[i] = (sc_dd){-pr->b[i], 0.0};
  for (int i = 0; i < m; i++) lb->rp[p + i] = (sc_dd){-pr->h[i], 0.0};
  for (int i = 0; i < m; i++) sc_dd_add(&lb->rp[p + i], st->s[i]);
  for (int j = 0; j < n; j++) {
    for (int k = p > 0 ? pr->A.colptr[j] : 0; k < (p > 0 ? pr->A.colptr[j + 1] : 0); k++) {
      sc_dd_add_prod(&lb->rp[pr->A.rowind[k]], pr->A.values[k], st->x[j]);
      sc_dd_add_prod(&lb->rd[j], pr->A.values[k], st->y[pr->A.rowind[k]]);
    }
    for (int k = pr->G.colptr[j]; k < pr->G.colptr[j + 1]; k++) {
      sc_dd_add_prod(&lb->rp[p + pr->G.rowind[k]], pr->G.values[k], st->x[j]);
      sc_dd_add_prod(&lb->rd[j], pr->G.values[k], st->z[pr->G.rowind[k]]);
    }
  }
  for (int i = 0; i < p; i++) sc_dd_add_prod(&st->gap, pr->b[i], st->y[i]);
  for (int i = 0; i < m; i++) sc_dd_add_prod(&st->gap, pr->h[i], st->z[i]);
}

// the largest entry in units of its target (≤ 1: every entry within)
static double worst(const lb_state *st) {
  const qcp_lastbit *lb = st->lb;
  int n = st->pr->n, rows = st->pr->p + st->pr->G.nrows;
  double w = units(st->gap, st->tg);
  for (int j = 0; j < n; j++) w = fmax(w, units(lb->rd[j], st->td));
  for (int i = 0; i < rows; i++) w = fmax(w, units(lb->rp[i], st->tp));
  return w;
}

int qcp_lastbit_select(qcp_lastbit *lb, const qcp_problem *pr, double *x, double *s, double *y,
                       double *z, double tp, double td, double tg) {
  int n = pr->n, p = pr->p, m = pr->G.nrows;
  if (!(tp > 0.0 && td > 0.0 && tg > 0.0)) return 0;
  if (p > 0) by_rows(&pr->A, lb->Arp, lb->Arj, lb->Arv);
  by_rows(&pr->G, lb->Grp, lb->Grj, lb->Grv);
  full_symmetric(&pr->P, lb->Pcp, lb->Pci, lb->Pcv);
  lb_state st = {.pr = pr, .lb = lb, .x = x, .s = s, .y = y, .z = z};
  st.max_moves = 4L * (n + p + m) + 1000;
  measure(&st);
  for (int i = 0; i < m; i++) refit_slack(&st, i);
  // the smallest targets first: a move may raise other entries only up to the current target,
  // so what can be fixed with little collateral is fixed that way (HUESTIS at 1e-6: the gap
  // 5.8e-4 → 1.4e-10 cost a dual residual of 5e-7 with the final targets alone)
  static const double stage[] = {1e-3, 1e-2, 1e-1, 1.0};
  const int stages = sizeof stage / sizeof *stage;
  for (int k = 0; k < stages; k++) {
    st.tp = stage[k] * tp, st.td = stage[k] * td, st.tg = stage[k] * tg;
    double w = worst(&st);
    for (int pass = 0; pass < LASTBIT_PASSES && w > 1.0 && st.moves < st.max_moves; pass++) {
      long before = st.moves;
      for (int j = 0; j < n; j++)
        if (units(lb->rd[j], st.td) > 1.0) fix_dual(&st, j);
      for (int i = 0; i < p + m; i++)
        if (units(lb->rp[i], st.tp) > 1.0) fix_primal(&st, i);
      if (units(st.gap, st.tg) > 1.0) fix_gap(&st);
      double w_pass = worst(&st);
      // a pass that did not halve the worst entry ends an intermediate stage (QSHELL: the gap,
      // 7e8 units of the first stage's target, cannot move until the last one)
      int slow = w_pass > 0.5 * w;
      w = w_pass;
      if (st.moves == before || (slow && k + 1 < stages)) break;
    }
    if (w <= 1.0 && k + 1 == stages) return 1;
  }
  return 0;
}
