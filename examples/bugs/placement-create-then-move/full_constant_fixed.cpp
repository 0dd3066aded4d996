// placement-create-then-move, fixed: full() fills the device memory directly.
// parity: sim:0=clean cpu=clean
#include <iostream>

#include "bug_main.h"

void damp(const pl::Device &device) {
  const pl::Tensor scores = bugs::load_batch(16, 16).to(device);
  const pl::Tensor factor = pl::full({16, 16}, 0.5, device);
  const pl::Tensor damped = scores * factor;
  std::cout << "damped " << damped.sizes() << " on " << damped.device() << "\n";
  std::cout << "host-to-device copies: " << pl::sim::transfer_stats().host_to_device_copies
            << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, damp); }
