// SPDX-License-Identifier: MIT
// mdl — the model API (model layer): a multibody model is a struct of callbacks with a context
// pointer (SPEC §1.1).
#ifndef MDL_MDL_MODEL_H
#define MDL_MDL_MODEL_H

#include <stddef.h>

#include "common/sc_error.h"
#include "mdl/mdl_status.h"

// Kinds of constraint rows (SPEC §1.1). Unilateral and contact-normal rows take part in a step
// only while φ ≤ 0; bilateral rows always do.
#define MDL_ROW_KIND_LIST(X)                                              \
  X(MDL_ROW_BILATERAL, "bilateral")   /* φ = 0 as a spring-damper */     \
  X(MDL_ROW_UNILATERAL, "unilateral") /* λ ≥ 0, pushes only */         \
  X(MDL_ROW_NORMAL, "normal")         /* contact normal, owns tangents */ \
  X(MDL_ROW_TANGENT, "tangent")       /* contact tangent (r or s) */

#define MDL_ENUM_ITEM(name, str) name,
// Kind of one constraint row.
typedef enum mdl_row_kind { MDL_ROW_KIND_LIST(MDL_ENUM_ITEM) MDL_ROW_KIND_COUNT } mdl_row_kind;
#undef MDL_ENUM_ITEM

// Returns the static lowercase name of a row kind ("bilateral", …); "invalid" if out of range.
const char *mdl_row_kind_name(mdl_row_kind kind);

// Constraint rows evaluated at (t, q, v), filled by the model's `rows` callback into arrays that
// the caller (the step workspace or a reference integrator) owns; row i's sparse Jacobian row G_i
// (1×nv) is col/val[start[i] .. start[i+1]). Units are the model's: φ in m (or rad), force λ in N
// (or N·m), K in N/m, B in N·s/m.
typedef struct mdl_rows {
  int capacity;        // rows the arrays can hold (= mdl_model.max_rows)
  int nnz_capacity;    // Jacobian entries col/val can hold (= mdl_model.max_nnz)
  int n;               // rows filled (0 ≤ n ≤ capacity)
  mdl_row_kind *kind;  // [capacity]
  double *phi;         // [capacity] constraint value φ_i(q0)
  double *gdot_v;      // [capacity] bias (Ġ v0)_i, 0 if the row is linear in q
  double *K;           // [capacity] stiffness K_i ≥ 0
  double *B;           // [capacity] damping B_i ≥ 0
  double *mu;          // [capacity] friction coefficient of a normal row (0 otherwise)
  int *contact;        // [capacity] contact index of normal/tangent rows, −1 otherwise
  int *start;          // [capacity + 1] CSR row pointers; start[0] = 0
  int *col;            // [nnz_capacity] column (velocity) indices of G entries
  double *val;         // [nnz_capacity] G entries
  int overflow;        // set by mdl_rows_add when a row did not fit (cleared by mdl_rows_clear)
} mdl_rows;

// Empties the row set (n = 0) without touching the capacity.
void mdl_rows_clear(mdl_rows *rows);

// Appends one row with its nnz Jacobian entries (col[k], val[k]); returns the new row's index, or
// −1 if the row or entry capacity would be exceeded (the set is left unchanged, overflow = 1).
int mdl_rows_add(mdl_rows *rows, mdl_row_kind kind, double phi, double gdot_v, double K, double B,
                 int nnz, const int *col, const double *val);

// Marks row i (a normal or tangent row) as belonging to contact `contact` ≥ 0, with friction
// coefficient mu ≥ 0 on the normal row; returns 0, or −1 if i is out of range.
int mdl_rows_set_contact(mdl_rows *rows, int i, int contact, double mu);

// 1 if row i is a gap: a unilateral or normal row with Jacobian entries (a normal row without
// any is a cone's load variable, e.g. a rolling resistance cap, whose φ is no overlap), else 0.
int mdl_rows_is_gap(const mdl_rows *rows, int i);

// Allocates a row set with the given capacities (heap, owned by the caller); NULL on failure.
mdl_rows *mdl_rows_create(int capacity, int nnz_capacity);
// Frees a row set from mdl_rows_create; NULL is a no-op.
void mdl_rows_free(mdl_rows *rows);

