// placement-create-then-move: a constant filled on the host only to be moved at once.
//
// full() writes the constant into host memory, which is then copied to the
// device; given the device, it fills the device memory directly. The
// analyzer reports it (with a fix-it that passes the device to full()); under
// PL_TRANSFER_GUARD=log or disallow the runtime reports the tensor moved
// before anything used it, naming this line as the factory's and the move's.
// The copy also shows in the sim transfer counters, which it prints. On the
// cpu `to` returns the tensor itself and nothing is reported.
// parity: sim:0=report cpu=clean
#include <iostream>

#include "bug_main.h"

void damp(const pl::Device &device) {
  const pl::Tensor scores = bugs::load_batch(16, 16).to(device);
  const pl::Tensor factor = pl::full({16, 16}, 0.5).to(device); // expect: placement-create-then-move
  const pl::Tensor damped = scores * factor;
  std::cout << "damped " << damped.sizes() << " on " << damped.device() << "\n";
  std::cout << "host-to-device copies: " << pl::sim::transfer_stats().host_to_device_copies
            << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, damp); }
