// issue 19 class 7 (consequences across functions): a member function returns a host tensor used in forward.
// BUG (mixed-device). A text classifier computes its position ids in a member
// function with `torch::arange(len)`, on the cpu; forward feeds them to the
// position embedding, which `Module::to` moved with the rest of the model.
// Look-alike: member_position_ids_like_input.cpp.
#include <torch/torch.h>

#include <iostream>

struct TextClassifierImpl : torch::nn::Module {
  TextClassifierImpl(int64_t vocab, int64_t max_len, int64_t dim, int64_t classes)
      : tok(register_module("tok", torch::nn::Embedding(vocab, dim))),
        pos(register_module("pos", torch::nn::Embedding(max_len, dim))),
        encoder(register_module("encoder", torch::nn::TransformerEncoder(torch::nn::TransformerEncoderOptions(
                                               torch::nn::TransformerEncoderLayerOptions(dim, 4), 2)))),
        head(register_module("head", torch::nn::Linear(dim, classes))) {}

  torch::Tensor position_ids(int64_t len) const { return torch::arange(len, torch::kLong); }

  torch::Tensor forward(const torch::Tensor &tokens) {
    auto h = tok(tokens) + pos(position_ids(tokens.size(1))); // expect: placement-mixed-device
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
