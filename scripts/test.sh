#!/usr/bin/env bash
# Installs what GCUShare needs, then builds and runs every test.
# Ends with one line "N passed, N failed" counted from Bazel's per-target
# results; exits non-zero when anything failed or did not build.
# Extra arguments go to `bazel test` (e.g. a narrower target pattern).
# `--sanitize` first: every test but the end-to-end ones under ASan+UBSan
# (or the given targets), as docs/development.md "Fuzzing and sanitizers" says.
# Without arguments (as CI runs it) the whole suite runs, then the libraries'
# unit tests again under ASan+UBSan (SANITIZED_UNIT_TESTS below); set
# GCUSHARE_SKIP_SANITIZED=1 to leave that second pass out. A full run ends
# with clang-tidy over every C++ source (run_clang_tidy below) and the clang
# thread-safety build (run_clang_tsa below), counted as one more result each;
# GCUSHARE_SKIP_CLANG_TIDY=1 or GCUSHARE_SKIP_CLANG_TSA=1 leaves one out.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

bash scripts/setup.sh || { echo "0 passed, 1 failed"; exit 1; }

configs=()
if [[ ${1:-} == --sanitize ]]; then
  shift
  configs=(--config=asan --config=ubsan)
  (($# == 0)) && set -- -- //... -//tests/e2e/...
fi
targets=("$@")
image_args=()
full_run=0
if ((${#targets[@]} == 0)); then
  full_run=1
  targets=("//...")
  # The release image (a second, -c opt build) once, then its tests
  # (tags "manual": not part of //...) on what it built.
  image_dir=$PWD/out/image
  if bash scripts/image.sh --out="$image_dir"; then
    image_args=(--test_env=GCUSHARE_IMAGE_DIR="$image_dir")
  else
    echo "scripts/image.sh failed: the image tests will fail" >&2
  fi
  targets+=(//tests/image:archive_test //tests/image:containerd_test
    //tests/image:chart_archive_test)
fi

# The libraries that parse outside input and hold the shared state, whose
# unit tests CI runs a second time under ASan+UBSan (their build is about a
# tenth of the suite's; docs/development.md "Fuzzing and sanitizers").
SANITIZED_UNIT_TESTS=(//base/... //status/... //json/... //contract/... //kube/...)

log=$(mktemp)
trap 'rm -f "$log"' EXIT
passed=0
failed=0
status=0

# Runs `bazel test` with the given arguments and adds its per-target results
# to passed/failed.
run_tests() {
  bazel test --keep_going --test_summary=short "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  # Per-target lines look like "//cdi:writer_test   (cached) PASSED in 0.2s".
  local ok bad
  ok=$(grep -cE '^//[^ ]+ +(\(cached\) )?PASSED' "$log")
  bad=$(grep -cE '^//[^ ]+ +(\(cached\) )?(FAILED|TIMEOUT|FLAKY|NO STATUS|INCOMPLETE|REMOTE FAILURE)' "$log")
  if ((rc != 0 && bad == 0)); then
    # Bazel failed before any test could report (analysis or build error).
    echo "bazel test exited with $rc before tests reported; see above" >&2
    bad=1
  fi
  passed=$((passed + ok))
  failed=$((failed + bad))
  ((rc == 0)) || status=1
}

run_tests "${configs[@]}" "${image_args[@]}" "${targets[@]}"
if ((full_run)) && [[ ${GCUSHARE_SKIP_SANITIZED:-0} != 1 ]]; then
  echo "--- the libraries' unit tests again under ASan+UBSan ---"
  run_tests --config=asan --config=ubsan "${SANITIZED_UNIT_TESTS[@]}"
fi

# Adds one named result to passed or failed: record NAME OK [WHY], OK 1 or 0.
record() {
  if (($2)); then
    echo "$1: PASSED"
    passed=$((passed + 1))
  else
    echo "$1: FAILED (${3:-see above})" >&2
    failed=$((failed + 1))
    status=1
  fi
}

# Runs clang-tidy (the root .clang-tidy) over every C++ source of ours: the
# clang_tidy aspect of tools/tidy/tidy.bzl (.bazelrc build:tidy), one cached
# action per file, so only changed files and their dependents' files are
# checked again. Then tools/tidy/unchecked.sh proves every .cc file of the
# tree was checked. Adds one result, "clang-tidy", to passed or failed.
run_clang_tidy() {
  local ok=1 bin missing
  bazel build --config=tidy --keep_going -- //... -//third_party/... || ok=0
  if ((ok)); then
    bin=$(bazel info bazel-bin 2>/dev/null)
    if ! missing=$(bash tools/tidy/unchecked.sh "$bin"); then
      echo "clang-tidy: no target checked these files (is their target tagged" >&2
      echo "\"manual\", or the file in no target?):" >&2
      printf '%s\n' "$missing" >&2
      ok=0
    fi
  fi
  record clang-tidy "$ok" "see the findings above"
}

# Builds our libraries and daemons with clang-14 and -Werror=thread-safety
# (.bazelrc build:clang-tsa: GUARDED_BY/REQUIRES of base/thread_annotations.h
# are checked) and adds one result, "clang thread-safety build", to passed or
# failed. Every guarded class lives in a cc_library, so the targets are every
# cc_library (test support included) and every deployable cc_binary: the
# tests' own sources are not compiled a second time, which keeps this pass at
# about half a build. It has an output base of its own: the C++ toolchain is
# re-detected for clang-14, which would otherwise evict the gcc build's
# outputs.
run_clang_tsa() {
  local output_base
  output_base=${CLANG_TSA_OUTPUT_BASE:-$HOME/.cache/bazel-gcushare-tsa/$(pwd | md5sum | cut -c1-8)}
  # Listed by the default build's server, which knows to skip its bazel-*
  # links (the clang build makes none, so it would walk into them).
  local targets=()
  mapfile -t targets < <(bazel query --noshow_progress \
    'kind("cc_library", //...) + (kind("cc_binary", //...) except attr("testonly", "1", //...))' 2>/dev/null)
  if ((${#targets[@]} == 0)); then
    record "clang thread-safety build" 0 "bazel query listed no targets"
    return
  fi
  local ok=1
  bazel --output_base="$output_base" build --config=clang-tsa --keep_going -- "${targets[@]}" || ok=0
  record "clang thread-safety build" "$ok" "see the errors above"
  # Its server is not needed again this run.
  bazel --output_base="$output_base" shutdown
}

if ((full_run)) && [[ ${GCUSHARE_SKIP_CLANG_TIDY:-0} != 1 ]]; then
  echo "--- clang-tidy over every C++ source ---"
  run_clang_tidy
fi
if ((full_run)) && [[ ${GCUSHARE_SKIP_CLANG_TSA:-0} != 1 ]]; then
  echo "--- the clang thread-safety build ---"
  run_clang_tsa
fi
echo "${passed} passed, ${failed} failed"
((status == 0 && failed == 0))
