#!/usr/bin/env bash
# GCUShare demo on this machine: installs what it needs, builds, discovers
# the 8 cards of the example fake-cards file, writes their CDI spec to a
# temporary directory, lists the CDI device names and validates the spec.
# Cleans up after itself.
set -euo pipefail
cd "$(dirname "$0")/.."

cards=${GCUSHARE_DEMO_CARDS:-configs/fake-cards.yaml}

bash scripts/setup.sh
echo "== building"
bazel build //cdi:gcushare-cdi 2>&1 | grep -vE '^(Loading|Analyzing|INFO|\[)' || true
bin=bazel-bin/cdi/gcushare-cdi
[[ -x "$bin" ]] || { echo "demo: build failed" >&2; exit 1; }

work=$(mktemp -d /tmp/gcushare-demo.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo
echo "== gcushare-cdi cards: the cards of $cards (fake EFML backend)"
"$bin" cards --efml-backend=fake --fake-cards="$cards"

echo
echo "== gcushare-cdi generate"
"$bin" generate --efml-backend=fake --fake-cards="$cards" --output-dir="$work"

echo
echo "== gcushare-cdi list (CDI device names a container can ask for)"
"$bin" list --spec-dir="$work"

echo
echo "== gcushare-cdi validate"
"$bin" validate "$work"/enflame.com-gcu.json

echo
echo "== the spec (first two devices)"
sed -n 1,40p "$work"/enflame.com-gcu.json
echo
echo "demo done; the temporary spec directory $work is removed."
