// SPDX-License-Identifier: MIT
// Exact pendulum by Jacobi elliptic functions (reference for paper A §4.4).
//
// I_p α̈ + m g l sin α = 0 from rest at α0: energy gives α̇² = 2ω0²(cos α − cos α0). With
// sin(α/2) = k s, k = sin(α0/2), this becomes ṡ² = ω0²(1 − s²)(1 − k² s²), solved by
// s = sn(K(k) − ω0 t | m = k²) (s = 1 at t = 0). Differentiating, ½cos(α/2) α̇ = −k ω0 cn dn and
// cos(α/2) = dn, so α̇ = −2 k ω0 cn. GSL: gsl_sf_elljac_e takes the parameter m = k²,
// gsl_sf_ellint_Kcomp the modulus k.
#include "ref/ref_pendulum.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_ellint.h>
#include <gsl/gsl_sf_elljac.h>
#include <math.h>

int ref_pendulum_exact(double omega0, double alpha0, double t, double *alpha, double *alpha_dot) {
  gsl_set_error_handler_off();
  *alpha = *alpha_dot = NAN;
  if (!(omega0 > 0) || !(alpha0 > 0) || !(alpha0 < 3.14159265358979323846) || !isfinite(t))
    return GSL_EDOM;
  const double k = sin(alpha0 / 2);
  gsl_sf_result K;
  int rc = gsl_sf_ellint_Kcomp_e(k, GSL_PREC_DOUBLE, &K);
  if (rc != GSL_SUCCESS) return rc;
  double sn, cn, dn;
  rc = gsl_sf_elljac_e(K.val - omega0 * t, k * k, &sn, &cn, &dn);
  if (rc != GSL_SUCCESS) return rc;
  *alpha = 2 * asin(k * sn);
  *alpha_dot = -2 * k * omega0 * cn;
  return GSL_SUCCESS;
}

double ref_pendulum_quarter_period(double omega0, double alpha0) {
  gsl_set_error_handler_off();
  gsl_sf_result K;
  if (!(omega0 > 0) || gsl_sf_ellint_Kcomp_e(sin(alpha0 / 2), GSL_PREC_DOUBLE, &K) != GSL_SUCCESS)
    return NAN;
  return K.val / omega0;
}
