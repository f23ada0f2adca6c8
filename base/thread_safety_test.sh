#!/usr/bin/env bash
# Proves that the clang-tsa build (.bazelrc build:clang-tsa) rejects unlocked
# access to guarded state: compiles base/testdata/thread_safety_*.cc with
# clang-14 and the config's --copt flags, expecting the thread_safety_locked*
# fixtures to compile without any warning (-Wall -Werror) and every other
# fixture to fail with a thread-safety error.
set -euo pipefail

root=${TEST_SRCDIR}/${TEST_WORKSPACE}
mapfile -t flags < <(sed -n 's/^build:clang-tsa //p' "$root/.bazelrc" |
  tr ' ' '\n' | sed -n 's/^--copt=//p')
if ((${#flags[@]} == 0)) || [[ " ${flags[*]} " != *" -Werror=thread-safety "* ]]; then
  echo "no build:clang-tsa --copt=-Werror=thread-safety in .bazelrc" >&2
  exit 1
fi

compile() {
  clang++-14 -std=c++20 -fsyntax-only -I "$root" "${flags[@]}" "$@" 2>&1
}

failures=0
for fixture in "$root"/base/testdata/thread_safety_*.cc; do
  name=$(basename "$fixture" .cc)
  if [[ $name == thread_safety_locked* ]]; then
    if out=$(compile -Wall -Werror "$fixture"); then
      echo "ok: $name compiles"
    else
      echo "FAIL: $name should compile:" >&2
      echo "$out" >&2
      failures=$((failures + 1))
    fi
  elif out=$(compile "$fixture"); then
    echo "FAIL: $name compiled; the thread-safety flags should reject it" >&2
    failures=$((failures + 1))
  elif ! grep -q 'error: .*\[-Werror,-Wthread-safety' <<<"$out"; then
    echo "FAIL: $name failed, but not with a thread-safety error:" >&2
    echo "$out" >&2
    failures=$((failures + 1))
  else
    echo "ok: $name rejected: $(grep -m1 'error:' <<<"$out" | sed 's/.*error: //')"
  fi
done
((failures == 0))
