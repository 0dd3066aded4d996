#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, in build-fuzz with -DPL_BUILD_FUZZ=ON),
# replays every input kept in fuzz/corpus/<target>/ and fuzz/regressions/<target>/,
# then fuzzes each target for SECONDS (default 20):
#   scripts/fuzz.sh [SECONDS] [TARGET...]      TARGET: device_grammar, runtime_env,
#                                              op_sequence, tool_readers, check_options
# New inputs go to build-fuzz/corpus/<target>/ (the tree's seeds are not
# written); a failing input is saved to build-fuzz/crashes/<target>/ and
# fails the run: fix the bug, then keep the input in fuzz/regressions/<target>/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PL_FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${1:-20}
shift || true
if ! [[ $seconds =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/fuzz.sh [SECONDS] [TARGET...]" >&2
  exit 2
fi

log="$build/build.log"
mkdir -p "$build"
if ! { cmake -S "$root" -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
         -DPL_BUILD_FUZZ=ON -DPL_BUILD_TESTS=OFF -DPL_BUILD_BENCH=OFF -DPL_BUILD_EXAMPLES=OFF \
         -DPL_WITH_CUDA=OFF -DPL_BUILD_CLANGD=OFF &&
       cmake --build "$build" --target fuzz-all; } >"$log" 2>&1; then
  echo "fuzz build failed in $build; last lines of $log:" >&2
  tail -40 "$log" >&2
  exit 1
fi

if [[ $# -eq 0 ]]; then
  targets=()
  for exe in "$build"/fuzz/fuzz-*; do
    targets+=("${exe##*/fuzz-}")
  done
else
  targets=("$@")
fi

failed=0
for target in "${targets[@]}"; do
  exe="$build/fuzz/fuzz-$target"
  if [[ ! -x $exe ]]; then
    echo "fuzz: no target '$target' (built: $(ls "$build/fuzz" | sed -n 's/^fuzz-//p' | tr '\n' ' '))" >&2
    exit 2
  fi
  # The kept inputs: the seeds and, once a bug was found, its regressions.
  kept=("$root/fuzz/corpus/$target")
  if [[ -d $root/fuzz/regressions/$target ]]; then
    kept+=("$root/fuzz/regressions/$target")
  fi
  work="$build/corpus/$target"
  crashes="$build/crashes/$target"
  mkdir -p "$work" "$crashes"
  if ! "$exe" -runs=0 "${kept[@]}" >"$build/$target.replay.log" 2>&1; then
    echo "fuzz: $target fails on a kept input; see $build/$target.replay.log" >&2
    failed=1
    continue
  fi
  if [[ $seconds -eq 0 ]]; then
    echo "fuzz: $target: kept inputs pass"
    continue
  fi
  if "$exe" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
       -artifact_prefix="$crashes/" "$work" "${kept[@]}" >"$build/$target.log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/$target.log")
    echo "fuzz: $target: ${runs:-?} executions in ${seconds}s, no failure"
  else
    echo "fuzz: $target failed; input in $crashes, log $build/$target.log:" >&2
    grep -m5 -E "ERROR|runtime error|differs|: .* for '" "$build/$target.log" >&2 || tail -20 "$build/$target.log" >&2
    failed=1
  fi
done
exit $failed
