// Rule: placement-discarded-transfer (+ the mixed-device failure it causes).
// Modelled on: C++ inference servers for BERT-style encoders that keep the
// tokenizer's output as a name -> tensor map (HuggingFace's BatchEncoding shape,
// whose Python `.to(device)` returns the moved batch), ported to a range-for.
// Why it is a bug: `for (auto &[name, t] : features) t.to(device);` drops every
// moved copy; the map still holds host tensors, and the encoder, moved to the
// device, is applied to them.
// Twin: none (`t = t.to(device);` in the loop would be the fix).
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <unordered_map>
#include <vector>

using Features = std::unordered_map<std::string, torch::Tensor>;

struct TinyEncoderImpl : torch::nn::Module {
  TinyEncoderImpl(int64_t vocab, int64_t dim)
      : tok(register_module("tok", torch::nn::Embedding(vocab, dim))),
        proj(register_module("proj", torch::nn::Linear(dim, dim))) {}
  // mean-pools the token embeddings under the attention mask
  torch::Tensor forward(const torch::Tensor &ids, const torch::Tensor &mask) {
    auto h = torch::tanh(proj(tok(ids)));
    auto m = mask.unsqueeze(-1).to(h.dtype());
    return (h * m).sum(1) / m.sum(1).clamp_min(1.0);
  }
  torch::nn::Embedding tok;
  torch::nn::Linear proj;
};
TORCH_MODULE(TinyEncoder);

namespace text {

Features tokenize(const std::vector<std::string> &sentences, int64_t max_len) {
  std::vector<int64_t> ids, mask;
  for (const auto &s : sentences) {
    for (int64_t i = 0; i < max_len; ++i) {
      const bool real = i < static_cast<int64_t>(s.size());
      ids.push_back(real ? static_cast<unsigned char>(s[static_cast<size_t>(i)]) % 1000 : 0);
      mask.push_back(real ? 1 : 0);
    }
  }
  const auto n = static_cast<int64_t>(sentences.size());
  return {{"input_ids", torch::tensor(ids).view({n, max_len})},
          {"attention_mask", torch::tensor(mask).view({n, max_len})}};
}

} // namespace text

int main() {
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available()) device = torch::Device(torch::kCUDA);
  TinyEncoder encoder(1000, 64);
  encoder->to(device);
  encoder->eval();

  std::vector<std::string> queries{"where is the gpu", "libtorch device placement", "hello"};
  Features features = text::tokenize(queries, 16);
  for (auto &[name, t] : features) t.to(device); // expect: placement-discarded-transfer

  torch::NoGradGuard no_grad;
  auto emb = encoder(features.at("input_ids"), features.at("attention_mask")); // expect: placement-mixed-device
  auto sims = torch::matmul(emb, emb.t());
  std::cout << "similarities:\n" << sims.cpu() << "\n";
  return 0;
}
