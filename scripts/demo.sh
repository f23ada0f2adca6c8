#!/usr/bin/env bash
# GCUShare demo on this machine: installs what it needs, builds, and runs
# the whole flow, every piece its own process (stand-in API server,
# kube-scheduler, kubelet and NRI runtime; the real extender, device plugin
# and NRI plugin) on a node of 8 fake cards of 16 GiB. Plays the vendor
# manual's scenario (pods of 4, 8, 12 and 20 GiB) and prints the outcome.
# Cleans up after itself. Arguments go to the demo, e.g. --keep-running
# (leave everything up for curl until Ctrl-C) or --help.
# --dra instead plays the same scenario on the DRA path (docs/dra.md): the
# real gcushare-dra-driver with the stand-in API server (resource.k8s.io/v1),
# kubelet and scheduler, claims of 4, 8, 12 and 20 GiB.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
if [[ ${1:-} == --dra ]]; then
  shift
  echo "== building"
  if ! bazel build //tests/dra:gcushare-dra-demo >/tmp/gcushare-demo-build.log 2>&1; then
    cat /tmp/gcushare-demo-build.log >&2
    echo "demo: build failed" >&2
    exit 1
  fi
  exec bazel-bin/tests/dra/gcushare-dra-demo "$@"
fi
echo "== building"
if ! bazel build //tests/e2e:gcushare-demo >/tmp/gcushare-demo-build.log 2>&1; then
  cat /tmp/gcushare-demo-build.log >&2
  echo "demo: build failed" >&2
  exit 1
fi
exec bazel-bin/tests/e2e/gcushare-demo "$@"
