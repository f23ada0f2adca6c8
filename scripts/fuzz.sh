#!/usr/bin/env bash
# Runs libFuzzer campaigns on the parser fuzz targets (fuzz/BUILD) built
# with clang-14, libFuzzer, ASan and UBSan (--config=fuzz).
#
# Usage: scripts/fuzz.sh [TARGET|all] [SECONDS] [--runs=N]
#   TARGET is a name from fuzz/BUILD, e.g. extender_args (default all).
#   SECONDS bounds each campaign (default 60; 0 = no bound with --runs).
#   --runs=N is an execution goal: each target runs until its recorded total
#     (fuzz/campaigns.tsv) reaches N executions (libFuzzer -runs= the rest);
#     targets already there are skipped. Without SECONDS it has no time
#     bound. E.g. `nice -n 19 scripts/fuzz.sh all --runs=10000000`.
#
# With `all`, targets run fastest first (by their recorded exec/s), so a
# goal is reached by as many targets as possible in the time there is.
# Each campaign starts from a scratch copy of fuzz/corpus/TARGET (new
# inputs stay out of the tree), uses the target's dictionary and max_len
# from fuzz/BUILD, and stops at the first crash, leak, timeout or OOM, whose
# input is kept under $FUZZ_OUT (default /tmp/gcushare-fuzz/TARGET/). To keep
# a finding as a regression input, copy it to fuzz/corpus/TARGET/crash-*.
# Prints one line per target (executions now and in total, exec/s, new
# corpus size, findings), appends one line per campaign to
# fuzz/campaigns.tsv (the cumulative record; FUZZ_RECORD=
# another file, or /dev/null to keep none), and exits non-zero when any
# target found something. SIGTERM/SIGINT stop the running campaign and
# record it (exit 130).
#
# Builds in an output base of its own: the C++ toolchain is re-detected
# for clang-14 there, which would otherwise evict the gcc build's outputs.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

which=all
seconds=
goal=0
positional=0
for arg in "$@"; do
  case $arg in
    --runs=*)
      goal=${arg#--runs=}
      [[ $goal =~ ^[0-9]+$ ]] || { echo "fuzz: --runs wants a number, got '$goal'" >&2; exit 2; }
      ;;
    -*) echo "fuzz: unknown option $arg" >&2; exit 2 ;;
    *)
      if ((positional == 0)); then which=$arg; else seconds=$arg; fi
      positional=$((positional + 1))
      ;;
  esac
done
if [[ -z $seconds ]]; then
  if ((goal > 0)); then seconds=0; else seconds=60; fi
fi
[[ $seconds =~ ^[0-9]+$ ]] || { echo "fuzz: SECONDS must be a number, got '$seconds'" >&2; exit 2; }
((seconds > 0 || goal > 0)) || { echo "fuzz: give SECONDS > 0 or --runs=N" >&2; exit 2; }

out_root=${FUZZ_OUT:-/tmp/gcushare-fuzz}
record=${FUZZ_RECORD:-fuzz/campaigns.tsv}
output_base=${FUZZ_OUTPUT_BASE:-$HOME/.cache/bazel-gcushare-fuzz/$(pwd | md5sum | cut -c1-8)}

command -v clang-14 >/dev/null || { echo "fuzz: clang-14 missing; run scripts/setup.sh" >&2; exit 1; }
[[ -e /usr/lib/llvm-14/lib/libFuzzer.a ]] || { echo "fuzz: libfuzzer-14-dev missing; run scripts/setup.sh" >&2; exit 1; }

mapfile -t all < <(sed -n 's/^    name = "\([a-z_]*\)",$/\1/p' fuzz/BUILD | grep -vxE 'dictionary|mutator|replay_main|replay_support_test')
if [[ $which != all ]]; then
  printf '%s\n' "${all[@]}" | grep -qx "$which" || { echo "fuzz: no target $which; have: ${all[*]}" >&2; exit 2; }
fi

# The record: date, target, executions, exec/s, seconds, findings.
[[ -e $record ]] || printf 'date\ttarget\texecutions\texec_per_s\tseconds\tfindings\n' >"$record"
total_of() { awk -F'\t' -v t="$1" 'NR > 1 && $2 == t { s += $3 } END { print s + 0 }' "$record"; }
speed_of() { awk -F'\t' -v t="$1" 'NR > 1 && $2 == t { s = $4 } END { print s + 0 }' "$record"; }
# A fuzz_target's attribute from fuzz/BUILD: `    ATTR = VALUE,` inside it.
attr_of() { sed -n "/^    name = \"$1\",/,/^)/s/^    $2 = \"\{0,1\}\([^\"]*\)\"\{0,1\},\$/\1/p" fuzz/BUILD; }

if [[ $which == all ]]; then
  mapfile -t targets < <(for t in "${all[@]}"; do echo "$(speed_of "$t") $t"; done | sort -k1,1nr | cut -d' ' -f2)
else
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

# SIGTERM or SIGINT (Ctrl-C, kill) stops the running campaign the way
# libFuzzer stops itself (final stats printed), records what it ran, and
# ends the script without starting the next target.
stop=0
fuzzer_pid=
# shellcheck disable=SC2317  # called by the trap below
on_stop() {
  stop=1
  [[ -n $fuzzer_pid ]] && kill -TERM "$fuzzer_pid" 2>/dev/null
}
trap on_stop TERM INT

printf '%-20s %12s %12s %10s %8s  %s\n' target executions total exec/s corpus findings
found=0
for t in "${targets[@]}"; do
  ((stop)) && break
  before=$(total_of "$t")
  runs=()
  if ((goal > 0)); then
    if ((before >= goal)); then
      printf '%-20s %12s %12s %10s %8s  %s\n' "$t" 0 "$before" - - "goal reached"
      continue
    fi
    runs=(-runs=$((goal - before)))
  fi
  dir="$out_root/$t"
  rm -rf "$dir" && mkdir -p "$dir/corpus" "$dir/artifacts"
  cp fuzz/corpus/"$t"/* "$dir/corpus/"
  dict=()
  d=$(attr_of "$t" dict)
  [[ -n $d ]] && dict=(-dict="fuzz/$d")
  max_len=$(attr_of "$t" max_len)
  started=$(date +%s)
  "$bin/fuzz/${t}_fuzzer" "$dir/corpus" "${dict[@]}" "${runs[@]}" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len="${max_len:-65536}" -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/" >"$dir/log" 2>&1 &
  fuzzer_pid=$!
  # A trapped signal ends `wait` early: wait again until the fuzzer is gone.
  while kill -0 "$fuzzer_pid" 2>/dev/null; do wait "$fuzzer_pid"; done
  fuzzer_pid=
  elapsed=$(($(date +%s) - started))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -1)
  size=$(find "$dir/corpus" -type f | wc -l)
  findings=$(find "$dir/artifacts" -type f | sed 's|.*/||' | tr '\n' ' ')
  findings=${findings% }
  [[ -n $findings ]] && found=1
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$t" "${execs:-0}" \
    "${speed:-0}" "$elapsed" "${findings:-none}" >>"$record"
  printf '%-20s %12s %12s %10s %8s  %s\n' "$t" "${execs:-?}" "$((before + ${execs:-0}))" \
    "${speed:-?}" "$size" "${findings:-none}"
done
echo "logs and artifacts: $out_root/<target>/; record: $record"
((stop)) && { echo "fuzz: stopped by a signal" >&2; exit 130; }
exit "$found"
