// issue 8 class 10: an input moved on only one branch.
// BUG. GPU augmentation is optional: when `augment` is set, the images are
// moved to `device` and flipped there; otherwise they stay as the loader made
// them, on the cpu, and meet the model on `device` (a "may" mismatch).
// Look-alike of input_moved_on_both_branches.cpp.
#include <torch/torch.h>

#include <cstring>
#include <iostream>

torch::Tensor random_flip(const torch::Tensor &images) {
  auto flip = torch::rand({images.size(0), 1, 1, 1}, images.options()) < 0.5;
  return torch::where(flip, images.flip({3}), images);
}

struct NetImpl : torch::nn::Module {
  NetImpl()
      : features(register_module("features", torch::nn::Sequential(
                                                 torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 32, 3).padding(1)),
                                                 torch::nn::BatchNorm2d(32), torch::nn::ReLU(),
                                                 torch::nn::MaxPool2d(2), torch::nn::Flatten()))),
        classifier(register_module("classifier", torch::nn::Linear(32 * 14 * 14, 10))) {}
  torch::Tensor forward(const torch::Tensor &x) { return classifier(features->forward(x)); }
  torch::nn::Sequential features;
  torch::nn::Linear classifier;
};
TORCH_MODULE(Net);

int main(int argc, char **argv) {
  const bool augment = argc > 1 && std::strcmp(argv[1], "--augment") == 0;
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), 1e-3);
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data/mnist")
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(64).workers(4));

  for (int epoch = 0; epoch < 10; ++epoch) {
    model->train();
    for (auto &batch : *loader) {
      torch::Tensor images = batch.data;
      if (augment) {
        images = random_flip(images.to(device));
      }
      auto labels = batch.target.to(device);
      optimizer.zero_grad();
      auto logits = model(images); // expect: placement-mixed-device
      auto loss = torch::cross_entropy_loss(logits, labels);
      loss.backward();
      optimizer.step();
    }
    std::cout << "epoch " << epoch << " done\n";
  }
  return 0;
}
