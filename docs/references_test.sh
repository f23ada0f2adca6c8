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
printf '%s\n' '# Wire facts' '## 1. One' '### 1.2 Two' '### 1.4 Four' \
  '## 3. Three' '### 3.5 Binding' '## 4. NRI' '### 4.2 Services' \
  '### 4.3 Events' >"$fixture/docs/protocols.md"
# shellcheck disable=SC2016  # Markdown backticks, literal on purpose.
printf '%s\n' '# Contracts' '' '```sh' '# Not a heading' '```' \
  '## Node label and annotations' '## `Flags`' >"$fixture/docs/contracts.md"
# shellcheck disable=SC2016  # Markdown backticks, literal on purpose.
printf '%s\n' '# Architecture' '' '## Folders' '' '| `a/` | code |' \
  '| `docs/` | documents |' '| `third_party/` | others |' \
  '| `later/` | a folder the tree does not have yet |' '' '## Next' \
  >"$fixture/docs/architecture.md"
printf '%s\n' '# Fixture' '' '## The two commands' '' \
  'See [contracts](docs/contracts.md) "Flags", [the folders](docs/architecture.md#folders),' \
  '[below](#the-two-commands), [a](a/) and [notes](a/notes.md).' >"$fixture/README.md"
printf 'notes\n' >"$fixture/a/notes.md"
printf '%s\n' '// See docs/contracts.md and docs/protocols.md 3.5, 4.2-4.3.' \
  '// README "The two commands"; README.md, "The two commands";' \
  '// docs/contracts.md ("Flags"), docs/contracts.md "Node label' \
  '// and annotations", docs/contracts.md "Node label" (its first words).' \
  '// a/notes.md, ../a/notes.md; shared/DRA.md section 1 is outside.' \
  >"$fixture/a/good.h"
printf '// Wire facts: docs/protocols.md\n// section 1.4.\n' >"$fixture/a/wrapped.h"
printf 'PROTOCOLS.md, DESIGN.md and docs/none.md are fine here\n' >"$fixture/third_party/x.txt"
expect_failure() {  # name, file, file content, expected message
  local out
  printf '%s\n' "$3" >"$fixture/$2"
  if out=$("$check" "$fixture" 2>&1); then
    echo "FAIL ($1): the checker accepted in $2: $3" >&2
    exit 1
  fi
  if ! grep -qF "$4" <<<"$out"; then
    echo "FAIL ($1): expected \"$4\" in:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "ok: $1 is caught"
}
bad=a/bad.cc
expect_failure "old design doc" $bad "// see DESIGN.md \"CDI\"" \
  "a/bad.cc:1: names DESIGN.md"
expect_failure "old protocols doc" $bad "# PROTOCOLS.md 3.5" \
  "a/bad.cc:1: names PROTOCOLS.md"
expect_failure "missing doc" $bad "x = 1;
// docs/design.md" "a/bad.cc:2: names docs/design.md, which does not exist"
expect_failure "missing section" $bad "// docs/protocols.md 3.9" \
  "cites docs/protocols.md 3.9, which has no such section"
expect_failure "missing chapter" $bad "// docs/protocols.md section 7" \
  "cites docs/protocols.md 7, which has no such section"
expect_failure "missing end of a range" $bad "// docs/protocols.md 1.2-1.9" \
  "cites docs/protocols.md 1.9"
expect_failure "missing section across a line break" $bad "// docs/protocols.md
// 6.1: frames" "cites docs/protocols.md 6.1"
expect_failure "missing document in a folder" $bad "// see a/missing.md" \
  "a/bad.cc:1: names a/missing.md, which does not exist"
expect_failure "missing relative document" a/bad.md "See ../docs/nothing.md." \
  "a/bad.md:1: names ../docs/nothing.md, which does not exist"
expect_failure "missing README section" $bad "// README \"Fuzzing\"" \
  "a/bad.cc:1: cites README \"Fuzzing\", which has no such heading"
expect_failure "missing README.md section, comma form" $bad "# README.md, \"Layering\"" \
  "cites README.md \"Layering\", which has no such heading"
expect_failure "missing section in parentheses" $bad "// docs/contracts.md (\"Files\")" \
  "cites docs/contracts.md \"Files\", which has no such heading"
expect_failure "missing section across a line break" $bad "// docs/contracts.md \"Node
// flags\"" "cites docs/contracts.md \"Node flags\", which has no such heading"
expect_failure "heading only in a code block" $bad "// docs/contracts.md \"Not a heading\"" \
  "cites docs/contracts.md \"Not a heading\""
expect_failure "a word cut short" $bad "// docs/contracts.md \"Node lab\"" \
  "cites docs/contracts.md \"Node lab\""
rm "$fixture/a/bad.cc"
expect_failure "Markdown link to a missing file" a/bad.md "[x](nothing.md)" \
  "a/bad.md:1: links to nothing.md, which does not exist"
expect_failure "Markdown link to a missing heading" a/bad.md "[x](../README.md#nope)" \
  "links to ../README.md#nope, which has no such heading"
expect_failure "Markdown link to a missing heading of the same file" a/bad.md "# Bad
[x](#bad) [y](#nope)" "a/bad.md:2: links to #nope, which has no such heading"
expect_failure "missing section after a Markdown link" a/bad.md "[c](../docs/contracts.md) \"Flagz\"" \
  "cites ../docs/contracts.md \"Flagz\", which has no such heading"
rm "$fixture/a/bad.md"
cp "$fixture/README.md" "$fixture/README.keep"
expect_failure "README.md is checked too" README.md "# Fixture
See [x](docs/nope.md)." "README.md:2: links to docs/nope.md, which does not exist"
mv "$fixture/README.keep" "$fixture/README.md"
mkdir -p "$fixture/b"
expect_failure "a top-level folder missing from docs/architecture.md" b/x.txt "b" \
  "does not list the top-level folder b/"
rm -r "$fixture/b"
"$check" "$fixture" >/dev/null || {
  echo "FAIL: the checker rejects a tree of good references" >&2
  "$check" "$fixture" >&2
  exit 1
}
echo "ok: good references pass"

# 2. The real tree.
"$check" "$root"
