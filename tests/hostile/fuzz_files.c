// SPDX-License-Identifier: MIT
// Seeded mutation fuzzer over results files and qcp problem files.
//
//   fuzz_files STABCON [--seconds N] [--seed S]
//
// Builds a valid results file, a sweep file and a problem file with stabcon, then for N seconds
// (default 60) writes mutated copies (bit flips, bytes set to boundary values, 8-byte integers
// replaced by huge counts, truncation, block copies) and runs the readers on each: info, export,
// compare, plot (every 16th input) and qcp solve. The run fails when a sanitizer report's first
// frame outside the sanitizer runtime and libc lies in stabcon's own code; reports whose frame is
// inside libhdf5 are counted (libhdf5 itself crashes on some corrupted files) but do not fail it;
// crashes of libhdf5 that the readers' probe caught (exit 2, "corrupt HDF5 file") are counted too.
// Build with -Db_sanitize=address,undefined to get reports; a plain build only counts signals.
// Inputs that crashed are kept under <scratch>/findings (the path is printed).
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli_test_util.h"

typedef struct fuzz_counts {
  long inputs, runs, own, library, signals, hangs, caught;
} fuzz_counts;

static uint64_t rng_state;

// xorshift64*: reproducible from the seed on every platform
static uint64_t rng(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717ULL;
}

static size_t rng_below(size_t n) { return n ? (size_t)(rng() % n) : 0; }

static unsigned char *file_read(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = n > 0 ? malloc((size_t)n) : NULL;
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) buf = (free(buf), NULL);
  fclose(f);
  *len = buf ? (size_t)n : 0;
  return buf;
}

static int file_write(const char *path, const unsigned char *buf, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int rc = fwrite(buf, 1, len, f) == len ? 0 : -1;
  return fclose(f) != 0 ? -1 : rc;
}

// one mutation of buf (length *len, capacity cap)
static void mutate_once(unsigned char *buf, size_t *len) {
  static const uint64_t big[] = {0,
                                 1,
                                 0x7f,
                                 0xff,
                                 0x7fffffffULL,
                                 0x80000000ULL,
                                 2000000000ULL,
                                 0xffffffffULL,
                                 0x7fffffffffffffffULL,
                                 0xffffffffffffffffULL};
  size_t at = rng_below(*len);
  switch (rng_below(6)) {
    case 0:
    case 1:  // flip one bit
      buf[at] ^= (unsigned char)(1u << rng_below(8));
      break;
    case 2:  // a boundary byte
      buf[at] = (unsigned char)big[rng_below(4)];
      break;
    case 3:  // a huge little-endian count
      if (at + 8 <= *len) {
        uint64_t v = big[rng_below(sizeof big / sizeof *big)];
        for (int k = 0; k < 8; k++) buf[at + k] = (unsigned char)(v >> (8 * k));
      }
      break;
    case 4:  // copy a block over another place
      if (*len > 64) {
        size_t from = rng_below(*len - 32), n = 1 + rng_below(32);
        if (at + n <= *len) memmove(buf + at, buf + from, n);
      }
      break;
    default:  // truncate (rarely: most mutations keep the size)
      if (rng_below(4) == 0) *len = at > 0 ? at : 1;
      break;
  }
}

// a frame of the sanitizer runtime or of libc (memmove called by libhdf5 is libhdf5's fault)
static int frame_is_runtime(const char *frame) {
  static const char *const runtime[] = {"libasan",     "libubsan",      "libsanitizer", "__asan",
                                        "__sanitizer", "__interceptor", "__ubsan",      "libc.so",
                                        "/sysdeps/",   "ld-linux",      "libgcc"};
  for (size_t i = 0; i < sizeof runtime / sizeof *runtime; i++)
    if (strstr(frame, runtime[i])) return 1;
  return 0;
}

// the first stack frame that is neither sanitizer runtime nor libc: 1 own code, 0 libhdf5, -1 none
static int report_origin(const char *log) {
  const char *ub = strstr(log, "runtime error:");
  const char *asan = strstr(log, "ERROR: AddressSanitizer");
  if (!asan) asan = strstr(log, "ERROR: LeakSanitizer");
  if (!asan && !ub) return -1;
  if (ub && (!asan || ub < asan)) return strstr(ub, "libhdf5") && !strstr(ub, ".c:") ? 0 : 1;
  for (const char *l = strstr(asan, "    #"); l; l = strstr(l + 1, "    #")) {
    const char *end = strchr(l, '\n');
    size_t n = end ? (size_t)(end - l) : strlen(l);
    char frame[1024];
    snprintf(frame, sizeof frame, "%.*s", (int)(n < 1000 ? n : 1000), l);
    if (frame_is_runtime(frame)) continue;
    return strstr(frame, "libhdf5") || strstr(frame, "libsz") || strstr(frame, "libz.so") ? 0 : 1;
  }
  return 1;  // no usable frame: assume the worst
}

