// SPDX-License-Identifier: MIT
// A region allocator for everything one sparsity pattern needs (qcp's workspace, the AMD ordering,
// a qcp_qd factor): memory is taken from a chunk by bumping a pointer and given back all at once
// by qcp_arena_reset when the pattern changes. A caller whose pattern changes often (contacts that
// join and leave) then sets up the new pattern without calling malloc: the arena only grows when a
// pattern needs more than any before it, by at least doubling, so O(log size) times in a run.
#ifndef QCP_ARENA_H
#define QCP_ARENA_H

#include <stddef.h>

#include "qcp/qcp.h"

typedef struct qcp_arena_chunk qcp_arena_chunk;

typedef struct qcp_arena {
  qcp_arena_chunk *chunk;   // the newest chunk (requests are taken from it), NULL when empty
  size_t capacity;          // bytes in all chunks
  size_t wanted;            // bytes requested since the last reset
  long system_allocations;  // malloc calls made by the arena so far
} qcp_arena;

// An empty arena (no memory yet).
void qcp_arena_init(qcp_arena *a);

// The allocator to put in qcp_settings.allocator (or pass to qcp_qd_create): allocations come
// from the arena, releases are no-ops until the next reset.
qcp_allocator qcp_arena_allocator(qcp_arena *a);

// Makes sure the arena holds at least `bytes` in one chunk (call it while no pattern is set up:
// at creation, or right after a reset), so patterns up to that size never call malloc. Returns 0,
// or −1 if the allocation failed (the arena is then unchanged).
int qcp_arena_reserve(qcp_arena *a, size_t bytes);

// Ends the current pattern: every pointer handed out since the last reset becomes invalid. If the
// pattern needed more than one chunk, they are merged into one of their total size (one malloc),
// so the same or a smaller pattern fits from then on. Returns 0, or −1 if that allocation failed
// (the arena is then empty and still usable).
int qcp_arena_reset(qcp_arena *a);

// Releases all memory.
void qcp_arena_free(qcp_arena *a);

#endif
