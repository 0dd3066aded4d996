// The GPU benchmark against pl on cuda:0. Without a GPU it says so and exits 0.
#include <pl/pl.h>

#define BENCH_NS pl
#include "gpu_bench_cases.inc"

int main() {
  if (!pl::cuda::is_available()) {
    std::printf("pl: no CUDA device: skipped\n");
    return 0;
  }
  gpu_bench::run_all("pl");
}
