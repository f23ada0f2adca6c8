# shellcheck shell=bash
# Sourced by the tree checks' tests (buildifier_test.sh, shellcheck_test.sh).
# expect_caught WHAT NEEDLE CMD...: CMD must fail, name NEEDLE in its output
# and never name third_party/ (which the checks leave alone); the test exits
# 1 with the output otherwise, and prints "ok: WHAT is caught".
expect_caught() {
  local what=$1 needle=$2 out
  shift 2
  if out=$("$@" 2>&1); then
    echo "FAIL: the check accepted $what" >&2
    exit 1
  fi
  if ! grep -qF -- "$needle" <<<"$out"; then
    echo "FAIL: expected $needle in:" >&2
    echo "$out" >&2
    exit 1
  fi
  if grep -qF "third_party" <<<"$out"; then
    echo "FAIL: the check read third_party/:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "ok: $what is caught"
}
