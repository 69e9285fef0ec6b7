// SPDX-License-Identifier: MIT
// Blocked dense LDLᵀ with the sparse factor's dynamic regularisation, for the dense trailing
// block of L (qcp_ldl_factor_tail).
//
// Derivation. Partition the symmetric S = [S₁₁ S₂₁ᵀ; S₂₁ S₂₂] with S₁₁ a panel of b columns.
// Then L₁₁ D₁ L₁₁ᵀ = S₁₁, L₂₁ = S₂₁ L₁₁⁻ᵀ D₁⁻¹, and the rest is the LDLᵀ of the Schur complement
// S₂₂ − L₂₁ D₁ L₂₁ᵀ (right-looking). The panel [S₁₁; S₂₁] is factored column by column
// (left-looking inside the panel: column c takes the updates of the panel's columns < c, then
// is divided by its pivot), which yields L₁₁ and L₂₁ at once. The Schur update carries almost all
// of the n³/3 multiply-adds: it runs on packed copies of L₂₁ and W = L₂₁ D₁ in 4-row tiles
// (Goto's scheme: a 4×4 block of S₂₂ is held in registers while the b-long inner products run
// over contiguous memory), cache-blocked by rows so that a strip of L₂₁ stays in cache.
// Pivots follow the sparse factor: sign·d < eps → sign·delta (qcp_ldl.c).
#include <math.h>

#include "qcp_internal.h"

enum { PANEL = 64, TILE = 4, STRIP = 64 /* tiles per row strip */ };

// factor columns c0 … c0+b−1 of S (lower, column-major, ld), all rows ≥ c0; D, Dinv get the
// pivots. Returns the number of regularised pivots, −1 on a non-finite one.
static int factor_panel(int n, int c0, int b, double *S, int ld, double *D, double *Dinv,
                        const signed char *sign, double eps, double delta) {
  int nreg = 0;
  for (int c = c0; c < c0 + b; c++) {
    double *sc = S + (size_t)c * ld;
    for (int k = c0; k < c; k++) {
      const double *sk = S + (size_t)k * ld;
      const double w = sk[c] * D[k];
      if (w != 0.0)
        for (int i = c; i < n; i++) sc[i] -= sk[i] * w;
    }
    double d = sc[c];
    if (!isfinite(d)) return -1;
    d = qcp_ldl_pivot(d, sign[c], eps, delta, &nreg);
    D[c] = d;
    Dinv[c] = 1.0 / d;
    for (int i = c + 1; i < n; i++) sc[i] *= Dinv[c];
  }
  return nreg;
}

// the m×b panel P (column-major, ldp) in tiles of TILE rows, each tile b×TILE (k-major), the
// last tile padded with zeros; each column scaled by d[k] when d is given
static void pack_panel(int m, int b, const double *P, int ldp, const double *d, double *out) {
  const int ntile = (m + TILE - 1) / TILE;
  for (int t = 0; t < ntile; t++) {
    double *o = out + (size_t)t * b * TILE;
    for (int k = 0; k < b; k++) {
      const double *pk = P + (size_t)k * ldp;
      const double dk = d ? d[k] : 1.0;
      for (int r = 0; r < TILE; r++) {
        const int a = t * TILE + r;
        o[k * TILE + r] = a < m ? pk[a] * dk : 0.0;
      }
    }
  }
}

// acc = Σ_k a(:,k) w(:,k)ᵀ for one TILE×TILE block (a, w packed k-major)
static void tile_kernel(int b, const double *restrict a, const double *restrict w,
                        double acc[TILE][TILE]) {
  double c[TILE][TILE] = {{0}};
  for (int k = 0; k < b; k++)
    for (int q = 0; q < TILE; q++)
      for (int r = 0; r < TILE; r++) c[q][r] += a[k * TILE + r] * w[k * TILE + q];
  for (int q = 0; q < TILE; q++)
    for (int r = 0; r < TILE; r++) acc[q][r] = c[q][r];
}

void qcp_dense_update(int m, int b, const double *P, int ldp, const double *d, const int *idx,
                      int r0, double *S, int ld, double *work) {
  const int ntile = (m + TILE - 1) / TILE;
  const size_t size = (size_t)ntile * b * TILE;
  const double *Ppk = work, *Wpk = work + size;
  pack_panel(m, b, P, ldp, NULL, work);
  pack_panel(m, b, P, ldp, d, work + size);
  double acc[TILE][TILE];
  // strips of STRIP row tiles: a strip of the packed panel stays in cache while W streams by
  for (int s0 = 0; s0 < ntile; s0 += STRIP) {
    const int s1 = s0 + STRIP < ntile ? s0 + STRIP : ntile;
    for (int ct = 0; ct < s1; ct++) {
      const double *w = Wpk + (size_t)ct * b * TILE;
      for (int rt = ct > s0 ? ct : s0; rt < s1; rt++) {
        tile_kernel(b, Ppk + (size_t)rt * b * TILE, w, acc);
        for (int q = 0; q < TILE; q++) {
          const int cb = ct * TILE + q;
          if (cb >= m) break;
          double *sc = S + (size_t)(idx ? idx[cb] : r0 + cb) * ld;
          for (int r = 0; r < TILE; r++) {
            const int a = rt * TILE + r;
            if (a >= cb && a < m) sc[idx ? idx[a] : r0 + a] -= acc[q][r];
          }
        }
      }
    }
  }
}

int qcp_dense_ldl(int n, double *S, int ld, double *D, double *Dinv, const signed char *sign,
                  double eps, double delta, double *work) {
  int nreg = 0;
  for (int c0 = 0; c0 < n; c0 += PANEL) {
    const int b = c0 + PANEL < n ? PANEL : n - c0;
    const int r = factor_panel(n, c0, b, S, ld, D, Dinv, sign, eps, delta);
    if (r < 0) return -1;
    nreg += r;
    const int r0 = c0 + b;
    if (r0 < n)
      qcp_dense_update(n - r0, b, S + (size_t)c0 * ld + r0, ld, D + c0, NULL, r0, S, ld, work);
  }
  return nreg;
}

size_t qcp_dense_work(int m, int b) {
  return 2 * (size_t)((m + TILE - 1) / TILE) * TILE * (size_t)b;
}

size_t qcp_dense_ldl_work(int n) { return qcp_dense_work(n, PANEL); }
