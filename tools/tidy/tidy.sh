#!/usr/bin/env bash
# Runs clang-tidy-14 with the root .clang-tidy over C++ files of the tree at
# --root (default: this checkout), as our build compiles them (-std=c++20,
# -I root, -I the protoc output, made here with Debian's protoc and
# grpc_cpp_plugin as tools/proto/proto.bzl does). Diagnostics are errors in
# the files and in our own headers (the tree's top-level folders), never in
# third_party/ or generated code.
# Usage: tools/tidy/tidy.sh [--root DIR] [path...]
#   path: .cc files or folders (relative to the root); default: every .cc
#   of the tree but third_party/. TIDY_JOBS (default 2) files at a time.
# Exits non-zero, printing the findings, when there is any.
set -euo pipefail
# shellcheck source=tools/format/tree_files.sh
source "$(dirname "$(readlink -f "$0")")/../format/tree_files.sh"
root=$(dirname "$0")/../..
if [[ ${1:-} == --root ]]; then
  root=$2
  shift 2
fi
root=$(cd "$root" && pwd)
cd "$root"
tidy=${CLANG_TIDY:-clang-tidy-14}
command -v "$tidy" >/dev/null || { echo "$tidy missing: run scripts/setup.sh" >&2; exit 1; }

mapfile -t ours < <(tree_files)

# The .cc files asked for.
files=()
for f in "${ours[@]}"; do
  [[ "$f" == *.cc ]] || continue
  if (($# == 0)); then
    files+=("$f")
    continue
  fi
  for p in "$@"; do
    p=${p%/}
    if [[ "$f" == "$p" || "$f" == "$p"/* ]]; then
      files+=("$f")
      break
    fi
  done
done
if ((${#files[@]} == 0)); then
  echo "no .cc files to check under $root ${*}" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/gcushare-tidy.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/gen"
for p in "${ours[@]}"; do
  [[ "$p" == *.proto ]] || continue
  /usr/bin/protoc --proto_path=. --cpp_out="$work/gen" \
    --plugin=protoc-gen-grpc=/usr/bin/grpc_cpp_plugin --grpc_out="$work/gen" "$p"
done

# Our headers: those under the tree's top-level folders (clang-tidy matches
# the name as included through -I., "./<folder>/...").
dirs=$(printf '%s\n' "${ours[@]}" | { grep -E '\.h$' || true; } | awk -F/ 'NF > 1 { print $1 }' | sort -u | paste -sd'|')
header_filter="^(\./)?(${dirs})/"

start=$SECONDS
status=0
# shellcheck disable=SC2016  # the inner script expands its own arguments
printf '%s\0' "${files[@]}" |
  xargs -0 -P "${TIDY_JOBS:-2}" -n 1 sh -c '
    out=$("$0" --quiet --header-filter="$1" "$3" -- -x c++ -std=c++20 -DCPPHTTPLIB_OPENSSL_SUPPORT -I. -I"$2" 2>&1) && exit 0
    printf "%s\n" "$out" | grep -v "warnings\{0,1\} generated\.$"
    exit 1
  ' "$tidy" "$header_filter" "$work/gen" >"$work/out" 2>&1 || status=$?
if ((status != 0)); then
  cat "$work/out" >&2
  echo "clang-tidy found problems (above) in ${#files[@]} files checked in $((SECONDS - start)) s;" >&2
  echo "fix them (see the root .clang-tidy), or for a finding that is wrong add" >&2
  echo "a NOLINT(check-name) comment with the reason on that line." >&2
  exit 1
fi
echo "all ${#files[@]} C++ files pass clang-tidy ($((SECONDS - start)) s, ${TIDY_JOBS:-2} at a time)"
