#!/bin/sh
# SPDX-License-Identifier: MIT
# Every C source and header the repository tracks is formatted as .clang-format says (STYLE.md):
# clang-format --dry-run -Werror over `git ls-files`; lists the files that differ. Exit 77 (skip)
# without clang-format or git.
set -u
src=${1:?usage: check_format.sh SOURCE_ROOT}
command -v clang-format >/dev/null 2>&1 || { echo "clang-format not installed: skipped"; exit 77; }
command -v git >/dev/null 2>&1 || { echo "git not installed: skipped"; exit 77; }
files=$(git -C "$src" ls-files '*.c' '*.h') || { echo "not a git checkout: skipped"; exit 77; }
bad=0
checked=0
for f in $files; do
  checked=$((checked + 1))
  if ! clang-format --style=file:"$src/.clang-format" --dry-run -Werror "$src/$f" >/dev/null 2>&1; then
    echo "not formatted: $f (clang-format -i $f)"
    bad=$((bad + 1))
  fi
done
echo "$checked files checked, $bad not formatted"
[ "$bad" -eq 0 ]
