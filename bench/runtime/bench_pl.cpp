// pl's side of bench_runtime: the shared cases with BENCH_NS = pl.
#include "bench_cases.h"

#include <pl/pl.h>

namespace {
// pl has no modes to set for a benchmark.
struct BenchScope {};
} // namespace

#define BENCH_NS pl
#include "bench_cases.inc"

// pl has no thread-count setting yet; bench_main.cpp pins the whole process
// to one CPU, which limits pl's pool as well.
std::vector<BenchCase> setUpPl() { return benchCases(); }
