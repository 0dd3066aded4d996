// issue 8 class 2: a loss module given a weight tensor through its options.
// BUG. The class weights are computed on the host from label counts and given
// to CrossEntropyLoss as they are: the loss holds them on the cpu (the
// criterion is never moved), while the logits and labels are on `device`, so
// the loss call mixes devices. Look-alike of loss_weight_moved.cpp.
#include <torch/torch.h>

#include <iostream>

struct MlpImpl : torch::nn::Module {
  MlpImpl(int64_t in, int64_t hidden, int64_t classes)
      : body(register_module("body", torch::nn::Sequential(torch::nn::Linear(in, hidden), torch::nn::ReLU(),
                                                           torch::nn::Linear(hidden, classes)))) {}
  torch::Tensor forward(const torch::Tensor &x) { return body->forward(x.flatten(1)); }
  torch::nn::Sequential body;
};
TORCH_MODULE(Mlp);

torch::Tensor inverse_frequency(const torch::Tensor &labels, int64_t classes) {
  auto counts = torch::bincount(labels, /*weights=*/{}, classes).to(torch::kFloat).clamp_min(1.0);
  return counts.sum() / (counts * classes);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto train = torch::data::datasets::MNIST("./data/mnist");
  torch::Tensor class_weights = inverse_frequency(train.targets(), 10);

  Mlp model(784, 256, 10);
  model->to(device);
  torch::nn::CrossEntropyLoss criterion(torch::nn::CrossEntropyLossOptions().weight(class_weights));
  torch::optim::Adam optimizer(model->parameters(), 1e-3);

  auto loader = torch::data::make_data_loader(
      std::move(train).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(128).workers(2));
  for (int epoch = 0; epoch < 5; ++epoch) {
    double total = 0;
    for (auto &batch : *loader) {
      auto images = batch.data.to(device);
      auto labels = batch.target.to(device);
      optimizer.zero_grad();
      auto loss = criterion(model(images), labels); // expect: placement-mixed-device
      loss.backward();
      optimizer.step();
      total += labels.size(0);
    }
    std::cout << "epoch " << epoch << " samples " << total << "\n";
  }
  return 0;
}
