// SPDX-License-Identifier: MIT
// Structured mutation fuzzer of the MATLAB problem reader (qcp_mm_read_mat) and of what runs on
// the problems it accepts (the conversion to conic form and the score).
//
//   fuzz_mat DATA_DIR [--count N] [--seed S]
//
// Every NAME.mat of DATA_DIR is expanded once (each compressed variable inflated), then N inputs
// are made from randomly chosen files: 1 to 4 mutations that know the format (an element tag's
// size or type, a dimension, an int32 set to a boundary value — column pointers and row indices
// are int32 arrays —, a double set to NaN, ±Inf, ±1e20 or 1e300, a bit flip, a truncation), each
// variable then written back compressed or not. Each input is read in a child process with a
// 20 s limit; the run fails if any child dies (a sanitizer aborts it) or hangs. Accepted inputs
// are converted and scored at x = 0, y = 0, so an unchecked index would be used.
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "qcp/qcp_mm.h"

typedef struct blob {
  unsigned char *p;
  size_t n, cap;
} blob;

static uint64_t rng_state;

static uint64_t rng(void) {  // xorshift64*
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717ULL;
}

static size_t below(size_t n) { return n ? (size_t)(rng() % n) : 0; }

static void put(blob *b, const void *src, size_t n) {
  if (b->n + n > b->cap) {
    b->cap = 2 * (b->n + n) + 1024;
    b->p = realloc(b->p, b->cap);
    if (!b->p) abort();
  }
  memcpy(b->p + b->n, src, n);
  b->n += n;
}

static uint32_t get32(const unsigned char *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

// the variables of a little-endian level-5 file, each as an uncompressed miMATRIX element
// (tag included), appended to vars; -1 if the file is not such a file
static int expand(const unsigned char *f, size_t len, blob *vars, size_t *offs, int *nvars) {
  if (len < 128 || f[126] != 'I') return -1;
  *nvars = 0;
  for (size_t off = 128; off + 8 <= len && *nvars < 64;) {
    uint32_t type = get32(f + off), nb = get32(f + off + 4);
    if (nb > len - off - 8) return -1;
    offs[(*nvars)++] = vars->n;
    if (type == 14) {
      put(vars, f + off, 8 + (size_t)nb);
    } else if (type == 15) {
      unsigned char tag[8];
      z_stream z = {0};
      inflateInit(&z);
      z.next_in = (unsigned char *)(uintptr_t)(f + off + 8), z.avail_in = nb;
      z.next_out = tag, z.avail_out = 8;
      inflate(&z, Z_SYNC_FLUSH);
      size_t inner = 8 + (size_t)get32(tag + 4);
      unsigned char *buf = malloc(inner);
      memcpy(buf, tag, 8);
      z.next_out = buf + 8, z.avail_out = (uInt)(inner - 8);
      int zr = inflate(&z, Z_FINISH);
      inflateEnd(&z);
      if (zr != Z_STREAM_END) return free(buf), -1;
      put(vars, buf, inner);
      free(buf);
    } else {
      return -1;
    }
    off += 8 + (size_t)nb;
  }
  return 0;
}

// offsets of the sub-element tags inside the miMATRIX at p (for tag mutations)
static int sub_tags(const unsigned char *p, size_t n, size_t *tags, int max) {
  int k = 0;
  for (size_t off = 8; off + 8 <= n && k < max;) {
    tags[k++] = off;
    uint32_t w = get32(p + off);
    size_t len = (w >> 16) ? 8 : 8 + (((size_t)get32(p + off + 4) + 7) & ~(size_t)7);
    off += len;
  }
  return k;
}

static void mutate(unsigned char *v, size_t n) {
  static const double dv[] = {NAN, INFINITY, -INFINITY, 1e20, -1e20, 1e300, -0.0, 2.5};
  static const uint32_t iv[] = {0, 1, 2, 0xffffffffu, 0x7fffffffu, 0x80000000u, 1u << 29, 3, 7};
  size_t tags[16];
  int nt = sub_tags(v, n, tags, 16);
  switch (below(6)) {
    case 0: {  // a sub-element's size or type, or a dimension
      if (!nt) break;
      size_t t = tags[below((size_t)nt)];
      uint32_t w = iv[below(sizeof iv / sizeof *iv)];
      if (below(3) == 0 && t + 4 <= n)
        memcpy(v + t, &w, 4);  // type
      else if (t + 8 <= n)
        memcpy(v + t + 4, below(2) ? &w : &(uint32_t){get32(v + t + 4) + 8}, 4);
      if (nt > 1 && below(2) && tags[1] + 16 <= n) memcpy(v + tags[1] + 8 + 4 * below(2), &w, 4);
      break;
    }
    case 1:
    case 2: {  // an int32 (column pointers and row indices are int32 arrays)
      size_t at = 8 + 4 * below((n - 8) / 4);
      uint32_t w =
          below(2) ? iv[below(sizeof iv / sizeof *iv)] : get32(v + at) + (uint32_t)below(5) - 2;
      if (at + 4 <= n) memcpy(v + at, &w, 4);
      break;
    }
    case 3: {  // a double
      size_t at = 8 * below(n / 8);
      if (at + 8 <= n) memcpy(v + at, &dv[below(sizeof dv / sizeof *dv)], 8);
      break;
    }
    default:  // a bit
      v[below(n)] ^= (unsigned char)(1u << below(8));
  }
}

static void write_var(blob *out, const unsigned char *v, size_t n, int compress) {
  if (!compress) {
    put(out, v, n);
    return;
  }
  uLongf zn = compressBound(n);
  unsigned char *z = malloc(zn + 8);
  compress2(z + 8, &zn, v, n, 1);
  uint32_t tag[2] = {15, (uint32_t)zn};
  memcpy(z, tag, 8);
  put(out, z, 8 + zn);
  free(z);
}

// reads the input in the child: 0 accepted (and converted and scored), 2 refused
static int read_child(const char *path) {
  alarm(20);
  qcp_mm mm;
  qcp_error err = {0, ""};
  if (qcp_mm_read_mat(path, &mm, &err)) return 2;
  qcp_mm_conic c;
  if (qcp_mm_to_conic(&mm, &c, &err) == QCP_OK) {
    double *x = calloc((size_t)mm.n + 1, sizeof *x), *y = calloc((size_t)mm.m + 1, sizeof *y);
    qcp_mm_score s;
    if (x && y) qcp_mm_score_point(&mm, x, y, &s);
    free(x), free(y);
    qcp_mm_conic_free(&c);
  }
  qcp_mm_free(&mm);
  return 0;
}

typedef struct base {
  blob vars;
  size_t offs[65];
  int nvars;
  unsigned char head[128];
} base;

static int load_bases(const char *dir, base **out) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int n = 0;
  struct dirent *e;
  *out = NULL;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 4, ".mat")) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    FILE *f = fopen(path, "rb");
    if (!f) continue;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)sz + 1);
    size_t got = fread(buf, 1, (size_t)sz, f);
    fclose(f);
    *out = realloc(*out, (size_t)(n + 1) * sizeof **out);
    base *b = &(*out)[n];
    memset(b, 0, sizeof *b);
    if (got == (size_t)sz && expand(buf, got, &b->vars, b->offs, &b->nvars) == 0) {
      b->offs[b->nvars] = b->vars.n;
      memcpy(b->head, buf, 128);
      n++;
    } else {
      free(b->vars.p);
    }
    free(buf);
  }
  closedir(d);
  return n;
}

