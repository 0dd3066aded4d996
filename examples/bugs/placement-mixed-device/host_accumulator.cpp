// placement-mixed-device: a 0-dim cpu tensor as the target of an in-place op.
//
// A 0-dim cpu tensor may join an op on another device as an input (scalar
// promotion, as in PyTorch), but never as the tensor written to:
// `total += loss` would have to write a device value into cpu memory. The
// runtime raises pl::DeviceMismatchError in operator+= (rule and both
// devices; not this line). On the cpu it runs clean.
// parity: sim:0=report cpu=clean
#include <iostream>

#include "bug_main.h"

void evaluate(const pl::Device &device) {
  pl::nn::Linear model(4, 1);
  model->to(device);
  pl::Tensor total = pl::zeros({});
  for (int step = 0; step < 5; ++step) {
    const pl::Tensor batch = bugs::load_batch(8, 4).to(device);
    const pl::Tensor output = model(batch);
    const pl::Tensor loss = (output * output).mean();
    total += loss; // expect: placement-mixed-device
  }
  std::cout << "mean loss " << total.item<float>() / 5 << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, evaluate); }
