#!/usr/bin/env bash
# //tools/format:buildifier_test. First shows that the check fails on a
# BUILD file that is not formatted (a small tree made here), then checks the
# real source tree. Tagged "local": the runfile WORKSPACE is a symlink into
# the source tree, which is followed to find the tree, and the check runs
# tools/format/bin/buildifier from that tree (gitignored; scripts/tools.sh).
set -euo pipefail

runfiles="${TEST_SRCDIR}/${TEST_WORKSPACE}"
root=$(dirname "$(readlink -f "$runfiles/WORKSPACE")")
check="$root/tools/format/buildifier.sh"

# 1. The check must fail on an unformatted BUILD file, naming it, and pass
# once buildifier has formatted it.
fixture="${TEST_TMPDIR:-/tmp}/buildifier_fixture"
rm -rf "$fixture"
mkdir -p "$fixture/a" "$fixture/third_party"
printf 'workspace(name = "x")\n' >"$fixture/WORKSPACE"
printf 'cc_library(name="a",srcs=["b.cc",  "a.cc"])\n' >"$fixture/a/BUILD"
printf 'cc_library(name="ignored")\n' >"$fixture/third_party/BUILD"
if out=$(bash "$check" --check "$fixture" 2>&1); then
  echo "FAIL: the check accepted an unformatted a/BUILD" >&2
  exit 1
fi
grep -qF "a/BUILD" <<<"$out" || { echo "FAIL: expected a/BUILD in:" >&2; echo "$out" >&2; exit 1; }
if grep -qF "third_party" <<<"$out"; then
  echo "FAIL: the check read third_party/:" >&2
  echo "$out" >&2
  exit 1
fi
echo "ok: an unformatted BUILD file is caught"
bash "$check" "$fixture"
bash "$check" --check "$fixture" >/dev/null || {
  echo "FAIL: the check rejects what buildifier formatted" >&2
  bash "$check" --check "$fixture" >&2
  exit 1
}
echo "ok: formatted BUILD files pass"

# 2. The real tree.
bash "$check" --check "$root"
