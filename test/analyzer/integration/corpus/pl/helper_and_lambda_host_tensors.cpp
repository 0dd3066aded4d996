// issue 19 class 7 (consequences across functions), pl: a helper and a lambda that build host tensors.
// BUG (mixed-device, twice). `make_targets` builds the regression targets
// from a std::vector with `pl::tensor` (cpu); a lambda stored in a variable
// builds the per-feature scale with `pl::full` (cpu). Both meet tensors on
// `device` in the caller.
// Look-alike: helper_and_lambda_device_tensors.cpp.
#include <pl/pl.h>

#include <iostream>
#include <vector>

pl::Tensor make_targets(const std::vector<float> &values) { return pl::tensor(values).view({-1, 1}); }

int main(int argc, char **argv) {
  const pl::Device device(argc > 1 ? argv[1] : "cpu");
  pl::nn::Linear model(4, 1);
  model->to(device);
  pl::optim::SGD optimizer(model->parameters(), pl::optim::SGDOptions(0.1));
  auto feature_scale = [](std::int64_t n) { return pl::full({1, n}, 0.5); };
  std::vector<float> values(128);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<float>(i % 7);
  auto inputs = pl::rand({128, 4}, pl::device(device));
  auto scaled = inputs * feature_scale(4); // expect: placement-mixed-device
  auto targets = make_targets(values);
  for (int step = 0; step < 100; ++step) {
    auto error = model(scaled) - targets; // expect: placement-mixed-device
    auto loss = (error * error).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
