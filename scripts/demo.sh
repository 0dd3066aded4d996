#!/usr/bin/env bash
# The main job: set up, build, then show placelint's runtime half catching a
# placement bug on cpu and on the simulated accelerator.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"

build=${PL_BUILD_DIR:-$root/build}
echo "== Building (this takes a few minutes on a fresh machine)"
"$root/scripts/configure.sh" "$build"

for device in cpu sim:0; do
  echo
  echo "== quickstart on $device"
  "$build/examples/quickstart/quickstart" "$device"
done
