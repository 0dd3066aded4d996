// placement-mixed-device, fixed: the baseline is made on the device.
// parity: default=clean
#include <iostream>

#include "bug_main.h"

void summarise() {
  const pl::Device device("sim:0");
  pl::nn::Linear model(4, 1);
  model->to(device);
  const pl::Tensor baseline = pl::tensor(0.0, device);
  const pl::Tensor first = model(bugs::load_batch(8, 4).to(device)).mean();
  const pl::Tensor second = model(bugs::load_batch(8, 4).to(device)).mean();
  const pl::Tensor losses = pl::stack({baseline, first, second});
  std::cout << "losses " << losses.sizes() << " on " << losses.device() << "\n";
}

int main(int argc, char **argv) { return bugs::run_without_arguments(argc, argv, summarise); }
