// issue 19 class 10 (loops), correct look-alike.
// CORRECT. As loss_helper_item_every_batch.cpp, but the losses are summed on
// the device and read once, after the loop.
#include <torch/torch.h>

#include <iostream>

struct MlpImpl : torch::nn::Module {
  MlpImpl()
      : fc1(register_module("fc1", torch::nn::Linear(784, 300))),
        fc2(register_module("fc2", torch::nn::Linear(300, 10))) {}
  torch::Tensor forward(const torch::Tensor &x) { return fc2(torch::relu(fc1(x.flatten(1)))); }
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Mlp);

torch::Tensor evaluate_batch(Mlp &model, const torch::Tensor &images, const torch::Tensor &labels,
                             const torch::Device &device) {
  auto logits = model->forward(images.to(device));
  return torch::nn::functional::cross_entropy(logits, labels.to(device));
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Mlp model;
  torch::load(model, "mlp.pt");
  model->to(device);
  model->eval();
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data", torch::data::datasets::MNIST::Mode::kTest)
          .map(torch::data::transforms::Stack<>()),
      500);
  torch::NoGradGuard no_grad;
  auto total = torch::zeros({}, torch::TensorOptions().dtype(torch::kDouble).device(device));
  int64_t batches = 0;
  for (auto &batch : *loader) {
    total += evaluate_batch(model, batch.data, batch.target, device);
    ++batches;
  }
  std::cout << "validation loss " << total.item<double>() / static_cast<double>(batches) << "\n";
  return 0;
}
