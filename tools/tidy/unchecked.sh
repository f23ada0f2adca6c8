#!/usr/bin/env bash
# Prints the .cc files of the tree in the current directory (third_party/
# left out, as tools/format/tree_files.sh lists it, and the fixtures under
# testdata/ folders, which tests compile on purpose) that the clang_tidy
# aspect (tools/tidy/tidy.bzl) did not pass: those with no
# <package>/_clang_tidy/<target>/<file>.ok under BIN (the build's bazel-bin).
# A file no target lists, or whose target `//...` leaves out (tags
# "manual"), would otherwise never be checked. Exits 1 when it prints any.
# Usage: tools/tidy/unchecked.sh BIN
set -euo pipefail
bin=$1
# shellcheck source=tools/format/tree_files.sh
source "$(dirname "$(readlink -f "$0")")/../format/tree_files.sh"
[[ -d "$bin" ]] || { echo "no such directory: $bin" >&2; exit 1; }
checked=$(cd "$bin" && find . -path '*/_clang_tidy/*' -name '*.ok' -print |
  sed -E 's|^\./(.*/)?_clang_tidy/[^/]+/||; s|\.ok$||' | sort -u)
missing=$(comm -23 <(tree_files | grep -E '\.cc$' | grep -v '/testdata/' | sort -u) <(printf '%s\n' "$checked"))
[[ -z "$missing" ]] || { printf '%s\n' "$missing"; exit 1; }
