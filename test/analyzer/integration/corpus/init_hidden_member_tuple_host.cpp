// issue 19 class 9 (module internals): a recurrent state from a member helper returning a tuple.
// BUG (mixed-device). A sentiment LSTM builds its initial (h, c) in a member
// function returning a std::tuple of `torch::zeros` (cpu), the pattern of
// Python's `init_hidden`. forward passes the tuple to the LSTM, which
// `Module::to` moved to the device with the input.
// Look-alike: init_hidden_member_tuple_device.cpp.
#include <torch/torch.h>

#include <iostream>
#include <tuple>

struct SentimentLstmImpl : torch::nn::Module {
  SentimentLstmImpl(int64_t vocab, int64_t dim, int64_t hidden, int64_t layers)
      : embed(register_module("embed", torch::nn::Embedding(vocab, dim))),
        lstm(register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(dim, hidden).num_layers(layers)))),
        fc(register_module("fc", torch::nn::Linear(hidden, 1))), hidden_(hidden), layers_(layers) {}

  std::tuple<torch::Tensor, torch::Tensor> init_hidden(int64_t batch) const {
    return std::make_tuple(torch::zeros({layers_, batch, hidden_}), torch::zeros({layers_, batch, hidden_}));
  }

  torch::Tensor forward(const torch::Tensor &tokens) { // tokens: [T, B]
    auto output = std::get<0>(lstm->forward(embed(tokens), init_hidden(tokens.size(1)))); // expect: placement-mixed-device
    return fc(output[-1]).squeeze(1);
  }
  torch::nn::Embedding embed;
  torch::nn::LSTM lstm;
  torch::nn::Linear fc;
  int64_t hidden_, layers_;
};
TORCH_MODULE(SentimentLstm);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  SentimentLstm model(25000, 100, 256, 2);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), 1e-3);
  torch::Tensor reviews, labels;
  torch::load(reviews, "imdb_ids.pt");     // [T, N]
  torch::load(labels, "imdb_labels.pt");   // [N] float
  for (int64_t i = 0; i + 64 <= reviews.size(1); i += 64) {
    auto x = reviews.narrow(1, i, 64).to(device);
    auto y = labels.narrow(0, i, 64).to(device);
    optimizer.zero_grad();
    auto loss = torch::binary_cross_entropy_with_logits(model->forward(x), y);
    loss.backward();
    optimizer.step();
  }
  return 0;
}
