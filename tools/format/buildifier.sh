#!/usr/bin/env bash
# buildifier over every BUILD, BUILD.bazel, *.bzl and WORKSPACE file of the
# tree at the given root (default: this checkout), but not third_party/.
# Usage: tools/format/buildifier.sh [--check] [root]
#   without --check: formats the files in place;
#   --check: changes nothing, lists the files that are not formatted and
#            exits non-zero when there is any.
# buildifier comes from tools/format/bin/ (scripts/tools.sh installs it;
# scripts/setup.sh runs that) or PATH. Lint warnings are off: only format.
set -euo pipefail
mode=fix
if [[ ${1:-} == --check ]]; then
  mode=check
  shift
fi
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
# shellcheck source=tools/format/tree_files.sh
source "$here/tree_files.sh"
root=${1:-$here/../..}
buildifier=$here/bin/buildifier
if [[ ! -x "$buildifier" ]]; then
  buildifier=$(command -v buildifier) || {
    echo "buildifier missing: run scripts/tools.sh (scripts/setup.sh does)" >&2
    exit 1
  }
fi
cd "$root"

mapfile -t candidates < <(tree_files)
files=()
for f in "${candidates[@]}"; do
  case "${f##*/}" in
    BUILD | BUILD.bazel | WORKSPACE | WORKSPACE.bazel | *.bzl) files+=("$f") ;;
  esac
done
if ((${#files[@]} == 0)); then
  echo "no BUILD files found under $root" >&2
  exit 1
fi

if [[ $mode == fix ]]; then
  "$buildifier" -lint=off "${files[@]}"
  exit
fi
if ! out=$("$buildifier" -mode=check -lint=off "${files[@]}" 2>&1); then
  echo "Not formatted by buildifier:" >&2
  echo "$out" >&2
  echo "Run tools/format/buildifier.sh to fix." >&2
  exit 1
fi
echo "all ${#files[@]} BUILD files are formatted by buildifier"
