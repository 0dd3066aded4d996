// issue 19 class 1 (factories beyond the list): bernoulli of a host-made tensor, moved at once.
// BUG (create-then-move). A locked ("variational") dropout for an LSTM language
// model, ported from Python's AWD-LSTM: one mask per sequence, drawn by
// `torch::bernoulli(torch::full(...))`. `full` fills the probabilities on the
// host, `bernoulli` samples on the host, and the mask is copied to the input's
// device at once, in every forward. Given `x.options()`, `full` and `bernoulli`
// both run where x lives. Everything else is placed right.
// Look-alike: dropout_mask_bernoulli_on_device.cpp.
#include <torch/torch.h>

#include <iostream>

struct LockedDropoutImpl : torch::nn::Module {
  explicit LockedDropoutImpl(double p) : p_(p) {}
  torch::Tensor forward(const torch::Tensor &x) {
    if (!is_training() || p_ == 0.0)
      return x;
    const double keep = 1.0 - p_;
    auto mask = torch::bernoulli(torch::full({1, x.size(1), x.size(2)}, keep)).to(x.device()); // expect: placement-create-then-move
    return x * mask / keep;
  }
  double p_;
};
TORCH_MODULE(LockedDropout);

struct WordModelImpl : torch::nn::Module {
  WordModelImpl(int64_t vocab, int64_t dim)
      : embed(register_module("embed", torch::nn::Embedding(vocab, dim))),
        lstm(register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(dim, dim).num_layers(2)))),
        drop(register_module("drop", LockedDropout(0.3))),
        decoder(register_module("decoder", torch::nn::Linear(dim, vocab))) {}
  torch::Tensor forward(const torch::Tensor &tokens) {
    auto hidden = std::get<0>(lstm->forward(drop(embed(tokens))));
    return decoder(drop(hidden));
  }
  torch::nn::Embedding embed;
  torch::nn::LSTM lstm;
  LockedDropout drop;
  torch::nn::Linear decoder;
};
TORCH_MODULE(WordModel);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t vocab = 10000, bptt = 35;
  torch::Tensor ids;
  torch::load(ids, "ptb_train_ids.pt"); // [tokens, batch], int64
  ids = ids.to(device);
  WordModel model(vocab, 400);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(20.0));
  model->train();
  for (int64_t i = 0, step = 0; i + bptt < ids.size(0); i += bptt, ++step) {
    auto input = ids.narrow(0, i, bptt);
    auto target = ids.narrow(0, i + 1, bptt);
    optimizer.zero_grad();
    auto logits = model->forward(input);
    auto loss = torch::nn::functional::cross_entropy(logits.view({-1, vocab}), target.reshape({-1}));
    loss.backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), 0.25);
    optimizer.step();
    if (step % 200 == 0)
      std::cout << "step " << step << " ppl " << std::exp(loss.item<double>()) << "\n";
  }
  return 0;
}
