// issue 19 class 1 (factories beyond the list): tril_indices, moved at once.
// BUG (create-then-move). A contrastive (online pair mining) loss over a batch
// of embeddings: the indices of all pairs i > j come from
// `torch::tril_indices(n, n, -1)` on the host and are copied to the
// embeddings' device at once, every batch. `tril_indices` takes options.
#include <torch/torch.h>

#include <iostream>

torch::Tensor contrastive_pair_loss(const torch::Tensor &embeddings, const torch::Tensor &labels, double margin) {
  const int64_t n = embeddings.size(0);
  auto pairs = torch::tril_indices(n, n, -1).to(embeddings.device()); // expect: placement-create-then-move
  auto a = embeddings.index_select(0, pairs[0]);
  auto b = embeddings.index_select(0, pairs[1]);
  auto same = labels.index_select(0, pairs[0]).eq(labels.index_select(0, pairs[1])).to(torch::kFloat);
  auto dist = (a - b).pow(2).sum(1).sqrt();
  return (same * dist.pow(2) + (1 - same) * torch::relu(margin - dist).pow(2)).mean();
}

struct EmbedderImpl : torch::nn::Module {
  EmbedderImpl()
      : body(register_module("body", torch::nn::Sequential(torch::nn::Flatten(), torch::nn::Linear(784, 256),
                                                           torch::nn::ReLU(), torch::nn::Linear(256, 32)))) {}
  torch::Tensor forward(const torch::Tensor &x) { return torch::nn::functional::normalize(body->forward(x)); }
  torch::nn::Sequential body;
};
TORCH_MODULE(Embedder);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Embedder net;
  net->to(device);
  torch::optim::Adam optimizer(net->parameters(), 1e-3);
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./mnist").map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(128).workers(2));
  for (auto &batch : *loader) {
    auto images = batch.data.to(device);
    auto labels = batch.target.to(device);
    optimizer.zero_grad();
    auto loss = contrastive_pair_loss(net->forward(images), labels, 1.0);
    loss.backward();
    optimizer.step();
  }
  torch::save(net, "embedder.pt");
  return 0;
}
