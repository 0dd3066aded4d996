// pl's side of bench_runtime: the shared cases with BENCH_NS = pl.
#include "bench_cases.h"

#include <pl/pl.h>

namespace {
// pl has no modes to set for a benchmark.
struct BenchScope {};
} // namespace

#define BENCH_NS pl
#include "bench_cases.inc"

std::vector<BenchCase> set_up_pl() {
  pl::set_num_threads(1);
  return bench_cases();
}
