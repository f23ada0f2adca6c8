#!/usr/bin/env bash
# Runs shellcheck over every shell script of the tree at $1 (default: this
# checkout): the *.sh files and the files whose first line names bash or sh
# (.ci/run), but not third_party/. The root .shellcheckrc applies. Exits
# non-zero, listing the findings, when shellcheck has any.
# Usage: tools/format/shellcheck.sh [root]
set -euo pipefail
root=${1:-$(dirname "$0")/../..}
cd "$root"

command -v shellcheck >/dev/null || { echo "shellcheck missing: run scripts/setup.sh" >&2; exit 1; }

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t candidates < <(git ls-files --cached --others --exclude-standard | sort -u)
else
  mapfile -t candidates < <(find . -path ./bazel-\* -prune -o -type f -print | sed 's|^\./||' | sort)
fi
files=()
for f in "${candidates[@]}"; do
  [[ -f "$f" && "$f" != third_party/* ]] || continue
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
