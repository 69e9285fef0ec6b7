// SPDX-License-Identifier: MIT
// Names of reference-integration statuses.
#include "ref/ref_stats.h"

static const char *const status_names[] = {
#define REF_NAME(id, str) str,
    REF_STATUS_LIST(REF_NAME)
#undef REF_NAME
};

const char *ref_status_name(ref_status s) {
  if ((int)s < 0 || s >= REF_STATUS_COUNT) return "invalid";
  return status_names[s];
}
