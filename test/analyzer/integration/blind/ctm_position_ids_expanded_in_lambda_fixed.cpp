// Class: placement-create-then-move, correct look-alike.
// Modelled on: BERT/GPT ports to libtorch on GitHub, whose embedding layer
// builds position ids with torch::arange(...).unsqueeze(0).expand(...) and
// then moves them to the input's device (the PyTorch original registers
// them as a buffer or passes device= to arange).
// Why it is not a bug: arange is given the input's device in its options,
// so the ids are made where they are used and nothing crosses the bus.
// Twin: ctm_position_ids_expanded_in_lambda.cpp
#include <torch/torch.h>

#include <iostream>

struct EmbeddingsImpl : torch::nn::Module {
  EmbeddingsImpl(int64_t vocab, int64_t max_len, int64_t dim)
      : tokens(register_module("tokens", torch::nn::Embedding(vocab, dim))),
        positions(register_module("positions", torch::nn::Embedding(max_len, dim))),
        norm(register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})))) {}

  torch::Tensor forward(const torch::Tensor& ids) {
    auto position_ids = [&](int64_t batch, int64_t len) {
      return torch::arange(len, torch::TensorOptions(torch::kLong).device(ids.device()))
          .unsqueeze(0)
          .expand({batch, len});
    };
    auto pos = position_ids(ids.size(0), ids.size(1));
    return norm->forward(tokens->forward(ids) + positions->forward(pos));
  }

  torch::nn::Embedding tokens;
  torch::nn::Embedding positions;
  torch::nn::LayerNorm norm;
};
TORCH_MODULE(Embeddings);

int main(int argc, char** argv) {
  const bool force_cpu = argc > 1 && std::string(argv[1]) == "--cpu";
  const torch::Device device =
      (!force_cpu && torch::cuda::is_available()) ? torch::kCUDA : torch::kCPU;

  Embeddings embed(30522, 512, 128);
  embed->to(device);
  embed->eval();

  torch::NoGradGuard no_grad;
  for (int64_t len : {16, 64, 128}) {
    auto ids = torch::randint(0, 30522, {4, len}, torch::TensorOptions(torch::kLong).device(device));
    auto hidden = embed->forward(ids);
    std::cout << "len " << len << " -> " << hidden.sizes() << '\n';
  }
}
