// SPDX-License-Identifier: MIT
// The method settings (sim.h, SIM_OPTION_LIST): their defaults, the check that a struct came
// from them, and the reader of a run's parameters. Every method's create and the simulate loop
// call into this file, and it calls none of them.
#include <assert.h>

#include "sim/sim.h"

sim_method_options sim_method_options_default(void) {
  return (sim_method_options){.h = 0.01,
                              SIM_OPTION_LIST(XP_PARAM_VALUE).cookie = SIM_OPTIONS_COOKIE};
}

int sim_method_options_check(const sim_method_options *opt, xp_error *err) {
  assert(opt->cookie == SIM_OPTIONS_COOKIE && "method settings not from their defaults function");
  if (opt->cookie == SIM_OPTIONS_COOKIE) return XP_OK;
  return xp_fail(err, XP_ERR_RUN,
                 "method settings not made by sim_method_options_default (a zero-filled struct "
                 "leaves its settings at 0, not at their defaults)");
}

void sim_method_options_read(const xp_params *prm, sim_method_options *out) {
  SIM_OPTION_LIST(XP_PARAM_READ_IF)
}
