#!/bin/sh
# SPDX-License-Identifier: MIT
# A 2-rank MPI sweep equals the serial sweep of the same grid (timings aside).
# usage: mpi_sweep.sh STABCON_MPI_BUILD
set -eu
stabcon=$(realpath "$1")
dir=$(mktemp -d /tmp/stabcon-mpi-XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
grid="--method explicit,semi-implicit,implicit --set h=1e-4:1e-2:5:log --set k=100,1e4"
# shellcheck disable=SC2086
mpirun --allow-run-as-root --oversubscribe -n 2 "$stabcon" sweep smd $grid -o mpi.h5
# shellcheck disable=SC2086
"$stabcon" sweep smd $grid -o serial.h5
"$stabcon" compare mpi.h5 serial.h5
