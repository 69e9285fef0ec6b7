// SPDX-License-Identifier: MIT
// The common step statuses: names, severities, callback-code mapping.
#include "mdl/mdl_status.h"

#include <stddef.h>

int mdl_common_status_is(int code) { return mdl_common_status_name(code) != NULL; }

const char *mdl_common_status_name(int code) {
  switch (code) {
#define MDL_CASE(suffix, value, str, severity) \
  case value:                                  \
    return str;
    MDL_COMMON_STATUS_LIST(MDL_CASE)
#undef MDL_CASE
    default:
      return NULL;
  }
}

int mdl_common_status_severity(int code) {
  switch (code) {
#define MDL_CASE(suffix, value, str, severity) \
  case value:                                  \
    return severity;
    MDL_COMMON_STATUS_LIST(MDL_CASE)
#undef MDL_CASE
    default:
      return -1;
  }
}

mdl_eval_status mdl_callback_status(const char *name, int code, const char **name_out,
                                    int *code_out) {
  if (name_out) *name_out = name;
  if (code_out) *code_out = code;
  return code > 0 ? MDL_EVAL_CALLBACK_RECOVERABLE : MDL_EVAL_CALLBACK_FATAL;
}
