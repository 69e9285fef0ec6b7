// SPDX-License-Identifier: MIT
// Output paths: every command that writes a file checks its output here first, before any
// computation, so a hostile or mistaken -o can never destroy an input, a device or a directory.
#ifndef XP_XP_PATH_H
#define XP_XP_PATH_H

#include <stddef.h>

#include "xp/xp.h"

// Checks that `output` may be written as "<output>.partial" renamed onto "<output>": refuses
// (XP_ERR_USAGE, message naming the path) an empty name, ".", "..", a name ending in '/', an
// output or partial name that exists and is not a regular file (directory, symlink, device
// node, fifo, socket), a missing parent directory, and an output or partial name that is the
// same file (device + inode) as one of the n_inputs files in `inputs` (NULL entries skipped).
// `what` names the option in messages ("-o"). XP_OK when the output may be written.
int xp_output_check(const char *what, const char *output, const char *const *inputs,
                    size_t n_inputs, xp_error *err);

// Removes a stale regular partial file: one no live process is writing. A writer holds an
// exclusive flock on its partial file (HDF5 does on the files it writes, xp_partial_create on its
// own), so a partial that is locked belongs to another run and is left alone: -1 with errno
// EBUSY; 0 when the name is free (removed or absent, or not a regular file: the caller's checks).
int xp_partial_remove_stale(const char *partial);

// Creates "<output>.partial" for writing without following a symlink (O_CREAT | O_EXCL |
// O_NOFOLLOW after xp_partial_remove_stale) and locks it for as long as it is open; returns the
// descriptor or -1 with errno set (EBUSY: another process is writing it). The caller closes it
// and renames or unlinks the partial file.
int xp_partial_create(const char *partial);

// A path as it must reach gnuplot, whether as an argument or inside a script: gnuplot reads a
// file name that begins with '<' as a command to run and one that begins with '|' as a pipe, so
// a relative name is written with a "./" prefix (an absolute one begins with '/'). Refuses
// (XP_ERR_USAGE, naming the path) an empty name, a control character (paths travel as datablock
// lines) and a result longer than len. Every command that draws passes its paths through here.
int xp_gnuplot_path(char *buf, size_t len, const char *path, xp_error *err);

#endif  // XP_XP_PATH_H
