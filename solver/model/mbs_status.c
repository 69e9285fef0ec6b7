// SPDX-License-Identifier: MIT
// The common step statuses: names, severities, callback-code mapping.
#include "mbs/mbs_status.h"

#include <stddef.h>

int mbs_common_status_is(int code) { return mbs_common_status_name(code) != NULL; }

const char *mbs_common_status_name(int code) {
  switch (code) {
#define MBS_CASE(suffix, value, str, severity) \
  case value:                                  \
    return str;
    MBS_COMMON_STATUS_LIST(MBS_CASE)
#undef MBS_CASE
    default:
      return NULL;
  }
}

int mbs_common_status_severity(int code) {
  switch (code) {
#define MBS_CASE(suffix, value, str, severity) \
  case value:                                  \
    return severity;
    MBS_COMMON_STATUS_LIST(MBS_CASE)
#undef MBS_CASE
    default:
      return -1;
  }
}

mbs_eval_status mbs_callback_status(const char *name, int code, const char **name_out,
                                    int *code_out) {
  if (name_out) *name_out = name;
  if (code_out) *code_out = code;
  return code > 0 ? MBS_EVAL_CALLBACK_RECOVERABLE : MBS_EVAL_CALLBACK_FATAL;
}
