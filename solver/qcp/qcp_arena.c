// SPDX-License-Identifier: MIT
// The region allocator of qcp_arena.h: a bump pointer into the newest of a list of chunks. A
// request that does not fit opens a chunk at least twice the arena's size; the reset that ends the
// pattern keeps only that chunk if the whole pattern fits in it, else merges the chunks into one,
// so a pattern that fitted once fits from then on.
#include "qcp/qcp_arena.h"

#include <stdint.h>
#include <stdlib.h>

// Under AddressSanitizer every request is followed by a poisoned redzone and memory not handed
// out (and everything after a reset) is poisoned, so an overrun of one array of a pattern or a use
// after the pattern ended is reported as with malloc'd memory
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
enum { ARENA_REDZONE = 16 };
#else
#define ASAN_POISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
enum { ARENA_REDZONE = 0 };
#endif

// every request is rounded up to this (the strictest alignment of the types qcp stores)
enum { ARENA_ALIGN = 16, ARENA_FIRST_CHUNK = 1 << 16 };

struct qcp_arena_chunk {
  qcp_arena_chunk *next;  // the chunk opened before this one
  size_t size, used;      // bytes of data, bytes handed out
  _Alignas(ARENA_ALIGN) unsigned char data[];
};

static size_t round_up(size_t bytes) {
  return (bytes + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

static qcp_arena_chunk *chunk_open(qcp_arena *a, size_t size) {
  qcp_arena_chunk *c = malloc(sizeof *c + size);
  if (!c) return NULL;
  a->system_allocations++;
  c->next = a->chunk, c->size = size, c->used = 0;
  a->chunk = c, a->capacity += size;
  ASAN_POISON_MEMORY_REGION(c->data, size);
  return c;
}

static void *arena_alloc(size_t bytes, void *ctx) {
  qcp_arena *a = ctx;
  if (bytes > SIZE_MAX / 4) return NULL;
  const size_t need = round_up((bytes ? bytes : 1) + ARENA_REDZONE);
  a->wanted += need;
  qcp_arena_chunk *c = a->chunk;
  if (!c || need > c->size - c->used) {
    size_t size = 2 * (a->capacity + need);
    if (size < ARENA_FIRST_CHUNK) size = ARENA_FIRST_CHUNK;
    if (!(c = chunk_open(a, size))) return NULL;
  }
  void *p = c->data + c->used;
  c->used += need;
  ASAN_UNPOISON_MEMORY_REGION(p, bytes);
  return p;
}

static void arena_release(void *ptr, void *ctx) { (void)ptr, (void)ctx; }

void qcp_arena_init(qcp_arena *a) { *a = (qcp_arena){0}; }

qcp_allocator qcp_arena_allocator(qcp_arena *a) {
  return (qcp_allocator){.alloc = arena_alloc, .release = arena_release, .ctx = a};
}

static void free_chunks(qcp_arena *a) {
  while (a->chunk) {
    qcp_arena_chunk *next = a->chunk->next;
    ASAN_UNPOISON_MEMORY_REGION(a->chunk->data, a->chunk->size);
    free(a->chunk);
    a->chunk = next;
  }
  a->capacity = 0;
}

int qcp_arena_reset(qcp_arena *a) {
  const size_t wanted = a->wanted;
  a->wanted = 0;
  if (!a->chunk) return 0;
  // keep the newest chunk (the largest: each is at least twice all before it) if the pattern
  // just ended fits in it alone; else one chunk of the arena's whole size
  qcp_arena_chunk *newest = a->chunk;
  if (newest->size >= wanted) {
    a->chunk = newest->next;
    free_chunks(a);
    newest->next = NULL, newest->used = 0;
    ASAN_POISON_MEMORY_REGION(newest->data, newest->size);
    a->chunk = newest, a->capacity = newest->size;
    return 0;
  }
  const size_t total = a->capacity;
  free_chunks(a);
  return chunk_open(a, total) ? 0 : -1;
}

int qcp_arena_reserve(qcp_arena *a, size_t bytes) {
  if (a->chunk && a->chunk->size >= bytes) return 0;
  qcp_arena_chunk *old = a->chunk;
  const size_t old_capacity = a->capacity;
  a->chunk = NULL, a->capacity = 0;
  if (!chunk_open(a, round_up(bytes))) {
    a->chunk = old, a->capacity = old_capacity;
    return -1;
  }
  a->chunk->next = NULL;
  while (old) {  // nothing handed out lives in them (no pattern is set up)
    qcp_arena_chunk *next = old->next;
    ASAN_UNPOISON_MEMORY_REGION(old->data, old->size);
    free(old);
    old = next;
  }
  return 0;
}

void qcp_arena_free(qcp_arena *a) {
  free_chunks(a);
  *a = (qcp_arena){0};
}
