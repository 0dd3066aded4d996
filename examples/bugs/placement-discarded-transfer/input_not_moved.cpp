// placement-discarded-transfer: `batch.to(device);` with the result thrown away.
//
// Tensor::to returns the moved tensor; `batch` itself stays where it was
// (only Module::to works in place). The runtime half of this rule is the
// compiler: Tensor::to is [[nodiscard]] with the rule id as its reason, so
// the build warns at this line. Running it shows the consequence, the next
// rule: the model on the device meets the batch still on the cpu, and the
// runtime raises pl::DeviceMismatchError. On the cpu it runs clean.
// parity: sim:0=report cpu=clean
#include <iostream>

#include "bug_main.h"

void classify(const pl::Device &device) {
  pl::nn::Linear model(4, 3);
  model->to(device);
  pl::Tensor batch = bugs::load_batch(16, 4);
  batch.to(device); // expect: placement-discarded-transfer
  const pl::Tensor scores = model(batch); // expect: placement-mixed-device
  std::cout << "scores " << scores.sizes() << " on " << scores.device() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, classify); }
