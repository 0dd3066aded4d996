// placement-mixed-device, fixed: the accumulator lives on the device, and
// one sync after the loop reads it.
// parity: sim:0=clean cpu=clean
#include <iostream>

#include "bug_main.h"

void evaluate(const pl::Device &device) {
  pl::nn::Linear model(4, 1);
  model->to(device);
  pl::Tensor total = pl::zeros({}, device);
  for (int step = 0; step < 5; ++step) {
    const pl::Tensor batch = bugs::load_batch(8, 4).to(device);
    const pl::Tensor output = model(batch);
    const pl::Tensor loss = (output * output).mean();
    total += loss;
  }
  std::cout << "mean loss " << total.item<float>() / 5 << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, evaluate); }
