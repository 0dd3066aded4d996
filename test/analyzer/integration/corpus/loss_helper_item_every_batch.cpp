// issue 19 class 10 (loops): `.item()` on a value returned by a helper, every batch.
// BUG (transfer-in-loop). Validation sums the loss of every batch with
// `evaluate_batch(...).item<double>()`. The helper returns the loss on the
// device it was given (`device`, CUDA on a GPU machine), so each batch
// stalls the loop with a device-to-host copy. Accumulating on the device and
// reading once after the loop does not.
// Look-alike: loss_helper_accumulated_on_device.cpp.
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
  double total = 0.0;
  int64_t batches = 0;
  for (auto &batch : *loader) {
    total += evaluate_batch(model, batch.data, batch.target, device).item<double>(); // expect: placement-transfer-in-loop
    ++batches;
  }
  std::cout << "validation loss " << total / static_cast<double>(batches) << "\n";
  return 0;
}
