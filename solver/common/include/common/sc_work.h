// SPDX-License-Identifier: MIT
// sc_work — a count of the floating-point operations of the solvers' factorisations and
// triangular solves, per thread: a cost measure that the machine's load does not move (CPU time
// does), after PETSc's PetscLogFlops. Each kernel adds its structural count (the operations its
// pattern implies, numerical zeros included), so the count depends on the problem's pattern and
// the path the solver takes, never on timing. A caller measuring a piece of work keeps the count,
// sets it to 0, reads it after the work and adds the kept count back (a difference of the running
// total would round with its size).
//
// Counts (a multiply–add is 2): sparse LDLᵀ with c_j entries in column j of L: Σ_j c_j(c_j + 2)
// (up-looking: entry (k, j) costs 2 per entry of column j above row k, and 3 for ℓ_kj and d_k);
// its solve 4·nnz(L) + n; dense Cholesky of order n: n³/3, its solve 2n²; KLU's LU: the flops
// KLU reports for it, its solve 2·(nnz(L) + nnz(U)).
#ifndef COMMON_SC_WORK_H
#define COMMON_SC_WORK_H

// The count of this thread since it started (or since the caller last set it).
extern _Thread_local double sc_work_flops;
// The sparse factorisations among them (qcp's LDLᵀ, its partial refactors from a row on, KLU's
// LU), counted one each, of this thread (set by the caller as sc_work_flops): with the count, the
// cost per factorisation. The dense Cholesky kernels (mdl_dense: the bodies' mass blocks, the
// dense path's small systems) are not counted here.
extern _Thread_local double sc_work_factorizations;

// Adds flops to the count.
static inline void sc_work_add(double flops) { sc_work_flops += flops; }
// Adds one sparse factorisation of flops operations.
static inline void sc_work_add_factor(double flops) {
  sc_work_flops += flops;
  sc_work_factorizations += 1;
}

#endif  // COMMON_SC_WORK_H
