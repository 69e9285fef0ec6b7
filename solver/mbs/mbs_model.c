// SPDX-License-Identifier: MIT
// Validation of user models (sizes, mass-matrix block structure, mandatory callbacks).
#include "mbs/mbs_model.h"

#include <stdarg.h>
#include <stdio.h>

static int model_fail(char *msg, size_t len, const char *fmt, ...) {
  if (msg && len > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, len, fmt, ap);
    va_end(ap);
  }
  return -1;
}

int mbs_model_validate(const mbs_model *m, char *msg, size_t len) {
  if (!m) return model_fail(msg, len, "model is NULL");
  if (m->nv < 1) return model_fail(msg, len, "model nv = %d, must be >= 1", m->nv);
  if (m->nq < 1) return model_fail(msg, len, "model nq = %d, must be >= 1", m->nq);
  if (m->max_rows < 0) return model_fail(msg, len, "model max_rows = %d, must be >= 0", m->max_rows);
  if (m->max_nnz < 0) return model_fail(msg, len, "model max_nnz = %d, must be >= 0", m->max_nnz);
  if (!m->mass) return model_fail(msg, len, "model mass callback is NULL");
  if (!m->forces) return model_fail(msg, len, "model forces callback is NULL");
  if (m->max_rows > 0 && !m->rows)
    return model_fail(msg, len, "model rows callback is NULL but max_rows = %d", m->max_rows);
  if (!m->velocity_map && m->nq != m->nv)
    return model_fail(msg, len, "model velocity_map is NULL (N = I) but nq = %d != nv = %d", m->nq,
                      m->nv);
  if (m->nblocks < 0) return model_fail(msg, len, "model nblocks = %d, must be >= 0", m->nblocks);
  if (m->nblocks > 0) {
    if (!m->block_size) return model_fail(msg, len, "model block_size is NULL with nblocks > 0");
    long sum = 0;
    for (int b = 0; b < m->nblocks; b++) {
      if (m->block_size[b] < 1)
        return model_fail(msg, len, "model block_size[%d] = %d, must be >= 1", b, m->block_size[b]);
      sum += m->block_size[b];
    }
    if (sum != m->nv)
      return model_fail(msg, len, "model mass blocks sum to %ld, must equal nv = %d", sum, m->nv);
  }
  return 0;
}

size_t mbs_model_mass_entries(const mbs_model *m) {
  if (m->nblocks == 0) return (size_t)m->nv * (size_t)m->nv;
  size_t s = 0;
  for (int b = 0; b < m->nblocks; b++) s += (size_t)m->block_size[b] * (size_t)m->block_size[b];
  return s;
}
