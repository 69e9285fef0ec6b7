#!/bin/sh
# SPDX-License-Identifier: MIT
# `stabcon bench stack --peer mujoco` (issue 16): MuJoCo steps the same column in the same run;
# `run incline_methods` with MuJoCo on the box on four feet.
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
