// issue 8 class 12: a sync inside operator<< arguments, every step.
// BUG. The training loop prints the loss on every step:
// `std::cout << loss.item<float>()` copies it to the host and waits for the
// device each time `device` is CUDA. Look-alike of periodic_logging_item.cpp.
#include <torch/torch.h>

#include <iostream>

struct LinearRegressionImpl : torch::nn::Module {
  LinearRegressionImpl() : fc(register_module("fc", torch::nn::Linear(13, 1))) {}
  torch::Tensor forward(const torch::Tensor &x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(LinearRegression);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  LinearRegression model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 1e-3);
  torch::Tensor features = torch::randn({506, 13});
  torch::Tensor prices = features.matmul(torch::randn({13, 1})) + 0.1 * torch::randn({506, 1});
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      torch::data::datasets::TensorDataset(torch::cat({features, prices}, 1)), 32);

  int64_t step = 0;
  for (int epoch = 0; epoch < 100; ++epoch) {
    for (auto &examples : *loader) {
      std::vector<torch::Tensor> rows;
      for (auto &example : examples) {
        rows.push_back(example.data);
      }
      auto batch = torch::stack(rows).to(device);
      auto x = batch.slice(1, 0, 13);
      auto y = batch.slice(1, 13);
      optimizer.zero_grad();
      auto loss = torch::mse_loss(model(x), y);
      loss.backward();
      optimizer.step();
      std::cout << "epoch " << epoch << " step " << step++ << " loss " << loss.item<float>() << std::endl; // expect: placement-transfer-in-loop
    }
  }
  return 0;
}
