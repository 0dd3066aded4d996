// issue 19 class 7 (consequences across functions), correct look-alike.
// CORRECT. As template_targets_on_host.cpp, but the labels are moved too.
#include <torch/torch.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

template <typename T>
torch::Tensor column_tensor(const std::vector<T> &values) {
  return torch::tensor(values);
}

bool read_csv(const std::string &path, std::vector<float> &features, std::vector<int64_t> &labels, int64_t &width) {
  std::ifstream in(path);
  std::string line;
  width = 0;
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::string cell;
    std::vector<float> cells;
    while (std::getline(row, cell, ','))
      cells.push_back(std::stof(cell));
    if (cells.empty())
      continue;
    labels.push_back(static_cast<int64_t>(cells.back()));
    cells.pop_back();
    width = static_cast<int64_t>(cells.size());
    features.insert(features.end(), cells.begin(), cells.end());
  }
  return !labels.empty();
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  std::vector<float> features;
  std::vector<int64_t> labels;
  int64_t width = 0;
  if (!read_csv("covertype.csv", features, labels, width))
    return 1;
  auto x = column_tensor(features).view({-1, width}).to(device);
  auto y = column_tensor(labels).to(device);
  torch::nn::Sequential model(torch::nn::Linear(width, 64), torch::nn::ReLU(), torch::nn::Linear(64, 7));
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), 1e-2);
  for (int epoch = 0; epoch < 100; ++epoch) {
    optimizer.zero_grad();
    auto loss = torch::nn::functional::cross_entropy(model->forward(x), y);
    loss.backward();
    optimizer.step();
  }
  return 0;
}
