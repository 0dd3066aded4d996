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

# The analyzer half under ASan + UBSan (build-asan-analyzer), against Debian's
# uninstrumented LLVM 19 libraries: placelint, placelint-clangd, and the
# plugin in the stock clang-tidy-19 with ASan's runtime preloaded (the tests
# there run it through bin/clang-tidy-19-asan, cmake/Sanitizers.cmake).
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs where it
# is compiled with ASan and unpoisons what it hands out only where it is, so
# its instrumented and uninstrumented copies together report
# use-after-poison on good memory (docs/testing.md). exitcode=99: a report
# is never mistaken for a compile error's exit status 1.
# CI: every lit test through placelint, a fixed sample through the plugin,
# the pl corpus, a fixed sample of the libtorch corpus and the editor tests;
# --deep: every analyzer test in both modes, the whole corpus with its
# floors, placelint's driver tests and the deep editor tests.
asan_analyzer=${PL_ASAN_ANALYZER_BUILD_DIR:-$root/build-asan-analyzer}
asan_analyzer_targets=(placelint placelint-tidy-plugin placelint-clangd)
$deep && asan_analyzer_targets+=(placelint-reshape)
timed asan-analyzer-build env PL_BUILD_TARGETS="${asan_analyzer_targets[*]}" \
  "$root/scripts/configure.sh" "$asan_analyzer" -DPL_SANITIZE=ON -DPL_BUILD_CLANGD=ON \
  -DPL_WITH_CUDA=OFF -DPL_BUILD_BENCH=OFF -DPL_BUILD_EXAMPLES=OFF -DPL_BUILD_TESTS=ON
(
export ASAN_OPTIONS=detect_leaks=1:allow_user_poisoning=0:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99
asan_ctest=(ctest --test-dir "$asan_analyzer" --output-on-failure -j "$(nproc)")
if $deep; then
  timed asan-analyzer-tests "${asan_ctest[@]}" -L analyzer
  timed asan-tool-tests "${asan_ctest[@]}" -R '^tool\.'
  timed asan-editor-tests "${asan_ctest[@]}" -L editor
else
  timed asan-lit-placelint "${asan_ctest[@]}" -R '^analyzer-(lit-placelint|corpus-pl)$'
  LIT_FILTER='/(mixed-device|discarded-transfer|transfer-in-loop|create-then-move|unguarded-cuda|non-leaf-parameter|unsynchronized-read|pageable-non-blocking|libtorch-profile)\.cpp$' \
    timed asan-lit-plugin-sample "${asan_ctest[@]}" -R '^analyzer-lit-plugin$'
  corpus=$root/test/analyzer/integration/corpus
  timed asan-corpus-sample /usr/bin/python3 "$corpus/measure.py" --jobs "$(nproc)" \
    --plugin "$asan_analyzer/lib/libPlacelintTidyPlugin.so" --clang-tidy "$asan_analyzer/bin/clang-tidy-19-asan" \
    --work-dir "$asan_analyzer/corpus-sample" \
    "$corpus"/{batch_to_device_discarded,class_weights_discarded_move_in_loop,feature_map_one_left_on_host,gru_hidden_carried_from_cpu,helper_to_gpu_one_unguarded_caller,init_hidden_member_tuple_host,lambda_captures_cpu_prior,model_parallel_skip_connection,ppo_minibatch_chunks_reuploaded,script_module_loaded_on_device_host_input,struct_fields_one_forgotten,transition_field_done_forgotten}.cpp
  timed asan-editor-tests "${asan_ctest[@]}" -L editor -LE deep
fi
)
