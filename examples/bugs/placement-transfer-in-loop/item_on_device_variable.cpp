// placement-transfer-in-loop: `.item()` on every step, the device in a variable.
//
// The same bug as item_every_step.cpp, but the device comes from the
// command line. Device-agnostic code runs on a GPU in production, which is
// where the sync hurts, so the analyzer reports it, saying that the device
// may be CUDA (option SyncOnDeviceVariable turns that off). Run on sim:0
// under PL_TRANSFER_GUARD=log or disallow, the runtime reports this line once
// it has synced more than 100 times; on the cpu it runs clean.
// parity: sim:0=report cpu=clean
#include <iostream>

#include "bug_main.h"

void train_loss(const pl::Device &device) {
  pl::nn::Linear model(4, 1);
  model->to(device);
  float total = 0;
  for (int step = 0; step < 150; ++step) {
    const pl::Tensor batch = bugs::load_batch(8, 4).to(device);
    const pl::Tensor output = model(batch);
    const pl::Tensor loss = (output * output).mean();
    total += loss.item<float>(); // expect: placement-transfer-in-loop
  }
  std::cout << "mean loss " << total / 150 << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, train_loss); }
