// SPDX-License-Identifier: MIT
// Validation of user models (sizes, mass-matrix block structure, mandatory callbacks).
#include "mdl/mdl_model.h"

int mdl_model_validate(const mdl_model *m, sc_error *err) {
  if (!m) return sc_error_set(err, SC_ERR_INPUT, "model is NULL");
  if (m->nv < 1) return sc_error_set(err, SC_ERR_INPUT, "model nv = %d, must be >= 1", m->nv);
  if (m->nq < 1) return sc_error_set(err, SC_ERR_INPUT, "model nq = %d, must be >= 1", m->nq);
  if (m->max_rows < 0)
    return sc_error_set(err, SC_ERR_INPUT, "model max_rows = %d, must be >= 0", m->max_rows);
  if (m->max_nnz < 0)
    return sc_error_set(err, SC_ERR_INPUT, "model max_nnz = %d, must be >= 0", m->max_nnz);
  if (!m->mass) return sc_error_set(err, SC_ERR_INPUT, "model mass callback is NULL");
  if (!m->forces) return sc_error_set(err, SC_ERR_INPUT, "model forces callback is NULL");
  if (m->max_rows > 0 && !m->rows)
    return sc_error_set(err, SC_ERR_INPUT, "model rows callback is NULL but max_rows = %d",
                        m->max_rows);
  if (!m->velocity_map && m->nq != m->nv)
    return sc_error_set(err, SC_ERR_INPUT,
                        "model velocity_map is NULL (N = I) but nq = %d != nv = %d", m->nq, m->nv);
  if (m->nblocks < 0)
    return sc_error_set(err, SC_ERR_INPUT, "model nblocks = %d, must be >= 0", m->nblocks);
  if (m->nblocks > 0) {
    if (!m->block_size)
      return sc_error_set(err, SC_ERR_INPUT, "model block_size is NULL with nblocks > 0");
    long sum = 0;
    for (int b = 0; b < m->nblocks; b++) {
      if (m->block_size[b] < 1)
        return sc_error_set(err, SC_ERR_INPUT, "model block_size[%d] = %d, must be >= 1", b,
                            m->block_size[b]);
      sum += m->block_size[b];
    }
    if (sum != m->nv)
      return sc_error_set(err, SC_ERR_INPUT, "model mass blocks sum to %ld, must equal nv = %d",
                          sum, m->nv);
  }
  return 0;
}

size_t mdl_model_mass_entries(const mdl_model *m) {
  if (m->nblocks == 0) return (size_t)m->nv * (size_t)m->nv;
  size_t s = 0;
  for (int b = 0; b < m->nblocks; b++) s += (size_t)m->block_size[b] * (size_t)m->block_size[b];
  return s;
}
