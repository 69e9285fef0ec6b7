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
  double mur;  // rolling resistance coefficient (0: no rolling/twisting rows)
  int on;
  int cap;    // contacts per rows call
  int nc;     // contacts of the last rows call
  int hmask;  // table size − 1 (a power of two ≥ 2·cap)
  int stored;
  double energy;
  unsigned long long *hkey;  // key + 1 per slot (0: empty)
  double *hval;              // SLOT per slot: the anchor δ (world frame) [m], θ_t (world) and
                             // θ_n [rad] (rolling and twisting angle anchors)
  unsigned long long *ckey;  // per contact of the rows call
  int *crow;                 // its normal row
  int *croll;                // its first rolling row (the five of mdl_stick.h), −1: none
  double *ckr;               // its rolling/twisting stiffness K_r [N·m/rad]
  double *cbase;             // 9 per contact: n̂, t̂1, t̂2
  double *cdelta;            // SLOT per contact: its anchors in the current contact frame
};

enum { SLOT = MDL_STICK_SLOT };  // δ (3), θ_t (3), θ_n (1)

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
  st->hval = calloc(SLOT * (size_t)size, sizeof *st->hval);
  st->ckey = calloc((size_t)max_contacts, sizeof *st->ckey);
  st->crow = calloc((size_t)max_contacts, sizeof *st->crow);
  st->croll = calloc((size_t)max_contacts, sizeof *st->croll);
  st->ckr = calloc((size_t)max_contacts, sizeof *st->ckr);
  st->cbase = calloc(9 * (size_t)max_contacts, sizeof *st->cbase);
  st->cdelta = calloc(SLOT * (size_t)max_contacts, sizeof *st->cdelta);
  if (!st->hkey || !st->hval || !st->ckey || !st->crow || !st->croll || !st->ckr || !st->cbase ||
      !st->cdelta) {
    mdl_stick_free(st);
    return NULL;
  }
  return st;
}

