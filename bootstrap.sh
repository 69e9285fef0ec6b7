#!/bin/sh
# SPDX-License-Identifier: MIT
# Set up stabcon on Debian 12 (as root, or with sudo) and run the main job or the tests.
#   ./bootstrap.sh reproduce   install what is missing, build, regenerate the papers' figures/tables
#   ./bootstrap.sh test        install what is missing, build, run the default test suite
#   ./bootstrap.sh build       install what is missing and build only
# Environment: BUILD_DIR (default: build; build-release for reproduce), MESON_ARGS (extra
# `meson setup` options). reproduce times everything it reports, so it builds with
# -Dbuildtype=release (-O3, no debug info; results bit-identical to the default debugoptimized
# build, measured); test and build use the default.
set -eu
cd "$(dirname "$0")"
case "${1:-}" in
  reproduce) BUILD_DIR=${BUILD_DIR:-build-release} MESON_ARGS="-Dbuildtype=release ${MESON_ARGS:-}" ;;
  *) BUILD_DIR=${BUILD_DIR:-build} ;;
esac

# libmatio-dev is optional for the build (meson: dependency('matio', required: false)); it gives
# `stabcon qcp solve NAME.mat` and `stabcon bench maros` their MATLAB reader. libmujoco-dev is
# optional too (meson option mujoco=auto): MuJoCo 2.2 as the peer of `stabcon bench stack`;
# so are libode-dev (ode=auto: the ode-step, ode-quickstep peers) and libsimbody-dev with g++
# (simbody=auto: the simbody peer, a C++ adapter).
PACKAGES="meson ninja-build pkg-config gcc libc6-dev git
  libsundials-dev libgsl-dev libhdf5-dev libsuitesparse-dev liblapack-dev libblas-dev
  libcmocka-dev gnuplot-nox python3-cvxopt libopenmpi-dev openmpi-bin
  libmatio-dev libmujoco-dev clang-format
  libode-dev libsimbody-dev g++"

install_missing() {
  missing=""
  for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  echo "bootstrap: installing:$missing" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  # another apt (unattended upgrades on a fresh machine) may hold the lock: wait up to 5 minutes
  $SUDO apt-get -o DPkg::Lock::Timeout=300 update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq \
    --no-install-recommends $missing >/dev/null
}

build() {
  if [ -f "$BUILD_DIR/build.ninja" ]; then
    # shellcheck disable=SC2086
    meson configure "$BUILD_DIR" -Dwerror=true ${MESON_ARGS:-} >/dev/null
  else
    # shellcheck disable=SC2086
    meson setup "$BUILD_DIR" -Dwerror=true ${MESON_ARGS:-} >/dev/null
  fi
  ninja -C "$BUILD_DIR"
}

case "${1:-}" in
  reproduce)
    install_missing
    build
    shift
    "$BUILD_DIR/experiments/stabcon" reproduce "$@"
    ;;
  test)
    install_missing
    build
    meson test -C "$BUILD_DIR" --no-suite slow --print-errorlogs --num-processes 2
    ;;
  build)
    install_missing
    build
    ;;
  *)
    echo "usage: ./bootstrap.sh reproduce|test|build" >&2
    exit 2
    ;;
esac
