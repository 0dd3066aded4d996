// Rule: placement-non-leaf-parameter, correct look-alike (a parameter group).
// Modelled on: prompt tuning ported to libtorch (a frozen encoder plus a learned
// prompt matrix with its own learning rate), fixed as pytorch/pytorch#12627's and
// #8287's answers say: create it on the device, then ask for gradients.
// Why it is correct: the prompt is allocated on the device, initialised there and
// marked requires_grad_() after, so it is a leaf that AdamW's second parameter
// group updates and whose grad() backward() sets.
// Twin: nonleaf_soft_prompt_param_group.cpp (marked on the host, then moved).
#include <torch/torch.h>

#include <iostream>
#include <memory>
#include <vector>

struct FrozenEncoderImpl : torch::nn::Module {
  FrozenEncoderImpl(int64_t dim, int64_t classes)
      : mix(register_module("mix", torch::nn::Linear(dim, dim))), head(register_module("head", torch::nn::Linear(dim, classes))) {}
  torch::Tensor forward(const torch::Tensor &prompt, const torch::Tensor &tokens) {
    auto seq = torch::cat({prompt.unsqueeze(0).expand({tokens.size(0), -1, -1}), tokens}, 1);
    return head(torch::gelu(mix(seq)).mean(1));
  }
  torch::nn::Linear mix, head;
};
TORCH_MODULE(FrozenEncoder);

int main() {
  const int64_t dim = 64, prompt_len = 8, classes = 3;
  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);

  FrozenEncoder encoder(dim, classes);
  encoder->to(device);
  for (auto &p : encoder->mix->parameters()) p.requires_grad_(false);

  auto prompt = torch::empty({prompt_len, dim}, torch::TensorOptions().device(device));
  torch::nn::init::normal_(prompt, 0.0, 0.02);
  prompt.requires_grad_();

  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(encoder->head->parameters(), std::make_unique<torch::optim::AdamWOptions>(1e-4));
  groups.emplace_back(std::vector<torch::Tensor>{prompt}, std::make_unique<torch::optim::AdamWOptions>(3e-2));
  torch::optim::AdamW opt(groups, torch::optim::AdamWOptions(1e-4));

  auto tokens = torch::randn({32, 12, dim}, torch::TensorOptions().device(device));
  auto labels = torch::randint(0, classes, {32}, torch::TensorOptions().dtype(torch::kLong).device(device));
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    auto loss = torch::nn::functional::cross_entropy(encoder(prompt, tokens), labels);
    loss.backward();
    if (step == 0 && !prompt.grad().defined()) std::cerr << "warning: the prompt received no gradient\n";
    opt.step();
  }
  std::cout << "prompt norm " << prompt.norm().item<float>() << "\n";
  return 0;
}
