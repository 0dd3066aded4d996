// Rule: placement-discarded-transfer, correct look-alike.
// Modelled on: sequence-model batches whose padding mask is optional (fairseq's
// `key_padding_mask: Optional[Tensor]`, ported to C++ as std::optional), and the
// "Expected all tensors to be on the same device ... masked_fill" reports.
// Why it is correct: Batch::to_device() assigns the moved mask back into the
// optional, so attend() masks device scores with a device mask.
// Twin: discard_optional_padding_mask_branch.cpp (the moved mask is dropped).
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <optional>
#include <vector>

struct Batch {
  torch::Tensor tokens;                      // [B, T]
  std::optional<torch::Tensor> padding_mask; // [B, T], true where padded

  void to_device(torch::Device device) {
    tokens = tokens.to(device);
    if (padding_mask.has_value()) {
      padding_mask = padding_mask->to(device);
    }
  }
};

struct SelfAttentionImpl : torch::nn::Module {
  SelfAttentionImpl(int64_t vocab, int64_t dim)
      : embed(register_module("embed", torch::nn::Embedding(vocab, dim))),
        qkv(register_module("qkv", torch::nn::Linear(dim, 3 * dim))), dim_(dim) {}

  torch::Tensor attend(const torch::Tensor &q, const torch::Tensor &k, const std::optional<torch::Tensor> &mask) {
    auto scores = torch::matmul(q, k.transpose(1, 2)) / std::sqrt(static_cast<double>(dim_));
    if (mask) scores = scores.masked_fill(mask->unsqueeze(1), -1e9);
    return torch::softmax(scores, -1);
  }

  torch::Tensor forward(const Batch &batch) {
    auto h = embed(batch.tokens);
    auto parts = qkv(h).chunk(3, -1);
    return torch::matmul(attend(parts[0], parts[1], batch.padding_mask), parts[2]);
  }

  torch::nn::Embedding embed;
  torch::nn::Linear qkv;
  int64_t dim_;
};
TORCH_MODULE(SelfAttention);

Batch make_batch(const std::vector<std::vector<int64_t>> &sentences, int64_t pad_id) {
  size_t longest = 0;
  for (const auto &s : sentences) longest = std::max(longest, s.size());
  const auto b = static_cast<int64_t>(sentences.size()), t = static_cast<int64_t>(longest);
  auto tokens = torch::full({b, t}, pad_id, torch::kLong);
  for (int64_t i = 0; i < b; ++i)
    for (size_t j = 0; j < sentences[static_cast<size_t>(i)].size(); ++j) tokens[i][static_cast<int64_t>(j)] = sentences[static_cast<size_t>(i)][j];
  return {tokens, tokens.eq(pad_id)};
}

int main() {
  const auto device = torch::cuda::is_available() ? torch::Device("cuda:0") : torch::Device("cpu");
  SelfAttention layer(100, 32);
  layer->to(device);

  auto batch = make_batch({{5, 8, 13, 2}, {7, 3}, {9, 9, 9}}, /*pad_id=*/0);
  batch.to_device(device);
  torch::NoGradGuard no_grad;
  auto out = layer(batch);
  std::cout << "output " << out.sizes() << " mean " << out.mean().item<float>() << "\n";
  return 0;
}
