// A seed on libtorch's module containers: a module applied to tokens on one
// device and a bias on another.
#include "mini_torch.h"

struct EncoderImpl : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor &tokens) { return tokens; }
};
using Encoder = torch::nn::ModuleHolder<EncoderImpl>;

torch::Tensor encode(Encoder encoder, const torch::Tensor &tokens, const torch::Tensor &bias) {
  return encoder(tokens) + bias; // expect: placement-mixed-device
}
