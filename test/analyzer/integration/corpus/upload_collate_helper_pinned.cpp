// pageable-non-blocking: a collate helper returns a stacked batch and its
// caller uploads it with non_blocking. CORRECT. As
// upload_collate_helper_pageable.cpp, but `collate` pins the stacked batch
// (pin_memory()) before returning it, so the caller's non_blocking upload is
// asynchronous (ray-project/ray#52948: the collate pins, the upload is
// non_blocking).
#include <torch/torch.h>

#include <algorithm>
#include <vector>

// Pads each sequence to the longest with 0 and stacks them in pinned memory: [batch, length].
torch::Tensor collate(const std::vector<std::vector<int64_t>> &sequences) {
  size_t longest = 0;
  for (const auto &sequence : sequences)
    longest = std::max(longest, sequence.size());
  std::vector<torch::Tensor> rows;
  for (const auto &sequence : sequences) {
    std::vector<int64_t> padded(sequence);
    padded.resize(longest, 0);
    rows.push_back(torch::tensor(padded));
  }
  return torch::stack(rows).pin_memory();
}

int main() {
  if (!torch::cuda::is_available())
    return 0;
  torch::Device device(torch::kCUDA);
  torch::nn::Embedding embedding(30000, 256);
  torch::nn::Linear classifier(256, 2);
  embedding->to(device);
  classifier->to(device);
  std::vector<torch::Tensor> parameters = embedding->parameters();
  for (const auto &p : classifier->parameters())
    parameters.push_back(p);
  torch::optim::Adam optimizer(parameters, torch::optim::AdamOptions(1e-3));
  for (int step = 0; step < 10000; ++step) {
    std::vector<std::vector<int64_t>> sequences(64);
    for (size_t i = 0; i < sequences.size(); ++i)
      sequences[i].assign(16 + (i * 13 + step) % 48, static_cast<int64_t>((i * 31 + step) % 30000));
    auto tokens = collate(sequences).to(device, /*non_blocking=*/true);
    auto labels = tokens.select(1, 0) % 2;
    auto loss = torch::cross_entropy_loss(classifier(embedding(tokens).mean(1)), labels);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
