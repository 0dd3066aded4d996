// placement-transfer-in-loop: `.item()` on every step.
//
// Reading the loss into a float each step makes the host wait for the device
// every iteration. The device is written out (sim:0, standing for cuda:0)
// because the bug exists only on an accelerator: on the cpu item() is a plain
// read, and for a device held in a variable the analyzer cannot rule the cpu
// out, so it stays silent there by design (item_on_device_variable.cpp shows
// that case). Under PL_TRANSFER_GUARD=log or disallow the runtime reports
// this line once it has synced more than 100 times.
// parity: default=report
#include <iostream>

#include "bug_main.h"

void train_loss() {
  const pl::Device device("sim:0");
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

int main(int argc, char **argv) { return bugs::run_without_arguments(argc, argv, train_loss); }
