// placement-transfer-in-loop, fixed: the loss is summed on the device and
// read once, after the loop.
// parity: sim:0=clean cpu=clean
#include <iostream>

#include "bug_main.h"

void train_loss(const pl::Device &device) {
  pl::nn::Linear model(4, 1);
  model->to(device);
  pl::Tensor total = pl::zeros({}, device);
  for (int step = 0; step < 150; ++step) {
    const pl::Tensor batch = bugs::load_batch(8, 4).to(device);
    const pl::Tensor output = model(batch);
    total += (output * output).mean();
  }
  std::cout << "mean loss " << total.item<float>() / 150 << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, train_loss); }
