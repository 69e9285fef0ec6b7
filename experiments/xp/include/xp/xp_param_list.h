// SPDX-License-Identifier: MIT
// X-macro helpers for parameters declared once, as a list of entries X(KIND, field, key, …)
// (scenarios/pendulum.h, stack.h, …). Applied to the list they give the struct fields
// (XP_PARAM_FIELD), the xp_param_def declarations (XP_PARAM_DEF, used where xp/xp.h is included),
// the defaults as designated initialisers (XP_PARAM_VALUE), the reader (XP_PARAM_READ) and the
// case attributes (XP_PARAM_CASE) — one list, every use. The kinds and their entries:
//
//   X(REAL, field, key, default, range, unit, help)   double field [unit]
//   X(DEG, field, key, default, range, help)           double field [rad], given in degrees
//   X(INT, field, key, ctype, default, range, help)    ctype field (int, unsigned), no unit
//   X(STR, field, key, text, choices, help)            const char *field, a word (choices "a|b"
//       or NULL: any), default text; the field points into the parameters it was read from
//   X(ENUM, field, key, ctype, value, text, choices, help)
//       ctype field, one of the words in choices ("a|b"), default `value` named `text`; read by
//       ctype##_parse(const char *, ctype *) (0, or −1 if unknown)
//
// field is the C member, key the parameter's name on the command line and in results files
// (an identifier, stringified), default a number token (stringified for --help and provenance).
#ifndef XP_PARAM_LIST_H
#define XP_PARAM_LIST_H

// ---- struct fields ----------------------------------------------------------------------------
#define XP_PARAM_FIELD(kind, ...) XP_PARAM_FIELD_##kind(__VA_ARGS__)
#define XP_PARAM_FIELD_REAL(field, key, def, range, unit, help) double field;
#define XP_PARAM_FIELD_DEG(field, key, def, range, help) double field;
#define XP_PARAM_FIELD_INT(field, key, ctype, def, range, help) ctype field;
#define XP_PARAM_FIELD_STR(field, key, text, choices, help) const char *field;
#define XP_PARAM_FIELD_ENUM(field, key, ctype, value, text, choices, help) ctype field;

// ---- declarations (xp_param_def initialisers) -------------------------------------------------
#define XP_PARAM_DEF(kind, ...) XP_PARAM_DEF_##kind(__VA_ARGS__)
#define XP_PARAM_DEF_REAL(field, key, def, range, unit, help) \
  {#key, XP_REAL, #def, range, unit, NULL, help},
#define XP_PARAM_DEF_DEG(field, key, def, range, help) \
  {#key, XP_REAL, #def, range, "deg", NULL, help},
#define XP_PARAM_DEF_INT(field, key, ctype, def, range, help) \
  {#key, XP_INT, #def, range, "", NULL, help},
#define XP_PARAM_DEF_STR(field, key, text, choices, help) \
  {#key, XP_STRING, text, XP_ANY, "", choices, help},
#define XP_PARAM_DEF_ENUM(field, key, ctype, value, text, choices, help) \
  {#key, XP_STRING, text, XP_ANY, "", choices, help},

// ---- defaults (designated initialisers) -------------------------------------------------------
#define XP_PARAM_VALUE(kind, ...) XP_PARAM_VALUE_##kind(__VA_ARGS__)
#define XP_PARAM_VALUE_REAL(field, key, def, range, unit, help) .field = def,
#define XP_PARAM_VALUE_DEG(field, key, def, range, help) .field = def * M_PI / 180.0,
#define XP_PARAM_VALUE_INT(field, key, ctype, def, range, help) .field = def,
#define XP_PARAM_VALUE_STR(field, key, text, choices, help) .field = text,
#define XP_PARAM_VALUE_ENUM(field, key, ctype, value, text, choices, help) .field = value,

// ---- reader: in a function with `const xp_params *prm`, a struct pointer `out`, and (for ENUM
// entries) `xp_error *err` and an int result, which an unknown word returns as XP_ERR_USAGE ----
#define XP_PARAM_READ(kind, ...) XP_PARAM_READ_##kind(__VA_ARGS__)
#define XP_PARAM_READ_REAL(field, key, def, range, unit, help) \
  out->field = xp_params_real(prm, #key);
#define XP_PARAM_READ_DEG(field, key, def, range, help) \
  out->field = xp_params_real(prm, #key) * M_PI / 180.0;
#define XP_PARAM_READ_INT(field, key, ctype, def, range, help) \
  out->field = (ctype)xp_params_int(prm, #key);
#define XP_PARAM_READ_STR(field, key, text, choices, help) out->field = xp_params_string(prm, #key);
#define XP_PARAM_READ_ENUM(field, key, ctype, value, text, choices, help)     \
  if (ctype##_parse(xp_params_string(prm, #key), &out->field))                \
    return xp_fail(err, XP_ERR_USAGE, "parameter %s=%s: not one of %s", #key, \
                   xp_params_string(prm, #key), choices);

// ---- case attributes: in a function with `xp_case *c` and a struct pointer `p`; REAL entries
// only (the others are recorded by the run's parameters) ----------------------------------------
#define XP_PARAM_CASE(kind, ...) XP_PARAM_CASE_##kind(__VA_ARGS__)
#define XP_PARAM_CASE_REAL(field, key, def, range, unit, help) \
  xp_case_param_real(c, #key, p->field, unit);
#define XP_PARAM_CASE_DEG(field, key, def, range, help)
#define XP_PARAM_CASE_INT(field, key, ctype, def, range, help)
#define XP_PARAM_CASE_STR(field, key, text, choices, help)
#define XP_PARAM_CASE_ENUM(field, key, ctype, value, text, choices, help)

// ---- optional reader: as XP_PARAM_READ, but only the keys the parameters declare (a study that
// declares a subset of a shared list) ------------------------------------------------------------
#define XP_PARAM_READ_IF(kind, field, key, ...) \
  if (xp_params_has(prm, #key)) XP_PARAM_READ_##kind(field, key, __VA_ARGS__)

#endif
