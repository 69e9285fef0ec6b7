// SPDX-License-Identifier: MIT
// Work that libhdf5 may crash, run in a child process.
//
// libhdf5 (1.10) is not safe against every corrupt file: a damaged B-tree or object header makes
// H5Fopen or H5Oget_info follow wild pointers (SEGV, a free() of garbage) before any check of
// ours can run, and a write that fails half way through H5Ocopy (a full disk) ends in a SEGV in
// H5T_close_real. Such work runs in a child: if the child dies, the command reports it as an
// error naming the file and carries on with its own state intact.
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "xp/xp.h"
#include "xp/xp_file.h"
#include "xp_internal.h"

// the child: default crash signals (a crash is a plain death, not a sanitizer report about
// libhdf5), a time limit, the result code as exit status and the message through the pipe
static void child_run(int (*fn)(void *, xp_error *), void *arg, int quiet, int fd) {
  const int sigs[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGINT};
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) signal(sigs[i], SIG_DFL);
  if (quiet) {  // only libhdf5 runs in a quiet child: what it prints about a crash is noise
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, STDERR_FILENO), close(null);
  }
  alarm(quiet ? 600 : 0);  // a loop inside libhdf5 ends; a huge valid file still finishes
  xp_error err = {.code = 0};
  int rc = fn(arg, &err);
  if (rc != XP_OK) {
    size_t len = strnlen(err.message, sizeof err.message);
    if (write(fd, err.message, len) != (ssize_t)len) rc = XP_ERR_RUN;
  }
  _exit(rc == XP_OK ? 0 : rc == XP_ERR_USAGE ? 2 : 1);
}

int xp_isolated(int (*fn)(void *, xp_error *), void *arg, int quiet, int *died, xp_error *err) {
  int fds[2];
  *died = 0;
  fflush(NULL);  // nothing buffered is written twice
  if (pipe(fds) != 0) return xp_fail(err, XP_ERR_RUN, "cannot create a pipe: %s", strerror(errno));
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]), close(fds[1]);
    return xp_fail(err, XP_ERR_RUN, "cannot fork: %s", strerror(errno));
  }
  if (pid == 0) {
    close(fds[0]);
    child_run(fn, arg, quiet, fds[1]);
  }
  close(fds[1]);
  char msg[sizeof err->message];
  size_t got = 0;
  ssize_t r;
  while (got < sizeof msg - 1 &&
         ((r = read(fds[0], msg + got, sizeof msg - 1 - got)) > 0 || (r < 0 && errno == EINTR)))
    got += r > 0 ? (size_t)r : 0;
  msg[got] = '\0';
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return xp_fail(err, XP_ERR_RUN, "lost a child process");
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return XP_OK;
  if (WIFEXITED(status) && (WEXITSTATUS(status) == 1 || WEXITSTATUS(status) == 2) && got) {
    xp_fail(err, WEXITSTATUS(status) == 2 ? XP_ERR_USAGE : XP_ERR_RUN, "%s", msg);
    return err->code;
  }
  *died = WIFSIGNALED(status) ? WTERMSIG(status) : -1;
  char how[64];
  if (WIFSIGNALED(status))
    snprintf(how, sizeof how, "signal %d, %s", *died, strsignal(*died));
  else
    snprintf(how, sizeof how, "exit status %d", WEXITSTATUS(status));
  return xp_fail(err, XP_ERR_RUN, "%s", how);
}

// ---- the probe of an untrusted HDF5 file ----------------------------------------------------

#define PROBE_READ_MAX (16u << 20)  // bytes read of one object; larger data is only described

