// issue 19 class 9 (module internals): a causal mask built with host factories in forward.
// BUG (mixed-device). A GPT-style self-attention block builds its causal
// mask in forward from `torch::ones({T, T})` (cpu) and applies it with
// `masked_fill` to attention scores on the module's device.
// Look-alike: causal_mask_in_forward_device.cpp.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <limits>

struct CausalSelfAttentionImpl : torch::nn::Module {
  CausalSelfAttentionImpl(int64_t dim, int64_t heads)
      : qkv(register_module("qkv", torch::nn::Linear(dim, 3 * dim))),
        proj(register_module("proj", torch::nn::Linear(dim, dim))), heads_(heads) {}

  torch::Tensor forward(const torch::Tensor &x) {
    const int64_t B = x.size(0), T = x.size(1), C = x.size(2), hd = C / heads_;
    auto parts = qkv(x).split(C, 2);
    auto q = parts[0].view({B, T, heads_, hd}).transpose(1, 2);
    auto k = parts[1].view({B, T, heads_, hd}).transpose(1, 2);
    auto v = parts[2].view({B, T, heads_, hd}).transpose(1, 2);
    auto att = q.matmul(k.transpose(-2, -1)) / std::sqrt(static_cast<double>(hd));
    auto mask = torch::triu(torch::ones({T, T}), 1).to(torch::kBool);
    att = att.masked_fill(mask, -std::numeric_limits<float>::infinity()); // expect: placement-mixed-device
    att = torch::softmax(att, -1);
    return proj(att.matmul(v).transpose(1, 2).contiguous().view({B, T, C}));
  }
  torch::nn::Linear qkv, proj;
  int64_t heads_;
};
TORCH_MODULE(CausalSelfAttention);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t vocab = 65, block = 128, dim = 192;
  torch::nn::Embedding tok(vocab, dim), pos(block, dim);
  CausalSelfAttention attn(dim, 6);
  torch::nn::Linear lm_head(dim, vocab);
  tok->to(device);
  pos->to(device);
  attn->to(device);
  lm_head->to(device);
  std::vector<torch::Tensor> params;
  for (auto *m : std::vector<torch::nn::Module *>{tok.get(), pos.get(), attn.get(), lm_head.get()})
    for (auto &p : m->parameters())
      params.push_back(p);
  torch::optim::AdamW optimizer(params, torch::optim::AdamWOptions(3e-4));
  torch::Tensor data;
  torch::load(data, "shakespeare_ids.pt");
  data = data.to(device);
  auto positions = torch::arange(block, torch::TensorOptions().dtype(torch::kLong).device(device));
  for (int64_t step = 0; step < 5000; ++step) {
    auto starts = torch::randint(data.size(0) - block - 1, {32}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto offsets = starts.unsqueeze(1) + positions.unsqueeze(0);
    auto x = data.index_select(0, offsets.flatten()).view({32, block});
    auto y = data.index_select(0, (offsets + 1).flatten()).view({32, block});
    auto logits = lm_head(attn(tok(x) + pos(positions)));
    auto loss = torch::nn::functional::cross_entropy(logits.view({-1, vocab}), y.view({-1}));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
