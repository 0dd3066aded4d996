#!/usr/bin/env bash
# Configures and builds one build tree: configure.sh BUILD_DIR [cmake args...].
# PL_BUILD_TARGETS (space-separated) builds only those targets.
# Build output goes to BUILD_DIR/build.log; on failure its tail is shown.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
shift
mkdir -p "$build"
log="$build/build.log"
if ! { cmake -S "$root" -B "$build" -G Ninja \
         -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 "$@" &&
       cmake --build "$build" ${PL_BUILD_TARGETS:+--target $PL_BUILD_TARGETS}; } >"$log" 2>&1; then
  echo "build failed in $build; last lines of $log:" >&2
  tail -40 "$log" >&2
  exit 1
fi
echo "built $build (log: $log)"
