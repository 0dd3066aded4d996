// issue 19 class 16 (CUDA devices in member initializers), buggy look-alike.
// BUG (unguarded-cuda, at each request of cuda:1). As
// model_parallel_member_devices_guarded.cpp, but `main` only checks
// `cuda::is_available()`, which ensures one GPU: on a one-GPU machine the
// requests of cuda:1 fail (the constructor's `decoder_->to(second_)` first,
// then forward's hop). The member initializer itself places nothing; the
// reports go at the requests.
#include <torch/torch.h>

#include <iostream>

class TwoGpuAutoencoderImpl : public torch::nn::Module {
 public:
  TwoGpuAutoencoderImpl()
      : encoder_(register_module("encoder", torch::nn::Sequential(torch::nn::Linear(784, 512), torch::nn::ReLU(),
                                                                  torch::nn::Linear(512, 64)))),
        decoder_(register_module("decoder", torch::nn::Sequential(torch::nn::Linear(64, 512), torch::nn::ReLU(),
                                                                  torch::nn::Linear(512, 784), torch::nn::Sigmoid()))) {
    encoder_->to(first_);
    decoder_->to(second_); // expect: placement-unguarded-cuda
  }
  torch::Tensor forward(const torch::Tensor &x) {
    auto code = encoder_->forward(x.to(first_));
    return decoder_->forward(code.to(second_)); // expect: placement-unguarded-cuda
  }
  const torch::Device &output_device() const { return second_; }

 private:
  const torch::Device first_{torch::kCUDA, 0};
  const torch::Device second_{torch::kCUDA, 1};
  torch::nn::Sequential encoder_, decoder_;
};
TORCH_MODULE(TwoGpuAutoencoder);

int main() {
  if (!torch::cuda::is_available()) {
    std::cerr << "this example needs a GPU\n";
    return 0;
  }
  TwoGpuAutoencoder model;
  torch::optim::Adam optimizer(model->parameters(), 1e-3);
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>()), 256);
  for (int epoch = 0; epoch < 5; ++epoch) {
    for (auto &batch : *loader) {
      auto x = batch.data.flatten(1);
      auto reconstruction = model->forward(x);
      auto loss = torch::binary_cross_entropy(reconstruction, x.to(model->output_device()));
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
    }
  }
  return 0;
}
