// issue 8 class 12: a sync inside printf arguments, every step.
// BUG. A fine-tuning loop prints the loss and the gradient norm with printf on
// every step; both `.item<float>()` calls copy a device value to the host and
// wait for the device, every step, when `device` is CUDA.
#include <torch/torch.h>

#include <cstdio>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential model(torch::nn::Flatten(), torch::nn::Linear(784, 256), torch::nn::GELU(),
                              torch::nn::Linear(256, 10));
  torch::load(model, "pretrained.pt");
  model->to(device);
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(1e-4).weight_decay(0.01));
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      torch::data::datasets::MNIST("./data/mnist").map(torch::data::transforms::Stack<>()), 32);

  long step = 0;
  for (auto &batch : *loader) {
    auto logits = model->forward(batch.data.to(device));
    auto loss = torch::cross_entropy_loss(logits, batch.target.to(device));
    optimizer.zero_grad();
    loss.backward();
    auto grad_norm = torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
    optimizer.step();
    std::printf("step %ld loss %.4f grad norm %.3f\n", step++, loss.item<float>(), grad_norm); // expect: placement-transfer-in-loop
  }
  return 0;
}
