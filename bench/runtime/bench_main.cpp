// bench_runtime: pl and libtorch side by side in one run, both on one
// CPU. Each case is registered as "<case>/pl" then "<case>/libtorch";
// compare.py turns the JSON output into the ratio table.
#include "bench_cases.h"

#include <benchmark/benchmark.h>

#include <dlfcn.h>
#include <sched.h>

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
    if (auto setThreads = reinterpret_cast<SetThreads>(dlsym(handle, "openblas_set_num_threads"))) {
      setThreads(1);
      pinned += pinned.empty() ? library : std::string(", ") + library;
    }
    dlclose(handle);
  }
  return pinned.empty() ? "no OpenBLAS loaded" : pinned;
}

// Runs the whole process on one CPU, whatever thread pools the libraries
// start later (threads inherit the affinity), so that neither library can
// use a second core. Returns which CPU, for the report's context.
std::string pinProcessToOneCpu() {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
    return "not pinned (sched_getaffinity failed)";
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &allowed))
      continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0)
      return "not pinned (sched_setaffinity failed)";
    return "cpu " + std::to_string(cpu);
  }
  return "not pinned (no allowed CPU)";
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
  // Before pl or libtorch starts a thread pool.
  const std::string cpu = pinProcessToOneCpu();
  const std::vector<BenchCase> plCases = setUpPl();
#if defined(PL_BENCH_HAVE_LIBTORCH)
  const std::vector<BenchCase> libtorchCases = setUpLibtorch();
  benchmark::AddCustomContext("libtorch", "1 thread (torch::set_num_threads), InferenceMode");
#else
  benchmark::AddCustomContext("libtorch", "not built (libtorch-dev not found)");
#endif
  benchmark::AddCustomContext("process_affinity", cpu);
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
