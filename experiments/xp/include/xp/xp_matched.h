// SPDX-License-Identifier: MIT
// Matched accuracy (SPEC §8): for one method and an error target, the cheapest run whose error is
// at or below the target and stays there for every tighter setting of the method's accuracy knob.
// The one rule of every study that selects runs by accuracy.
#ifndef XP_XP_MATCHED_H
#define XP_XP_MATCHED_H

#include <stddef.h>

// One run of a method at one setting of its accuracy knob.
typedef struct xp_matched_point {
  double knob;   // step h or tolerance: smaller is tighter
  double error;  // error at T against the reference; NaN when the run gave none (it then does
                 // not meet any target)
  double cost;   // wall time [s]
} xp_matched_point;

enum {
  XP_MATCHED_NONE = -1,         // no run reaches the target for good
  XP_MATCHED_UNDECIDABLE = -2,  // the target lies below the reference's floor
};

// Index of the chosen point of p[0..n) (the runs of one method), XP_MATCHED_NONE or
// XP_MATCHED_UNDECIDABLE (target < floor; floor NaN: unknown, never undecidable).
int xp_matched_select(const xp_matched_point *p, size_t n, double target, double floor);
// The words for an outcome without a chosen run (XP_MATCHED_NONE: "not reached",
// XP_MATCHED_UNDECIDABLE: "not decidable (below the floor)"); NULL for a chosen index.
const char *xp_matched_outcome_name(int selected);

// The speed-up convention of every table: the other method's time ÷ the constraint solver's
// (> 1: the constraint solver is faster).
#define XP_SPEEDUP_HEADER \
  "speed-up = other method's time ÷ constraint solver's (> 1: constraint solver faster)"

#endif  // XP_XP_MATCHED_H
