// SPDX-License-Identifier: MIT
// Helpers shared by the tests that drive the stabcon executable: a scratch directory, and runs of
// stabcon inside it with stdout+stderr captured.
#ifndef CLI_TEST_UTIL_H
#define CLI_TEST_UTIL_H

#include <sys/types.h>

// The scratch directory of the current test program (created by test_dir_create).
extern char test_dir[256];
// Output (stdout + stderr) of the last finished run, NUL-terminated.
extern char test_output[16384];

// Creates /tmp/stabcon-test-TAG-XXXXXX; 0 ok, −1 on failure (cmocka group setup).
int test_dir_create(const char *tag);
// Removes the scratch directory and everything in it; 0 ok (cmocka group teardown).
int test_dir_remove(void);
// Resolves the stabcon executable to an absolute path (runs chdir into the scratch directory);
// 0 ok, −1 if it does not exist.
int test_stabcon_set(const char *path);
// Starts stabcon ARGS… (NULL-terminated) in the scratch directory, output to the file log.
pid_t test_spawn(const char *const *args, const char *log);
// Waits for pid, reads log into test_output; returns the exit code (128 + signal if killed).
int test_wait(pid_t pid, const char *log);
// test_spawn + test_wait with the log in the scratch directory.
int test_run(const char *const *args);
// Writes "<test_dir>/<name>" into buf.
void test_path(char *buf, size_t len, const char *name);

#endif  // CLI_TEST_UTIL_H
