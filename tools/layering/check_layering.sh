#!/usr/bin/env bash
# Checks the layering rule on the source tree rooted at $1 (docs/development.md,
# "Layering"): libraries never depend on components or tools, components
# never depend on each other nor on tools, tools (binpack/: programs for
# developers, not deployed) depend on libraries only, stand-ins and test
# support are testonly, and every component's BUILD is private by default. Bazel's visibility and testonly
# checks do the rest when `bazel build //...` runs; this catches the cases
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
libraries=(assignment base cdi contract daemon efml fs http json kube metrics
  placement status testing)
# Tools: programs for developers, not deployed. They may use libraries; no
# component or library uses them, and they use no component.
tools=(binpack)

component_re=$(
  IFS='|'
  echo "${components[*]}"
)
tool_re=$(
  IFS='|'
  echo "${tools[*]}"
)
status=0
fail() {
  echo "$1"
  status=1
}

# Labels of the top-level folders matching the regex $1 ("//extender:x",
# "//nri-plugin/mux:y") the BUILD file $2 depends on, as "line:folder".
# Visibility lists and package_group bodies are skipped: granting a folder
# visibility is not depending on it.
folder_deps() {
  awk -v re="\"//($1)[/:\"]" '
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
  ' "$2"
}
# The same for the visibility lists (and package_group bodies) of $2 only:
# the folders matching $1 the file grants visibility to.
folder_grants() {
  awk -v re="\"//($1)[/:\"]" '
    function scan(s) {
      while (match(s, re)) {
        print NR ":" substr(s, RSTART + 3, RLENGTH - 4)
        s = substr(s, RSTART + RLENGTH)
      }
    }
    /^[[:space:]]*(visibility|packages|default_visibility)[[:space:]]*=/ {
      skip = ($0 !~ /\]/); scan($0); next
    }
    skip { if ($0 ~ /\]/) skip = 0; scan($0); next }
    {
      s = $0
      while (match(s, /(visibility|packages|default_visibility)[[:space:]]*=[[:space:]]*\[[^]]*\]/)) {
        list = substr(s, RSTART, RLENGTH)
        s = substr(s, RSTART + RLENGTH)
        scan(list)
      }
    }
  ' "$2"
}
component_deps() { folder_deps "$component_re" "$1"; }
tool_deps() { folder_deps "$tool_re" "$1"; }

# C++ includes of headers under the top-level folders matching the regex
# $1, in the paths after it, as "path:line:folder".
folder_includes() {
  local re=$1
  shift
  grep -rnoE --include='*.h' --include='*.cc' \
    "^#include \"($re)/" "$@" 2>/dev/null |
    sed -E 's/#include "([^/]*)\/$/\1/' || true
}
component_includes() { folder_includes "$component_re" "$@"; }
tool_includes() { folder_includes "$tool_re" "$@"; }

# 1. Libraries never depend on a component nor on a tool.
for lib in "${libraries[@]}"; do
  [[ -d "$lib" ]] || continue
  while IFS= read -r build; do
    while IFS= read -r hit; do
      [[ -n "$hit" ]] || continue
      fail "$build:${hit%%:*}: library $lib depends on component ${hit#*:}"
    done < <(component_deps "$build")
    while IFS= read -r hit; do
      [[ -n "$hit" ]] || continue
      fail "$build:${hit%%:*}: library $lib depends on tool ${hit#*:}"
    done < <(tool_deps "$build")
  done < <(find "$lib" -name BUILD -o -name BUILD.bazel)
  while IFS= read -r hit; do
    [[ -n "$hit" ]] || continue
    fail "${hit%:*}: library $lib includes component ${hit##*:}"
  done < <(component_includes "$lib")
  while IFS= read -r hit; do
    [[ -n "$hit" ]] || continue
    fail "${hit%:*}: library $lib includes tool ${hit##*:}"
  done < <(tool_includes "$lib")
done

# 2. A component never depends on another component nor on a tool, nor
# grants a tool visibility; 4. it is private by default.
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
    while IFS= read -r hit; do
      [[ -n "$hit" ]] || continue
      fail "$build:${hit%%:*}: component $comp depends on tool ${hit#*:}"
    done < <(tool_deps "$build")
    while IFS= read -r hit; do
      [[ -n "$hit" ]] || continue
      fail "$build:${hit%%:*}: component $comp grants tool ${hit#*:} visibility (a tool uses libraries only)"
    done < <(folder_grants "$tool_re" "$build")
  done < <(find "$comp" -name BUILD -o -name BUILD.bazel)
  while IFS= read -r hit; do
    [[ -n "$hit" && "${hit##*:}" != "$comp" ]] || continue
    fail "${hit%:*}: component $comp includes component ${hit##*:}"
  done < <(component_includes "$comp")
  while IFS= read -r hit; do
    [[ -n "$hit" ]] || continue
    fail "${hit%:*}: component $comp includes tool ${hit##*:}"
  done < <(tool_includes "$comp")
done

# 5. A tool never depends on a component (it uses libraries, as the
# components do).
for tool in "${tools[@]}"; do
  [[ -d "$tool" ]] || continue
  while IFS= read -r build; do
    while IFS= read -r hit; do
      [[ -n "$hit" ]] || continue
      fail "$build:${hit%%:*}: tool $tool depends on component ${hit#*:}"
    done < <(component_deps "$build")
  done < <(find "$tool" -name BUILD -o -name BUILD.bazel)
  while IFS= read -r hit; do
    [[ -n "$hit" ]] || continue
    fail "${hit%:*}: tool $tool includes component ${hit##*:}"
  done < <(component_includes "$tool")
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
