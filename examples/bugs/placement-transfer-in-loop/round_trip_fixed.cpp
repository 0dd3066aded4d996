// placement-transfer-in-loop, fixed: the model moves to the device once, the
// batches stay there, and one sync after the loop reads the result.
// parity: sim:0=clean cpu=clean
#include <iostream>

#include "bug_main.h"

void evaluate(const pl::Device &device) {
  pl::nn::Linear model(16, 4);
  model->to(device);
  pl::Tensor total = pl::zeros({}, device);
  for (int step = 0; step < 150; ++step) {
    const pl::Tensor batch = bugs::load_batch(8, 16).to(device);
    total += model(batch).sum();
  }
  std::cout << "total score " << total.item<float>() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, evaluate); }
