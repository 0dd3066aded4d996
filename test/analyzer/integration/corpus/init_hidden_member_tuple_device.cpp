// issue 19 class 9 (module internals), correct look-alike.
// CORRECT. As init_hidden_member_tuple_host.cpp, but init_hidden takes the
// options of the embedded input, so the state is made on its device.
#include <torch/torch.h>

#include <iostream>
#include <tuple>

struct SentimentLstmImpl : torch::nn::Module {
  SentimentLstmImpl(int64_t vocab, int64_t dim, int64_t hidden, int64_t layers)
      : embed(register_module("embed", torch::nn::Embedding(vocab, dim))),
        lstm(register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(dim, hidden).num_layers(layers)))),
        fc(register_module("fc", torch::nn::Linear(hidden, 1))), hidden_(hidden), layers_(layers) {}

  std::tuple<torch::Tensor, torch::Tensor> init_hidden(int64_t batch, const torch::TensorOptions &options) const {
    return std::make_tuple(torch::zeros({layers_, batch, hidden_}, options),
                           torch::zeros({layers_, batch, hidden_}, options));
  }

  torch::Tensor forward(const torch::Tensor &tokens) { // tokens: [T, B]
    auto embedded = embed(tokens);
    auto output = std::get<0>(lstm->forward(embedded, init_hidden(tokens.size(1), embedded.options())));
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
