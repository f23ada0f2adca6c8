#!/usr/bin/env bash
# Checks the layering rule on the source tree rooted at $1
# (docs/development.md, "Layering"): libraries never depend on components,
# components never depend on each other, stand-ins and test support are
# testonly, and every component's BUILD is private by default. Bazel's
# visibility and testonly checks do the rest when `bazel build //...` runs; this catches the cases
# visibility cannot (a library BUILD that grants itself a component label
# through a public target, a header included without a BUILD dependency).
#
# Prints one line per violation ("path:line: what") and exits 1 when there
# is any; exits 0 silently otherwise. Reads files only.
set -euo pipefail

root=${1:?usage: check_layering.sh ROOT}
cd "$root"

# The deployable binaries, each in its own top-level folder.
components=(extender device-plugin nri-plugin config-manager kubectl-plugin
  dra-driver)
# Shared libraries: anything may use them, they use no component.
libraries=(assignment base cdi contract daemon efml fs json kube metrics status
  testing)

component_re=$(
  IFS='|'
  echo "${components[*]}"
)
status=0
fail() {
  echo "$1"
  status=1
}

# Component labels ("//extender:x", "//nri-plugin/mux:y") a BUILD file
# depends on, as "line:component". Visibility lists and package_group
# bodies are skipped: granting a component visibility is not depending on it.
component_deps() {
  awk -v re="\"//($component_re)[/:\"]" '
    /^[[:space:]]*(visibility|packages|default_visibility)[[:space:]]*=/ {
      skip = ($0 !~ /\]/); next
    }
    skip { if ($0 ~ /\]/) skip = 0; next }
    {
      s = $0
      gsub(/(visibility|packages|default_visibility)[[:space:]]*=[[:space:]]*\[[^]]*\]/, "", s)
      while (match(s, re)) {
        print NR ":" substr(s, RSTART + 3, RLENGTH - 4)
        s = substr(s, RSTART + RLENGTH)
      }
    }
  ' "$1"
}

# C++ includes of a component's headers, as "path:line:component".
component_includes() {
  grep -rnoE --include='*.h' --include='*.cc' \
    "^#include \"($component_re)/" "$@" 2>/dev/null |
    sed -E 's/#include "([^/]*)\/$/\1/' || true
}

# 1. Libraries never depend on a component.
for lib in "${libraries[@]}"; do
  [[ -d "$lib" ]] || continue
  while IFS= read -r build; do
    while IFS= read -r hit; do
      [[ -n "$hit" ]] || continue
      fail "$build:${hit%%:*}: library $lib depends on component ${hit#*:}"
    done < <(component_deps "$build")
  done < <(find "$lib" -name BUILD -o -name BUILD.bazel)
  while IFS= read -r hit; do
    [[ -n "$hit" ]] || continue
    fail "${hit%:*}: library $lib includes component ${hit##*:}"
  done < <(component_includes "$lib")
done

# 2. A component never depends on another component; 4. it is private by
# default.
for comp in "${components[@]}"; do
  [[ -d "$comp" ]] || continue
  while IFS= read -r build; do
    if ! grep -qE '^package\(default_visibility' "$build" ||
      grep -qE '^package\(default_visibility = \["//visibility:public"\]' "$build"; then
      fail "$build:1: component package is not private by default (package(default_visibility = [\"//visibility:private\"]))"
    fi
    while IFS= read -r hit; do
      [[ -n "$hit" && "${hit#*:}" != "$comp" ]] || continue
      fail "$build:${hit%%:*}: component $comp depends on component ${hit#*:}"
    done < <(component_deps "$build")
  done < <(find "$comp" -name BUILD -o -name BUILD.bazel)
  while IFS= read -r hit; do
    [[ -n "$hit" && "${hit##*:}" != "$comp" ]] || continue
    fail "${hit%:*}: component $comp includes component ${hit##*:}"
  done < <(component_includes "$comp")
done

# 3. Stand-ins (tests/peers/) and test support (testing/, */testing/) are
# testonly as a whole package, so no production target can depend on them.
while IFS= read -r build; do
  grep -qE 'default_testonly = (True|1)' "$build" ||
    fail "$build:1: test support is not testonly (package(default_testonly = True))"
done < <(find tests/peers testing -name BUILD -o -name BUILD.bazel 2>/dev/null || true
  find . -path ./third_party -prune -o -path ./tests -prune -o \
    -path ./testing -prune -o -path '*/testing/BUILD' -print | sed 's|^\./||')

exit "$status"
