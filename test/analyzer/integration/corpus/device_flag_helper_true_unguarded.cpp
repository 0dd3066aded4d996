// issue 19 class 15 (availability through a flag), buggy look-alike.
// BUG (unguarded-cuda, at each request in the helper). As
// device_flag_helper_false_unguarded.cpp, but `main` passes `true` with no
// availability check: on a machine without a GPU, `model->to(kCUDA)` throws.
// Each request is reported in the helper, with a note at the call.
#include <torch/torch.h>

#include <iostream>

double evaluate(torch::nn::Sequential &model, const torch::Tensor &data, const torch::Tensor &labels,
                bool use_gpu) {
  torch::NoGradGuard no_grad;
  auto x = data;
  auto y = labels;
  if (use_gpu) {
    model->to(torch::kCUDA); // expect: placement-unguarded-cuda
    x = x.to(torch::kCUDA); // expect: placement-unguarded-cuda
    y = y.to(torch::kCUDA); // expect: placement-unguarded-cuda
  }
  auto predicted = model->forward(x).argmax(1);
  return predicted.eq(y).to(torch::kFloat).mean().item<double>();
}

int main() {
  torch::nn::Sequential model(torch::nn::Linear(20, 64), torch::nn::ReLU(), torch::nn::Linear(64, 3));
  torch::Tensor data, labels;
  torch::load(data, "iris_features.pt");
  torch::load(labels, "iris_labels.pt");
  std::cout << "cpu accuracy " << evaluate(model, data, labels, /*use_gpu=*/false) << "\n";
  std::cout << "gpu accuracy " << evaluate(model, data, labels, /*use_gpu=*/true) << "\n";
  return 0;
}
