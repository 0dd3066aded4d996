// libtorch's side of bench_runtime: the shared cases with BENCH_NS = torch.
// Compiled as C++17 (libtorch 1.13's headers do not build as C++20).
#include "bench_cases.h"

#include <torch/torch.h>

namespace {
// Tensors made here never need autograd: measure libtorch's fastest mode.
using BenchScope = c10::InferenceMode;
} // namespace

#define BENCH_NS torch
#include "bench_cases.inc"

std::vector<BenchCase> set_up_libtorch() {
  torch::set_num_threads(1);
  return bench_cases();
}
