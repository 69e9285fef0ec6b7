// SPDX-License-Identifier: MIT
// Helpers of the hostile-input tests (see hostile_util.h).
#include "hostile_util.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_test_util.h"

static uint64_t content_hash(const char *path) {
  uint64_t h = 1469598103934665603ULL;
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  int c;
  while ((c = fgetc(f)) != EOF) h = (h ^ (uint64_t)(unsigned char)c) * 1099511628211ULL;
  fclose(f);
  return h;
}

file_state hostile_state(const char *name) {
  char path[600];
  test_path(path, sizeof path, name);
  file_state s = {0};
  struct stat st;
  if (lstat(path, &st) != 0) return s;
  s.exists = 1, s.mode = st.st_mode, s.dev = st.st_dev, s.ino = st.st_ino, s.size = st.st_size;
  s.mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
  if (S_ISREG(st.st_mode)) s.hash = content_hash(path);
  return s;
}

int hostile_unchanged(const char *name, const file_state *s) {
  file_state now = hostile_state(name);
  int same = now.exists == s->exists && now.mode == s->mode && now.dev == s->dev &&
             now.ino == s->ino && now.size == s->size && now.mtime_ns == s->mtime_ns &&
             now.hash == s->hash;
  if (!same)
    printf("'%s' changed: exists %d→%d, inode %lu→%lu, size %lld→%lld, hash %llx→%llx\n", name,
           s->exists, now.exists, (unsigned long)s->ino, (unsigned long)now.ino, (long long)s->size,
           (long long)now.size, (unsigned long long)s->hash, (unsigned long long)now.hash);
  return same;
}

int hostile_absent(const char *name) {
  file_state s = hostile_state(name);
  if (s.exists) printf("'%s' exists but must not\n", name);
  return !s.exists;
}

static char stabcon_path[4096];

int hostile_init(const char *stabcon) {
  if (!realpath(stabcon, stabcon_path) || test_stabcon_set(stabcon) != 0) return -1;
  return 0;
}

int hostile_run_stdout(const char *const *args, const char *out_path) {
  char log[600];
  test_path(log, sizeof log, "log.txt");
  if (!out_path) return test_run(args);
  pid_t pid = fork();
  if (pid == 0) {
    int err = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int out = open(out_path, O_WRONLY);
    if (err < 0 || out < 0) _exit(97);
    dup2(out, 1);
    dup2(err, 2);
    if (chdir(test_dir) != 0) _exit(99);
    char *argv[40];
    int n = 0;
    argv[n++] = stabcon_path;
    while (args[n - 1] && n < 39) argv[n] = (char *)args[n - 1], n++;
    argv[n] = NULL;
    execv(stabcon_path, argv);
    _exit(98);
  }
  return test_wait(pid, log);
}

int hostile_says(const char *first, ...) {
  va_list ap;
  va_start(ap, first);
  int ok = 1;
  for (const char *s = first; s; s = va_arg(ap, const char *))
    if (!strstr(test_output, s)) {
      printf("output lacks '%s'\n", s);
      ok = 0;
    }
  va_end(ap);
  if (!ok) printf("--- output ---\n%s\n--------------\n", test_output);
  return ok;
}

hid_t hostile_h5_open(const char *name) {
  char path[600];
  test_path(path, sizeof path, name);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  return H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
}

void hostile_attr_replace(hid_t file, const char *obj, const char *attr, hid_t type, int rank,
                          const hsize_t *dims, const void *data) {
  if (H5Aexists_by_name(file, obj, attr, H5P_DEFAULT) > 0)
    H5Adelete_by_name(file, obj, attr, H5P_DEFAULT);
  hid_t space = rank == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(rank, dims, NULL);
  hid_t a = H5Acreate_by_name(file, obj, attr, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (a >= 0) {
    H5Awrite(a, type, data);
    H5Aclose(a);
  }
  H5Sclose(space);
}

void hostile_dataset_unwritten(hid_t file, const char *path, hsize_t n) {
  if (H5Lexists(file, path, H5P_DEFAULT) > 0) H5Ldelete(file, path, H5P_DEFAULT);
  hsize_t chunk = 1024;
  hid_t space = H5Screate_simple(1, &n, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl, 1, &chunk);
  hid_t ds = H5Dcreate2(file, path, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  if (ds >= 0) H5Dclose(ds);
  H5Pclose(dcpl);
  H5Sclose(space);
}

static herr_t first_name(hid_t g, const char *name, const H5L_info_t *info, void *data) {
  (void)g, (void)info;
  snprintf(data, 256, "%s", name);
  return 1;
}

void hostile_first_case(hid_t file, char *buf, size_t len) {
  char name[256] = "";
  hsize_t idx = 0;
  hid_t g = H5Gopen2(file, "cases", H5P_DEFAULT);
  H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, &idx, first_name, name);
  H5Gclose(g);
  snprintf(buf, len, "%s", name);
}

int hostile_tmpfs_mount(const char *name, int kb) {
  char path[600], opts[64];
  test_path(path, sizeof path, name);
  snprintf(opts, sizeof opts, "size=%dk", kb);
  if (mkdir(path, 0755) != 0) return -1;
  if (mount("tmpfs", path, "tmpfs", 0, opts) != 0) {
    perror("mount tmpfs");
    rmdir(path);
    return -1;
  }
  return 0;
}

void hostile_tmpfs_umount(const char *name) {
  char path[600];
  test_path(path, sizeof path, name);
  umount(path);
  rmdir(path);
}

int hostile_filler(const char *name, long kb) {
  char path[600];
  test_path(path, sizeof path, name);
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  static const char zeros[1024];
  for (long k = 0; k < kb; k++)
    if (fwrite(zeros, 1, sizeof zeros, f) != sizeof zeros) break;  // the disk may fill first
  fclose(f);
  return 0;
}

int hostile_copy(const char *from_path, const char *to) {
  char b[600];
  test_path(b, sizeof b, to);
  FILE *in = fopen(from_path, "rb"), *out = in ? fopen(b, "wb") : NULL;
  int rc = in && out ? 0 : -1;
  char buf[65536];
  size_t n;
  while (!rc && (n = fread(buf, 1, sizeof buf, in)) > 0)
    if (fwrite(buf, 1, n, out) != n) rc = -1;
  if (in) fclose(in);
  if (out && fclose(out) != 0) rc = -1;
  return rc;
}
