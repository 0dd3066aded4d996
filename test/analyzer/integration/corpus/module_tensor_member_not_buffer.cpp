// issue 8 class 4: a plain tensor member that is neither a parameter nor a buffer.
// BUG. The sinusoidal position table is stored in a plain `torch::Tensor`
// member. `Module::to` moves registered parameters and buffers only, so after
// `model->to(device)` the table is still on the cpu and `forward` adds it to
// device embeddings. Look-alike of module_tensor_member_buffer.cpp.
#include <torch/torch.h>

#include <cmath>
#include <iostream>

struct TinyTransformerImpl : torch::nn::Module {
  TinyTransformerImpl(int64_t vocab, int64_t dim, int64_t max_len)
      : embed(register_module("embed", torch::nn::Embedding(vocab, dim))),
        encoder(register_module("encoder", torch::nn::TransformerEncoderLayer(
                                               torch::nn::TransformerEncoderLayerOptions(dim, 4)))),
        out(register_module("out", torch::nn::Linear(dim, vocab))) {
    auto position = torch::arange(max_len, torch::kFloat).unsqueeze(1);
    auto div_term = torch::exp(torch::arange(0, dim, 2, torch::kFloat) * (-std::log(10000.0) / dim));
    positions = torch::zeros({max_len, dim});
    positions.index_put_({torch::indexing::Slice(), torch::indexing::Slice(0, torch::indexing::None, 2)},
                         torch::sin(position * div_term));
    positions.index_put_({torch::indexing::Slice(), torch::indexing::Slice(1, torch::indexing::None, 2)},
                         torch::cos(position * div_term));
  }

  torch::Tensor forward(const torch::Tensor &tokens) {
    auto x = embed(tokens) + positions.slice(0, 0, tokens.size(1)); // expect: placement-mixed-device
    x = encoder(x.transpose(0, 1)).transpose(0, 1);
    return out(x);
  }

  torch::nn::Embedding embed;
  torch::nn::TransformerEncoderLayer encoder;
  torch::nn::Linear out;
  torch::Tensor positions;
};
TORCH_MODULE(TinyTransformer);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  TinyTransformer model(1000, 64, 128);
  model->to(device);
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(1e-3));

  for (int64_t step = 0; step < 500; ++step) {
    auto tokens = torch::randint(1000, {16, 33}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto inputs = tokens.slice(1, 0, 32);
    auto targets = tokens.slice(1, 1, 33);
    optimizer.zero_grad();
    auto logits = model(inputs);
    auto loss = torch::cross_entropy_loss(logits.reshape({-1, 1000}), targets.reshape({-1}));
    loss.backward();
    optimizer.step();
    if (step % 50 == 0) {
      std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
    }
  }
  return 0;
}