int main(int argc, char **argv) {
  long count = 2000;
  unsigned long long seed = 1;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--count")) count = atol(argv[i + 1]);
    if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], NULL, 10);
  }
  base *bases;
  int nb = argc >= 2 ? load_bases(argv[1], &bases) : -1;
  if (nb <= 0) return fprintf(stderr, "usage: fuzz_mat DATA_DIR [--count N] [--seed S]\n"), 1;
  rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
  setenv("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=1", 1);
  char path[64];
  snprintf(path, sizeof path, "/tmp/fuzz_mat_%d.mat", (int)getpid());
  long accepted = 0, refused = 0, died = 0, hangs = 0, max_rss = 0;
  double max_time = 0;
  for (long k = 0; k < count; k++) {
    base *b = &bases[below((size_t)nb)];
    blob out = {0};
    put(&out, b->head, 128);
    int target = (int)below((size_t)b->nvars), z = (int)below(2);
    for (int v = 0; v < b->nvars; v++) {
      size_t n = b->offs[v + 1] - b->offs[v];
      unsigned char *var = malloc(n);
      memcpy(var, b->vars.p + b->offs[v], n);
      if (v == target || below(8) == 0)
        for (size_t m = 1 + below(4); m > 0; m--) mutate(var, n);
      write_var(&out, var, n, z);
      free(var);
    }
    if (below(16) == 0) out.n = 128 + below(out.n - 128);  // truncated
    FILE *f = fopen(path, "wb");
    fwrite(out.p, 1, out.n, f);
    fclose(f);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid == 0) _exit(read_child(path));
    int st = 0;
    struct rusage ru;
    waitpid(pid, &st, 0);
    getrusage(RUSAGE_CHILDREN, &ru);  // ru_maxrss: the largest child so far
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    max_time = secs > max_time ? secs : max_time;
    max_rss = ru.ru_maxrss > max_rss ? ru.ru_maxrss : max_rss;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
      accepted++;
    } else if (WIFEXITED(st) && WEXITSTATUS(st) == 2) {
      refused++;
    } else {
      int hang = WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM;
      hangs += hang, died += !hang;
      char keep[96];
      snprintf(keep, sizeof keep, "/tmp/fuzz_mat_finding_%llu_%ld.mat", seed, k);
      rename(path, keep);
      printf("FINDING: input %ld %s (kept as %s)\n", k, hang ? "hung" : "died", keep);
    }
    free(out.p);
  }
  unlink(path);
  printf(
      "fuzz_mat: seed %llu, %d base files, %ld inputs: %ld accepted (converted and scored), %ld "
      "refused, %ld died, %ld hung; slowest %.2f s, largest %.0f MB resident\n",
      seed, nb, count, accepted, refused, died, hangs, max_time, (double)max_rss / 1024.0);
  for (int i = 0; i < nb; i++) free(bases[i].vars.p);
  free(bases);
  return died || hangs ? 1 : 0;
}
