#!/usr/bin/env bash
# The chart archives scripts/image.sh packaged, rendered by the real helm
# 3.17 as README's install walkthrough does: each is version and appVersion
# VERSION, lints, and every image its objects name (with the default values,
# and with image.digest pinned to the release's digest) is one the image
# archives hold. A name the archives do not hold fails the test.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

HELM=$(readlink -f "$(dirname "$0")/../../tools/helm/bin/helm" 2>/dev/null || true)
[[ -x "$HELM" ]] || fail "helm is not among the runfiles: run scripts/setup.sh (scripts/tools.sh)"
home=$(mktemp -d "${TMPDIR:-/tmp}/helm-home.XXXXXX")
trap 'rm -rf "$home"' EXIT
export HELM_CACHE_HOME=$home/cache HELM_CONFIG_HOME=$home/config HELM_DATA_HOME=$home/data
command -v jq >/dev/null || fail "needs jq (scripts/setup.sh)"

normalize() {  # image reference -> docker.io/... as containerd resolves it
  case "$1" in
    */*/*) echo "$1" ;;
    */*) echo "docker.io/$1" ;;
    *) echo "docker.io/library/$1" ;;
  esac
}

# The names the archives hold, normalized as containerd names them.
held=$(
  tar -xOf "$OCI_ARCHIVE" index.json |
    jq -r '.manifests[].annotations["org.opencontainers.image.ref.name"]'
  tar -xOf "$DOCKER_ARCHIVE" manifest.json | jq -r '.[].RepoTags[]' | while read -r t; do normalize "$t"; done
  echo "docker.io/gcushare/gcushare@$DIGEST"
)

check_images() {  # label, then `helm template` arguments
  local label=$1 rendered images image
  shift
  rendered=$("$HELM" template gcushare "$@" --namespace kube-system) || fail "$label: helm template failed"
  images=$(grep -oE '^ *image: *"?[^" ]+' <<<"$rendered" | sed -E 's/^ *image: *"?//' | sort -u)
  [[ -n "$images" ]] || fail "$label: renders no image"
  for image in $images; do
    grep -qxF "$(normalize "$image")" <<<"$held" ||
      fail "$label names image '$image', which the archives do not hold (they hold: ${held//$'\n'/ })"
  done
  pass "$label: ${images//$'\n'/ }"
}

for chart in gcushare-device-plugin gcushare-scheduler-extender; do
  archive=$IMAGE_DIR/$chart-$VERSION.tgz
  [[ -s "$archive" ]] || fail "missing $archive"
  meta=$(tar -xzOf "$archive" "$chart/Chart.yaml")
  grep -qx "version: $VERSION" <<<"$meta" || fail "$chart: Chart.yaml version is not $VERSION"
  grep -qxE "appVersion: \"?$VERSION\"?" <<<"$meta" || fail "$chart: Chart.yaml appVersion is not $VERSION"
  "$HELM" lint "$archive" >/dev/null || fail "$chart: helm lint failed"
  check_images "$chart" "$archive"
  check_images "$chart with image.digest" "$archive" --set "image.digest=$DIGEST"
done

# The test can fail: an image the archives do not hold is caught.
if (check_images "tag 9.9.9" "$IMAGE_DIR/gcushare-device-plugin-$VERSION.tgz" \
  --set image.tag=9.9.9 --set image.digest=) 2>/dev/null; then
  fail "a chart naming gcushare/gcushare:9.9.9 passed the check"
fi
echo "PASS"
