// issue 19 class 1 (factories beyond the list), correct look-alike.
// CORRECT. As class_weights_literal_moved.cpp, but the literal is created with
// the device in its options.
#include <torch/torch.h>

#include <iostream>

struct TabularNetImpl : torch::nn::Module {
  TabularNetImpl(int64_t in, int64_t classes)
      : body(register_module("body", torch::nn::Sequential(torch::nn::Linear(in, 128), torch::nn::BatchNorm1d(128),
                                                           torch::nn::ReLU(), torch::nn::Dropout(0.2),
                                                           torch::nn::Linear(128, classes)))) {}
  torch::Tensor forward(const torch::Tensor &x) { return body->forward(x); }
  torch::nn::Sequential body;
};
TORCH_MODULE(TabularNet);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::Tensor features, labels;
  torch::load(features, "train_features.pt");
  torch::load(labels, "train_labels.pt");
  auto dataset = torch::data::datasets::TensorDataset({features, labels});
  auto loader = torch::data::make_data_loader(std::move(dataset), torch::data::DataLoaderOptions().batch_size(512));

  TabularNet model(features.size(1), 4);
  model->to(device);
  auto class_weights = torch::tensor({1.0f, 4.0f, 2.5f, 8.0f}, torch::TensorOptions().device(device));
  torch::nn::CrossEntropyLoss criterion(torch::nn::CrossEntropyLossOptions().weight(class_weights));
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(1e-3));
  for (int epoch = 0; epoch < 20; ++epoch) {
    for (auto &examples : *loader) {
      std::vector<torch::Tensor> xs, ys;
      for (auto &example : examples) {
        xs.push_back(example.data[0]);
        ys.push_back(example.data[1]);
      }
      auto x = torch::stack(xs).to(device);
      auto y = torch::stack(ys).to(device);
      optimizer.zero_grad();
      auto loss = criterion(model->forward(x), y);
      loss.backward();
      optimizer.step();
    }
  }
  torch::save(model, "tabular.pt");
  return 0;
}
