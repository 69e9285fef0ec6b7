#!/bin/sh
# SPDX-License-Identifier: MIT
# `stabcon bench stack --peer mujoco` (issue 16): MuJoCo steps the same column in the same run.
# Checks that it ran (its settings line names MuJoCo 2.2), that both rows are complete with
# finite times, that stabcon's bottom overlap equals the Hertz static overlap it starts from
# (a resting column stays at rest: paper A's step is exact at statics), and that no MuJoCo log
# file is left in the working directory. Skipped (77) when the build has no MuJoCo.
# usage: peer_mujoco.sh STABCON
set -eu
stabcon=$(realpath "$1")
dir=$(mktemp -d /tmp/stabcon-peer-XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
if ! "$stabcon" bench stack --peer mujoco --n 3 --steps 20 --repeats 2 > out.txt 2> err.txt; then
  if grep -q "not built" err.txt; then echo "MuJoCo not built: skipped"; exit 77; fi
  cat err.txt; exit 1
fi
cat out.txt
grep -q "^peer: MuJoCo 2\.2" out.txt
row=$(grep "^| 3 |" out.txt)
# | N | stabcon med | min | MuJoCo med | min | ratio | predicted | Hertz | stabcon ovl | MuJoCo ovl | …
echo "$row" | awk -F'|' '{
  for (i = 3; i <= 7; i++) if ($i + 0 <= 0) { print "non-positive time in column " i; exit 1 }
  hertz = $9 + 0; ours = $10 + 0
  if (hertz <= 0 || (ours - hertz) / hertz > 1e-6 || (hertz - ours) / hertz > 1e-6) {
    print "stabcon bottom overlap " ours " differs from Hertz statics " hertz; exit 1 }
}'
[ ! -e MUJOCO_LOG.TXT ]
echo "peer_mujoco: ok"
