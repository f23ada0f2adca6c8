#!/usr/bin/env bash
# //tools/format:shellcheck_test. First shows that the check fails on a
# script with a finding (a small tree made here), then checks the real
# source tree. Tagged "local": the runfile .shellcheckrc is a symlink into
# the source tree, which is followed to find the tree.
set -euo pipefail

runfiles="${TEST_SRCDIR}/${TEST_WORKSPACE}"
check="$runfiles/tools/format/shellcheck.sh"
root=$(dirname "$(readlink -f "$runfiles/.shellcheckrc")")
# shellcheck source=tools/format/check_fixture.sh
source "$root/tools/format/check_fixture.sh"

# 1. The check must fail on a finding, naming the file, and pass without it.
fixture="${TEST_TMPDIR:-/tmp}/shellcheck_fixture"
rm -rf "$fixture"
mkdir -p "$fixture/scripts" "$fixture/.ci" "$fixture/third_party"
cp "$root/.shellcheckrc" "$fixture/"
printf '#!/usr/bin/env bash\necho "fine"\n' >"$fixture/scripts/good.sh"
printf '#!/bin/sh\ncd /tmp\n' >"$fixture/third_party/ignored.sh"
# shellcheck disable=SC2016  # the fixture script is meant literally
printf '#!/usr/bin/env bash\nset -eu\nx=$1\nrm -rf $x/*\n' >"$fixture/.ci/run"
expect_caught "a finding in a script without .sh" ".ci/run:4:" "$check" "$fixture"
# shellcheck disable=SC2016  # the fixture script is meant literally
printf '#!/usr/bin/env bash\nset -eu\nx=$1\nrm -rf "${x:?}"/*\n' >"$fixture/.ci/run"
"$check" "$fixture" >/dev/null || {
  echo "FAIL: the check rejects clean scripts" >&2
  "$check" "$fixture" >&2
  exit 1
}
echo "ok: clean scripts pass"

# 2. The real tree.
"$check" "$root"
