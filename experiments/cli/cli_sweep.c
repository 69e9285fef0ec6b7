// SPDX-License-Identifier: MIT
// Executing a sweep serially, or across MPI ranks (meson -Dmpi=true): rank 0 prepares the parts
// folder, every rank runs the grid points i with i % ranks == rank into its own part files, and
// rank 0 merges them in grid order — the same file a serial sweep writes (timings aside).
#include "cli_commands.h"

#ifdef STABCON_MPI
#include <mpi.h>
#endif
#include <limits.h>
#include <stdio.h>
#include <time.h>

#ifdef STABCON_MPI
// the worst return code over all ranks (the lowest: error codes are < 0), so every rank agrees on
// what happened; on a failure the
// message of the lowest failing rank is copied to every rank (rank 0 prints it)
static int all_worst(int rc, xp_error *err) {
  // a rank that is done waits here for the others: poll a non-blocking barrier with short sleeps
  // instead of spinning a core inside a blocking collective (that would slow the working ranks
  // and their timings)
  MPI_Request req;
  int arrived = 0;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  while (MPI_Test(&req, &arrived, MPI_STATUS_IGNORE) == MPI_SUCCESS && !arrived)
    nanosleep(&(struct timespec){.tv_sec = 0, .tv_nsec = 2000000}, NULL);
  int worst = rc, rank = 0;
  MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (worst == XP_OK) return worst;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int mine = rc != XP_OK ? rank : INT_MAX, src = INT_MAX;
  MPI_Allreduce(&mine, &src, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Bcast(err->message, (int)sizeof err->message, MPI_CHAR, src, MPI_COMM_WORLD);
  return worst;
}

int cli_sweep_execute(xp_sweep_spec *spec, xp_sweep_options *opt, xp_error *err) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) MPI_Init(NULL, NULL);
  MPI_Comm_rank(MPI_COMM_WORLD, &opt->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &opt->ranks);
  int rc = opt->rank == 0 ? xp_sweep_prepare(spec, opt, err) : XP_OK;
  rc = all_worst(rc, err);
  if (rc == XP_OK) rc = all_worst(xp_sweep_run(spec, opt, err), err);
  if (rc == XP_OK) rc = all_worst(opt->rank == 0 ? xp_sweep_merge(spec, opt, err) : XP_OK, err);
  if (rc != XP_OK && !err->message[0]) xp_fail(err, rc, "another rank failed");
  MPI_Finalize();
  // only rank 0 speaks for the sweep
  if (opt->rank != 0 && rc != XP_OK) err->message[0] = '\0';
  return rc;
}
#else
int cli_sweep_execute(xp_sweep_spec *spec, xp_sweep_options *opt, xp_error *err) {
  int rc = xp_sweep_prepare(spec, opt, err);
  if (rc == XP_OK) rc = xp_sweep_run(spec, opt, err);
  if (rc == XP_OK) rc = xp_sweep_merge(spec, opt, err);
  return rc;
}
#endif
