// placement-unguarded-cuda (measured apart from the three scored rules).
// BUG. An inference tool that asks for CUDA with `kCUDA` and `.cuda()` and
// never checks torch::cuda::is_available(): on a machine without a GPU it
// dies with libtorch's generic error instead of falling back or saying so.
#include <torch/torch.h>

#include <iostream>

int main(int argc, char **argv) {
  if (argc < 3) {
    std::cerr << "usage: infer WEIGHTS.pt FEATURES.pt\n";
    return 1;
  }
  torch::nn::Sequential model(torch::nn::Linear(128, 64), torch::nn::ReLU(), torch::nn::Linear(64, 2));
  torch::load(model, argv[1]);
  model->to(torch::kCUDA); // expect: placement-unguarded-cuda
  model->eval();
  torch::NoGradGuard no_grad;
  torch::Tensor features;
  torch::load(features, argv[2]);
  auto scores = model->forward(features.cuda()).softmax(1); // expect: placement-unguarded-cuda
  std::cout << scores.argmax(1).cpu() << "\n";
  return 0;
}
