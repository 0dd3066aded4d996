#!/usr/bin/env bash
# The whole test suite, from a fresh machine: set-up, build, every test
# through ctest, then the runtime suites again under ASan + UBSan.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"

build=${PL_BUILD_DIR:-$root/build}
"$root/scripts/configure.sh" "$build" -DPL_BUILD_TESTS=ON -DPL_BUILD_BENCH=ON -DPL_BUILD_EXAMPLES=ON
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"

asan=${PL_ASAN_BUILD_DIR:-$root/build-asan}
"$root/scripts/configure.sh" "$asan" -DPL_SANITIZE=ON -DPL_BUILD_ANALYZER=OFF \
  -DPL_WITH_CUDA=OFF -DPL_BUILD_BENCH=OFF -DPL_BUILD_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=Debug
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir "$asan" --output-on-failure -j "$(nproc)" -L runtime
