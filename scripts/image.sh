#!/usr/bin/env bash
# Builds the release image gcushare/gcushare:<version> and the helm archives
# of both charts, offline, into out/image/ (or --out):
#
#   gcushare-<version>.oci.tar      OCI image layout archive
#   gcushare-<version>.docker.tar   docker-archive (docker load, ctr import)
#   gcushare-<version>.digest       the manifest digest, "sha256:..."
#   gcushare-device-plugin-<version>.tgz, gcushare-scheduler-extender-<version>.tgz
#                                   the charts, appVersion = <version>
#
# The image is one layer FROM scratch: the seven gcushare binaries (bazel
# -c opt, stripped) under /usr/bin, the shared libraries they load (their
# ldd closure and the dynamic loader, copied from this Debian 12 machine),
# and /etc/ssl/certs/ca-certificates.crt. Nothing else: no shell, no
# package database. It runs as uid/gid 65532; the charts run as root only
# the components that need it. The layer tar is written by GNU tar with
# sorted names, fixed owners and modes, and mtimes of SOURCE_DATE_EPOCH;
# umoci adds it and writes the config without history, so the same sources
# give the same digest. The script builds the image twice and fails if the
# two digests differ. skopeo writes the two archives.
#
# Flags:
#   --out=DIR          output directory (default out/image)
#   --version=X.Y.Z    stamp this version into the binaries (only
#                      daemon/version.cc is recompiled), the image tag and
#                      the charts; default: GCUSHARE_VERSION in version.cc
#   --repository=NAME  image name (default gcushare/gcushare)
#   --pin-digest       set image.digest in the chart archives' values
#   --no-build         reuse the -c opt binaries already built
# Env: SOURCE_DATE_EPOCH (default: the commit time of HEAD),
#      GCUSHARE_SOURCE_URL (org.opencontainers.image.source).
# Needs umoci, skopeo, jq (scripts/setup.sh) and helm (scripts/tools.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'image: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

OUT=out/image
VERSION=
REPOSITORY=gcushare/gcushare
PIN_DIGEST=false
BUILD=true
for arg in "$@"; do
  case "$arg" in
    --out=*) OUT=${arg#--out=} ;;
    --version=*) VERSION=${arg#--version=} ;;
    --repository=*) REPOSITORY=${arg#--repository=} ;;
    --pin-digest) PIN_DIGEST=true ;;
    --no-build) BUILD=false ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$arg' (see --help)" ;;
  esac
done

