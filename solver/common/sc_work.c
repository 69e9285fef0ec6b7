// SPDX-License-Identifier: MIT
#include "common/sc_work.h"

_Thread_local double sc_work_flops = 0;
_Thread_local double sc_work_factorizations = 0;
