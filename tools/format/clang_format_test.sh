#!/usr/bin/env bash
# Fails when a checked-in C++ file is not formatted per the root .clang-format.
# Fix with: tools/format/format.sh
set -euo pipefail

# The runfile .clang-format is a symlink into the source tree: follow it to
# find the tree (the test runs unsandboxed, tag "local").
config=$(readlink -f "${TEST_SRCDIR}/${TEST_WORKSPACE}/.clang-format")
root=$(dirname "$config")
cd "$root"

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.cc' '*.h' | sort -u)
else
  mapfile -t files < <(find . -path ./bazel-\* -prune -o \( -name '*.cc' -o -name '*.h' \) -print | sort)
fi

if ((${#files[@]} == 0)); then
  echo "no C++ files found under $root" >&2
  exit 1
fi

bad=()
for f in "${files[@]}"; do
  [[ -f "$f" ]] || continue
  if ! clang-format --style=file --dry-run -Werror "$f" >/dev/null 2>&1; then
    bad+=("$f")
  fi
done

if ((${#bad[@]} > 0)); then
  echo "Not clang-formatted (${#bad[@]} of ${#files[@]} files):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  echo "Run tools/format/format.sh to fix." >&2
  exit 1
fi
echo "all ${#files[@]} C++ files are clang-formatted"
