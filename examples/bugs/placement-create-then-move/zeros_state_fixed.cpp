// placement-create-then-move, fixed: the factory allocates on the device.
// parity: sim:0=clean cpu=clean
#include <iostream>

#include "bug_main.h"

void recurrent_state(const pl::Device &device) {
  pl::nn::Linear cell(32, 32);
  cell->to(device);
  pl::Tensor state = pl::zeros({8, 32}, device);
  for (int step = 0; step < 4; ++step)
    state = cell(state).relu();
  std::cout << "state " << state.sizes() << " on " << state.device() << "\n";
  std::cout << "host-to-device copies: " << pl::sim::transfer_stats().host_to_device_copies
            << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, recurrent_state); }
