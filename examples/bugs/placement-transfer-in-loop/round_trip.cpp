// placement-transfer-in-loop: a round trip on every iteration.
//
// The loader moves each batch to the device, but the model was left on the
// cpu, and the mixed-device error was "fixed" by moving the batch back: every
// batch crosses the bus twice. Under PL_TRANSFER_GUARD=log or disallow the
// runtime counts device-to-host copies per call site and reports this line
// once it passes the limit (100). On the cpu both moves are no-ops and
// nothing is reported.
// parity: sim:0=report cpu=clean
#include <iostream>

#include "bug_main.h"

void evaluate(const pl::Device &device) {
  pl::nn::Linear model(16, 4);
  pl::Tensor total = pl::zeros({});
  for (int step = 0; step < 150; ++step) {
    const pl::Tensor batch = bugs::load_batch(8, 16).to(device);
    const pl::Tensor scores = model(batch.to(pl::kCPU)); // expect: placement-transfer-in-loop
    total += scores.sum();
  }
  std::cout << "total score " << total.item<float>() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, evaluate); }
