// Run by ctest with PL_SIM_DELAY set: prints the delay it finds, then
// whether a queued sim kernel has run before any synchronisation (under
// PL_SIM_DELAY=sync it never has), then the value after synchronising.
#include <cstdio>

#include <pl/pl.h>

int main() {
  try {
    const pl::sim::Delay delay = pl::sim::delay();
    switch (delay.mode) {
    case pl::sim::DelayMode::kNone:
      std::puts("delay none");
      break;
    case pl::sim::DelayMode::kLate:
      std::printf("delay late %lldus\n", static_cast<long long>(delay.per_task.count()));
      break;
    case pl::sim::DelayMode::kUntilSynchronized:
      std::puts("delay until synchronized");
      break;
    }
    const pl::Tensor x = pl::ones({4}, pl::device(pl::Device("sim:0")));
    if (delay.mode == pl::sim::DelayMode::kUntilSynchronized)
      std::printf("ran before synchronize: %s\n",
                  pl::getCurrentStream(pl::Device("sim:0")).query() ? "yes" : "no");
    std::printf("sum %g\n", x.sum().item<double>());
  } catch (const pl::Error &error) {
    std::printf("caught pl::Error: %s\n", error.what());
  }
}
