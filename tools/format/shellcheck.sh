#!/usr/bin/env bash
# Runs shellcheck over every shell script of the tree at $1 (default: this
# checkout): the *.sh files and the files whose first line names bash or sh
# (.ci/run), but not third_party/. The root .shellcheckrc applies. Exits
# non-zero, listing the findings, when shellcheck has any.
# Usage: tools/format/shellcheck.sh [root]
set -euo pipefail
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
# shellcheck source=tools/format/tree_files.sh
source "$here/tree_files.sh"
root=${1:-$here/../..}
cd "$root"

command -v shellcheck >/dev/null || { echo "shellcheck missing: run scripts/setup.sh" >&2; exit 1; }

mapfile -t candidates < <(tree_files)
files=()
for f in "${candidates[@]}"; do
  if [[ "$f" == *.sh ]] || head -n 1 "$f" | grep -qE '^#!.*[/ ](ba)?sh( |$)'; then
    files+=("$f")
  fi
done
if ((${#files[@]} == 0)); then
  echo "no shell scripts found under $root" >&2
  exit 1
fi
if ! shellcheck --external-sources --format=gcc "${files[@]}"; then
  echo >&2
  echo "shellcheck found problems in the scripts above; fix them or add a" >&2
  echo "narrow '# shellcheck disable=SCxxxx  # reason' on the line before." >&2
  exit 1
fi
echo "all ${#files[@]} shell scripts pass shellcheck"
