// The GPU benchmark against libtorch (built with CUDA) on cuda:0, in
// InferenceMode, its fastest. Without a GPU it says so and exits 0.
#include <torch/torch.h>

#define BENCH_NS torch
#include "gpu_bench_cases.inc"

int main() {
  if (!torch::cuda::is_available()) {
    std::printf("libtorch: no CUDA device: skipped\n");
    return 0;
  }
  const c10::InferenceMode inference;
  gpu_bench::run_all("libtorch");
}
