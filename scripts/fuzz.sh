#!/usr/bin/env bash
# Runs libFuzzer campaigns on the parser fuzz targets (fuzz/BUILD) built
# with clang-14, libFuzzer, ASan and UBSan (--config=fuzz).
#
# Usage: scripts/fuzz.sh [TARGET|all] [SECONDS]   (defaults: all, 60)
#   TARGET is a name from fuzz/BUILD, e.g. extender_args.
#
# Each campaign starts from a scratch copy of fuzz/corpus/TARGET (new
# inputs stay out of the tree), uses the target's dictionary when it has
# one, and stops at the first crash, leak, timeout or OOM, whose input is
# kept under $FUZZ_OUT (default /tmp/gcushare-fuzz/TARGET/). To keep a
# finding as a regression input, copy it to fuzz/corpus/TARGET/crash-*.
# Prints one line per target (executions, exec/s, new corpus size,
# findings) and exits non-zero when any target found something.
#
# Builds in an output base of its own: the C++ toolchain is re-detected
# for clang-14 there, which would otherwise evict the gcc build's outputs.
set -uo pipefail
cd "$(dirname "$0")/.."

which=${1:-all}
seconds=${2:-60}
out_root=${FUZZ_OUT:-/tmp/gcushare-fuzz}
output_base=${FUZZ_OUTPUT_BASE:-$HOME/.cache/bazel-gcushare-fuzz/$(pwd | md5sum | cut -c1-8)}

for tool in clang-14; do
  command -v "$tool" >/dev/null || { echo "fuzz: $tool missing; run scripts/setup.sh" >&2; exit 1; }
done
[[ -e /usr/lib/llvm-14/lib/libFuzzer.a ]] || { echo "fuzz: libfuzzer-14-dev missing; run scripts/setup.sh" >&2; exit 1; }

mapfile -t all < <(sed -n 's/^    name = "\([a-z_]*\)",$/\1/p' fuzz/BUILD | grep -vxE 'dictionary|mutator|replay_main|replay_support_test')
if [[ $which == all ]]; then
  targets=("${all[@]}")
else
  printf '%s\n' "${all[@]}" | grep -qx "$which" || { echo "fuzz: no target $which; have: ${all[*]}" >&2; exit 2; }
  targets=("$which")
fi

labels=()
for t in "${targets[@]}"; do labels+=("//fuzz:${t}_fuzzer"); done
mkdir -p "$out_root"
if ! bazel --output_base="$output_base" build --config=fuzz "${labels[@]}" 2>"$out_root/build.log"; then
  tail -30 "$out_root/build.log" >&2
  echo "fuzz: build failed (log: $out_root/build.log)" >&2
  exit 1
fi
bin=$(bazel --output_base="$output_base" info --config=fuzz bazel-bin 2>/dev/null)

printf '%-20s %12s %10s %8s  %s\n' target executions exec/s corpus findings
found=0
for t in "${targets[@]}"; do
  dir="$out_root/$t"
  rm -rf "$dir" && mkdir -p "$dir/corpus" "$dir/artifacts"
  cp fuzz/corpus/"$t"/* "$dir/corpus/"
  dict=()
  d=$(sed -n "/name = \"$t\",/,/^)/s/^    dict = \"\(.*\)\",$/\1/p" fuzz/BUILD)
  [[ -n $d ]] && dict=(-dict="fuzz/$d")
  "$bin/fuzz/${t}_fuzzer" "$dir/corpus" "${dict[@]}" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$dir/artifacts/" \
    >"$dir/log" 2>&1
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -1)
  size=$(find "$dir/corpus" -type f | wc -l)
  findings=$(find "$dir/artifacts" -type f | sed 's|.*/||' | tr '\n' ' ')
  [[ -n $findings ]] && found=1
  printf '%-20s %12s %10s %8s  %s\n' "$t" "${execs:-?}" "${speed:-?}" "$size" "${findings:-none}"
done
echo "logs and artifacts: $out_root/<target>/"
exit "$found"
