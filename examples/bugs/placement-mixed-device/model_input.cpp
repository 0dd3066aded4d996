// placement-mixed-device: the model is moved to the device, its input is not.
//
// Module::to moves the parameters in place; the batch from the loader is
// still on the cpu, so the first Linear layer meets a cpu input and
// parameters on the device. The runtime raises pl::DeviceMismatchError
// inside the layer (it names the rule and both devices; it cannot know this
// line). On the cpu nothing can mix, so the program runs there and the bug
// waits for the first machine with an accelerator; the analyzer finds it
// whatever the device.
// parity: sim:0=report cpu=clean
#include <iostream>

#include "bug_main.h"

void classify(const pl::Device &device) {
  pl::nn::Sequential model(pl::nn::Linear(4, 8), pl::nn::ReLU(), pl::nn::Linear(8, 3));
  model->to(device);
  const pl::Tensor batch = bugs::load_batch(16, 4);
  const pl::Tensor scores = model(batch); // expect: placement-mixed-device
  std::cout << "scores " << scores.sizes() << " on " << scores.device() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, classify); }
