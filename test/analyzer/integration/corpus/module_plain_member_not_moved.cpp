// issue 8 class 4: a submodule held as a plain member, without register_module.
// BUG. `head` is constructed in the initialiser list but never registered, so
// `model->to(device)` moves the backbone and leaves the head's parameters on
// the cpu: `head(features)` meets device features with cpu weights.
// Look-alike of module_plain_member_registered.cpp.
#include <torch/torch.h>

#include <iostream>

struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl(int64_t in, int64_t classes)
      : backbone(register_module("backbone",
                                 torch::nn::Sequential(torch::nn::Linear(in, 256), torch::nn::ReLU(),
                                                       torch::nn::Linear(256, 128), torch::nn::ReLU()))),
        head(torch::nn::Linear(128, classes)) {}

  torch::Tensor forward(const torch::Tensor &x) {
    auto features = backbone->forward(x.flatten(1));
    return head(features); // expect: placement-mixed-device
  }

  torch::nn::Sequential backbone;
  torch::nn::Linear head;
};
TORCH_MODULE(Classifier);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Classifier model(784, 10);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(3e-4));

  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      torch::data::datasets::MNIST("./data/mnist").map(torch::data::transforms::Stack<>()), 128);
  for (int epoch = 0; epoch < 3; ++epoch) {
    int64_t batches = 0;
    for (auto &batch : *loader) {
      auto images = batch.data.to(device);
      auto labels = batch.target.to(device);
      optimizer.zero_grad();
      auto loss = torch::cross_entropy_loss(model(images), labels);
      loss.backward();
      optimizer.step();
      if (++batches % 200 == 0) {
        std::cout << "epoch " << epoch << " batch " << batches << " loss " << loss.item<double>() << "\n";
      }
    }
  }
  return 0;
}
