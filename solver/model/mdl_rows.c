// SPDX-License-Identifier: MIT
// Constraint-row sets: CSR storage of φ, G, Ġv, K, B per row, filled by model callbacks.
#include <stddef.h>
#include <stdlib.h>

#include "mdl/mdl_model.h"

static const char *const row_kind_names[] = {
#define MDL_NAME(id, str) str,
    MDL_ROW_KIND_LIST(MDL_NAME)
#undef MDL_NAME
};

const char *mdl_row_kind_name(mdl_row_kind kind) {
  if ((int)kind < 0 || kind >= MDL_ROW_KIND_COUNT) return "invalid";
  return row_kind_names[kind];
}

void mdl_rows_clear(mdl_rows *rows) {
  rows->n = 0;
  rows->start[0] = 0;
  rows->overflow = 0;
}

int mdl_rows_add(mdl_rows *rows, mdl_row_kind kind, double phi, double gdot_v, double K, double B,
                 int nnz, const int *col, const double *val) {
  int i = rows->n;
  if (i >= rows->capacity || nnz < 0 || rows->start[i] + nnz > rows->nnz_capacity) {
    rows->overflow = 1;
    return -1;
  }
  rows->kind[i] = kind;
  rows->phi[i] = phi;
  rows->gdot_v[i] = gdot_v;
  rows->K[i] = K;
  rows->B[i] = B;
  rows->mu[i] = 0;
  rows->contact[i] = -1;
  int s = rows->start[i];
  for (int k = 0; k < nnz; k++) {
    rows->col[s + k] = col[k];
    rows->val[s + k] = val[k];
  }
  rows->start[i + 1] = s + nnz;
  rows->n = i + 1;
  return i;
}

int mdl_rows_set_contact(mdl_rows *rows, int i, int contact, double mu) {
  if (i < 0 || i >= rows->n) return -1;
  rows->contact[i] = contact;
  rows->mu[i] = mu;
  return 0;
}

int mdl_rows_is_gap(const mdl_rows *rows, int i) {
  return (rows->kind[i] == MDL_ROW_UNILATERAL || rows->kind[i] == MDL_ROW_NORMAL) &&
         rows->start[i + 1] > rows->start[i];
}

mdl_rows *mdl_rows_create(int capacity, int nnz_capacity) {
  if (capacity < 0 || nnz_capacity < 0) return NULL;
  mdl_rows *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  size_t c = (size_t)capacity + 1, z = (size_t)nnz_capacity + 1;
  r->capacity = capacity;
  r->nnz_capacity = nnz_capacity;
  r->kind = calloc(c, sizeof *r->kind);
  r->phi = calloc(c, sizeof *r->phi);
  r->gdot_v = calloc(c, sizeof *r->gdot_v);
  r->K = calloc(c, sizeof *r->K);
  r->B = calloc(c, sizeof *r->B);
  r->mu = calloc(c, sizeof *r->mu);
  r->contact = calloc(c, sizeof *r->contact);
  r->start = calloc(c, sizeof *r->start);
  r->col = calloc(z, sizeof *r->col);
  r->val = calloc(z, sizeof *r->val);
  if (!r->kind || !r->phi || !r->gdot_v || !r->K || !r->B || !r->mu || !r->contact || !r->start ||
      !r->col || !r->val) {
    mdl_rows_free(r);
    return NULL;
  }
  return r;
}

void mdl_rows_free(mdl_rows *r) {
  if (!r) return;
  free(r->kind);
  free(r->phi);
  free(r->gdot_v);
  free(r->K);
  free(r->B);
  free(r->mu);
  free(r->contact);
  free(r->start);
  free(r->col);
  free(r->val);
  free(r);
}

mdl_eval_status mdl_rows_evaluate(const mdl_model *m, double t, const double *q, const double *v,
                                  mdl_rows *rows, const char **callback, int *callback_code) {
  mdl_rows_clear(rows);
  int code = m->rows ? m->rows(t, q, v, rows, m->ctx) : 0;
  // a row that did not fit is a capacity problem, whatever code the callback returned for it
  if (rows->overflow) return MDL_EVAL_CAPACITY;
  if (code) return mdl_callback_status("rows", code, callback, callback_code);
  return MDL_EVAL_OK;
}
