// issue 19 class 7 (consequences across functions), pl, correct look-alike.
// CORRECT. As helper_and_lambda_host_tensors.cpp, but the helper moves the
// targets to the device it is given and the lambda captures the device.
#include <pl/pl.h>

#include <iostream>
#include <vector>

pl::Tensor make_targets(const std::vector<float> &values, const pl::Device &device) {
  return pl::tensor(values).view({-1, 1}).to(device);
}

int main(int argc, char **argv) {
  const pl::Device device(argc > 1 ? argv[1] : "cpu");
  pl::nn::Linear model(4, 1);
  model->to(device);
  pl::optim::SGD optimizer(model->parameters(), pl::optim::SGDOptions(0.1));
  auto feature_scale = [&device](std::int64_t n) { return pl::full({1, n}, 0.5, pl::device(device)); };
  std::vector<float> values(128);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<float>(i % 7);
  auto inputs = pl::rand({128, 4}, pl::device(device));
  auto scaled = inputs * feature_scale(4);
  auto targets = make_targets(values, device);
  for (int step = 0; step < 100; ++step) {
    auto error = model(scaled) - targets;
    auto loss = (error * error).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