void mdl_stick_free(mdl_stick *st) {
  if (!st) return;
  free(st->hkey), free(st->hval), free(st->ckey), free(st->crow), free(st->cbase);
  free(st->croll), free(st->ckr), free(st->cdelta);
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
double mdl_stick_rolling(const mdl_stick *st) { return st->mur; }

int mdl_stick_set_rolling(mdl_stick *st, double mur) {
  if (!(mur >= 0) || !isfinite(mur)) return -1;
  st->mur = mur;
  return 0;
}
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

// a projected on the plane normal to n into d, its length kept (0 if a is along n)
static void project_keep(const double *a, const double n[3], double *d) {
  const double an = dot3(a, n), len = sqrt(dot3(a, a));
  for (int k = 0; k < 3; k++) d[k] = a[k] - an * n[k];
  const double plen = sqrt(dot3(d, d));
  for (int k = 0; k < 3; k++) d[k] = plen > 0 ? d[k] * (len / plen) : 0;
}

int mdl_stick_contact(mdl_stick *st, int c, unsigned long long key, int normal_row,
                      const double n[3], const double t1[3], const double t2[3], double phi[2]) {
  if (c < 0 || c >= st->cap) return -1;
  st->ckey[c] = key, st->crow[c] = normal_row, st->croll[c] = -1;
  double *base = st->cbase + 9 * c, *d = st->cdelta + SLOT * c;
  memcpy(base, n, 3 * sizeof *n), memcpy(base + 3, t1, 3 * sizeof *t1);
  memcpy(base + 6, t2, 3 * sizeof *t2);
  memset(d, 0, SLOT * sizeof *d);
  const int s = st->on ? slot_of(st, key) : 0;
  if (st->on && st->hkey[s]) {
    // the anchors rotated into the current contact frame: tangential vectors projected, their
    // lengths kept (a rigid rotation of the contact frame stores no energy), the twist kept
    const double *a = st->hval + SLOT * s;
    project_keep(a, n, d), project_keep(a + 3, n, d + 3);
    d[6] = a[6];
  }
  phi[0] = dot3(d, t1), phi[1] = dot3(d, t2);
  if (c >= st->nc) st->nc = c + 1;
  return 0;
}

int mdl_stick_loaded(const mdl_stick *st, unsigned long long key) {
  return st->on && st->hkey[slot_of(st, key)] != 0;
}

int mdl_stick_contact_rolling(mdl_stick *st, int c, int roll_row, double kr, double theta[3]) {
  if (c < 0 || c >= st->nc || !(st->mur > 0) || !(kr > 0)) return -1;
  st->croll[c] = roll_row, st->ckr[c] = kr;
  const double *base = st->cbase + 9 * c, *d = st->cdelta + SLOT * c;
  theta[0] = dot3(d + 3, base + 3), theta[1] = dot3(d + 3, base + 6), theta[2] = d[6];
  return 0;
}

// the rolling and twisting anchors of contact c after a step (θ1 = θ0 + h G v1, each capped at
// the torque its load row carried: λ_L / K_r); their potential in *e
static int roll_update(const mdl_stick *st, int c, double h, const double *v1, const mdl_rows *rows,
                       const double *lambda, double *a, double *e) {
  const int i = st->croll[c];
  a[3] = a[4] = a[5] = a[6] = 0, *e = 0;
  if (i < 0) return 0;
  if (i + 4 >= rows->n || rows->kind[i] != MDL_ROW_NORMAL || rows->kind[i + 1] != MDL_ROW_TANGENT ||
      rows->kind[i + 2] != MDL_ROW_TANGENT || rows->kind[i + 3] != MDL_ROW_NORMAL ||
      rows->kind[i + 4] != MDL_ROW_TANGENT)
    return -1;
  const double *base = st->cbase + 9 * c, *d0 = st->cdelta + SLOT * c, kr = st->ckr[c];
  const double roll_cap = fmax(0, lambda[i]) / kr, twist_cap = fmax(0, lambda[i + 3]) / kr;
  const double w1 = h * mdl_eval_row_dot(rows, i + 1, v1),
               w2 = h * mdl_eval_row_dot(rows, i + 2, v1);
  for (int k = 0; k < 3; k++) a[3 + k] = d0[3 + k] + w1 * base[3 + k] + w2 * base[6 + k];
  a[6] = d0[6] + h * mdl_eval_row_dot(rows, i + 4, v1);
  const double len = sqrt(dot3(a + 3, a + 3));
  if (len > roll_cap)
    for (int k = 3; k < 6; k++) a[k] *= roll_cap / len;
  if (fabs(a[6]) > twist_cap) a[6] = copysign(twist_cap, a[6]);
  *e = 0.5 * kr * (dot3(a + 3, a + 3) + a[6] * a[6]);
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
    const double *base = st->cbase + 9 * c, *d0 = st->cdelta + SLOT * c;
    const double u1 = h * mdl_eval_row_dot(rows, i + 1, v1),
                 u2 = h * mdl_eval_row_dot(rows, i + 2, v1);
    double a[SLOT], e_roll;
    for (int k = 0; k < 3; k++) a[k] = d0[k] + u1 * base[3 + k] + u2 * base[6 + k];
    const double len = sqrt(dot3(a, a));
    if (st->kt * len > cap)
      for (int k = 0; k < 3; k++) a[k] *= cap / (st->kt * len);
    if (roll_update(st, c, h, v1, rows, lambda, a, &e_roll)) return -1;
    // a loaded contact keeps its entry (a zero anchor too): its rolling rows start next step
    const int s = slot_of(st, st->ckey[c]);
    if (st->hkey[s]) return -1;  // one contact per key
    st->hkey[s] = st->ckey[c] + 1;
    memcpy(st->hval + SLOT * s, a, sizeof a);
    st->stored++;
    st->energy += 0.5 * st->kt * dot3(a, a) + e_roll;
  }
  return 0;
}

int mdl_stick_export(const mdl_stick *st, int max, unsigned long long *keys, double *vals) {
  int k = 0;
  for (int s = 0; s <= st->hmask; s++) {
    if (!st->hkey[s]) continue;
    if (k < max) {
      keys[k] = st->hkey[s] - 1;
      memcpy(vals + SLOT * (size_t)k, st->hval + SLOT * (size_t)s, SLOT * sizeof *vals);
    }
    k++;
  }
  return k;
}

int mdl_stick_import(mdl_stick *st, int n, const unsigned long long *keys, const double *vals,
                     double energy) {
  if (n < 0 || n > st->cap || !isfinite(energy)) return -1;
  mdl_stick_start(st);
  for (int k = 0; k < n; k++) {
    const int s = slot_of(st, keys[k]);
    if (st->hkey[s]) return table_clear(st), -1;
    st->hkey[s] = keys[k] + 1;
    memcpy(st->hval + SLOT * (size_t)s, vals + SLOT * (size_t)k, SLOT * sizeof *vals);
  }
  st->stored = n, st->energy = energy;
  return 0;
}
