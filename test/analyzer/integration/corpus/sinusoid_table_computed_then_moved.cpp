// issue 19 class 2 (a conversion between the factory and the move), correct by the rule's definition.
// CORRECT for create-then-move. A transformer computes its sinusoidal
// position table once, at construction time of the training run: `arange`,
// a cast, then real arithmetic (`*`, `exp`, `sin`, `cos`, `index_put_`) on the
// host, and the finished table is moved to the device. Conversions and views
// (class 2) are "nothing happened"; arithmetic is work done on the host,
// which the rule does not report (README.md). The table is then used on the
// device only.
#include <torch/torch.h>

#include <cmath>
#include <iostream>

torch::Tensor sinusoid_table(int64_t max_len, int64_t dim) {
  auto position = torch::arange(max_len).to(torch::kFloat).unsqueeze(1);
  auto div_term = (torch::arange(0, dim, 2).to(torch::kFloat) * (-std::log(10000.0) / dim)).exp();
  auto table = torch::zeros({max_len, dim});
  table.index_put_({torch::indexing::Slice(), torch::indexing::Slice(0, torch::indexing::None, 2)},
                   torch::sin(position * div_term));
  table.index_put_({torch::indexing::Slice(), torch::indexing::Slice(1, torch::indexing::None, 2)},
                   torch::cos(position * div_term));
  return table;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t max_len = 512, dim = 256, vocab = 8000;
  auto positions = sinusoid_table(max_len, dim).to(device);
  torch::nn::Embedding embed(vocab, dim);
  torch::nn::TransformerEncoder encoder(
      torch::nn::TransformerEncoderOptions(torch::nn::TransformerEncoderLayerOptions(dim, 8), 4));
  torch::nn::Linear head(dim, vocab);
  embed->to(device);
  encoder->to(device);
  head->to(device);
  std::vector<torch::Tensor> params = embed->parameters();
  for (const auto &p : encoder->parameters())
    params.push_back(p);
  for (const auto &p : head->parameters())
    params.push_back(p);
  torch::optim::Adam optimizer(params, 1e-4);

  torch::Tensor corpus;
  torch::load(corpus, "lm_ids.pt"); // [N, 129]
  for (int64_t start = 0; start + 16 <= corpus.size(0); start += 16) {
    auto ids = corpus.narrow(0, start, 16).to(device);
    auto input = ids.narrow(1, 0, 128), target = ids.narrow(1, 1, 128);
    auto h = embed(input) * std::sqrt(static_cast<double>(dim)) + positions.narrow(0, 0, 128);
    auto logits = head(encoder(h.transpose(0, 1)).transpose(0, 1));
    auto loss = torch::nn::functional::cross_entropy(logits.reshape({-1, vocab}), target.reshape({-1}));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
