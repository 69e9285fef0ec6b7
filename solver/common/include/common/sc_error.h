// SPDX-License-Identifier: MIT
// sc_error — the one error convention of the stabcon libraries: a code and a message naming the
// bad value and its limit (STYLE.md "Errors"). Bottom of the dependency graph; no dependencies.
#ifndef COMMON_SC_ERROR_H
#define COMMON_SC_ERROR_H

// Error codes of every library (solver, reference, experiments): 0 ok, < 0 an error (bad input
// or a failure the caller cannot continue after). The command line turns them into exit codes in
// one place (2: bad input — INPUT, SETTINGS, START; 1: any other failure).
#define SC_ERROR_CODE_LIST(X)                                                                   \
  X(SC_OK, 0, "ok")                                                                             \
  X(SC_ERR_INPUT, -1, "bad-input")          /* a value out of range, bad data or arguments */   \
  X(SC_ERR_MEMORY, -2, "out-of-memory")     /* an allocation failed */                          \
  X(SC_ERR_IO, -3, "io")                    /* a file could not be read or written */           \
  X(SC_ERR_SOLVER, -4, "solver")            /* a third-party solver failed (flag in message) */ \
  X(SC_ERR_SETTINGS, -5, "bad-settings")    /* a setting out of range */                        \
  X(SC_ERR_ORDERING, -6, "ordering-failed") /* the fill-reducing ordering failed */             \
  X(SC_ERR_START, -7, "bad-start")          /* a starting point that is not admissible */       \
  X(SC_ERR_RUN, -8, "run-failed")           /* a run could not complete (files, memory, …) */

#define SC_ENUM_ITEM(name, value, str) name = value,
// Code of an sc_error.
typedef enum sc_error_code { SC_ERROR_CODE_LIST(SC_ENUM_ITEM) } sc_error_code;
#undef SC_ENUM_ITEM

// An error: code (0 when none) and a NUL-terminated message ("" when none). Caller-owned.
typedef struct sc_error {
  int code;
  char message[512];
} sc_error;

#if defined(__GNUC__) || defined(__clang__)
#define SC_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define SC_PRINTF(fmt_index, first_arg)
#endif

// Sets err->code = code and the message from the printf format (truncated to fit); err may be
// NULL (then nothing is written). Returns code, so `return sc_error_set(err, SC_ERR_INPUT, …);`.
int sc_error_set(sc_error *err, int code, const char *fmt, ...) SC_PRINTF(3, 4);

// Clears err (code 0, empty message); NULL is a no-op.
void sc_error_clear(sc_error *err);

// Static lowercase name of an error code ("ok", "bad-input", …); "unknown" for other values.
const char *sc_error_code_name(int code);

// 1 if code is bad input (INPUT, SETTINGS, START): the caller's data, not a failure to run.
static inline int sc_error_is_input(int code) {
  return code == SC_ERR_INPUT || code == SC_ERR_SETTINGS || code == SC_ERR_START;
}

#endif  // COMMON_SC_ERROR_H
