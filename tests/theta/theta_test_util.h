// SPDX-License-Identifier: MIT
// Helpers shared by the theta tests: order fits, order tables, a spring–cylinder run.
#ifndef THETA_TEST_UTIL_H
#define THETA_TEST_UTIL_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "xp/xp_common.h"

#include "scenarios/spring_cylinder.h"
#include "theta/theta.h"

// Least-squares slope of log(e) against log(h) over n points (the observed order, the harness's
// one fit); NaN unless every point counts (each error finite and > 0), so a test cannot pass on
// a subset.
static inline double fit_order(const double *h, const double *e, size_t n) {
  size_t used = 0;
  const double order = xp_loglog_slope(h, e, n, &used);
  return used == n ? order : NAN;
}

// Prints the `δt | e_q | observed order` table (order between consecutive rows) and the fit.
static inline void print_order_table(const char *title, const double *h, const double *e, size_t n,
                                     double fitted) {
  printf("%s\n%12s | %12s | %s\n", title, "dt [s]", "e_q [m]", "observed order");
  for (size_t i = 0; i < n; i++) {
    if (i == 0)
      printf("%12.4e | %12.4e | %s\n", h[i], e[i], "-");
    else
      printf("%12.4e | %12.4e | %.3f\n", h[i], e[i], log(e[i] / e[i - 1]) / log(h[i] / h[i - 1]));
  }
  printf("fitted order (least squares over all rows): %.3f\n\n", fitted);
  fflush(stdout);
}

// Measurements of one spring–cylinder run against the closed form.
typedef struct cyl_run {
  theta_status status;  // first non-ok status (THETA_OK if none)
  size_t steps;
  double eq;  // √((1/T)∫(x − x_exact)² dt) by the trapezoidal rule on the steps [m]
  double e0, emin, emax;  // oscillator energy ½mẋ² + ½Iθ̇² + ½k_s x²: initial, min, max [J]
  double max_rise;        // largest energy increase over one step, relative to e0
  double max_slip;        // max |ẋ − Rθ̇| over the run [m/s]
  double gamma_n_last;    // normal impulse of the last step [N·s]
  double max_contact_iter;  // most contact Newton iterations in one step
} cyl_run;

// Runs scheme on the scenario p for T [s] with step dt from spring_cylinder_initial_state, with
// the tangential regularisation σ (paper B default 1e-3).
static inline cyl_run cyl_simulate_sigma(theta_scheme scheme, const spring_cylinder_params *p,
                                         double dt, double T, double sigma) {
  cyl_run out = {.status = THETA_OK};
  spring_cylinder sc;
  spring_cylinder_init(&sc, p);
  theta_settings s = theta_settings_default();
  theta_settings_set_scheme(&s, scheme);
  s.contact.sigma = sigma;
  sc_error serr = {0};
  const char *msg = serr.message;
  theta_workspace *ws = theta_workspace_create(&sc.model, &s, &serr);
  if (!ws) {
    printf("workspace: %s\n", msg);
    out.status = THETA_CALLBACK_FATAL;
    return out;
  }
  double q[3], v[3];
  spring_cylinder_initial_state(&sc, q, v);
  const size_t n = (size_t)llround(T / dt);
  out.steps = n;
  out.e0 = out.emin = out.emax = spring_cylinder_energy(&sc, q, v);
  double err_prev = q[0] - spring_cylinder_exact_x(p, 0), integral = 0, e_prev = out.e0;
  for (size_t i = 1; i <= n; i++) {
    theta_status st = theta_step(ws, (double)(i - 1) * dt, dt, q, v, q, v);
    if (st != THETA_OK) {
      out.status = st;
      break;
    }
    const double t = (double)i * dt, err = q[0] - spring_cylinder_exact_x(p, t);
    integral += 0.5 * dt * (err * err + err_prev * err_prev);
    err_prev = err;
    const double e = spring_cylinder_energy(&sc, q, v);
    out.emin = fmin(out.emin, e), out.emax = fmax(out.emax, e);
    out.max_rise = fmax(out.max_rise, (e - e_prev) / out.e0);
    e_prev = e;
    out.max_slip = fmax(out.max_slip, fabs(spring_cylinder_slip(&sc, v)));
    const theta_info *info = theta_step_info(ws);
    out.max_contact_iter = fmax(out.max_contact_iter, info->contact.iterations);
    const mdl_rows *rows = theta_step_rows(ws);
    for (int r = 0; r < rows->n; r++)
      if (rows->kind[r] == MDL_ROW_NORMAL || rows->kind[r] == MDL_ROW_UNILATERAL)
        out.gamma_n_last = theta_step_gamma(ws)[r];
  }
  out.eq = out.status == THETA_OK ? sqrt(integral / T) : NAN;
  theta_workspace_free(ws);
  return out;
}

// cyl_simulate_sigma with paper B's σ = 1e-3.
static inline cyl_run cyl_simulate(theta_scheme scheme, const spring_cylinder_params *p, double dt,
                                   double T) {
  return cyl_simulate_sigma(scheme, p, dt, T, 1e-3);
}

#endif  // THETA_TEST_UTIL_H
