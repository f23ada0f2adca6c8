#!/usr/bin/env bash
# The release image's archives are valid (check_archive.sh), and the checker
# can fail: a copy with one byte of the layer changed, and one whose
# index names another digest, are refused.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
check=$(dirname "$0")/check_archive.sh

bash "$check" "$OCI_ARCHIVE" "$DOCKER_ARCHIVE" "$VERSION" "$DIGEST" || fail "the release archives are invalid"
pass "$(basename "$OCI_ARCHIVE") and $(basename "$DOCKER_ARCHIVE")"

work=$(mktemp -d "${TMPDIR:-/tmp}/archive-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/oci"
tar -xf "$OCI_ARCHIVE" -C "$work/oci"
manifest=$work/oci/blobs/sha256/${DIGEST#sha256:}
layer=$work/oci/blobs/sha256/$(jq -r '.layers[0].digest' "$manifest" | cut -d: -f2)
# Flip one byte in the middle of the layer.
offset=$(($(stat -c %s "$layer") / 2))
byte=$(od -An -tu1 -j "$offset" -N1 "$layer" | tr -d ' ')
# shellcheck disable=SC2059  # the format is the byte's octal escape itself
printf "$(printf '\\%03o' $(((byte + 1) % 256)))" | dd of="$layer" bs=1 seek="$offset" conv=notrunc status=none
(cd "$work/oci" && tar -cf "$work/corrupt.tar" .)
if out=$(bash "$check" "$work/corrupt.tar" "$DOCKER_ARCHIVE" "$VERSION" "$DIGEST" 2>&1); then
  fail "a corrupted layer passed: $out"
fi
[[ "$out" == *"does not match its digest"* ]] || fail "corrupted layer: wrong fault: $out"
pass "a corrupted layer is refused: $out"

if out=$(bash "$check" "$OCI_ARCHIVE" "$DOCKER_ARCHIVE" "$VERSION" "sha256:$(printf '0%.0s' {1..64})" 2>&1); then
  fail "a wrong digest passed"
fi
pass "another digest is refused: $out"
echo "PASS"
