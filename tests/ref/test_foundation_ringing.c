// SPDX-License-Identifier: MIT
// draft
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbs/mbs.h"
#include "ref/ref_ode.h"
#include "ref/ref_penalty.h"
#include "ref/ref_winkler.h"
#include "scenarios/foundation.h"

ref_winkler winkler_of(const foundation *fd);
ref_winkler winkler_of(const foundation *fd) {
  const foundation_params *p = &fd->p;
  return (ref_winkler){.mass = fd->mass, .side = p->side, .k_total = p->E * p->side * p->side / p->depth,
                       .B = p->B, .g = p->g, .load = p->load, .omega_load = p->omega, .n = p->n};
}

int main(int argc, char **argv) {
  foundation_params fp = foundation_params_default();
  fp.load = argc > 1 ? atof(argv[1]) : 5;
  fp.B = argc > 2 ? atof(argv[2]) : 1;
  foundation fd;
  foundation_init(&fd, &fp);
  double y0[13], y[13];
  foundation_initial_state(&fd, y0, y0 + 7);
  ref_penalty pen;
  sc_error serr = {0};
  mbs_eval_settings es = mbs_eval_settings_default();
  es.use_bias = 0;
  ref_penalty_init(&pen, &fd.model, &es, &serr);
  ref_ode_settings rs = ref_ode_settings_default();
  rs.rtol = rs.atol = 1e-11;
  double T = 1;
  ref_stats st;
  ref_ode_integrate(&pen.ode, REF_RK45, &rs, 0, y0, &T, 1, y, &st);
  printf("F=%g B=%g q: %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", fp.load, fp.B, y[0], y[1], y[2], y[3], y[4], y[5], y[6]);
  ref_penalty_free(&pen);
  return 0;
}
