// SPDX-License-Identifier: MIT
// Output-path safety shared by run, export, sweep, reproduce, qcp solve and qcp gen.
//
// Every writer writes "<output>.partial" and renames it onto <output>. rename() replaces
// whatever <output> names (a symlink, a device node's directory entry) and H5Fcreate or fopen
// follow a symlinked partial name, so both names are checked with lstat() before anything runs,
// and the partial file is created with O_EXCL | O_NOFOLLOW.
// flock(2): the lock HDF5 holds on a file it writes, so a live writer's partial is told apart
#define _DEFAULT_SOURCE
#include "xp/xp_path.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *file_kind(mode_t mode) {
  return S_ISDIR(mode)    ? "a directory"
         : S_ISLNK(mode)  ? "a symbolic link"
         : S_ISCHR(mode)  ? "a character device"
         : S_ISBLK(mode)  ? "a block device"
         : S_ISFIFO(mode) ? "a fifo"
         : S_ISSOCK(mode) ? "a socket"
                          : "not a regular file";
}

// ".", "..", "dir/", "dir/." and "dir/.." name directories whatever exists
static int names_directory(const char *path) {
  size_t len = strlen(path);
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  return path[len - 1] == '/' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0;
}

// an existing name must be a regular file (lstat: a symlink is refused, not followed)
static int check_existing(const char *what, const char *name, const char *shown, xp_error *err) {
  struct stat st;
  if (lstat(name, &st) != 0) {
    if (errno == ENOENT) return XP_OK;
    return xp_fail(err, XP_ERR_USAGE, "%s '%s': cannot inspect '%s': %s", what, shown, name,
                   strerror(errno));
  }
  if (!S_ISREG(st.st_mode))
    return xp_fail(err, XP_ERR_USAGE, "%s '%s': '%s' exists and is %s; refusing to replace it",
                   what, shown, name, file_kind(st.st_mode));
  return XP_OK;
}

// the directory that will hold the file must exist (else the run would fail only at the end)
static int check_parent(const char *what, const char *output, xp_error *err) {
  char dir[4096];
  if (snprintf(dir, sizeof dir, "%s", output) >= (int)sizeof dir)
    return xp_fail(err, XP_ERR_USAGE, "%s '%.60s…': path too long", what, output);
  char *slash = strrchr(dir, '/');
  if (!slash) return XP_OK;
  if (slash == dir)
    slash[1] = '\0';
  else
    *slash = '\0';
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    return xp_fail(err, XP_ERR_USAGE, "%s '%s': directory '%s' does not exist", what, output, dir);
  return XP_OK;
}

// same device and inode: writing one would destroy the other
static int same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int xp_output_check(const char *what, const char *output, const char *const *inputs,
                    size_t n_inputs, xp_error *err) {
  if (!output || !output[0]) return xp_fail(err, XP_ERR_USAGE, "%s '': empty file name", what);
  if (names_directory(output))
    return xp_fail(err, XP_ERR_USAGE, "%s '%s' names a directory, not a file", what, output);
  char partial[4200];
  if (snprintf(partial, sizeof partial, "%s.partial", output) >= (int)sizeof partial - 100)
    return xp_fail(err, XP_ERR_USAGE, "%s '%.60s…': path too long", what, output);
  int rc = check_existing(what, output, output, err);
  if (rc == XP_OK) rc = check_existing(what, partial, output, err);
  if (rc == XP_OK) rc = check_parent(what, output, err);
  for (size_t i = 0; rc == XP_OK && i < n_inputs; i++) {
    if (!inputs[i]) continue;
    if (same_file(inputs[i], output))
      rc = xp_fail(err, XP_ERR_USAGE, "%s '%s' is the input file '%s'", what, output, inputs[i]);
    else if (same_file(inputs[i], partial))
      rc = xp_fail(err, XP_ERR_USAGE, "%s '%s': its temporary file '%s' is the input file '%s'",
                   what, output, partial, inputs[i]);
  }
  return rc;
}

int xp_partial_remove_stale(const char *partial) {
  struct stat st;
  if (lstat(partial, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  const int fd = open(partial, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  const int busy = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  if (fd >= 0) close(fd);
  if (busy) return errno = EBUSY, -1;
  unlink(partial);
  return 0;
}

int xp_partial_create(const char *partial) {
  if (xp_partial_remove_stale(partial)) return -1;
  const int fd = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd >= 0) flock(fd, LOCK_EX | LOCK_NB);  // held until the writer closes it (new file: free)
  return fd;
}

int xp_gnuplot_path(char *buf, size_t len, const char *path, xp_error *err) {
  if (!path || !path[0]) return xp_fail(err, XP_ERR_USAGE, "empty path for a figure");
  for (const char *c = path; *c; c++)
    if ((unsigned char)*c < 0x20 || *c == 0x7f)
      return xp_fail(err, XP_ERR_USAGE, "path '%s' contains a control character", path);
  if (snprintf(buf, len, "%s%s", path[0] == '/' ? "" : "./", path) >= (int)len)
    return xp_fail(err, XP_ERR_USAGE, "path '%.60s…' is too long", path);
  return XP_OK;
}
