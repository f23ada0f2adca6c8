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
# shellcheck source=tools/format/check_fixture.sh
source "$root/tools/format/check_fixture.sh"

# 1. The check must fail on an unformatted BUILD file, naming it, and pass
# once buildifier has formatted it.
fixture="${TEST_TMPDIR:-/tmp}/buildifier_fixture"
rm -rf "$fixture"
mkdir -p "$fixture/a" "$fixture/third_party"
printf 'workspace(name = "x")\n' >"$fixture/WORKSPACE"
printf 'cc_library(name="a",srcs=["b.cc",  "a.cc"])\n' >"$fixture/a/BUILD"
printf 'cc_library(name="ignored")\n' >"$fixture/third_party/BUILD"
expect_caught "an unformatted BUILD file" "a/BUILD" bash "$check" --check "$fixture"
bash "$check" "$fixture"
bash "$check" --check "$fixture" >/dev/null || {
  echo "FAIL: the check rejects what buildifier formatted" >&2
  bash "$check" --check "$fixture" >&2
  exit 1
}
echo "ok: formatted BUILD files pass"

# 2. The real tree.
bash "$check" --check "$root"
