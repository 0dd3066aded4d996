// placement-mixed-device: a 0-dim host tensor stacked with values on the device.
//
// The losses of two batches are 0-dim tensors on the accelerator; the
// baseline, made with pl::tensor(0.0), is 0-dim too but on the host. An
// elementwise op would take it as a scalar (PyTorch's scalar promotion);
// stack does not: like torch.stack it needs every input on one device
// (ops.def's SameDeviceStrict). The runtime raises pl::DeviceMismatchError
// naming stack and both devices.
// parity: default=report
#include <iostream>

#include "bug_main.h"

void summarise() {
  const pl::Device device("sim:0");
  pl::nn::Linear model(4, 1);
  model->to(device);
  const pl::Tensor baseline = pl::tensor(0.0);
  const pl::Tensor first = model(bugs::load_batch(8, 4).to(device)).mean();
  const pl::Tensor second = model(bugs::load_batch(8, 4).to(device)).mean();
  const pl::Tensor losses = pl::stack({baseline, first, second}); // expect: placement-mixed-device
  std::cout << "losses " << losses.sizes() << " on " << losses.device() << "\n";
}

int main(int argc, char **argv) { return bugs::run_without_arguments(argc, argv, summarise); }
