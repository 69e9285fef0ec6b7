// SPDX-License-Identifier: MIT
// Helpers of the hostile-input tests: snapshots proving a file was neither created,
// replaced nor truncated; runs of stabcon with stdout sent elsewhere; small HDF5 edits that turn a
// valid results or problem file into a malicious one.
#ifndef HOSTILE_UTIL_H
#define HOSTILE_UTIL_H

#include <hdf5.h>
#include <stdint.h>
#include <sys/types.h>

// What identifies a file's state: existence, kind, device + inode, size, mtime and a content hash.
typedef struct file_state {
  int exists;
  mode_t mode;
  dev_t dev;
  ino_t ino;
  off_t size;
  long long mtime_ns;
  uint64_t hash;  // FNV-1a of the content (regular files)
} file_state;

// Snapshot of path (lstat: a symlink is described, not followed); path relative to test_dir.
file_state hostile_state(const char *name);
// 1 if name is in the same state as s (same inode, size, mtime, content), else 0 (printed).
int hostile_unchanged(const char *name, const file_state *s);
// 1 if name does not exist (lstat), else 0 (printed).
int hostile_absent(const char *name);

// Resolves the stabcon executable (argv[1] of a test); 0 ok, -1 if it does not exist.
int hostile_init(const char *stabcon);
// Runs stabcon ARGS… in test_dir with stdout to out_path (NULL: the log) and stderr to the log;
// returns the exit code and leaves the output in test_output.
int hostile_run_stdout(const char *const *args, const char *out_path);
// 1 if test_output contains every NULL-terminated fragment, else 0 (the output is printed).
int hostile_says(const char *first, ...);

// Opens <test_dir>/name read-write with HDF5 errors silenced; closes with H5Fclose.
hid_t hostile_h5_open(const char *name);
// Replaces attribute `attr` of object `obj` in file by one of the given type, dims and data.
void hostile_attr_replace(hid_t file, const char *obj, const char *attr, hid_t type, int rank,
                          const hsize_t *dims, const void *data);
// Replaces dataset `path` by a chunked dataset of n doubles that is never written.
void hostile_dataset_unwritten(hid_t file, const char *path, hsize_t n);
// Copies the file at from_path (absolute or relative to the current directory) to
// <test_dir>/to (a failed copy fails the test's assertion in the caller: returns 0 ok, -1).
int hostile_copy(const char *from_path, const char *to);
// Name of the first case of a results file (buf of len bytes).
void hostile_first_case(hid_t file, char *buf, size_t len);

// Mounts a tmpfs of kb kilobytes on <test_dir>/name (created): a disk that fills. 0 ok, -1 if
// this environment cannot (not root, no mount permission); the caller then skips.
int hostile_tmpfs_mount(const char *name, int kb);
// Unmounts it (every test that mounts unmounts before it ends).
void hostile_tmpfs_umount(const char *name);
// Creates or resizes <test_dir>/name to kb kilobytes of zeros (filling a tmpfs); 0 ok.
int hostile_filler(const char *name, long kb);

#endif  // HOSTILE_UTIL_H
