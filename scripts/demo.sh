#!/usr/bin/env bash
# The main job: set up, build everything, then show placelint's two halves
# agreeing about the bug examples (examples/bugs/<rule-id>/), and the
# device-agnostic training example learning on the default device.
#
# The buggy programs are meant to fail; their exit status never stops the
# demo. A failed build does, and so does an analyzer that cannot run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PL_BUILD_DIR:-$root/build}
bugs=$root/examples/bugs

if [ -t 1 ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
heading() { printf '\n%s== %s%s\n' "$bold" "$*" "$plain"; }
note() { printf '   %s\n' "$@"; }
# The rules in catalogue order, one tab-separated line each: id, title,
# Analyzer, Mirror, Site, runtime (rules/include/placelint/rules.def says
# what they mean). Read a line with: IFS=$'\t' read -r id title ... <<<"$line"
rules=$(python3 "$root/rules/catalogue.py" rules)
mapfile -t catalogue <<<"$rules"
# File names within the rule's directory, code excerpts dropped: one line per
# warning, its notes indented under it.
readable() {
  sed -n -e "s|^$root/examples/bugs/$1/||" -e "s|^$root/||" \
    -e 's/^\([^ ][^:]*:[0-9]*:[0-9]*: warning: .*\)/   \1/p' \
    -e 's/^\([^ ][^:]*:[0-9]*:[0-9]*: note: .*\)/       \1/p'
}

heading "Setting up and building (a few minutes on a fresh machine)"
"$root/scripts/setup.sh"
# The demo needs no test suites or benchmarks; test.sh turns them on again.
"$root/scripts/configure.sh" "$build" -DPL_BUILD_TESTS=OFF -DPL_BUILD_BENCH=OFF
placelint=$build/bin/placelint
if [ ! -x "$placelint" ]; then
  echo "demo: $placelint was not built (the analyzer needs LLVM/Clang 19; see scripts/setup.sh)" >&2
  exit 1
fi

heading "1. Before running: placelint over examples/bugs/"
note "Each rule has buggy programs (NAME.cpp, the bug marked '// expect: <rule-id>')" \
     "and fixed twins (NAME_fixed.cpp), which must come out clean."
analyzer_failed=0
for entry in "${catalogue[@]}"; do
  IFS=$'\t' read -r rule title analyzer _ <<<"$entry"
  dir=$bugs/$rule
  echo
  echo "-- $rule: $title"
  if [ "$analyzer" != Check ]; then
    note "(no analyzer check for this rule yet: the runtime half below catches what it can)"
    continue
  fi
  status=0
  output=$("$placelint" -p "$build" --quiet "$dir" 2>&1) || status=$?
  if [ "$status" -gt 1 ]; then
    echo "$output" | tail -5 >&2
    echo "demo: placelint failed on $dir (exit status $status)" >&2
    analyzer_failed=1
    continue
  fi
  readable "$rule" <<<"$output"
  for source in $(grep -l 'expect-runtime-only:' "$dir"/*.cpp); do
    note "$(basename "$source"): no finding, by design (the file says why); the runtime catches it below"
  done
  if grep -q '_fixed\.cpp:[0-9]*:[0-9]*: warning:' <<<"$output"; then
    note "(a fixed twin has a finding: that is a bug in placelint or in the example)"
  else
    note "(the _fixed twins: no findings)"
  fi
done

heading "2. While running: the same programs on sim:0, the simulated accelerator"
note "Each rule's runtime half, as the catalogue states it. PL_TRANSFER_GUARD=log" \
     "makes the transfer guard log rather than raise (runtime/include/pl/transfer_guard.h)."
for entry in "${catalogue[@]}"; do
  IFS=$'\t' read -r rule _ _ mirror site runtime <<<"$entry"
  dir=$bugs/$rule
  echo
  echo "-- $rule"
  runtime=${runtime//\`/}
  [ "$site" = CallSite ] && runtime+="; it names your line"
  note "Runtime: $runtime."
  if [ "$mirror" = CompileTime ]; then
    for source in "$dir"/*.cpp; do
      case $source in *_fixed.cpp) continue ;; esac
      clang++-19 -std=c++20 -fsyntax-only -I"$root/runtime/include" -I"$root/rules/include" \
        -I"$build/rules/include" -I"$bugs" "$source" 2>&1 |
        sed -n "s|^$dir/||; s/^\([^ ].*: warning: .*\) \[-Wunused-result\]$/   \1/p"
    done
  fi
  for program in "$build/examples/bugs/$rule"/bug_*; do
    case $program in *_fixed) continue ;; esac
    echo "   \$ $(basename "$program")"
    status=0
    output=$(PL_TRANSFER_GUARD=log "$program" 2>&1) || status=$?
    sed -e "s|$dir/||g" -e 's/^/       /' <<<"$output"
    [ "$status" -eq 0 ] || note "    (exit status $status)"
  done
done

heading "3. A correct program: examples/training on the default device"
note "Batches made on the host and moved once each, the loss summed on the device and" \
     "read only when printed; run under PL_TRANSFER_GUARD=disallow."
weights=$build/demo-weights.plw
PL_TRANSFER_GUARD=disallow "$build/examples/training/training" --save "$weights"
echo
PL_TRANSFER_GUARD=disallow "$build/examples/inference/inference" --weights "$weights"

heading "Next"
if [ -x "$build/bin/placelint-clangd" ]; then
  note "In your editor: point its clangd at $build/bin/placelint-clangd (VS Code:" \
       "\"clangd.path\"; Neovim, Emacs, Helix, Zed, Sublime: docs/editors.md) to see these" \
       "warnings and their fixes as you type"
fi
note "docs/README.md: the rules, the device semantics, editor and CI set-up" \
     "scripts/test.sh: every test, among them the parity suite (ctest -L parity) that" \
     "checks the analyzer and the runtime agree on every example"
exit "$analyzer_failed"
