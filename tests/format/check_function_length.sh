#!/bin/sh
# SPDX-License-Identifier: MIT
# No function over 80 lines without a reason in a comment (STYLE.md "functions mostly
# short"): over every tracked C file, a definition starts at a column-0 line with '(' and ends at
# the next column-0 '}'; one longer than 80 lines passes only if the comment block right above it
# says why ("long on purpose", "about N lines", "hence the length"). Lists every long function
# with its length, and the ones without a reason. Exit 77 (skip) without git.
set -u
src=${1:?usage: check_function_length.sh SOURCE_ROOT}
command -v git >/dev/null 2>&1 || { echo "git not installed: skipped"; exit 77; }
files=$(git -C "$src" ls-files '*.c' '*.h') || { echo "not a git checkout: skipped"; exit 77; }
cd "$src" || exit 1
# shellcheck disable=SC2086
awk -v LIMIT=80 '
  FNR == 1 { infn = 0; sig = 0; cmt = "" }
  !infn && !sig && /^\/\// { cmt = cmt " " $0; next }
  !infn && !sig && /^[A-Za-z_][A-Za-z0-9_ \t*]*\(/ && !/;[ \t]*$/ &&
      !/^(typedef|struct|enum|union|static const|const)[ \t]/ {
    start = FNR; name = $0; sub(/\(.*/, "", name); n = split(name, w, /[ \t*]+/); name = w[n]
    why = cmt; sig = 1
  }
  sig && /\{[ \t]*$/ { infn = 1; sig = 0 }
  sig && /;[ \t]*$/ { sig = 0 }
  infn && /^\}/ {
    len = FNR - start + 1; infn = 0
    if (len > LIMIT) {
      ok = why ~ /[Ll]ong|[0-9]+ lines|length/
      printf "%5d lines  %s:%d %s%s\n", len, FILENAME, start, name, ok ? "" : "  (no reason given)"
      if (!ok) bad++
    }
  }
  !/^\/\// { cmt = "" }
  END { printf "%d function(s) over %d lines without a reason\n", bad, LIMIT; exit bad > 0 }
' $files
