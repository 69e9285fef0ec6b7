#!/bin/sh
# SPDX-License-Identifier: MIT
# Every paper study selects its methods by the registry's names (`--set method=…`): each runs,
# at a tiny size, a method other than its default and writes a case for it; a method the study
# cannot run is refused with exit 2 and the reason, and no file is left behind. A method setting
# (SIM_OPTION_LIST) reaches the method.
# usage: study_methods.sh STABCON
set -eu
stabcon=$(realpath "$1")
dir=$(mktemp -d /tmp/stabcon-methods-XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail=0

# runs NAME with the settings, expects exit 0 and a case whose name contains PATTERN
ok() {
  name=$1 pattern=$2
  shift 2
  if ! "$stabcon" run "$name" "$@" -o r.h5 > log 2>&1; then
    echo "FAIL: run $name $*: exit $?"; cat log; fail=1; return
  fi
  if ! "$stabcon" export r.h5 | cut -d, -f1 | grep -q -- "$pattern"; then
    echo "FAIL: run $name $*: no case matching '$pattern'"; "$stabcon" export r.h5 | cut -d, -f1
    fail=1
  else
    echo "ok: run $name $*"
  fi
  rm -f r.h5
}

# runs NAME with the settings, expects exit 2, MESSAGE on stderr and no file
refused() {
  name=$1 message=$2
  shift 2
  rc=0
  "$stabcon" run "$name" "$@" -o r.h5 > log 2>&1 || rc=$?
  if [ "$rc" -ne 2 ] || ! grep -q -- "$message" log || [ -e r.h5 ]; then
    echo "FAIL: run $name $*: exit $rc, expected 2 with '$message'"; cat log; fail=1
  else
    echo "ok (refused): run $name $*"
  fi
}

# `list` shows every runnable name: the paper experiments and the scenarios' matrix runs
for name in foundation pile sphere foundation_methods incline_methods stack_methods; do
  if "$stabcon" list | grep -q "^$name "; then echo "ok: listed $name"; else
    echo "FAIL: stabcon list does not show $name"; fail=1; fi
done

small_fd="--set n=3 --set E=1e7 --set F=5 --set T=0.02 --set h_fine=0"
# shellcheck disable=SC2086
ok foundation _constraint --set method=paperA-relaxed,cvode-bdf1 $small_fd
# shellcheck disable=SC2086
ok foundation _theta-implicit --set method=theta-implicit $small_fd
ok foundation_wp theta-midpoint_h= --set method=theta-midpoint,rk45 --set n=3 --set T=0.02 \
  --set h=0.01 --set tol=1e-4
ok incline theta-implicit_mu= --set method=paperA-relaxed,theta-implicit --set mu=0.25 \
  --set T=0.02
ok stack cost_N=2 --set method=paperA-relaxed --set n=2 --set T=0.02 --set repeats=1 \
  --set settle_n=2 --set settle_T=0.02
ok pendulum h= --set method=ida --set h=0.01 --set T=0.05
ok rom_pendulum h= --set method=paperA-paper --set h=1e-5
ok spring_cylinder energy_mu= --set method=theta-midpoint --set T=0.1 --set levels=2 \
  --set paper_a=0
ok restitution law= --set method=theta-implicit --set h=1e-5 --set v0=1 --set T=0.02

refused foundation "unknown method 'constraint'" --set method=constraint
refused rom_pendulum "drives paper A's step itself" --set method=rk45
refused spring_cylinder "fits each θ-scheme's order" --set method=paperA-relaxed
refused stack "one method per run" --set method=paperA-relaxed,rk45
refused incline "does not apply to scenario incline" --set method=ida
# a method setting of the one list reaches paper A's step: max_pivots is its dense solver's cap
refused sphere "max_iter (must be in 1..100000)" --set method=paperA-relaxed --set max_pivots=200000
exit $fail
