// issue 19 class 15 (availability through a flag): a helper that moves to CUDA only when its caller says so.
// CORRECT. `evaluate(model, data, use_gpu)` moves the model and the data to
// the GPU under `if (use_gpu)`. `main` calls it with `false` on every
// machine, and with `true` only after `cuda::is_available()`: no call runs
// the request where no GPU is.
// Look-alike: device_flag_helper_true_unguarded.cpp.
#include <torch/torch.h>

#include <iostream>

double evaluate(torch::nn::Sequential &model, const torch::Tensor &data, const torch::Tensor &labels,
                bool use_gpu) {
  torch::NoGradGuard no_grad;
  auto x = data;
  auto y = labels;
  if (use_gpu) {
    model->to(torch::kCUDA);
    x = x.to(torch::kCUDA);
    y = y.to(torch::kCUDA);
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
  if (torch::cuda::is_available())
    std::cout << "gpu accuracy " << evaluate(model, data, labels, /*use_gpu=*/true) << "\n";
  return 0;
}
