// issue 19 class 2 (a conversion between the factory and the move), correct look-alike.
// CORRECT. As finished_flags_bool_then_moved.cpp, but the flags are created as
// bools on the hidden state's device.
#include <torch/torch.h>

#include <iostream>

struct DecoderImpl : torch::nn::Module {
  DecoderImpl(int64_t vocab, int64_t dim)
      : embed(register_module("embed", torch::nn::Embedding(vocab, dim))),
        cell(register_module("cell", torch::nn::GRUCell(dim, dim))),
        out(register_module("out", torch::nn::Linear(dim, vocab))) {}
  torch::Tensor step(const torch::Tensor &token, torch::Tensor &hidden) {
    hidden = cell(embed(token), hidden);
    return out(hidden);
  }
  torch::nn::Embedding embed;
  torch::nn::GRUCell cell;
  torch::nn::Linear out;
};
TORCH_MODULE(Decoder);

torch::Tensor greedy_decode(Decoder &decoder, torch::Tensor hidden, int64_t bos, int64_t eos, int64_t max_len) {
  const auto device = hidden.device();
  const int64_t batch = hidden.size(0);
  auto token = torch::full({batch}, bos, torch::TensorOptions().dtype(torch::kLong).device(device));
  auto finished = torch::zeros({batch}, torch::TensorOptions().dtype(torch::kBool).device(device));
  std::vector<torch::Tensor> outputs;
  for (int64_t t = 0; t < max_len; ++t) {
    auto logits = decoder->step(token, hidden);
    token = logits.argmax(1).masked_fill(finished, eos);
    outputs.push_back(token);
    finished = finished | token.eq(eos);
  }
  return torch::stack(outputs, 1);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Decoder decoder(8000, 256);
  torch::load(decoder, "decoder.pt");
  decoder->to(device);
  decoder->eval();
  torch::NoGradGuard no_grad;
  torch::Tensor context;
  torch::load(context, "encoded_batch.pt");
  auto sequences = greedy_decode(decoder, context.to(device), 1, 2, 50);
  std::cout << sequences.sizes() << "\n";
  return 0;
}
