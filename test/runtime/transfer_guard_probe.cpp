// Run by ctest with PL_TRANSFER_GUARD set (or not): prints the level it
// finds, then copies one unchanged tensor to sim:0 twice.
#include <cstdio>

#include <pl/pl.h>

int main() {
  try {
    switch (pl::transfer_guard_level()) {
    case pl::TransferGuardLevel::Allow:
      std::puts("level allow");
      break;
    case pl::TransferGuardLevel::Log:
      std::puts("level log");
      break;
    case pl::TransferGuardLevel::Disallow:
      std::puts("level disallow");
      break;
    }
    std::fflush(stdout);
    // Computed on the host, not fresh from a factory (that would be
    // placement-create-then-move): the probe is about repeated copies.
    const pl::Tensor weights = pl::ones({4}).mul(2);
    for (int step = 0; step < 2; ++step) {
      const pl::Tensor on_device = weights.to(pl::Device("sim:0"));
      std::fflush(stdout);
    }
    std::puts("copied twice");
  } catch (const pl::TransferGuardError &error) {
    std::printf("caught pl::TransferGuardError: %s\n", error.what());
  } catch (const pl::Error &error) {
    std::printf("caught pl::Error: %s\n", error.what());
  }
  return 0;
}
