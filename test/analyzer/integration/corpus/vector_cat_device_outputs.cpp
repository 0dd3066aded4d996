// issue 8 class 7: a vector of tensors seeded with a cpu tensor, then cat.
// CORRECT. Greedy decoding: the generated sequence is collected in a
// std::vector<torch::Tensor> that starts with the start-of-sequence tokens
// created on `device`, where every generated step is, so the final torch::cat
// sees one device.
// Look-alike of vector_cat_initial_cpu.cpp.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct DecoderImpl : torch::nn::Module {
  DecoderImpl(int64_t vocab, int64_t hidden)
      : embed(register_module("embed", torch::nn::Embedding(vocab, hidden))),
        cell(register_module("cell", torch::nn::GRUCell(hidden, hidden))),
        out(register_module("out", torch::nn::Linear(hidden, vocab))) {}
  torch::Tensor step(const torch::Tensor &token, torch::Tensor &state) {
    state = cell(embed(token), state);
    return out(state);
  }
  torch::nn::Embedding embed;
  torch::nn::GRUCell cell;
  torch::nn::Linear out;
};
TORCH_MODULE(Decoder);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t vocab = 1000, hidden = 256, batch = 8, bos = 1;
  Decoder decoder(vocab, hidden);
  decoder->to(device);
  decoder->eval();
  torch::NoGradGuard no_grad;

  torch::Tensor start = torch::full({batch, 1}, bos, torch::TensorOptions().dtype(torch::kLong).device(device));
  std::vector<torch::Tensor> generated{start};
  torch::Tensor state = torch::zeros({batch, hidden}, torch::device(device));
  torch::Tensor token = start.squeeze(1);
  for (int t = 0; t < 50; ++t) {
    auto logits = decoder->step(token, state);
    token = logits.argmax(-1);
    generated.push_back(token.unsqueeze(1));
  }
  torch::Tensor sequences = torch::cat(generated, 1);
  std::cout << sequences.sizes() << "\n";
  return 0;
}
