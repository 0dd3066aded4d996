// issue 19 class 15 (availability through a flag): `cpu_only = force_cpu || !is_available()`, CUDA on the else branch.
// CORRECT. An inference tool's flag says when it must stay on the cpu; the
// CUDA path is the `else` of `if (cpu_only)`, reached only when
// `cuda::is_available()` was true (the `||` and the `!` decompose to that).
#include <torch/script.h>
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>

int main(int argc, char **argv) {
  if (argc < 3) {
    std::cerr << "usage: embed MODEL.pt TOKENS.pt\n";
    return 1;
  }
  const bool force_cpu = std::getenv("EMBED_FORCE_CPU") != nullptr;
  const bool cpu_only = force_cpu || !torch::cuda::is_available();
  auto model = torch::jit::load(argv[1]);
  torch::Tensor tokens;
  torch::load(tokens, argv[2]);
  if (cpu_only) {
    model.to(torch::kCPU);
  } else {
    model.to(torch::kCUDA);
    tokens = tokens.to(torch::kCUDA);
  }
  model.eval();
  torch::NoGradGuard no_grad;
  auto embedding = model.forward({tokens}).toTensor().mean(1);
  std::cout << embedding.sizes() << "\n";
  return 0;
}
