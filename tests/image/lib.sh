# shellcheck shell=bash
# shellcheck disable=SC2034  # the variables are for the tests that source it
# Sourced by the image tests: finds the archives scripts/image.sh wrote.
# The tests do not build the image (a second, -c opt compile): scripts/test.sh
# runs scripts/image.sh once and passes its output directory as
# GCUSHARE_IMAGE_DIR; by hand:
#   scripts/image.sh && bazel test --test_env=GCUSHARE_IMAGE_DIR=$PWD/out/image //tests/image:all
# Sets IMAGE_DIR, VERSION, DIGEST, OCI_ARCHIVE, DOCKER_ARCHIVE, REF.

fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
pass() { printf 'ok: %s\n' "$*"; }

IMAGE_DIR=${GCUSHARE_IMAGE_DIR:-}
[[ -n "$IMAGE_DIR" && -d "$IMAGE_DIR" ]] ||
  fail "GCUSHARE_IMAGE_DIR='$IMAGE_DIR' is not a directory: run scripts/image.sh, then bazel test --test_env=GCUSHARE_IMAGE_DIR=\$PWD/out/image (scripts/test.sh does both)"
digest_files=("$IMAGE_DIR"/gcushare-*.digest)
if ((${#digest_files[@]} != 1)) || [[ ! -f "${digest_files[0]}" ]]; then
  fail "want exactly one gcushare-<version>.digest in $IMAGE_DIR, found: ${digest_files[*]}"
fi
VERSION=$(basename "${digest_files[0]}" .digest)
VERSION=${VERSION#gcushare-}
DIGEST=$(cat "${digest_files[0]}")
OCI_ARCHIVE=$IMAGE_DIR/gcushare-$VERSION.oci.tar
DOCKER_ARCHIVE=$IMAGE_DIR/gcushare-$VERSION.docker.tar
REF=docker.io/gcushare/gcushare:$VERSION
for f in "$OCI_ARCHIVE" "$DOCKER_ARCHIVE"; do [[ -s "$f" ]] || fail "missing $f"; done

# Every binary the image ships, as /usr/bin/<name>.
BINARIES=(gcushare-scheduler-extender gcushare-config-manager
  gcushare-device-plugin gcushare-nri-plugin gcushare-cdi
  kubectl-inspect-gcushare gcushare-dra-driver)
