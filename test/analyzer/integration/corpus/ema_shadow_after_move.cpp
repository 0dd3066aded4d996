// issue 8 class 7: element-wise loops over two vectors of tensors (EMA shadows).
// CORRECT. The exponential-moving-average shadow weights are cloned from the
// model's parameters after the model is moved, so they are on `device` like
// `params[i]` and the in-place update in the loop sees one device.
// Look-alike of ema_shadow_before_move.cpp.
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
  model->to(device);
  std::vector<torch::Tensor> shadow;
  for (const auto &p : model->parameters()) {
    shadow.push_back(p.detach().clone());
  }
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
        shadow[i].mul_(decay).add_(params[i], 1.0 - decay);
      }
    }
    std::cout << "epoch " << epoch << "\n";
  }
  torch::save(shadow, "ema.pt");
  return 0;
}
