// issue 8 class 16: periodic work in the loop.
// CORRECT. The training loop prints the loss every 100 steps, under
// `if (step % 100 == 0)`: the sync happens once per hundred steps, not on
// every iteration. Look-alike of cout_item_every_step.cpp.
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
      if (step % 100 == 0) {
        std::cout << "epoch " << epoch << " step " << step << " loss " << loss.item<float>() << std::endl;
      }
      ++step;
    }
  }
  return 0;
}
