// issue 8 class 7: element-wise loops over two vectors of tensors (EMA shadows).
// BUG. The exponential-moving-average shadow weights are cloned from the
// model's parameters before the model is moved, so they stay on the cpu while
// `params[i]` are on `device`: the in-place update `shadow[i].mul_(...).add_(
// params[i], ...)` mixes devices. Look-alike of ema_shadow_after_move.cpp.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct AutoencoderImpl : torch::nn::Module {
  AutoencoderImpl()
      : encoder(register_module("encoder", torch::nn::Sequential(torch::nn::Linear(784, 128), torch::nn::ReLU(),
                                                                 torch::nn::Linear(128, 32)))),
        decoder(register_module("decoder", torch::nn::Sequential(torch::nn::Linear(32, 128), torch::nn::ReLU(),
                                                                 torch::nn::Linear(128, 784), torch::nn::Sigmoid()))) {}
  torch::Tensor forward(const torch::Tensor &x) { return decoder->forward(encoder->forward(x)); }
  torch::nn::Sequential encoder, decoder;
};
TORCH_MODULE(Autoencoder);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const double decay = 0.999;
  Autoencoder model;
  std::vector<torch::Tensor> shadow;
  for (const auto &p : model->parameters()) {
    shadow.push_back(p.detach().clone());
  }
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), 1e-3);

  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data/mnist").map(torch::data::transforms::Stack<>()), 256);
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *loader) {
      auto images = batch.data.view({-1, 784}).to(device);
      optimizer.zero_grad();
      auto loss = torch::binary_cross_entropy(model(images), images);
      loss.backward();
      optimizer.step();

      torch::NoGradGuard no_grad;
      auto params = model->parameters();
      for (size_t i = 0; i < params.size(); ++i) {
        shadow[i].mul_(decay).add_(params[i], 1.0 - decay); // expect: placement-mixed-device
      }
    }
    std::cout << "epoch " << epoch << "\n";
  }
  torch::save(shadow, "ema.pt");
  return 0;
}
