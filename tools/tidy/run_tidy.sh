#!/usr/bin/env bash
# One action of the clang_tidy aspect (tools/tidy/tidy.bzl): runs
# clang-tidy-14 with CONFIG over SRC compiled with the given arguments and,
# when it finds nothing, creates OUT. On a finding it prints them and fails
# (every finding is an error: the config's WarningsAsErrors).
# Usage: run_tidy.sh OUT CONFIG SRC -- compiler arguments...
set -euo pipefail
out=$1 config=$2 src=$3
shift 3
[[ ${1:-} == -- ]] && shift
tidy=${CLANG_TIDY:-clang-tidy-14}
command -v "$tidy" >/dev/null || { echo "$tidy missing: run scripts/setup.sh" >&2; exit 1; }
# Headers reached through the source tree (-iquote .) are ours; every other
# include path is given as a system one, whose diagnostics are left out.
if ! result=$("$tidy" --quiet --config-file="$config" --header-filter='.*' "$src" -- "$@" 2>&1); then
  # Paths as the tree names them, not the sandbox's.
  printf '%s\n' "$result" | grep -v 'warnings\{0,1\} generated\.$' | sed "s|$PWD/||g" >&2
  echo "clang-tidy: findings in $src (above): fix them (see the root .clang-tidy)," >&2
  echo "or for a finding that is wrong add NOLINT(check-name) with the reason." >&2
  exit 1
fi
: >"$out"
