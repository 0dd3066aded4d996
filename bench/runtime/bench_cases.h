// The cases of bench_runtime, each measured for pl and for libtorch in the
// same run. Each library's translation unit instantiates bench_cases.inc
// with its own namespace, so both run the same source.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

struct BenchCase {
  const char *name;
  void (*run)(benchmark::State &, std::int64_t size);
  std::int64_t size;
};

// Pins the library to one thread and returns its cases.
std::vector<BenchCase> set_up_pl();
#if defined(PL_BENCH_HAVE_LIBTORCH)
std::vector<BenchCase> set_up_libtorch();
#endif
