#!/bin/sh
# SPDX-License-Identifier: MIT
# `stabcon export FILE --case NAME --xdmf` on the incline, a small dropped stack, a small pile and
# the spring–cylinder (a planar model mapped to its body):
# the XDMF parses and every dataset it names exists with the declared shape and type
# (xdmf_check.py with h5probe); `frames` bounds the frames stored; a case without per-body
# history (frames=0, or the stack's scaling table) is refused with a message and exit 2 and
# leaves no file, and so is a damaged history; an XDMF name that is a symlink is refused and its
# target left alone.
# usage: xdmf.sh STABCON H5PROBE CHECK_PY
set -eu
stabcon=$(realpath "$1")
probe=$(realpath "$2")
check=$(realpath "$3")
dir=$(mktemp -d /tmp/stabcon-xdmf-XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$stabcon" run incline_methods --set method=paperA-coulomb --set frames=20 -o inc.h5 > /dev/null
"$stabcon" run pile --set method=paperA-relaxed --set n=6 --set T=0.3 -o pile.h5 > /dev/null
"$stabcon" run spring_cylinder_methods --set method=theta-midpoint --set T=1 -o cyl.h5 > /dev/null
"$stabcon" run stack --set n=2,4 --set repeats=1 --set T=0.3 --set settle_T=0.1 \
  --set pile_n=0 --set frames=7 -o stack.h5 > /dev/null
# frames: frames=20 over 100 steps keeps every 6th step and the last (18), the pile's 30 steps
# all 31 states (default 100), frames=7 over 30 steps every 5th (7), the cylinder's 50 steps
# all 51
for run in "inc.h5 method=paperA-coulomb 18 1" "pile.h5 method=paperA-relaxed 31 6" \
           "stack.h5 cost_N=4 7 4" "cyl.h5 method=theta-midpoint 51 1"; do
  set -- $run
  out=$("$stabcon" export "$1" --case "$2" --xdmf)
  test "$out" = "${1%.h5}.$2.xdmf" || { echo "wrote '$out'"; exit 1; }
  python3 "$check" "$out" "$probe" | tee check.txt
  grep -q "^ok: $3 frames" check.txt || { echo "expected $3 frames"; exit 1; }
  "$probe" "$1" "/cases/$2/bodies/radius" | grep -qx "float 8 $4" || { echo "not $4 bodies"; exit 1; }
done
# refused: no per-body history
"$stabcon" run incline_methods --set method=paperA-coulomb --set frames=0 -o none.h5 > /dev/null
for bad in "none.h5 method=paperA-coulomb" "stack.h5 scaling" "stack.h5 rest_N=4"; do
  set -- $bad
  rc=0
  "$stabcon" export "$1" --case "$2" --xdmf > out.txt 2> err.txt || rc=$?
  cat err.txt
  test "$rc" -eq 2 || { echo "exit $rc, expected 2"; exit 1; }
  grep -q "no per-body history" err.txt
  test ! -e "${1%.h5}.$2.xdmf" || { echo "a file was left"; exit 1; }
done
# refused: a damaged history (an array missing, of another shape, of 4-byte floats)
for damage in "velocity delete no array 'velocity'" "position shrink shape does not match" \
              "force float32 is not a 2-D array of 8-byte floats"; do
  set -- $damage
  cp pile.h5 bad.h5
  "$probe" --edit bad.h5 "/cases/method=paperA-relaxed/bodies/$1" "$2"
  shift 2
  rc=0
  "$stabcon" export bad.h5 --case method=paperA-relaxed --xdmf 2> err.txt || rc=$?
  cat err.txt
  test "$rc" -eq 2 && grep -qF "$*" err.txt || { echo "expected exit 2 and '$*'"; exit 1; }
  test ! -e bad.method=paperA-relaxed.xdmf
done
# refused: the XDMF name is a symlink (never followed, its target untouched)
echo keep > target.txt
rm -f inc.method=paperA-coulomb.xdmf
ln -s target.txt inc.method=paperA-coulomb.xdmf
rc=0
"$stabcon" export inc.h5 --case method=paperA-coulomb --xdmf 2> err.txt || rc=$?
cat err.txt
test "$rc" -eq 2 && grep -q "symbolic link" err.txt && test "$(cat target.txt)" = keep
echo "all xdmf checks passed"
