#!/usr/bin/env bash
# //docs:references_test. First shows that the checker catches each kind of
# bad reference, on a small tree made here; then checks the real source
# tree. Tagged "local": the runfile docs/protocols.md is a symlink into the
# source tree, which is followed to find the tree (as
# //tools/format:clang_format_test does; Bazel 4 has no other way to hand
# a test the whole tree without listing every file).
set -euo pipefail

runfiles="${TEST_SRCDIR}/${TEST_WORKSPACE}"
check="$runfiles/docs/check_refs.sh"
root=$(dirname "$(dirname "$(readlink -f "$runfiles/docs/protocols.md")")")

# 1. The checker must fail on each kind of bad reference, naming it.
fixture="${TEST_TMPDIR:-/tmp}/refs_fixture"
rm -rf "$fixture"
mkdir -p "$fixture/docs" "$fixture/a" "$fixture/third_party"
cp "$root/docs/protocols.md" "$root/docs/contracts.md" "$fixture/docs/"
printf '// See docs/contracts.md and docs/protocols.md 3.5, 4.2-4.3.\n' >"$fixture/a/good.h"
printf '// Wire facts: docs/protocols.md\n// section 1.4.\n' >"$fixture/a/wrapped.h"
printf 'PROTOCOLS.md and DESIGN.md are fine here\n' >"$fixture/third_party/x.txt"
expect_failure() {  # name, file content, expected message
  printf '%s\n' "$2" >"$fixture/a/bad.cc"
  local out
  if out=$("$check" "$fixture" 2>&1); then
    echo "FAIL ($1): the checker accepted: $2" >&2
    exit 1
  fi
  if ! grep -qF "$3" <<<"$out"; then
    echo "FAIL ($1): expected \"$3\" in:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "ok: $1 is caught"
}
expect_failure "old design doc" "// see DESIGN.md \"CDI\"" \
  "a/bad.cc:1: names DESIGN.md"
expect_failure "old protocols doc" "# PROTOCOLS.md 3.5" \
  "a/bad.cc:1: names PROTOCOLS.md"
expect_failure "missing doc" "x = 1;
// docs/design.md" "a/bad.cc:2: names docs/design.md, which does not exist"
expect_failure "missing section" "// docs/protocols.md 3.9" \
  "cites docs/protocols.md 3.9, which has no such section"
expect_failure "missing chapter" "// docs/protocols.md section 7" \
  "cites docs/protocols.md 7, which has no such section"
expect_failure "missing end of a range" "// docs/protocols.md 1.2-1.9" \
  "cites docs/protocols.md 1.9"
expect_failure "missing section across a line break" "// docs/protocols.md
// 6.1: frames" "cites docs/protocols.md 6.1"
rm "$fixture/a/bad.cc"
"$check" "$fixture" >/dev/null || {
  echo "FAIL: the checker rejects a tree of good references" >&2
  "$check" "$fixture" >&2
  exit 1
}
echo "ok: good references pass"

# 2. The real tree.
"$check" "$root"
