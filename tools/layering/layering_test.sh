#!/usr/bin/env bash
# //tools/layering:layering_test. First shows that the checker catches each
# kind of layering break, on a small tree made here; then checks the real
# source tree. Tagged "local": the runfile check_layering.sh is a symlink
# into the source tree, which is followed to find the tree (as
# //docs:references_test does).
set -euo pipefail

runfiles="${TEST_SRCDIR}/${TEST_WORKSPACE}"
check="$runfiles/tools/layering/check_layering.sh"
root=$(dirname "$(dirname "$(dirname "$(readlink -f "$check")")")")

# A clean tree: two libraries, two components, a tool, a stand-in, test
# support.
fixture="${TEST_TMPDIR:-/tmp}/layering_fixture"
make_fixture() {
  rm -rf "$fixture"
  mkdir -p "$fixture"/{kube/testing,placement,extender,device-plugin,binpack,tests/peers}
  printf 'package(default_visibility = ["//visibility:public"])\ncc_library(name = "a", deps = ["//status"])\n' >"$fixture/kube/BUILD"
  printf '#include "status/status.h"\n' >"$fixture/kube/a.h"
  printf 'package(default_visibility = ["//visibility:public"], default_testonly = True)\n' >"$fixture/kube/testing/BUILD"
  printf 'package(default_visibility = ["//visibility:public"])\ncc_library(name = "p", deps = ["//kube:a"])\n' >"$fixture/placement/BUILD"
  printf '#include "kube/a.h"\n' >"$fixture/placement/p.h"
  printf 'package(default_visibility = ["//visibility:private"])\ncc_library(name = "e", deps = ["//kube:a", "//placement:p"], visibility = ["//device-plugin:__pkg__"])\n' >"$fixture/extender/BUILD"
  printf '#include "extender/e.h"\n#include "kube/a.h"\n#include "placement/p.h"\n' >"$fixture/extender/e.cc"
  printf 'cc_binary(name = "replay", deps = ["//placement:p"])\n' >"$fixture/binpack/BUILD"
  printf '#include "placement/p.h"\n' >"$fixture/binpack/replay.cc"
  printf 'package(default_visibility = ["//visibility:private"])\n' >"$fixture/device-plugin/BUILD"
  printf 'package(\n    default_testonly = True,\n    default_visibility = ["//visibility:public"],\n)\ncc_library(name = "s", deps = ["//extender:e"])\n' >"$fixture/tests/peers/BUILD"
}
make_fixture
if ! out=$("$check" "$fixture" 2>&1); then
  echo "FAIL: the checker rejected a clean tree:" >&2
  echo "$out" >&2
  exit 1
fi
echo "ok: a clean tree passes"

expect_failure() {  # name, file, content, expected message
  make_fixture
  printf '%s\n' "$3" >"$fixture/$2"
  local out
  if out=$("$check" "$fixture" 2>&1); then
    echo "FAIL ($1): the checker accepted $2: $3" >&2
    exit 1
  fi
  if ! grep -qF "$4" <<<"$out"; then
    echo "FAIL ($1): expected \"$4\" in:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "ok: $1 is caught"
}
expect_failure "library depending on a component" kube/BUILD \
  'cc_library(name = "a", deps = ["//extender:e"])' \
  "kube/BUILD:1: library kube depends on component extender"
expect_failure "library test support depending on a component" \
  kube/testing/BUILD \
  'package(default_testonly = True)
cc_library(
    name = "t",
    deps = [
        "//nri-plugin/mux:frame",
    ],
)' \
  "kube/testing/BUILD:5: library kube depends on component nri-plugin"
expect_failure "library including a component header" kube/a.h \
  '#include "device-plugin/plugin.h"' \
  "kube/a.h:1: library kube includes component device-plugin"
expect_failure "library depending on a component (placement)" \
  placement/BUILD 'cc_library(name = "p", deps = ["//extender:card_cache"])' \
  "placement/BUILD:1: library placement depends on component extender"
expect_failure "library depending on a tool" placement/BUILD \
  'cc_library(name = "p", deps = ["//binpack:replay_lib"])' \
  "placement/BUILD:1: library placement depends on tool binpack"
expect_failure "library including a tool header" placement/p.h \
  '#include "binpack/replay.h"' \
  "placement/p.h:1: library placement includes tool binpack"
expect_failure "tool depending on a component" binpack/BUILD \
  'cc_library(
    name = "replay_lib",
    deps = [
        "//placement:p",
        "//extender:card_cache",
    ],
)' \
  "binpack/BUILD:5: tool binpack depends on component extender"
expect_failure "tool including a component header" binpack/replay.cc \
  '#include "placement/p.h"
#include "extender/card_cache.h"' \
  "binpack/replay.cc:2: tool binpack includes component extender"
expect_failure "component depending on a tool" extender/BUILD \
  'package(default_visibility = ["//visibility:private"])
cc_library(name = "e", deps = ["//binpack:replay_lib"])' \
  "extender/BUILD:2: component extender depends on tool binpack"
expect_failure "component including a tool header" extender/e.cc \
  '#include "binpack/replay.h"' \
  "extender/e.cc:1: component extender includes tool binpack"
expect_failure "component granting a tool visibility" extender/BUILD \
  'package(default_visibility = ["//visibility:private"])
cc_library(
    name = "e",
    visibility = [
        "//binpack:__pkg__",
    ],
)' \
  "extender/BUILD:5: component extender grants tool binpack visibility"
expect_failure "component granting a tool visibility on one line" \
  extender/BUILD 'package(default_visibility = ["//visibility:private"])
cc_library(name = "e", visibility = ["//binpack:__pkg__"], deps = ["//kube:a"])' \
  "extender/BUILD:2: component extender grants tool binpack visibility"
expect_failure "component depending on another component" extender/BUILD \
  'package(default_visibility = ["//visibility:private"])
cc_library(name = "e", deps = ["//config-manager:yaml_text"])' \
  "extender/BUILD:2: component extender depends on component config-manager"
expect_failure "component including another component's header" \
  extender/e.cc '#include "kubectl-plugin/inspect_table.h"' \
  "extender/e.cc:1: component extender includes component kubectl-plugin"
expect_failure "component public by default" device-plugin/BUILD \
  'package(default_visibility = ["//visibility:public"])' \
  "device-plugin/BUILD:1: component package is not private by default"
expect_failure "component without a default visibility" device-plugin/BUILD \
  'cc_library(name = "d")' \
  "device-plugin/BUILD:1: component package is not private by default"
expect_failure "stand-in not testonly" tests/peers/BUILD \
  'package(default_visibility = ["//visibility:public"])' \
  "tests/peers/BUILD:1: test support is not testonly"
expect_failure "test support not testonly" kube/testing/BUILD \
  'cc_library(name = "t", testonly = True)' \
  "kube/testing/BUILD:1: test support is not testonly"

# 2. The real tree.
if ! out=$("$check" "$root" 2>&1); then
  echo "FAIL: the layering rule is broken in $root (docs/development.md, \"Layering\"):" >&2
  echo "$out" >&2
  exit 1
fi
echo "ok: $root keeps the layering rule"
