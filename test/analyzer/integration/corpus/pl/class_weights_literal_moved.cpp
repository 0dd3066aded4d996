// issue 19 class 1 (factories beyond the list), pl: a literal pl::tensor({...}) moved at once.
// BUG (create-then-move). Per-output loss weights of a multi-target
// regression are written as a literal and moved to the device at once; the
// literal can be given the device in its options.
// Look-alike: from_blob_readings_moved.cpp.
#include <pl/pl.h>

#include <iostream>

int main(int argc, char **argv) {
  const pl::Device device(argc > 1 ? argv[1] : "cpu");
  pl::nn::Sequential model(pl::nn::Linear(16, 64), pl::nn::ReLU(), pl::nn::Linear(64, 3));
  model->to(device);
  pl::optim::Adam optimizer(model->parameters(), pl::optim::AdamOptions(1e-3));
  auto weights = pl::tensor({1.0f, 0.5f, 2.0f}).to(device); // expect: placement-create-then-move
  for (int step = 0; step < 500; ++step) {
    auto x = pl::randn({32, 16}, pl::device(device));
    auto y = x.narrow(1, 0, 3) * 2.0;
    auto error = model(x) - y;
    auto loss = (error * error * weights).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  std::cout << "done\n";
  return 0;
}
