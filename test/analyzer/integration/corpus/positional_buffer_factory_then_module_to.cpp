// issue 19 class 14 (buffers made by a factory and moved by Module::to), libtorch side.
// CORRECT. A positional-encoding module registers its table as a buffer in
// the constructor, filled with host factories (the constructor cannot know
// the device), and the program moves the whole model with `model->to(device)`
// later. That is the idiom: neither the factory in the constructor nor the
// module move is a create-then-move.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <limits>

struct PositionalEncodingImpl : torch::nn::Module {
  PositionalEncodingImpl(int64_t max_len, int64_t dim) {
    auto position = torch::arange(0, max_len, torch::kFloat).unsqueeze(1);
    auto div_term = torch::exp(torch::arange(0, dim, 2, torch::kFloat) * (-std::log(10000.0) / dim));
    auto table = torch::zeros({max_len, 1, dim});
    for (int64_t i = 0; i < dim; i += 2) {
      table.select(2, i).copy_(torch::sin(position * div_term[i / 2]));
      table.select(2, i + 1).copy_(torch::cos(position * div_term[i / 2]));
    }
    pe = register_buffer("pe", table);
  }
  torch::Tensor forward(const torch::Tensor &x) { return x + pe.narrow(0, 0, x.size(0)); }
  torch::Tensor pe;
};
TORCH_MODULE(PositionalEncoding);

struct TransformerLMImpl : torch::nn::Module {
  TransformerLMImpl(int64_t vocab, int64_t dim)
      : embed(register_module("embed", torch::nn::Embedding(vocab, dim))),
        pos(register_module("pos", PositionalEncoding(5000, dim))),
        encoder(register_module("encoder", torch::nn::TransformerEncoder(torch::nn::TransformerEncoderOptions(
                                               torch::nn::TransformerEncoderLayerOptions(dim, 4), 2)))),
        decoder(register_module("decoder", torch::nn::Linear(dim, vocab))) {}
  torch::Tensor forward(const torch::Tensor &src, const torch::Tensor &mask) {
    return decoder(encoder(pos(embed(src)), mask));
  }
  torch::nn::Embedding embed;
  PositionalEncoding pos;
  torch::nn::TransformerEncoder encoder;
  torch::nn::Linear decoder;
};
TORCH_MODULE(TransformerLM);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t vocab = 28782, bptt = 35;
  TransformerLM model(vocab, 200);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 5.0);
  torch::Tensor data;
  torch::load(data, "wikitext2_batched.pt"); // [tokens, 20]
  data = data.to(device);
  auto mask = torch::triu(torch::full({bptt, bptt}, -std::numeric_limits<float>::infinity(), torch::device(device)), 1);
  for (int64_t i = 0; i + bptt + 1 < data.size(0); i += bptt) {
    auto input = data.narrow(0, i, bptt), target = data.narrow(0, i + 1, bptt);
    auto output = model->forward(input, mask);
    auto loss = torch::nn::functional::cross_entropy(output.view({-1, vocab}), target.reshape({-1}));
    optimizer.zero_grad();
    loss.backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), 0.5);
    optimizer.step();
  }
  return 0;
}