// runs stabcon args with a time limit; classifies what happened into c; 1 if the input is kept
static int run_one(const char *const *args, fuzz_counts *c) {
  char log[600];
  test_path(log, sizeof log, "fuzz-log.txt");
  pid_t pid = test_spawn(args, log);
  int status = 0;
  for (int waited = 0; waitpid(pid, &status, WNOHANG) == 0; waited++) {
    if (waited > 2000) {  // 20 s
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      c->hangs++;
      printf("hang: stabcon %s %s\n", args[0], args[1]);
      return 1;
    }
    nanosleep(&(struct timespec){.tv_sec = 0, .tv_nsec = 10000000}, NULL);
  }
  c->runs++;
  FILE *f = fopen(log, "r");
  size_t got = f ? fread(test_output, 1, sizeof test_output - 1, f) : 0;
  test_output[got] = '\0';
  if (f) fclose(f);
  int origin = report_origin(test_output);
  if (origin == 1) {
    c->own++;
    printf("REPORT IN STABCON'S OWN CODE (stabcon %s):\n%s\n", args[0], test_output);
    return 1;
  }
  if (origin == 0) {
    c->library++;
    return 1;
  }
  if (WIFSIGNALED(status)) {
    c->signals++;
    return 1;
  }
  if (strstr(test_output, "corrupt HDF5 file: libhdf5")) {  // the probe's child died instead
    c->caught++;
    return 1;
  }
  return 0;
}

static void keep(const char *mutated, long n, const char *findings) {
  char to[700], from[600];
  test_path(from, sizeof from, mutated);
  snprintf(to, sizeof to, "%s/input-%06ld.h5", findings, n);
  size_t len;
  unsigned char *buf = file_read(from, &len);
  if (buf) file_write(to, buf, len);
  free(buf);
}

static int make_bases(void) {
  const char *const cmds[][12] = {
      {"run", "smd_explicit", "--set", "T=0.001", "-o", "base-results.h5", NULL},
      {"sweep", "smd", "--set", "h=1e-3,2e-3", "--set", "T=0.01", "-o", "base-sweep.h5", NULL},
      {"qcp", "gen", "stack", "5", "0.5", "base-problem.h5", NULL},
  };
  for (int i = 0; i < 3; i++)
    if (test_run(cmds[i]) != 0)
      return fprintf(stderr, "cannot build base %d:\n%s", i, test_output), -1;
  return 0;
}

int main(int argc, char **argv) {
  double seconds = 60;
  unsigned long long seed = 1;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--seconds") == 0)
      seconds = atof(argv[i + 1]);
    else if (strcmp(argv[i], "--seed") == 0)
      seed = strtoull(argv[i + 1], NULL, 10);
  }
  if (argc < 2 || test_stabcon_set(argv[1]) != 0 || !(seconds > 0)) {
    fprintf(stderr, "usage: fuzz_files STABCON [--seconds N] [--seed S]\n");
    return 1;
  }
  rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
  // report sanitizer errors to the log and stop at the first (leaks are not reported: libhdf5's
  // error paths leak by design and the report would name the library, not the input)
  setenv("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=1:symbolize=1", 1);
  setenv("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1", 1);
  if (test_dir_create("fuzz") != 0 || make_bases() != 0) return 1;
  char findings[600];
  test_path(findings, sizeof findings, "findings");
  mkdir(findings, 0755);
  const char *bases[3] = {"base-results.h5", "base-sweep.h5", "base-problem.h5"};
  size_t len[3];
  unsigned char *data[3];
  for (int b = 0; b < 3; b++) {
    char path[600];
    test_path(path, sizeof path, bases[b]);
    if (!(data[b] = file_read(path, &len[b]))) return fprintf(stderr, "cannot read %s\n", path), 1;
  }
  fuzz_counts c = {0};
  long kept = 0;
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  char mutated[600];
  test_path(mutated, sizeof mutated, "m.h5");
  for (;;) {
    clock_gettime(CLOCK_MONOTONIC, &t);
    if ((double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec) > seconds) break;
    int b = (int)rng_below(3);
    unsigned char *buf = malloc(len[b]);
    memcpy(buf, data[b], len[b]);
    size_t n = len[b];
    for (size_t k = 1 + rng_below(8); k > 0; k--) mutate_once(buf, &n);
    file_write(mutated, buf, n);
    free(buf);
    c.inputs++;
    int hit = 0;
    if (b == 2) {
      hit |= run_one((const char *[]){"qcp", "solve", "m.h5", NULL}, &c);
    } else {
      hit |= run_one((const char *[]){"info", "m.h5", NULL}, &c);
      hit |= run_one((const char *[]){"export", "m.h5", NULL}, &c);
      hit |= run_one((const char *[]){"compare", "m.h5", bases[b], NULL}, &c);
      if (c.inputs % 16 == 0)
        hit |= run_one((const char *[]){"plot", "m.h5", "-d", "figs", NULL}, &c);
    }
    if (hit) keep("m.h5", c.inputs, findings), kept++;
  }
  printf(
      "fuzz: seed %llu, %.0f s: %ld inputs, %ld runs; sanitizer reports in stabcon's own code: "
      "%ld, inside libhdf5: %ld; signals without a report: %ld; hangs (> 20 s): %ld; libhdf5 "
      "crashes caught by the probe (exit 2, corrupt file): %ld\n",
      seed, seconds, c.inputs, c.runs, c.own, c.library, c.signals, c.hangs, c.caught);
  for (int b = 0; b < 3; b++) free(data[b]);
  if (kept) {
    printf("kept %ld inputs in %s\n", kept, findings);
  } else {
    test_dir_remove();
  }
  return c.own ? 1 : 0;
}
