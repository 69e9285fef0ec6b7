#!/bin/sh
# SPDX-License-Identifier: MIT
# `stabcon bench stack --peer mujoco`: MuJoCo steps the same column in the same run;
# `run incline_methods` with MuJoCo on the box on four feet.
# Checks that it ran (its peer line names MuJoCo 2.2), that both rows are complete with
# finite times, that stabcon's largest overlap at the end equals the one at rest it starts from
# (the Hertz static overlaps: a resting column stays at rest, paper A's step is exact at
# statics), and that no MuJoCo log
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
grep -q "^peer: mujoco — MuJoCo 2\.2" out.txt
row=$(grep "^| 3 |" out.txt)
# | N | stabcon CPU med | mean | min | MuJoCo CPU med | mean | min | ratio of means | ratio of
# medians | stabcon wall med | MuJoCo wall med | predicted | at rest | stabcon ovl | MuJoCo ovl | …
echo "$row" | awk -F'|' '{
  for (i = 3; i <= 12; i++) if ($i + 0 <= 0) { print "non-positive time in column " i; exit 1 }
  rest = $14 + 0; ours = $15 + 0
  if (rest <= 0 || (ours - rest) / rest > 1e-6 || (rest - ours) / rest > 1e-6) {
    print "stabcon largest overlap " ours " differs from the one at rest " rest; exit 1 }
}'
# the incline (the box on its four feet in the ramp frame): frictionless, the distance in 1 s
# at h = 0.01 is the discrete sum h² a N(N+1)/2 (a = g sin 15°, N = 100) for any contact law
# (1.2822 m, paper A's value; MuJoCo's soft contact costs a little of it); at μ = 0.375 the box
# sticks in stabcon and creeps in MuJoCo: both distances are recorded, the creep printed
for mu in 0 0.375; do
  "$stabcon" run incline_methods --set method=paperA-coulomb,mujoco --set mu=$mu --set T=1 \
    -o "incline$mu.h5" > /dev/null
  "$stabcon" export "incline$mu.h5" > "incline$mu.csv"
done
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  { printf "incline mu=0: %s distance %.9g m (discrete closed form %.9g)\n", $col["case"],
      $col["distance"], 1e-4 * 9.81 * sin(15 * atan2(0, -1) / 180) * 5050
    d = $col["distance"] - 1e-4 * 9.81 * sin(15 * atan2(0, -1) / 180) * 5050
    if (d < 0) d = -d
    if (d > ($col["case"] ~ /mujoco/ ? 1e-3 : 1e-9)) { print "distance off"; exit 1 } }' incline0.csv
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  { printf "incline mu=0.375: %s creep %.3g m, largest foot overlap %.3g m (Hertz %.3g m)\n",
      $col["case"], $col["distance"], $col["foot_overlap_max"], $col["foot_overlap_hertz"]
    if (!($col["distance"] >= 0) || ($col["case"] ~ /paperA/ && $col["distance"] > 1e-7)) {
      print "stabcon does not stick"; exit 1 } }' incline0.375.csv
[ ! -e MUJOCO_LOG.TXT ]
echo "peer_mujoco: ok"
