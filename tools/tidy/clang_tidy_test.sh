#!/usr/bin/env bash
# //tools/tidy:clang_tidy_test: proves the parts of the clang-tidy check on
# fixtures. The tree itself is checked by the clang_tidy aspect
# (tools/tidy/tidy.bzl, `bazel build --config=tidy`, run by scripts/test.sh).
# 1. tools/tidy/run_tidy.sh (the aspect's action) with the root .clang-tidy
#    fails on each kind of finding the checks cover, naming file and check,
#    in the file and in a header of the tree, but not in a header on a system
#    include path (how the aspect passes protoc's output); it passes a clean
#    file and only then writes its .ok output.
# 2. tools/tidy/unchecked.sh names a .cc file that has no .ok.
set -euo pipefail

runfiles="${TEST_SRCDIR}/${TEST_WORKSPACE}"
run_tidy="$runfiles/tools/tidy/run_tidy.sh"
config="$runfiles/.clang-tidy"
# shellcheck source=tools/format/check_fixture.sh
source "$runfiles/tools/format/check_fixture.sh"

fixture="${TEST_TMPDIR:-/tmp}/tidy_fixture"
rm -rf "$fixture"
mkdir -p "$fixture/a" "$fixture/gen/a"
cd "$fixture"
tidy() {  # FILE: runs the aspect's action on FILE as the aspect would
  "$run_tidy" "$fixture/out.ok" "$config" "$1" -- -x c++ -std=c++20 -iquote . -isystem gen
}

# 1. Each kind of finding fails, with no .ok written.
long_function="int Long(int x) {"
for ((i = 0; i < 101; i++)); do long_function+=$'\n'"  x += $i;"; done
long_function+=$'\n'"  return x;"$'\n'"}"
bad() {  # WHAT NEEDLE CONTENT
  printf '%s\n' "$3" >a/bad.cc
  rm -f out.ok
  expect_caught "$1" "$2" tidy a/bad.cc
  [[ ! -e out.ok ]] || { echo "FAIL: .ok written despite a finding ($1)" >&2; exit 1; }
}
bad "a function over 100 lines" \
  "a/bad.cc:1:5: error: function 'Long' exceeds recommended size/complexity thresholds [readability-function-size" \
  "$long_function"
bad "bugprone" "[bugprone-use-after-move" '#include <string>
#include <utility>
std::string Moved(std::string s) { std::string t = std::move(s); return s + t; }'
bad "performance" "[performance-for-range-copy" '#include <string>
#include <vector>
int Count(const std::vector<std::string>& v) { int n = 0; for (std::string s : v) n += s.size(); return n; }'
bad "modernize" "[modernize-use-nullptr" 'int* Null() { return 0; }'

# A header of the tree is checked; the same code on a system path is not.
printf '#pragma once\ninline int* Null() { return 0; }\n' >a/h.h
cp a/h.h gen/a/g.pb.h
bad "a finding in a header of the tree" "a/h.h:2:" '#include "a/h.h"
int Use() { return Null() == nullptr ? 1 : 0; }'
printf '#include "a/g.pb.h"\nint Use() { return Null() == nullptr ? 1 : 0; }\n' >a/gen_user.cc
rm -f out.ok
tidy a/gen_user.cc >/dev/null || { echo "FAIL: a finding in protoc's output (a system path) was reported" >&2; tidy a/gen_user.cc >&2; exit 1; }
echo "ok: headers on a system include path are left out"

printf '#include <string>\nint Fine(const std::string& s) { return s.empty() ? 0 : 1; }\n' >a/good.cc
rm -f out.ok
tidy a/good.cc || { echo "FAIL: the check rejects a clean file" >&2; exit 1; }
[[ -e out.ok ]] || { echo "FAIL: no .ok written for a clean file" >&2; exit 1; }
echo "ok: a clean file passes and gets its .ok"

# 2. The coverage check: a .cc file with no .ok is named; with all, none is.
unchecked="$runfiles/tools/tidy/unchecked.sh"
cov="${TEST_TMPDIR:-/tmp}/tidy_coverage"
rm -rf "$cov"
mkdir -p "$cov/tree/k/testdata" "$cov/tree/third_party" "$cov/bin/k/_clang_tidy/t/k" "$cov/bin/_clang_tidy/r"
touch "$cov/tree/k/testdata/fixture.cc" "$cov/tree/top.cc" "$cov/tree/k/a.cc" "$cov/tree/k/b.cc" "$cov/tree/k/a.h" "$cov/tree/third_party/x.cc"
touch "$cov/bin/k/_clang_tidy/t/k/a.cc.ok" "$cov/bin/_clang_tidy/r/top.cc.ok"
if out=$(cd "$cov/tree" && "$unchecked" "$cov/bin"); then
  echo "FAIL: unchecked.sh passed with k/b.cc unchecked" >&2
  exit 1
fi
[[ "$out" == "k/b.cc" ]] || { echo "FAIL: unchecked.sh printed \"$out\", not k/b.cc" >&2; exit 1; }
echo "ok: a .cc file with no .ok is named"
touch "$cov/bin/k/_clang_tidy/t/k/b.cc.ok"
(cd "$cov/tree" && "$unchecked" "$cov/bin") || { echo "FAIL: unchecked.sh failed with every file checked" >&2; exit 1; }
echo "ok: every file checked passes"
