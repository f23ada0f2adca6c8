#!/usr/bin/env bash
# Installs what GCUShare needs, then builds and runs every test.
# Ends with one line "N passed, N failed" counted from Bazel's per-target
# results; exits non-zero when anything failed or did not build.
# Extra arguments go to `bazel test` (e.g. a narrower target pattern).
# `--sanitize` first: every test but the end-to-end ones under ASan+UBSan
# (or the given targets), as README "Fuzzing and sanitizers" says.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh || { echo "0 passed, 1 failed"; exit 1; }

configs=()
if [[ ${1:-} == --sanitize ]]; then
  shift
  configs=(--config=asan --config=ubsan)
  (($# == 0)) && set -- -- //... -//tests/e2e/...
fi
targets=("$@")
image_args=()
if ((${#targets[@]} == 0)); then
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

log=$(mktemp)
trap 'rm -f "$log"' EXIT
bazel test "${configs[@]}" --keep_going --test_summary=short "${image_args[@]}" "${targets[@]}" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}

# Per-target lines look like "//cdi:writer_test   (cached) PASSED in 0.2s".
passed=$(grep -cE '^//[^ ]+ +(\(cached\) )?PASSED' "$log")
failed=$(grep -cE '^//[^ ]+ +(\(cached\) )?(FAILED|TIMEOUT|FLAKY|NO STATUS|INCOMPLETE|REMOTE FAILURE)' "$log")
if ((rc != 0 && failed == 0)); then
  # Bazel failed before any test could report (analysis or build error).
  echo "bazel test exited with $rc before tests reported; see above" >&2
  failed=1
fi
echo "${passed} passed, ${failed} failed"
((rc == 0 && failed == 0))
