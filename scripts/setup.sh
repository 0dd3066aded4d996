#!/usr/bin/env bash
# Installs, from Debian packages, everything the build and the tests need.
# Idempotent: installs only what is missing, and says nothing when all is there.
# The CUDA toolkit is optional and never installed here.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3 python3-jsonschema
  clang-19 clang-tidy-19 libclang-19-dev llvm-19-dev llvm-19-tools libclang-rt-19-dev
  libgrpc++-dev libgrpc-dev libabsl-dev   # placelint-clangd links what Debian's clangd does
  clangd-19 neovim                        # the editor benchmark's baseline; the Neovim test
  libopenblas-dev libgtest-dev libgmock-dev libbenchmark-dev
  libtorch-dev
  libcurl4-openssl-dev                    # placelint --remote-cache (HTTP)
  bazel-bootstrap                         # tool.BazelAspect runs bazel/placelint.bzl (~290 MB with its JRE)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
log=${TMPDIR:-/tmp}/placelint-setup.log
echo "setup: installing ${missing[*]} (log: $log)"
$sudo apt-get update -qq >"$log" 2>&1
if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >>"$log" 2>&1; then
  echo "setup: apt-get install failed; last lines of $log:" >&2
  tail -20 "$log" >&2
  exit 1
fi
