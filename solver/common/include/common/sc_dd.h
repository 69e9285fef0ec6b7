// SPDX-License-Identifier: MIT
// sc_dd — sums of products of doubles in double-double arithmetic (an unevaluated sum hi + lo,
// about 106 bits): a product a·b is split exactly into p + e with one fma (Ogita, Rump & Oishi,
// "Accurate sum and dot product", SIAM J. Sci. Comput. 26 (2005), TwoProduct), a sum exactly
// with Knuth's TwoSum, and every rounding error is collected in lo. The accumulated value is then
// correct to about 2⁻¹⁰⁶ of the largest partial sum, where long double's 64-bit mantissa leaves
// 2⁻⁶⁴ per operation: summing 10⁴ terms of an objective of 3.5e11 (HUESTIS) in long double is off
// by ~1e-6 in the sum, in double-double by ~1e-20. Header-only; needs <math.h>'s fma (glibc
// dispatches it to the hardware instruction where there is one).
#ifndef COMMON_SC_DD_H
#define COMMON_SC_DD_H

#include <math.h>

typedef struct sc_dd {
  double hi, lo;
} sc_dd;

// s += v (Knuth's TwoSum: the rounding error of hi + v is exact and goes to lo)
static inline void sc_dd_add(sc_dd *s, double v) {
  double t = s->hi + v, bv = t - s->hi, e = (s->hi - (t - bv)) + (v - bv);
  s->hi = t;
  s->lo += e;
}

// s += a·b (the product's rounding error from one fma)
static inline void sc_dd_add_prod(sc_dd *s, double a, double b) {
  double p = a * b;
  sc_dd_add(s, p);
  s->lo += fma(a, b, -p);
}

// s += v·b for a double-double v (v.lo·b is far below the sum's last bit: plain product)
static inline void sc_dd_add_dd_prod(sc_dd *s, sc_dd v, double b) {
  sc_dd_add_prod(s, v.hi, b);
  s->lo += v.lo * b;
}

// s += v
static inline void sc_dd_add_dd(sc_dd *s, sc_dd v) {
  sc_dd_add(s, v.hi);
  s->lo += v.lo;
}

// the value rounded to double (NaN or ±inf when an infinite term was added: hi carries it)
static inline double sc_dd_value(sc_dd s) { return isfinite(s.hi) ? s.hi + s.lo : s.hi; }

#endif  // COMMON_SC_DD_H
