// Rule: placement-non-leaf-parameter (a helper that loads or initialises a tensor,
// marks it, and returns its moved copy; the caller's optimizer gets it).
// Modelled on: auto-decoder training in C++ (DeepSDF-style per-shape latent codes,
// optimised next to the decoder's weights and resumed from a checkpoint), and
// mazzzystar/randomCNN-voice-transfer#16 / Linardos/SalEMA#7 ("can't optimize a
// non-leaf Tensor" once the code ran on a GPU: requires_grad set before `.cuda()`).
// Why it is a bug: load_latents() calls requires_grad_() on the host tensor (loaded
// or freshly drawn) and returns `codes.to(device)`; on a GPU machine that copy is a
// non-leaf, so the Adam optimizer that main builds over it rejects it (libtorch:
// "can't optimize a non-leaf Tensor"); it could never update it.
// Twin: nonleaf_latent_codes_resumed_helper_fixed.cpp (moved first, marked after).
#include <torch/torch.h>

#include <fstream>
#include <iostream>
#include <string>

namespace autodecoder {

bool exists(const std::string &path) { return std::ifstream(path).good(); }

torch::Tensor load_latents(const std::string &path, int64_t shapes, int64_t dim, torch::Device device) {
  torch::Tensor codes;
  if (exists(path)) {
    torch::load(codes, path);
    std::cout << "resumed " << codes.size(0) << " latent codes from " << path << "\n";
  } else {
    codes = torch::randn({shapes, dim}) * 0.01;
  }
  codes.requires_grad_();
  return codes.to(device); // expect: placement-non-leaf-parameter
}

struct DecoderImpl : torch::nn::Module {
  explicit DecoderImpl(int64_t dim)
      : net(register_module("net", torch::nn::Sequential(torch::nn::Linear(dim + 3, 128), torch::nn::ReLU(),
                                                         torch::nn::Linear(128, 1), torch::nn::Tanh()))) {}
  torch::Tensor forward(const torch::Tensor &code, const torch::Tensor &xyz) { return net->forward(torch::cat({code, xyz}, 1)); }
  torch::nn::Sequential net;
};
TORCH_MODULE(Decoder);

} // namespace autodecoder

int main(int argc, char **argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "latents.pt";
  const int64_t shapes = 16, dim = 32, samples = 1024;
  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);

  autodecoder::Decoder decoder(dim);
  decoder->to(device);
  torch::Tensor latents = autodecoder::load_latents(ckpt, shapes, dim, device);
  torch::optim::Adam opt_decoder(decoder->parameters(), torch::optim::AdamOptions(5e-4));
  torch::optim::Adam opt_codes({latents}, torch::optim::AdamOptions(1e-3));

  auto opts = torch::TensorOptions().device(device);
  auto xyz = torch::rand({samples, 3}, opts) * 2 - 1;
  auto shape_ids = torch::randint(0, shapes, {samples}, opts.dtype(torch::kLong));
  auto sdf = xyz.norm(2, 1, /*keepdim=*/true) - 0.5;
  for (int epoch = 0; epoch < 50; ++epoch) {
    opt_decoder.zero_grad();
    opt_codes.zero_grad();
    auto pred = decoder(latents.index_select(0, shape_ids), xyz);
    auto loss = torch::l1_loss(pred, sdf.clamp(-0.1, 0.1)) + 1e-4 * latents.pow(2).sum();
    loss.backward();
    opt_decoder.step();
    opt_codes.step();
  }
  torch::save(latents.detach().cpu(), ckpt);
  return 0;
}
