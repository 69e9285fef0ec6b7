// SPDX-License-Identifier: MIT
// The common error type: code + formatted message.
#include "common/sc_error.h"

#include <stdarg.h>
#include <stdio.h>

int sc_error_set(sc_error *err, int code, const char *fmt, ...) {
  if (!err) return code;
  err->code = code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return code;
}

void sc_error_clear(sc_error *err) {
  if (!err) return;
  err->code = SC_OK;
  err->message[0] = '\0';
}

const char *sc_error_code_name(int code) {
  switch (code) {
#define SC_CASE(name, value, str) \
  case value:                     \
    return str;
    SC_ERROR_CODE_LIST(SC_CASE)
#undef SC_CASE
    default:
      return "unknown";
  }
}
