// issue 19 class 7 (consequences across functions), correct look-alike.
// CORRECT. As member_position_ids_on_host.cpp, but the member function takes
// the tokens and makes the ids with their options, on their device.
#include <torch/torch.h>

#include <iostream>

struct TextClassifierImpl : torch::nn::Module {
  TextClassifierImpl(int64_t vocab, int64_t max_len, int64_t dim, int64_t classes)
      : tok(register_module("tok", torch::nn::Embedding(vocab, dim))),
        pos(register_module("pos", torch::nn::Embedding(max_len, dim))),
        encoder(register_module("encoder", torch::nn::TransformerEncoder(torch::nn::TransformerEncoderOptions(
                                               torch::nn::TransformerEncoderLayerOptions(dim, 4), 2)))),
        head(register_module("head", torch::nn::Linear(dim, classes))) {}

  torch::Tensor position_ids(const torch::Tensor &tokens) const {
    return torch::arange(tokens.size(1), tokens.options());
  }

  torch::Tensor forward(const torch::Tensor &tokens) {
    auto h = tok(tokens) + pos(position_ids(tokens));
    h = encoder(h.transpose(0, 1)).transpose(0, 1);
    return head(h.mean(1));
  }
  torch::nn::Embedding tok, pos;
  torch::nn::TransformerEncoder encoder;
  torch::nn::Linear head;
};
TORCH_MODULE(TextClassifier);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  TextClassifier model(20000, 256, 128, 5);
  model->to(device);
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(3e-4));
  torch::Tensor ids, labels;
  torch::load(ids, "reviews_ids.pt");
  torch::load(labels, "reviews_labels.pt");
  for (int64_t i = 0; i + 64 <= ids.size(0); i += 64) {
    auto x = ids.narrow(0, i, 64).to(device);
    auto y = labels.narrow(0, i, 64).to(device);
    optimizer.zero_grad();
    auto loss = torch::nn::functional::cross_entropy(model->forward(x), y);
    loss.backward();
    optimizer.step();
  }
  return 0;
}
