#!/usr/bin/env bash
# //tools/tidy:clang_tidy_test. First shows that tools/tidy/tidy.sh fails on
# a file that breaks the root .clang-tidy (a small tree made here, one
# finding per kind the checks cover) and passes on a clean one; then runs
# it over the real tree's folders listed in COVERED below. Tagged "local":
# the runfile .clang-tidy is a symlink into the source tree, which is
# followed to find the tree (as //tools/format:clang_format_test does).
set -euo pipefail

runfiles="${TEST_SRCDIR}/${TEST_WORKSPACE}"
check="$runfiles/tools/tidy/tidy.sh"
root=$(dirname "$(readlink -f "$runfiles/.clang-tidy")")

# The folders whose .cc files the test checks (every file in them is clean).
# TODO(issue 29): the rest of the tree once its findings are fixed.
COVERED=(base status json contract fs metrics daemon efml ha binpack assignment
  configs testing kubectl-plugin)

# 1. The check must fail on each kind of finding, naming file and check.
fixture="${TEST_TMPDIR:-/tmp}/tidy_fixture"
rm -rf "$fixture"
mkdir -p "$fixture/a" "$fixture/third_party"
cp "$root/.clang-tidy" "$fixture/"
printf 'int Ignored() { int* p = 0; return p == 0; }\n' >"$fixture/third_party/x.cc"
printf '#include <string>\nint Fine(const std::string& s) { return s.empty() ? 0 : 1; }\n' >"$fixture/a/good.cc"
expect_failure() {  # name, file content, expected message
  printf '%s\n' "$2" >"$fixture/a/bad.cc"
  local out
  if out=$(TIDY_JOBS=1 "$check" --root "$fixture" 2>&1); then
    echo "FAIL ($1): the check accepted: $2" >&2
    exit 1
  fi
  if ! grep -qF "$3" <<<"$out" || grep -qF third_party <<<"$out"; then
    echo "FAIL ($1): expected \"$3\" (and nothing from third_party/) in:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "ok: $1 is caught"
}
long_function="int Long(int x) {"
for ((i = 0; i < 101; i++)); do long_function+=$'\n'"  x += $i;"; done
long_function+=$'\n'"  return x;"$'\n'"}"
expect_failure "a function over 100 lines" "$long_function" \
  "a/bad.cc:1:5: error: function 'Long' exceeds recommended size/complexity thresholds [readability-function-size"
expect_failure "bugprone" '#include <string>
#include <utility>
std::string Moved(std::string s) { std::string t = std::move(s); return s + t; }' \
  "[bugprone-use-after-move"
expect_failure "performance" '#include <string>
#include <vector>
int Count(const std::vector<std::string>& v) { int n = 0; for (std::string s : v) n += s.size(); return n; }' \
  "[performance-for-range-copy"
expect_failure "modernize" 'int* Null() { return 0; }' "[modernize-use-nullptr"
rm "$fixture/a/bad.cc"
TIDY_JOBS=1 "$check" --root "$fixture" >/dev/null || {
  echo "FAIL: the check rejects a clean file" >&2
  TIDY_JOBS=1 "$check" --root "$fixture" >&2
  exit 1
}
echo "ok: a clean file passes"

# 2. The real tree.
"$check" --root "$root" "${COVERED[@]}"
