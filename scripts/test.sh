#!/usr/bin/env bash
# The whole test suite, from a fresh machine: set-up, build, every test
# through ctest, then the sanitizer builds (docs/testing.md): the runtime and
# the analyzer half (the clang-tidy plugin, placelint, placelint-clangd)
# under ASan + UBSan, and the runtime's threads under ThreadSanitizer.
#   scripts/test.sh          what CI runs: the analyzer under ASan over a fixed sample
#   scripts/test.sh --deep   also the long tests (ctest label deep) and the
#                            analyzer under ASan over every lit test, corpus program
#                            and editor test
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deep=false
case "$*" in
  "") ;;
  --deep) deep=true ;;
  *) echo "usage: scripts/test.sh [--deep]" >&2; exit 2 ;;
esac
# Each step's wall time, for the CI budget (docs/testing.md).
timed() {
  local name=$1 started=$SECONDS
  shift
  "$@"
  echo "test.sh: $name: $((SECONDS - started)) s"
}
"$root/scripts/setup.sh"

build=${PL_BUILD_DIR:-$root/build}
timed build "$root/scripts/configure.sh" "$build" -DPL_BUILD_TESTS=ON -DPL_BUILD_BENCH=ON -DPL_BUILD_EXAMPLES=ON
not_deep=(-LE deep)
$deep && not_deep=()
timed ctest ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "${not_deep[@]}"

asan=${PL_ASAN_BUILD_DIR:-$root/build-asan}
timed asan-runtime-build "$root/scripts/configure.sh" "$asan" -DPL_SANITIZE=ON -DPL_BUILD_ANALYZER=OFF \
  -DPL_WITH_CUDA=OFF -DPL_BUILD_BENCH=OFF -DPL_BUILD_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=Debug
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  timed asan-runtime ctest --test-dir "$asan" --output-on-failure -j "$(nproc)" -L runtime

# The runtime's threads under ThreadSanitizer: every runtime suite (sim's
# stream workers, the host thread pool, the pinned block cache, the transfer
# guard, and the rest: 18 s). OpenBLAS's own threads are not instrumented,
# so it runs on the caller's thread.
tsan=${PL_TSAN_BUILD_DIR:-$root/build-tsan}
timed tsan-build "$root/scripts/configure.sh" "$tsan" -DPL_TSAN=ON -DPL_BUILD_ANALYZER=OFF \
  -DPL_WITH_CUDA=OFF -DPL_BUILD_BENCH=OFF -DPL_BUILD_EXAMPLES=OFF
OPENBLAS_NUM_THREADS=1 TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 allocator_may_return_null=1" \
  timed tsan-runtime ctest --test-dir "$tsan" --output-on-failure -j "$(nproc)" -L runtime

# The fuzz targets (fuzz/README.md): built in build-fuzz, every kept input
# (seeds and regressions) replayed, then each of the five fuzzed for 20 s.
timed fuzz "$root/scripts/fuzz.sh" 20
