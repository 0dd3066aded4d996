// bench_runtime: pl and libtorch side by side in one run, both on one
// thread. Each case is registered as "<case>/pl" then "<case>/libtorch";
// compare.py turns the JSON output into the ratio table.
#include "bench_cases.h"

#include <benchmark/benchmark.h>

#include <dlfcn.h>

#include <string>

namespace {

// Both pl and libtorch call OpenBLAS, and Debian loads it twice into a
// libtorch process (libopenblas.so.0 and the libblas.so.3 alternative are
// separate copies with separate thread settings): pin each copy that is
// loaded. Returns what was pinned, for the report's context.
std::string pin_openblas_to_one_thread() {
  std::string pinned;
  for (const char *library : {"libopenblas.so.0", "libblas.so.3"}) {
    void *handle = dlopen(library, RTLD_LAZY | RTLD_NOLOAD);
    if (handle == nullptr)
      continue;
    using SetThreads = void (*)(int);
    auto set_threads = reinterpret_cast<SetThreads>(dlsym(handle, "openblas_set_num_threads"));
    if (set_threads != nullptr) {
      set_threads(1);
      pinned += pinned.empty() ? library : std::string(", ") + library;
    }
    dlclose(handle);
  }
  return pinned.empty() ? "no OpenBLAS loaded" : pinned;
}

// CPU time is measured for the whole process, so that work a library hands
// to its own threads counts as well.
void register_case(const BenchCase &bench_case, const char *library) {
  benchmark::RegisterBenchmark((std::string(bench_case.name) + "/" + library).c_str(),
                               bench_case.run, bench_case.size)
      ->MeasureProcessCPUTime();
}

} // namespace

int main(int argc, char **argv) {
  const std::vector<BenchCase> pl_cases = set_up_pl();
#if defined(PL_BENCH_HAVE_LIBTORCH)
  const std::vector<BenchCase> libtorch_cases = set_up_libtorch();
  benchmark::AddCustomContext("libtorch", "1 thread (torch::set_num_threads), InferenceMode");
#else
  benchmark::AddCustomContext("libtorch", "not built (libtorch-dev not found)");
#endif
  benchmark::AddCustomContext("pl", "1 thread (pl::set_num_threads)");
  benchmark::AddCustomContext("openblas_one_thread", pin_openblas_to_one_thread());

  for (std::size_t i = 0; i < pl_cases.size(); ++i) {
    register_case(pl_cases[i], "pl");
#if defined(PL_BENCH_HAVE_LIBTORCH)
    register_case(libtorch_cases[i], "libtorch");
#endif
  }

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
