// placement-create-then-move, fixed: arange fills the device memory directly.
// parity: sim:0=clean cpu=clean
#include <iostream>

#include "bug_main.h"

void positions(const pl::Device &device) {
  const pl::Tensor embeddings = bugs::load_batch(16, 4).to(device);
  const pl::Tensor position = pl::arange(16, pl::TensorOptions(device).dtype(pl::kFloat));
  const pl::Tensor shifted = embeddings + position.view({16, 1});
  std::cout << "shifted " << shifted.sizes() << " on " << shifted.device() << "\n";
  std::cout << "host-to-device copies: " << pl::sim::transfer_stats().host_to_device_copies
            << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, positions); }
