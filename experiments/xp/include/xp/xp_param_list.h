// SPDX-License-Identifier: MIT
// X-macro helpers for a scenario whose real parameters are declared once as a list
// X(name, default, range, unit, help) (scenarios/pendulum.h, rom_pendulum.h): applied to the
// list they give the struct fields, the xp_param_def declarations (used where xp/xp.h is
// included), the defaults as designated initialisers and nothing else — one list, every use.
#ifndef XP_PARAM_LIST_H
#define XP_PARAM_LIST_H

#define XP_REAL_PARAM_FIELD(name, def, range, unit, help) double name;  // [unit]
#define XP_REAL_PARAM_DEF(name, def, range, unit, help) \
  {#name, XP_REAL, #def, range, unit, NULL, help},
#define XP_REAL_PARAM_VALUE(name, def, range, unit, help) .name = def,

#endif