DEFAULT_VERSION=$(sed -n 's/^#define GCUSHARE_VERSION "\(.*\)"$/\1/p' daemon/version.cc)
[[ -n "$DEFAULT_VERSION" ]] || die "no GCUSHARE_VERSION in daemon/version.cc"
for chart in configs/charts/*/Chart.yaml; do
  grep -qxE "appVersion: \"?$DEFAULT_VERSION\"?" "$chart" ||
    die "$chart: appVersion is not $DEFAULT_VERSION (GCUSHARE_VERSION in daemon/version.cc): bump both"
done
VERSION=${VERSION:-$DEFAULT_VERSION}
# A semantic version that is also a valid image tag (no "+build").
[[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] ||
  die "--version='$VERSION' is not X.Y.Z or X.Y.Z-pre (letters, digits, '.', '-')"
[[ "$REPOSITORY" =~ ^[a-z0-9]+([._/-][a-z0-9]+)*$ ]] ||
  die "--repository='$REPOSITORY' is not a lower-case image name"
for tool in umoci skopeo jq tar sha256sum ldd; do
  command -v "$tool" >/dev/null || die "needs '$tool' on PATH: run scripts/setup.sh"
done
HELM=tools/helm/bin/helm
[[ -x "$HELM" ]] || bash scripts/tools.sh
CA=/etc/ssl/certs/ca-certificates.crt
[[ -s "$CA" ]] || die "no $CA: run scripts/setup.sh (ca-certificates)"

REVISION=$(git rev-parse HEAD 2>/dev/null || echo unknown)
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
[[ "$SOURCE_DATE_EPOCH" =~ ^[0-9]+$ ]] || die "SOURCE_DATE_EPOCH='$SOURCE_DATE_EPOCH' is not a number"
CREATED=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
SOURCE_URL=${GCUSHARE_SOURCE_URL:-$(git config --get remote.origin.url 2>/dev/null || true)}
SOURCE_URL=${SOURCE_URL:-https://github.com/gcushare/gcushare}

# Bazel target -> name in /usr/bin (the charts run /usr/bin/gcushare-*).
TARGETS=(
  //extender:gcushare-scheduler-extender
  //config-manager:gcushare-config-manager
  //device-plugin:gcushare-device-plugin
  //nri-plugin:gcushare-nri-plugin
  //cdi/cli:gcushare-cdi
  //kubectl-plugin:kubectl-inspect-gcushare
  //dra-driver:gcushare-dra-driver
)
BAZEL_FLAGS=(-c opt --strip=always)
if [[ "$VERSION" != "$DEFAULT_VERSION" ]]; then
  BAZEL_FLAGS+=("--per_file_copt=daemon/version\\.cc@-DGCUSHARE_VERSION=\"$VERSION\"")
fi
if $BUILD; then
  log "building ${#TARGETS[@]} binaries with -c opt (version $VERSION)"
  bazel build "${BAZEL_FLAGS[@]}" "${TARGETS[@]}"
fi
BIN_DIR=$(bazel info "${BAZEL_FLAGS[@]}" bazel-bin 2>/dev/null)

work=$(mktemp -d "${TMPDIR:-/tmp}/gcushare-image.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/rootfs
umask 022

# The binaries, each checked to print the version it is shipped as.
for target in "${TARGETS[@]}"; do
  name=${target##*:}
  bin="$BIN_DIR/$(echo "${target#//}" | cut -d: -f1)/$name"
  [[ -x "$bin" ]] || die "$bin missing: build it (drop --no-build)"
  got=$("$bin" --version)
  [[ "$got" == "$name $VERSION" ]] || die "$bin --version says '$got', want '$name $VERSION'"
  install -D -m 0755 "$bin" "$root/usr/bin/$name"
done

# Their shared libraries and the loader, at the paths ldd names.
libs=$(for f in "$root"/usr/bin/*; do ldd "$f"; done |
  awk '/not found/ { print "MISSING " $1; next }
       $2 == "=>" && $3 ~ /^\// { print $3 }
       $1 ~ /^\// { print $1 }' | sort -u)
if grep -q '^MISSING' <<<"$libs"; then die "unresolved libraries: $(grep '^MISSING' <<<"$libs")"; fi
for lib in $libs; do install -D -m 0755 "$(readlink -f "$lib")" "$root$lib"; done
install -D -m 0644 "$CA" "$root$CA"
find "$root" -type d -exec chmod 0755 {} +

# One layer: sorted, root-owned, fixed mtimes (the uncompressed tar is the
# diff ID; umoci compresses it).
(cd "$root" && find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort) >"$work/files"
tar --format=gnu --no-recursion --numeric-owner --owner=0 --group=0 \
  --mtime="@$SOURCE_DATE_EPOCH" -C "$root" -T "$work/files" -cf "$work/layer.tar"

# build_layout DIR: the OCI layout with the image tagged $VERSION.
build_layout() {
  local layout=$1 image="$1:$VERSION"
  umoci init --layout "$layout"
  umoci new --image "$image"
  umoci raw add-layer --image "$image" --history.created="$CREATED" \
    --history.created_by="scripts/image.sh (binaries, ldd closure, CA bundle)" \
    "$work/layer.tar"
  umoci config --no-history --image "$image" \
    --created="$CREATED" --author=GCUShare \
    --os=linux --architecture=amd64 \
    --config.user=65532:65532 --config.workingdir=/ \
    --config.env=PATH=/usr/bin \
    --config.label=org.opencontainers.image.title=gcushare \
    --config.label="org.opencontainers.image.version=$VERSION" \
    --config.label="org.opencontainers.image.revision=$REVISION" \
    --config.label="org.opencontainers.image.source=$SOURCE_URL" \
    --config.label="org.opencontainers.image.created=$CREATED"
  umoci gc --layout "$layout"
}
digest_of() { jq -r --arg t "$VERSION" \
  '.manifests[] | select(.annotations["org.opencontainers.image.ref.name"] == $t) | .digest' \
  "$1/index.json"; }

log "packing the image (twice, to check that it is reproducible)"
build_layout "$work/oci"
build_layout "$work/oci-again"
DIGEST=$(digest_of "$work/oci")
again=$(digest_of "$work/oci-again")
[[ "$DIGEST" == sha256:* && "$DIGEST" == "$again" ]] ||
  die "the image is not reproducible: two builds gave '$DIGEST' and '$again'"

mkdir -p "$OUT"
name=$(basename "$REPOSITORY")
OCI_ARCHIVE=$OUT/$name-$VERSION.oci.tar
DOCKER_ARCHIVE=$OUT/$name-$VERSION.docker.tar
rm -f "$OCI_ARCHIVE" "$DOCKER_ARCHIVE"
# The OCI archive names the image in full (docker.io/...), so that
# `ctr images import` gives it the name the charts use.
skopeo copy --quiet "oci:$work/oci:$VERSION" \
  "oci-archive:$OCI_ARCHIVE:docker.io/$REPOSITORY:$VERSION"
skopeo copy --quiet "oci:$work/oci:$VERSION" \
  "docker-archive:$DOCKER_ARCHIVE:$REPOSITORY:$VERSION"
echo "$DIGEST" >"$OUT/$name-$VERSION.digest"

# The charts, stamped with the version (and the digest, if asked).
for chart in gcushare-device-plugin gcushare-scheduler-extender; do
  cp -r "configs/charts/$chart" "$work/$chart"
  values=$work/$chart/values.yaml
  sed -i "s|^  repository: .*|  repository: $REPOSITORY|" "$values"
  if $PIN_DIGEST; then sed -i "s|^  digest: \"\"|  digest: \"$DIGEST\"|" "$values"; fi
  rm -f "$OUT/$chart-$VERSION.tgz"
  "$HELM" package --version "$VERSION" --app-version "$VERSION" -d "$OUT" "$work/$chart" >/dev/null
done

size=$(jq "[.layers[].size] | add" "$work/oci/blobs/sha256/${DIGEST#sha256:}")
log "$REPOSITORY:$VERSION $DIGEST ($(awk -v s="$size" 'BEGIN { printf "%.1f MiB compressed", s / 1048576 }'))"
ls -l "$OUT" >&2
