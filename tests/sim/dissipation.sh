#!/bin/sh
# SPDX-License-Identifier: MIT
# Dissipation laws on the single dropped sphere, paper A's step (relaxed), h
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

# 3. Hunt–Crossley at finite damping against its exact restitution. With m δ̈ = −k δ^n (1 + α δ̇)
# and no gravity, m u du/(1 + α u) = −k δ^n dδ integrates over compression and restitution to
# α v_i − ln(1 + α v_i) = −α v_o − ln(1 − α v_o), whatever k, n and m: e = v_o/v_i from that
# equation (bisection), here α v_i = 0.2 (e = 0.8822; the small-damping 1 − (2/3)αv gives 0.8667).
# The step's restitution must converge to it at order ≈ 1 (h = 4e-6, 2e-6, 1e-6).
e_hc() { run --set h="$1" --set dissipation=hunt-crossley --set alpha=0.2 | cut -d' ' -f1; }
h4=$(e_hc 4e-6)
h2=$(e_hc 2e-6)
h1=$(e_hc 1e-6)
echo "$h4 $h2 $h1" | awk '{
  a = 0.2; L = a - log(1 + a); lo = 0; hi = 0.999
  for (k = 0; k < 200; k++) { x = (lo + hi) / 2; if (-x - log(1 - x) < L) lo = x; else hi = x }
  e = x / a; d4 = e - $1; d2 = e - $2; d1 = e - $3; p = log(d4 / d1) / log(4)
  printf "hunt-crossley alpha v = 0.2: exact e = %.6f; step %.6f %.6f %.6f at h = 4e-6, 2e-6, 1e-6 (error %.2e %.2e %.2e), observed order %.3f\n",
    e, $1, $2, $3, d4, d2, d1, p
  if (!(d1 > 0 && d4 > d1) || p < 0.8 || p > 1.2 || d1 > 1e-3) { print "  not converging to the exact restitution"; exit 1 } }'
echo "dissipation: ok"
