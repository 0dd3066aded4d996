// issue 19 class 1 (factories beyond the list), pl, correct by decision: from_blob data moved.
// CORRECT. Sensor readings arrive in a host buffer; `pl::from_blob` wraps them
// and the tensor is moved to the device. The data exists on the host
// already, so nothing could be created on the device instead: not
// create-then-move (README.md). The literal weights are made on the device.
#include <pl/pl.h>

#include <iostream>
#include <vector>

std::vector<float> read_sensors(int frame) {
  std::vector<float> values(32 * 16);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<float>((frame * 31 + static_cast<int>(i)) % 97) / 97.0f;
  return values;
}

int main(int argc, char **argv) {
  const pl::Device device(argc > 1 ? argv[1] : "cpu");
  pl::nn::Sequential model(pl::nn::Linear(16, 64), pl::nn::ReLU(), pl::nn::Linear(64, 3));
  model->to(device);
  auto weights = pl::tensor({1.0f, 0.5f, 2.0f}, pl::device(device));
  pl::NoGradGuard no_grad;
  auto total = pl::zeros({}, pl::device(device));
  for (int frame = 0; frame < 100; ++frame) {
    std::vector<float> readings = read_sensors(frame);
    auto x = pl::from_blob(readings.data(), {32, 16}).to(device);
    total += (model(x) * weights).sum();
  }
  std::cout << "total " << total.item<float>() << "\n";
  return 0;
}
