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
std::string pinOpenBlasToOneThread() {
  std::string pinned;
  for (const char *library : {"libopenblas.so.0", "libblas.so.3"}) {
    void *handle = dlopen(library, RTLD_LAZY | RTLD_NOLOAD);
    if (handle == nullptr)
      continue;
    using SetThreads = void (*)(int);
    auto setThreads = reinterpret_cast<SetThreads>(dlsym(handle, "openblas_set_num_threads"));
    if (setThreads != nullptr) {
      setThreads(1);
      pinned += pinned.empty() ? library : std::string(", ") + library;
    }
    dlclose(handle);
  }
  return pinned.empty() ? "no OpenBLAS loaded" : pinned;
}

// CPU time is measured for the whole process, so that work a library hands
// to its own threads counts as well.
void registerCase(const BenchCase &benchCase, const char *library) {
  benchmark::RegisterBenchmark((std::string(benchCase.name) + "/" + library).c_str(),
                               benchCase.run, benchCase.size)
      ->MeasureProcessCPUTime();
}

} // namespace

int main(int argc, char **argv) {
  const std::vector<BenchCase> plCases = setUpPl();
#if defined(PL_BENCH_HAVE_LIBTORCH)
  const std::vector<BenchCase> libtorchCases = setUpLibtorch();
  benchmark::AddCustomContext("libtorch", "1 thread (torch::set_num_threads), InferenceMode");
#else
  benchmark::AddCustomContext("libtorch", "not built (libtorch-dev not found)");
#endif
  benchmark::AddCustomContext("pl", "1 thread (pl::set_num_threads)");
  benchmark::AddCustomContext("openblas_one_thread", pinOpenBlasToOneThread());

  for (std::size_t i = 0; i < plCases.size(); ++i) {
    registerCase(plCases[i], "pl");
#if defined(PL_BENCH_HAVE_LIBTORCH)
    registerCase(libtorchCases[i], "libtorch");
#endif
  }

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
