// placement-create-then-move: a tensor made on the host only to be moved at once.
//
// The zeros are written into host memory, then copied to the device; a
// factory given the device allocates and fills them there, with no copy.
// The analyzer reports it (with a fix-it that passes the device to zeros());
// under PL_TRANSFER_GUARD=log or disallow the runtime reports the tensor
// moved before anything used it, naming this line as the factory's and the
// move's. The copy it makes is also visible in the sim transfer counters,
// which it prints. On the cpu `to` returns the tensor itself and nothing is
// reported.
// parity: sim:0=report cpu=clean
#include <iostream>

#include "bug_main.h"

void recurrent_state(const pl::Device &device) {
  pl::nn::Linear cell(32, 32);
  cell->to(device);
  pl::Tensor state = pl::zeros({8, 32}).to(device); // expect: placement-create-then-move
  for (int step = 0; step < 4; ++step)
    state = cell(state).relu();
  std::cout << "state " << state.sizes() << " on " << state.device() << "\n";
  std::cout << "host-to-device copies: " << pl::sim::transfer_stats().host_to_device_copies
            << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, recurrent_state); }
