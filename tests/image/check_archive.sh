#!/usr/bin/env bash
# check_archive.sh OCI_ARCHIVE DOCKER_ARCHIVE VERSION DIGEST
# Checks the release image's two archives; exits 1 naming the first fault.
#  OCI archive: oci-layout 1.0.0; index.json names one manifest, tagged
#    docker.io/gcushare/gcushare:VERSION, with digest DIGEST; every blob the
#    index, manifest and config reference exists with its size and sha256;
#    the config is linux/amd64, user 65532:65532, the OCI labels version
#    (= VERSION), revision and source, one diff ID per layer (the sha256 of
#    the uncompressed layer); the layer holds only root-owned files under
#    /usr/bin (the seven binaries), the libraries' directories and the CA
#    bundle, all with one mtime.
#  docker-archive: manifest.json tags docker.io/gcushare/gcushare:VERSION, its config
#    is the same config blob and its layers exist with the same diff IDs.
set -euo pipefail

(($# == 4)) || { echo "usage: $0 OCI_ARCHIVE DOCKER_ARCHIVE VERSION DIGEST" >&2; exit 2; }
oci_archive=$1 docker_archive=$2 version=$3 digest=$4
fault() { printf 'archive fault: %s\n' "$*" >&2; exit 1; }
for tool in jq tar sha256sum gzip; do
  command -v "$tool" >/dev/null || fault "needs '$tool' on PATH (scripts/setup.sh)"
done

dir=$(mktemp -d "${TMPDIR:-/tmp}/check-archive.XXXXXX")
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/oci" "$dir/docker"
tar -xf "$oci_archive" -C "$dir/oci" || fault "$oci_archive is not a tar archive"
tar -xf "$docker_archive" -C "$dir/docker" || fault "$docker_archive is not a tar archive"

# blob DESCRIPTOR-JSON: checks the blob it names, prints its path.
blob() {
  local d size path
  d=$(jq -r .digest <<<"$1")
  size=$(jq -r .size <<<"$1")
  [[ "$d" =~ ^sha256:[0-9a-f]{64}$ ]] || fault "bad digest '$d' in $1"
  path=$dir/oci/blobs/sha256/${d#sha256:}
  [[ -f "$path" ]] || fault "blob $d is referenced but missing"
  [[ "$(stat -c %s "$path")" == "$size" ]] || fault "blob $d: size $(stat -c %s "$path"), descriptor says $size"
  [[ "sha256:$(sha256sum "$path" | cut -d' ' -f1)" == "$d" ]] || fault "blob $d: content does not match its digest"
  echo "$path"
}

[[ "$(jq -r .imageLayoutVersion "$dir/oci/oci-layout" 2>/dev/null)" == 1.0.0 ]] || fault "oci-layout is not version 1.0.0"
index=$dir/oci/index.json
[[ "$(jq -r .schemaVersion "$index")" == 2 ]] || fault "index.json schemaVersion is not 2"
[[ "$(jq '.manifests | length' "$index")" == 1 ]] || fault "index.json must name exactly one manifest"
desc=$(jq -c '.manifests[0]' "$index")
[[ "$(jq -r .mediaType <<<"$desc")" == application/vnd.oci.image.manifest.v1+json ]] || fault "index entry is not an OCI manifest"
[[ "$(jq -r '.annotations["org.opencontainers.image.ref.name"]' <<<"$desc")" == "docker.io/gcushare/gcushare:$version" ]] ||
  fault "index entry is not tagged docker.io/gcushare/gcushare:$version"
[[ "$(jq -r .digest <<<"$desc")" == "$digest" ]] || fault "manifest digest $(jq -r .digest <<<"$desc"), want $digest"
manifest=$(blob "$desc")

[[ "$(jq -r .schemaVersion "$manifest")" == 2 ]] || fault "manifest schemaVersion is not 2"
[[ "$(jq -r .config.mediaType "$manifest")" == application/vnd.oci.image.config.v1+json ]] || fault "manifest config has the wrong media type"
config=$(blob "$(jq -c .config "$manifest")")
nlayers=$(jq '.layers | length' "$manifest")
((nlayers >= 1)) || fault "manifest has no layers"

jq -e '.os == "linux" and .architecture == "amd64"' "$config" >/dev/null || fault "config is not linux/amd64"
[[ "$(jq -r .config.User "$config")" == 65532:65532 ]] || fault "config user is '$(jq -r .config.User "$config")', want 65532:65532"
labels=$(jq -c '.config.Labels // {}' "$config")
[[ "$(jq -r '.["org.opencontainers.image.version"]' <<<"$labels")" == "$version" ]] || fault "label org.opencontainers.image.version is not $version"
for l in revision source; do
  v=$(jq -r --arg l "org.opencontainers.image.$l" '.[$l] // ""' <<<"$labels")
  [[ -n "$v" ]] || fault "label org.opencontainers.image.$l is missing"
done
[[ "$(jq -r .rootfs.type "$config")" == layers ]] || fault "config rootfs.type is not layers"
[[ "$(jq '.rootfs.diff_ids | length' "$config")" == "$nlayers" ]] || fault "config has $(jq '.rootfs.diff_ids | length' "$config") diff IDs for $nlayers layers"

: >"$dir/files"
for ((i = 0; i < nlayers; i++)); do
  ldesc=$(jq -c ".layers[$i]" "$manifest")
  [[ "$(jq -r .mediaType <<<"$ldesc")" == application/vnd.oci.image.layer.v1.tar+gzip ]] || fault "layer $i is not a gzip tar layer"
  layer=$(blob "$ldesc")
  diff_id="sha256:$(gzip -dc "$layer" | sha256sum | cut -d' ' -f1)"
  [[ "$diff_id" == "$(jq -r ".rootfs.diff_ids[$i]" "$config")" ]] || fault "layer $i: diff ID $diff_id is not the config's"
  gzip -dc "$layer" | tar -tv --numeric-owner --full-time -f - >>"$dir/files"
done
# Owners and mtimes: "mode 0/0 size date time path".
awk '$2 != "0/0" { print "not root-owned: " $0; bad = 1 } END { exit bad }' "$dir/files" >&2 || fault "files not owned by 0/0"
[[ "$(awk '{ print $4 " " $5 }' "$dir/files" | sort -u | wc -l)" == 1 ]] || fault "files carry different mtimes"
awk '{ print $6 }' "$dir/files" | sed 's|^\./||; s|/$||' >"$dir/paths"
unexpected=$(grep -vE '^(usr|usr/bin|usr/bin/[^/]+|etc|etc/ssl|etc/ssl/certs|etc/ssl/certs/ca-certificates\.crt|(usr/)?lib(64|/x86_64-linux-gnu)?(/[^/]+\.so[^/]*)?)$' "$dir/paths" || true)
[[ -z "$unexpected" ]] || fault "unexpected files in the image: ${unexpected//$'\n'/ }"
for b in gcushare-scheduler-extender gcushare-config-manager gcushare-device-plugin \
  gcushare-nri-plugin gcushare-cdi kubectl-inspect-gcushare gcushare-dra-driver; do
  grep -qx "usr/bin/$b" "$dir/paths" || fault "usr/bin/$b is missing"
done
[[ "$(grep -c '^usr/bin/.' "$dir/paths")" == 7 ]] || fault "usr/bin holds more than the seven binaries"
grep -qx etc/ssl/certs/ca-certificates.crt "$dir/paths" || fault "the CA bundle is missing"

# The docker-archive: same config, same layers.
dm=$dir/docker/manifest.json
[[ -f "$dm" ]] || fault "docker-archive has no manifest.json"
[[ "$(jq 'length' "$dm")" == 1 ]] || fault "docker-archive must hold one image"
[[ "$(jq -r '.[0].RepoTags | join(",")' "$dm")" == "docker.io/gcushare/gcushare:$version" ]] || fault "docker-archive is not tagged docker.io/gcushare/gcushare:$version"
dconfig=$dir/docker/$(jq -r '.[0].Config' "$dm")
[[ -f "$dconfig" ]] || fault "docker-archive config $(jq -r '.[0].Config' "$dm") missing"
cmp -s "$dconfig" "$config" || fault "docker-archive config differs from the OCI config"
[[ "$(jq '.[0].Layers | length' "$dm")" == "$nlayers" ]] || fault "docker-archive has a different number of layers"
for ((i = 0; i < nlayers; i++)); do
  f=$dir/docker/$(jq -r ".[0].Layers[$i]" "$dm")
  [[ -f "$f" ]] || fault "docker-archive layer $i missing"
  id="sha256:$( (gzip -dc "$f" 2>/dev/null || cat "$f") | sha256sum | cut -d' ' -f1)"
  [[ "$id" == "$(jq -r ".rootfs.diff_ids[$i]" "$config")" ]] || fault "docker-archive layer $i has diff ID $id"
done
echo "archives valid: $digest, $nlayers layer(s), $(wc -l <"$dir/paths") paths"
