#!/bin/sh
# SPDX-License-Identifier: MIT
# Dissipation laws on the single dropped sphere (issue 14 item 4), paper A's step (relaxed), h
# small. References are closed forms, not our code: with no damping the step's own dissipation
# 1 − e₀ must vanish at order ≈ 1 as h → 0 (fitted over h = 4e-6, 2e-6, 1e-6); with damping, the
# loss beyond that floor, (1 − e) − (1 − e₀), must approach the small-damping restitution of each
# law (hertz.h: the elastic path's energy loss in Beta functions; Hunt–Crossley 1 − e = (2/3)αv)
# as the damping shrinks: the relative gap at half the damping is at most 0.65 of the gap at the
# full damping (first order) plus 0.2 % (the floor's cross term), and below 1 %.
# usage: dissipation.sh STABCON
set -eu
stabcon=$(realpath "$1")
dir=$(mktemp -d /tmp/stabcon-diss-XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

# restitution and its small-damping theory of one run: "e e_theory"
run() {
  "$stabcon" run sphere --set method=paperA-relaxed "$@" -o r.h5 > /dev/null
  "$stabcon" export r.h5 | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
    NR == 2 { print $col["restitution"], $col["restitution_small_damping"] }'
}

# 1. the floor and its order
f4=$(run --set h=4e-6 | cut -d' ' -f1)
f2=$(run --set h=2e-6 | cut -d' ' -f1)
f1=$(run --set h=1e-6 | cut -d' ' -f1)
echo "no damping: 1 - e = $(echo "$f4 $f2 $f1" | awk '{ printf "%.3e %.3e %.3e", 1-$1, 1-$2, 1-$3 }') at h = 4e-6, 2e-6, 1e-6"
echo "$f4 $f2 $f1" | awk '{ p = log((1-$1)/(1-$3)) / log(4); printf "observed order %.3f\n", p
  if (p < 0.8 || p > 1.2) { print "order outside [0.8, 1.2]"; exit 1 } }'

# 2. each law at two damping levels (h = 1e-6)
check() {  # law, parameter, full value, half value
  a=$(run --set h=1e-6 --set dissipation="$1" --set "$2=$3")
  b=$(run --set h=1e-6 --set dissipation="$1" --set "$2=$4")
  echo "$a $b $f1" | awk -v law="$1" -v key="$2" -v x="$3" -v y="$4" '{
    ga = ((1 - $1 - (1 - $5)) - (1 - $2)) / (1 - $2)
    gb = ((1 - $3 - (1 - $5)) - (1 - $4)) / (1 - $4)
    printf "%s: %s = %s: loss %.4e vs theory %.4e (gap %+.2f %%); %s = %s: %.4e vs %.4e (gap %+.2f %%)\n",
      law, key, x, 1 - $1 - (1 - $5), 1 - $2, 100 * ga, key, y, 1 - $3 - (1 - $5), 1 - $4, 100 * gb
    if (gb < 0) gb = -gb; if (ga < 0) ga = -ga
    if (gb > 0.65 * ga + 0.002 || gb > 0.01) { print "  not converging to the theory"; exit 1 } }'
}
check paper B 2 1
check hunt-crossley alpha 0.02 0.01
check sap tau_d 2e-5 1e-5
echo "dissipation: ok"
