// SPDX-License-Identifier: MIT
// Two pieces of untimed work at once (xp_common.h): the second in a child process on the other
// core, its result copied back through shared memory. Used for reference solutions, whose wall
// time no table reports as a measurement, so that reproduce's timed runs still run alone.
#define _DEFAULT_SOURCE  // MAP_ANONYMOUS (not in POSIX 2008; Linux and the BSDs have it)
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "xp/xp_common.h"

void xp_concurrently(void (*first)(void *arg), void *first_arg,
                     void (*second)(void *arg, void *out), void *second_arg, void *second_out,
                     size_t out_size) {
  // the child's result, then a flag it sets when the result is complete
  const size_t size = out_size + sizeof(int);
  unsigned char *shared =
      mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  pid_t pid = -1;
  if (shared != MAP_FAILED) {
    memset(shared, 0, size);
    fflush(NULL);  // nothing buffered is written twice
    pid = fork();
  }
  if (pid == 0) {
    signal(SIGINT, SIG_IGN);  // the parent handles an interrupt and waits for this child
    second(second_arg, shared);
    *(volatile int *)(shared + out_size) = 1;
    _exit(0);  // no atexit handlers, no stdio flush of the parent's buffers
  }
  first(first_arg);
  int status = 0, done = 0;
  if (pid > 0) {
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    done = WIFEXITED(status) && WEXITSTATUS(status) == 0 && *(volatile int *)(shared + out_size);
  }
  if (done)
    memcpy(second_out, shared, out_size);
  else
    second(second_arg, second_out);  // no child (or it died): the same work here, after first
  if (shared != MAP_FAILED) munmap(shared, size);
}
