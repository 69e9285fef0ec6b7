#!/bin/sh
# SPDX-License-Identifier: MIT
# A 2-rank MPI sweep equals the serial sweep of the same grid (timings aside); so does one with a
# point that fails (recorded as a failed case), and one that stopped on a write failure of one
# rank and was completed with --resume on 2 ranks.
# usage: mpi_sweep.sh STABCON_MPI_BUILD
set -eu
stabcon=$(realpath "$1")
dir=$(mktemp -d /tmp/stabcon-mpi-XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
mpi() { mpirun --allow-run-as-root --oversubscribe -n 2 "$stabcon" "$@"; }

# 1. the plain grid
grid="--method explicit,semi-implicit,implicit --set h=1e-4:1e-2:5:log --set k=100,1e4"
# shellcheck disable=SC2086
mpi sweep smd $grid -o mpi.h5
# shellcheck disable=SC2086
"$stabcon" sweep smd $grid -o serial.h5
"$stabcon" compare mpi.h5 serial.h5

# 2. a point whose parameters cannot run (h_max < h_min) is a failed case on both
fail="--set h_max=1e-7,1 --set n_h=5 --set n_k=5 --set steps=50"
# shellcheck disable=SC2086
mpi sweep smd_map $fail -o mpi_fail.h5
# shellcheck disable=SC2086
"$stabcon" sweep smd_map $fail -o serial_fail.h5
"$stabcon" compare mpi_fail.h5 serial_fail.h5
"$stabcon" info mpi_fail.h5 | grep -q "g00000_failed"

# 3. rank 1 cannot write point 3 (a directory stands where its part goes): the sweep stops with
#    exit 1 naming that file and keeps the finished parts; --resume on 2 ranks completes it
mkdir -p resumed.h5.parts/g00003.h5.partial
# shellcheck disable=SC2086
if mpi sweep smd $grid -o resumed.h5 2> err.txt; then
  echo "expected the blocked sweep to fail"; exit 1
fi
grep -q "g00003.h5.partial" err.txt
[ ! -e resumed.h5 ]
rmdir resumed.h5.parts/g00003.h5.partial
# shellcheck disable=SC2086
mpi sweep smd $grid -o resumed.h5 --resume
"$stabcon" compare resumed.h5 serial.h5
echo "mpi sweeps: plain, failed point and resumed all equal the serial ones"
