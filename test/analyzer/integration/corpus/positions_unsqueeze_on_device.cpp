// issue 19 class 2 (a conversion between the factory and the move), correct look-alike.
// CORRECT. As positions_unsqueeze_then_moved.cpp, but `arange` is given
// `tokens.options()` (int64 on the tokens' device) and then shaped.
#include <torch/torch.h>

#include <iostream>

struct EncoderImpl : torch::nn::Module {
  EncoderImpl(int64_t vocab, int64_t max_len, int64_t dim)
      : tokens_embed(register_module("tokens_embed", torch::nn::Embedding(vocab, dim))),
        positions_embed(register_module("positions_embed", torch::nn::Embedding(max_len, dim))),
        layer(register_module("layer", torch::nn::TransformerEncoderLayer(
                                          torch::nn::TransformerEncoderLayerOptions(dim, 8)))),
        norm(register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})))) {}

  torch::Tensor forward(const torch::Tensor &tokens) {
    const int64_t batch = tokens.size(0), len = tokens.size(1);
    auto positions = torch::arange(len, tokens.options()).unsqueeze(0).expand({batch, len});
    auto h = norm(tokens_embed(tokens) + positions_embed(positions));
    return layer(h.transpose(0, 1)).transpose(0, 1);
  }
  torch::nn::Embedding tokens_embed, positions_embed;
  torch::nn::TransformerEncoderLayer layer;
  torch::nn::LayerNorm norm;
};
TORCH_MODULE(Encoder);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Encoder encoder(30522, 512, 256);
  encoder->to(device);
  torch::optim::Adam optimizer(encoder->parameters(), 1e-4);
  torch::Tensor corpus;
  torch::load(corpus, "token_ids.pt"); // [N, 128] int64
  for (int64_t start = 0; start + 32 <= corpus.size(0); start += 32) {
    auto tokens = corpus.narrow(0, start, 32).to(device);
    optimizer.zero_grad();
    auto h = encoder->forward(tokens);
    auto loss = h.pow(2).mean();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
