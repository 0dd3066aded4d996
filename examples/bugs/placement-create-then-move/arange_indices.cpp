// placement-create-then-move: indices built on the host and moved at once.
//
// arange fills host memory that is copied straight to the device; given the
// device, it fills the device memory directly. The analyzer check for this
// rule is not written yet, and the runtime has no mirror for it (optional in
// the design): the program runs clean on both halves today. The copy shows
// in the sim transfer counters, which it prints.
// parity: sim:0=report cpu=clean
#include <iostream>

#include "bug_main.h"

void positions(const pl::Device &device) {
  const pl::Tensor embeddings = bugs::load_batch(16, 4).to(device);
  const pl::Tensor position = pl::arange(16, pl::kFloat).to(device); // expect: placement-create-then-move
  const pl::Tensor shifted = embeddings + position.view({16, 1});
  std::cout << "shifted " << shifted.sizes() << " on " << shifted.device() << "\n";
  std::cout << "host-to-device copies: " << pl::sim::transfer_stats().host_to_device_copies
            << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, positions); }
