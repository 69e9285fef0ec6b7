// SPDX-License-Identifier: MIT
// The matched-accuracy rule (SPEC §8).
#include "xp/xp_matched.h"

#include <math.h>

int xp_matched_select(const xp_matched_point *p, size_t n, double target, double floor) {
  if (target < floor) return XP_MATCHED_UNDECIDABLE;
  int best = XP_MATCHED_NONE;
  for (size_t i = 0; i < n; i++) {
    // the accuracy is reached and stays reached: a loose setting that lands near the reference
    // by chance does not count
    int holds = p[i].error <= target;
    for (size_t j = 0; holds && j < n; j++)
      if (p[j].knob < p[i].knob && !(p[j].error <= target)) holds = 0;
    if (holds && (best < 0 || p[i].cost < p[best].cost)) best = (int)i;
  }
  return best;
}

const char *xp_matched_outcome_name(int selected) {
  if (selected == XP_MATCHED_UNDECIDABLE) return "not decidable (below the floor)";
  if (selected == XP_MATCHED_NONE) return "not reached";
  return NULL;
}
