// issue 19 class 9 (module internals): a per-head table built with host factories in a module method.
// BUG (mixed-device). An attention layer with ALiBi position biases computes
// its per-head slopes in a member function from `torch::arange` (cpu) and
// adds `slopes * distance` to scores on the module's device in forward.
// Look-alike: alibi_slopes_buffer.cpp.
#include <torch/torch.h>

#include <cmath>
#include <iostream>

struct AlibiAttentionImpl : torch::nn::Module {
  AlibiAttentionImpl(int64_t dim, int64_t heads)
      : qkv(register_module("qkv", torch::nn::Linear(dim, 3 * dim))),
        out(register_module("out", torch::nn::Linear(dim, dim))), heads_(heads) {}

  torch::Tensor slopes() const {
    auto exponents = torch::arange(1, heads_ + 1).to(torch::kFloat) * (-8.0 / static_cast<double>(heads_));
    return torch::pow(2.0, exponents);
  }

  torch::Tensor forward(const torch::Tensor &x) {
    const int64_t B = x.size(0), T = x.size(1), C = x.size(2), hd = C / heads_;
    auto qkv_parts = qkv(x).view({B, T, 3, heads_, hd}).permute({2, 0, 3, 1, 4});
    auto q = qkv_parts[0], k = qkv_parts[1], v = qkv_parts[2];
    auto scores = q.matmul(k.transpose(-2, -1)) / std::sqrt(static_cast<double>(hd));
    auto idx = torch::arange(T, x.options().dtype(torch::kLong));
    auto distance = (idx.unsqueeze(0) - idx.unsqueeze(1)).abs().to(x.scalar_type()).neg();
    scores = scores + slopes().view({1, heads_, 1, 1}) * distance; // expect: placement-mixed-device
    auto weights = torch::softmax(scores, -1);
    return out(weights.matmul(v).transpose(1, 2).reshape({B, T, C}));
  }
  torch::nn::Linear qkv, out;
  int64_t heads_;
};
TORCH_MODULE(AlibiAttention);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  AlibiAttention layer(256, 8);
  layer->to(device);
  torch::optim::Adam optimizer(layer->parameters(), 1e-4);
  torch::Tensor sequences;
  torch::load(sequences, "embedded_sequences.pt"); // [N, 64, 256]
  for (int64_t i = 0; i + 16 <= sequences.size(0); i += 16) {
    auto x = sequences.narrow(0, i, 16).to(device);
    auto loss = (layer(x) - x).pow(2).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
