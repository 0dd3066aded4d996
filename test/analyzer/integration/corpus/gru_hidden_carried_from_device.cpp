// issue 8 class 6: a GRU's hidden state made on the cpu and carried across batches.
// CORRECT. Truncated back-propagation through time: `hidden` is created once
// before the loop on `device` and then carried from batch to batch, detached.
// Look-alike of gru_hidden_carried_from_cpu.cpp.
#include <torch/torch.h>

#include <iostream>
#include <tuple>

struct CharModelImpl : torch::nn::Module {
  CharModelImpl(int64_t vocab, int64_t hidden)
      : embed(register_module("embed", torch::nn::Embedding(vocab, hidden))),
        gru(register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(hidden, hidden)))),
        decoder(register_module("decoder", torch::nn::Linear(hidden, vocab))) {}

  std::tuple<torch::Tensor, torch::Tensor> forward(const torch::Tensor &chars, const torch::Tensor &hidden) {
    auto [output, next_hidden] = gru->forward(embed(chars), hidden);
    return {decoder(output), next_hidden};
  }

  torch::nn::Embedding embed;
  torch::nn::GRU gru;
  torch::nn::Linear decoder;
};
TORCH_MODULE(CharModel);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t vocab = 96, hidden_size = 256, batch_size = 16, bptt = 35;
  torch::Tensor corpus = torch::randint(vocab, {bptt * 400 + 1, batch_size}, torch::kLong);

  CharModel model(vocab, hidden_size);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), 2e-3);

  torch::Tensor hidden = torch::zeros({1, batch_size, hidden_size}, torch::device(device));
  for (int64_t start = 0; start + bptt < corpus.size(0); start += bptt) {
    auto inputs = corpus.slice(0, start, start + bptt).to(device);
    auto targets = corpus.slice(0, start + 1, start + bptt + 1).to(device);
    auto [logits, next_hidden] = model->forward(inputs, hidden);
    hidden = next_hidden.detach();
    auto loss = torch::cross_entropy_loss(logits.view({-1, vocab}), targets.reshape({-1}));
    optimizer.zero_grad();
    loss.backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), 0.25);
    optimizer.step();
  }
  std::cout << "done\n";
  return 0;
}
