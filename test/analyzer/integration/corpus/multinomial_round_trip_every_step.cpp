// issue 19 class 10 (loops): a round trip through `.cpu()` for a host op (multinomial) and back, then a read.
// BUG (transfer-in-loop, twice). Text generation from a character model: in
// every step the probabilities go to the host for `torch::multinomial`, the
// sample comes straight back to the device, and `.item()` then reads it back
// again to print it. (libtorch samples on CUDA too; sampling where the
// probabilities are and reading the token once is enough.)
#include <torch/torch.h>

#include <iostream>
#include <string>

struct CharRnnImpl : torch::nn::Module {
  CharRnnImpl(int64_t vocab, int64_t hidden)
      : embed(register_module("embed", torch::nn::Embedding(vocab, hidden))),
        gru(register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(hidden, hidden)))),
        out(register_module("out", torch::nn::Linear(hidden, vocab))) {}
  torch::nn::Embedding embed;
  torch::nn::GRU gru;
  torch::nn::Linear out;
};
TORCH_MODULE(CharRnn);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const std::string alphabet = "abcdefghijklmnopqrstuvwxyz .,;'\n";
  const int64_t vocab = static_cast<int64_t>(alphabet.size());
  CharRnn model(vocab, 256);
  torch::load(model, "char_rnn.pt");
  model->to(device);
  model->eval();
  torch::NoGradGuard no_grad;
  auto hidden = torch::zeros({1, 1, 256}, torch::device(device));
  auto token = torch::zeros({1, 1}, torch::TensorOptions().dtype(torch::kLong).device(device));
  std::string text;
  for (int step = 0; step < 500; ++step) {
    auto result = model->gru->forward(model->embed(token), hidden);
    hidden = std::get<1>(result);
    auto probs = torch::softmax(model->out(std::get<0>(result)[0]) / 0.8, -1);
    token = torch::multinomial(probs.cpu(), 1).to(device); // expect: placement-transfer-in-loop
    text += alphabet[static_cast<size_t>(token.item<int64_t>())]; // expect: placement-transfer-in-loop
  }
  std::cout << text << "\n";
  return 0;
}
