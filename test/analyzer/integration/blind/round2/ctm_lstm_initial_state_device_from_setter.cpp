// Rule: placement-create-then-move (factories moved at once, the device held in a
// field that a setter sets).
// Modelled on: C++ LSTM language models and seq2seq decoders whose init_hidden()
// returns `(torch::zeros(...).to(device), torch::zeros(...).to(device))`, a line
// carried over from the PyTorch word_language_model example; the device is kept
// in the model after a `set_device()` call.
// Why it is a bug: each state tensor is zero-filled on the host and copied to the
// device; `torch::zeros(shape, torch::TensorOptions().device(device_))` fills it
// there.
// Twin: none.
#include <torch/torch.h>

#include <iostream>
#include <tuple>

struct LmConfig {
  int64_t vocab = 500;
  int64_t embed = 64;
  int64_t hidden = 128;
  int64_t layers = 2;
};

class LanguageModelImpl : public torch::nn::Module {
 public:
  explicit LanguageModelImpl(const LmConfig &cfg)
      : cfg_(cfg), embed_(register_module("embed", torch::nn::Embedding(cfg.vocab, cfg.embed))),
        lstm_(register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(cfg.embed, cfg.hidden)
                                                          .num_layers(cfg.layers)
                                                          .batch_first(true)))),
        out_(register_module("out", torch::nn::Linear(cfg.hidden, cfg.vocab))) {}

  void set_device(torch::Device device) { device_ = device; }

  std::tuple<torch::Tensor, torch::Tensor> init_hidden(int64_t batch) const {
    return {torch::zeros({cfg_.layers, batch, cfg_.hidden}).to(device_), // expect: placement-create-then-move
            torch::zeros({cfg_.layers, batch, cfg_.hidden}).to(device_)}; // expect: placement-create-then-move
  }

  std::tuple<torch::Tensor, std::tuple<torch::Tensor, torch::Tensor>> forward(
      const torch::Tensor &tokens, std::tuple<torch::Tensor, torch::Tensor> state) {
    auto [h, next] = lstm_->forward(embed_(tokens), state);
    return {out_(h), next};
  }

 private:
  LmConfig cfg_;
  torch::Device device_{torch::kCPU};
  torch::nn::Embedding embed_;
  torch::nn::LSTM lstm_;
  torch::nn::Linear out_;
};
TORCH_MODULE(LanguageModel);

int main() {
  LmConfig cfg;
  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  LanguageModel lm(cfg);
  lm->to(device);
  lm->set_device(device);
  torch::optim::SGD opt(lm->parameters(), torch::optim::SGDOptions(0.5));

  auto corpus = torch::randint(0, cfg.vocab, {32, 65}, torch::TensorOptions().dtype(torch::kLong).device(device));
  auto inputs = corpus.slice(1, 0, 64), targets = corpus.slice(1, 1, 65);
  auto state = lm->init_hidden(corpus.size(0));
  for (int epoch = 0; epoch < 20; ++epoch) {
    state = {std::get<0>(state).detach(), std::get<1>(state).detach()};
    opt.zero_grad();
    auto [logits, next] = lm->forward(inputs, state);
    auto loss = torch::nn::functional::cross_entropy(logits.reshape({-1, cfg.vocab}), targets.reshape({-1}));
    loss.backward();
    opt.step();
    state = next;
    if (epoch % 5 == 0) std::cout << "epoch " << epoch << " loss " << loss.item<float>() << "\n";
  }
  return 0;
}
