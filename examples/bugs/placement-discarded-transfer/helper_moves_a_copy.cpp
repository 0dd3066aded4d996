// placement-discarded-transfer: a helper that "moves" its argument.
//
// `tensor.to(device)` inside the helper returns the moved tensor and drops
// it; the caller's targets never leave the cpu. The compiler warns at the
// discarded call ([[nodiscard]] naming the rule); at run time the loss meets
// predictions on the device and targets on the cpu, and the runtime raises
// pl::DeviceMismatchError. On the cpu it runs clean.
// parity: sim:0=report cpu=clean
#include <iostream>

#include "bug_main.h"

void move_to(pl::Tensor tensor, const pl::Device &device) {
  tensor.to(device); // expect: placement-discarded-transfer
}

void score(const pl::Device &device) {
  pl::nn::Linear model(4, 1);
  model->to(device);
  const pl::Tensor predictions = model(bugs::load_batch(16, 4).to(device));
  const pl::Tensor targets = bugs::load_batch(16, 1);
  move_to(targets, device);
  const pl::Tensor error = predictions - targets; // expect: placement-mixed-device
  std::cout << "squared error " << (error * error).mean().item<float>() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, score); }
