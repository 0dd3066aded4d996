// issue 19 class 1 (factories beyond the list), correct look-alike.
// CORRECT. As shuffle_randperm_moved.cpp, but the permutation is drawn on the
// device: `randperm` is given the device in its options.
#include <torch/torch.h>

#include <iostream>

struct GcnImpl : torch::nn::Module {
  GcnImpl(int64_t in, int64_t hidden, int64_t classes)
      : lin1(register_module("lin1", torch::nn::Linear(in, hidden))),
        lin2(register_module("lin2", torch::nn::Linear(hidden, classes))) {}
  // adj: row-normalised dense adjacency of the batch's nodes.
  torch::Tensor forward(const torch::Tensor &x, const torch::Tensor &adj) {
    auto h = torch::relu(adj.matmul(lin1(x)));
    return lin2(adj.matmul(h));
  }
  torch::nn::Linear lin1, lin2;
};
TORCH_MODULE(Gcn);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::Tensor features, labels, adjacency;
  torch::load(features, "cora_features.pt");
  torch::load(labels, "cora_labels.pt");
  torch::load(adjacency, "cora_adjacency.pt");
  features = features.to(device);
  labels = labels.to(device);
  adjacency = adjacency.to(device);
  const int64_t n = features.size(0), batch = 256;

  Gcn model(features.size(1), 64, 7);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-2).weight_decay(5e-4));
  for (int epoch = 0; epoch < 200; ++epoch) {
    auto perm = torch::randperm(n, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto epoch_loss = torch::zeros({}, features.options());
    for (int64_t start = 0; start < n; start += batch) {
      auto idx = perm.slice(0, start, std::min(start + batch, n));
      auto sub_adj = adjacency.index_select(0, idx).index_select(1, idx);
      optimizer.zero_grad();
      auto logits = model->forward(features.index_select(0, idx), sub_adj);
      auto loss = torch::nn::functional::cross_entropy(logits, labels.index_select(0, idx));
      loss.backward();
      optimizer.step();
      epoch_loss += loss.detach();
    }
    if (epoch % 20 == 0)
      std::cout << "epoch " << epoch << " loss " << epoch_loss.item<float>() << "\n";
  }
  return 0;
}