// reads an attribute or dataset of `type` and `space` (small ones only), as libhdf5 would later
static void probe_read(hid_t obj, int is_attr) {
  hid_t type = is_attr ? H5Aget_type(obj) : H5Dget_type(obj);
  hid_t space = is_attr ? H5Aget_space(obj) : H5Dget_space(obj);
  hssize_t np = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
  size_t size = type >= 0 ? H5Tget_size(type) : 0;
  if (np > 0 && size > 0 && (double)np * (double)size <= PROBE_READ_MAX) {
    void *buf = calloc((size_t)np, size);
    if (buf && is_attr) H5Aread(obj, type, buf);
    if (buf && !is_attr) H5Dread(obj, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
    free(buf);  // variable-length data it points to is left to the child's exit
  }
  if (type >= 0) H5Tclose(type);
  if (space >= 0) H5Sclose(space);
}

static herr_t probe_attr(hid_t loc, const char *name, const H5A_info_t *info, void *data) {
  (void)info, (void)data;
  hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
  if (a >= 0) probe_read(a, 1), H5Aclose(a);
  return 0;
}

// objects already walked (by address): hard links may form cycles
typedef struct probe_seen {
  haddr_t *slot;  // open addressing; HADDR_UNDEF = empty
  size_t cap, n;
} probe_seen;

// 1 if addr was new (and is now recorded), 0 if seen before or out of memory
static int probe_first_visit(probe_seen *s, haddr_t addr) {
  if (2 * (s->n + 1) > s->cap) {
    probe_seen g = {malloc(2 * (s->cap ? s->cap : 512) * sizeof(haddr_t)),
                    2 * (s->cap ? s->cap : 512), 0};
    if (!g.slot) return 0;
    for (size_t i = 0; i < g.cap; i++) g.slot[i] = HADDR_UNDEF;
    for (size_t i = 0; i < s->cap; i++)
      if (s->slot[i] != HADDR_UNDEF) probe_first_visit(&g, s->slot[i]);
    free(s->slot);
    *s = g;
  }
  size_t i = (size_t)(addr * 0x9E3779B97F4A7C15ULL) & (s->cap - 1);
  for (; s->slot[i] != HADDR_UNDEF; i = (i + 1) & (s->cap - 1))
    if (s->slot[i] == addr) return 0;
  s->slot[i] = addr, s->n++;
  return 1;
}

static herr_t probe_link(hid_t loc, const char *name, const H5L_info_t *info, void *data);

// one object: its attributes (by name and by creation order, as the readers list them), its
// data if a small dataset, its links if a group; every error is passed over so that the walk
// reaches every object the readers could (H5Ovisit stops at the first error)
static void probe_object(hid_t o, probe_seen *seen) {
  H5O_info_t info;
  if (H5Oget_info2(o, &info, H5O_INFO_BASIC) < 0 || !probe_first_visit(seen, info.addr)) return;
  for (int k = 0; k < 2; k++) {
    hsize_t idx = 0;
    H5Aiterate2(o, k ? H5_INDEX_CRT_ORDER : H5_INDEX_NAME, H5_ITER_INC, &idx, probe_attr, NULL);
  }
  if (info.type == H5O_TYPE_DATASET) probe_read(o, 0);
  if (info.type != H5O_TYPE_GROUP) return;
  for (int k = 0; k < 2; k++) {
    hsize_t idx = 0;
    H5Literate(o, k ? H5_INDEX_CRT_ORDER : H5_INDEX_NAME, H5_ITER_INC, &idx, probe_link, seen);
  }
}

static herr_t probe_link(hid_t loc, const char *name, const H5L_info_t *info, void *data) {
  if (info->type != H5L_TYPE_HARD) return 0;  // the readers never follow other links
  hid_t o = H5Oopen(loc, name, H5P_DEFAULT);
  if (o >= 0) probe_object(o, data), H5Oclose(o);
  return 0;
}

// the child's walk: every object, attribute and small dataset; errors are left to the reader
static int probe_walk(void *arg, xp_error *err) {
  (void)err;
  xp_h5_quiet();
  hid_t f = H5Fopen((const char *)arg, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return XP_OK;
  hid_t root = H5Oopen(f, "/", H5P_DEFAULT);
  probe_seen seen = {NULL, 0, 0};
  if (root >= 0) probe_object(root, &seen), H5Oclose(root);
  free(seen.slot);
  H5Fclose(f);
  return XP_OK;
}

int xp_h5_probe(const char *path, xp_error *err) {
  int died = 0;
  xp_error child = {.code = 0};
  if (xp_isolated(probe_walk, (void *)(uintptr_t)path, 1, &died, &child) == XP_OK) return XP_OK;
  if (!died) return xp_fail(err, XP_ERR_RUN, "cannot check '%s': %s", path, child.message);
  return xp_fail(err, XP_ERR_USAGE,
                 "'%s' is a corrupt HDF5 file: libhdf5 %s reading it (%s); nothing was read", path,
                 died == SIGALRM ? "did not finish" : "crashed", child.message);
}