// A user model. Every callback follows CVODE's contract: return 0 on success, > 0 for a
// recoverable failure (the step reports it, a caller may retry with a smaller h), < 0 fatal.
// q has nq entries, v and f nv. The step evaluates all callbacks once per step at (t0, q0, v0).
typedef struct mdl_model {
  int nq, nv;    // generalised coordinates and velocities (q̇ = N(q) v)
  int max_rows;  // most constraint rows the model reports at any state
  int max_nnz;   // most Jacobian entries over all rows at any state
  // block-diagonal structure of M: nblocks dense blocks of sizes block_size[0..nblocks) summing to
  // nv (nblocks = 0: one dense nv×nv block); the array is borrowed for the model's lifetime
  int nblocks;
  const int *block_size;
  // M(q): writes the blocks one after another, each row-major (Σ size² entries), SPD [kg, kg·m²]
  int (*mass)(double t, const double *q, double *blocks, void *ctx);
  // q̇ = N(q) v: writes nq entries of qdot; NULL means N = I (requires nq == nv)
  int (*velocity_map)(double t, const double *q, const double *v, double *qdot, void *ctx);
  // f(t, q, v): all non-constraint generalised forces, nv entries [N, N·m]
  int (*forces)(double t, const double *q, const double *v, double *f, void *ctx);
  // constraint rows at (t, q, v): the callback calls mdl_rows_clear then mdl_rows_add per row
  int (*rows)(double t, const double *q, const double *v, mdl_rows *rows, void *ctx);
  // optional: mechanical energy [J] (kinetic + potential of f; not the constraint springs)
  int (*energy)(double t, const double *q, const double *v, double *energy, void *ctx);
  // optional position-update hook, called on q1 after q1 = q0 + h N(q0) v1 (e.g. to re-normalise
  // quaternions); modifies q in place
  int (*position_update)(double *q, void *ctx);
  // optional, for implicit force stages (θ-method): stiffness K = −∂f/∂q·N and damping
  // D = −∂f/∂v, both nv×nv row-major; NULL if not provided
  int (*force_jacobians)(double t, const double *q, const double *v, double *K, double *D,
                         void *ctx);
  // optional (SPEC §1.5 item 3): stiffness K ≥ 0 [N/m] that row i of the rows last reported by
  // `rows` would have at constraint value phi (Hertz: K(d) = E*√(r d) at overlap d = −φ); lets a
  // step evaluate the stiffness over the step instead of holding it at the start; NULL: held
  int (*row_stiffness)(const mdl_rows *rows, int i, double phi, double *K, void *ctx);
  // optional contact memory (SPEC §1.6, tangential stick: anchors carried from step to step). A
  // stepper that keeps it calls memory(0, q0, v0, NULL, NULL, ctx) once before its first step
  // (clears it and switches it on), then memory(h, q1, v1, rows, lambda, ctx) once after every
  // taken step, with the step's rows (evaluated at its start) and their forces λ. A model whose
  // memory was never switched on reports memoryless rows. NULL: the model keeps none
  int (*memory)(double h, const double *q, const double *v, const mdl_rows *rows,
                const double *lambda, void *ctx);
  // optional: the scene's geometry for peers that build their own model (mdl_scene.h); NULL: none
  const struct mdl_scene *scene;
  void *ctx;  // passed to every callback, owned by the caller
} mdl_model;

// Checks sizes, the block structure and the mandatory callbacks; returns 0, or SC_ERR_INPUT (< 0)
// with a message naming the bad field and its limit in err (err may be NULL).
int mdl_model_validate(const mdl_model *model, sc_error *err);

// Number of entries of the concatenated M blocks (Σ block_size²).
size_t mdl_model_mass_entries(const mdl_model *model);

// Clears rows and calls the model's rows callback at (t, q, v) (none: no rows). Returns
// MDL_EVAL_CAPACITY if a row did not fit (whatever the callback returned), the callback's status
// if it failed (name and code in *callback, *callback_code; both may be NULL), else MDL_EVAL_OK.
// Does not check the rows' values (mdl_eval_prepare does).
mdl_eval_status mdl_rows_evaluate(const mdl_model *model, double t, const double *q,
                                  const double *v, mdl_rows *rows, const char **callback,
                                  int *callback_code);

#endif  // MDL_MDL_MODEL_H
