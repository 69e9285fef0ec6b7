// SPDX-License-Identifier: MIT
// Tangential stick anchors (mdl_stick.h): an open-addressing table of the anchors by contact
// key, and the per-contact data of the last rows call.
#include "mdl/mdl_stick.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mdl/mdl_eval.h"

struct mdl_stick {
  double kt, bt;
  int on;
  int cap;    // contacts per rows call
  int nc;     // contacts of the last rows call
  int hmask;  // table size − 1 (a power of two ≥ 2·cap)
  int stored;
  double energy;
  unsigned long long *hkey;  // key + 1 per slot (0: empty)
  double *hval;              // 3 per slot: the anchor δ, world frame [m]
  unsigned long long *ckey;  // per contact of the rows call
  int *crow;                 // its normal row
  double *cbase;             // 9 per contact: n̂, t̂1, t̂2
  double *cdelta;            // 3 per contact: its anchor in the current tangent plane
};

mdl_stick *mdl_stick_create(int max_contacts, double kt, double bt) {
  if (max_contacts < 1 || max_contacts > (1 << 26) || !(kt > 0) || !isfinite(kt) || !(bt >= 0) ||
      !isfinite(bt))
    return NULL;
  mdl_stick *st = calloc(1, sizeof *st);
  if (!st) return NULL;
  int size = 1;
  while (size < 2 * max_contacts) size *= 2;
  *st = (mdl_stick){.kt = kt, .bt = bt, .cap = max_contacts, .hmask = size - 1};
  st->hkey = calloc((size_t)size, sizeof *st->hkey);
  st->hval = calloc(3 * (size_t)size, sizeof *st->hval);
  st->ckey = calloc((size_t)max_contacts, sizeof *st->ckey);
  st->crow = calloc((size_t)max_contacts, sizeof *st->crow);
  st->cbase = calloc(9 * (size_t)max_contacts, sizeof *st->cbase);
  st->cdelta = calloc(3 * (size_t)max_contacts, sizeof *st->cdelta);
  if (!st->hkey || !st->hval || !st->ckey || !st->crow || !st->cbase || !st->cdelta) {
    mdl_stick_free(st);
    return NULL;
  }
  return st;
}

void mdl_stick_free(mdl_stick *st) {
  if (!st) return;
  free(st->hkey), free(st->hval), free(st->ckey), free(st->crow), free(st->cbase);
  free(st->cdelta);
  free(st);
}

static void table_clear(mdl_stick *st) {
  memset(st->hkey, 0, ((size_t)st->hmask + 1) * sizeof *st->hkey);
  st->stored = 0, st->energy = 0;
}

void mdl_stick_start(mdl_stick *st) {
  table_clear(st);
  st->nc = 0, st->on = 1;
}

int mdl_stick_on(const mdl_stick *st) { return st->on; }
double mdl_stick_stiffness(const mdl_stick *st) { return st->kt; }
double mdl_stick_damping(const mdl_stick *st) { return st->bt; }
double mdl_stick_energy(const mdl_stick *st) { return st->energy; }
int mdl_stick_count(const mdl_stick *st) { return st->stored; }
void mdl_stick_begin(mdl_stick *st) { st->nc = 0; }

// slot of key in the table: its own, or the empty one where it would go (splitmix64 hash)
static int slot_of(const mdl_stick *st, unsigned long long key) {
  unsigned long long z = key + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  int s = (int)((z ^ (z >> 31)) & (unsigned long long)st->hmask);
  while (st->hkey[s] && st->hkey[s] != key + 1) s = (s + 1) & st->hmask;
  return s;
}

static double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

int mdl_stick_contact(mdl_stick *st, int c, unsigned long long key, int normal_row,
                      const double n[3], const double t1[3], const double t2[3], double phi[2]) {
  if (c < 0 || c >= st->cap) return -1;
  st->ckey[c] = key, st->crow[c] = normal_row;
  double *base = st->cbase + 9 * c, *d = st->cdelta + 3 * c;
  memcpy(base, n, 3 * sizeof *n), memcpy(base + 3, t1, 3 * sizeof *t1);
  memcpy(base + 6, t2, 3 * sizeof *t2);
  d[0] = d[1] = d[2] = 0;
  const int s = st->on ? slot_of(st, key) : 0;
  if (st->on && st->hkey[s]) {
    // the anchor rotated into the current tangent plane: projected, its length kept (a rigid
    // rotation of the contact frame stores no energy)
    const double *a = st->hval + 3 * s, an = dot3(a, n), len = sqrt(dot3(a, a));
    for (int k = 0; k < 3; k++) d[k] = a[k] - an * n[k];
    const double plen = sqrt(dot3(d, d));
    for (int k = 0; k < 3; k++) d[k] = plen > 0 ? d[k] * (len / plen) : 0;
  }
  phi[0] = dot3(d, t1), phi[1] = dot3(d, t2);
  if (c >= st->nc) st->nc = c + 1;
  return 0;
}

int mdl_stick_update(mdl_stick *st, double h, const double *v1, const mdl_rows *rows,
                     const double *lambda) {
  table_clear(st);
  for (int c = 0; c < st->nc; c++) {
    const int i = st->crow[c];
    if (i < 0 || i + 2 >= rows->n || rows->kind[i] != MDL_ROW_NORMAL || rows->contact[i] != c ||
        rows->kind[i + 1] != MDL_ROW_TANGENT || rows->kind[i + 2] != MDL_ROW_TANGENT)
      return -1;
    const double ln = lambda[i], cap = rows->mu[i] * ln;
    if (!(ln > 0) || !(cap > 0)) continue;  // open or frictionless: no anchor
    // δ1 = δ0 + h v_t1 (the spring the step stretched), then the Coulomb cap (return mapping)
    const double *base = st->cbase + 9 * c, *d0 = st->cdelta + 3 * c;
    const double u1 = h * mdl_eval_row_dot(rows, i + 1, v1),
                 u2 = h * mdl_eval_row_dot(rows, i + 2, v1);
    double d[3];
    for (int k = 0; k < 3; k++) d[k] = d0[k] + u1 * base[3 + k] + u2 * base[6 + k];
    const double len = sqrt(dot3(d, d));
    if (!(len > 0)) continue;
    if (st->kt * len > cap)
      for (int k = 0; k < 3; k++) d[k] *= cap / (st->kt * len);
    const int s = slot_of(st, st->ckey[c]);
    if (st->hkey[s]) return -1;  // one contact per key
    st->hkey[s] = st->ckey[c] + 1;
    memcpy(st->hval + 3 * s, d, sizeof d);
    st->stored++;
    st->energy += 0.5 * st->kt * dot3(d, d);
  }
  return 0;
}
