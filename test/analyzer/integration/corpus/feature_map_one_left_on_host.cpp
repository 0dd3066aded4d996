// issue 19 class 7 (consequences across functions): a std::map of tensors from a helper, one entry left on the host.
// BUG (mixed-device). A click-through-rate model reads each batch as a
// `std::map<std::string, torch::Tensor>` from a helper. The loop moves the
// entries it remembers by name and forgets "sparse_ids", which reach the
// embedding bag on `device` from the cpu.
// Look-alike: feature_map_all_moved.cpp.
#include <torch/torch.h>

#include <iostream>
#include <map>
#include <string>

std::map<std::string, torch::Tensor> read_batch(int64_t index) {
  torch::Tensor dense, ids, offsets, clicks;
  const std::string stem = "ctr/batch_" + std::to_string(index);
  torch::load(dense, stem + "_dense.pt");
  torch::load(ids, stem + "_ids.pt");
  torch::load(offsets, stem + "_offsets.pt");
  torch::load(clicks, stem + "_clicks.pt");
  return {{"dense", dense}, {"sparse_ids", ids}, {"offsets", offsets}, {"label", clicks}};
}

struct CtrModelImpl : torch::nn::Module {
  CtrModelImpl(int64_t dense_dim, int64_t buckets, int64_t dim)
      : bag(register_module("bag", torch::nn::EmbeddingBag(torch::nn::EmbeddingBagOptions(buckets, dim)
                                                               .mode(torch::kSum)))),
        mlp(register_module("mlp", torch::nn::Sequential(torch::nn::Linear(dense_dim + dim, 128), torch::nn::ReLU(),
                                                         torch::nn::Linear(128, 1)))) {}
  torch::nn::EmbeddingBag bag;
  torch::nn::Sequential mlp;
};
TORCH_MODULE(CtrModel);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  CtrModel model(13, 1000000, 16);
  model->to(device);
  torch::optim::Adagrad optimizer(model->parameters(), torch::optim::AdagradOptions(0.01));
  for (int64_t index = 0; index < 500; ++index) {
    auto batch = read_batch(index);
    batch["dense"] = batch["dense"].to(device);
    batch["offsets"] = batch["offsets"].to(device);
    batch["label"] = batch["label"].to(device);
    auto pooled = model->bag(batch.at("sparse_ids"), batch.at("offsets")); // expect: placement-mixed-device
    auto logits = model->mlp->forward(torch::cat({batch.at("dense"), pooled}, 1)).squeeze(1);
    auto loss = torch::binary_cross_entropy_with_logits(logits, batch.at("label"));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
