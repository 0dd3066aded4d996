// Class: placement-mixed-device, with the bug.
// Modelled on: libtorch users porting `nn.CrossEntropyLoss(weight=...)` for
// imbalanced data (PyTorch forum, "CrossEntropyLoss weight on GPU in C++"):
// the weights are computed from the label histogram on the host and handed
// to the loss's options through a config struct, while the model and the
// batches go to the GPU.
// Why it is a bug: the criterion holds a cpu weight; applying it to logits
// and targets on the model's device fails ("Expected all tensors to be on the
// same device") on a machine with a GPU.
// Twin: mixed_class_weights_from_config_fixed.cpp
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <vector>

namespace train {

struct LossConfig {
  torch::Tensor class_weights;
  double label_smoothing = 0.0;
};

torch::Tensor inverse_frequency(const torch::Tensor& labels, int64_t classes) {
  auto counts = torch::bincount(labels, {}, classes).to(torch::kFloat).clamp_min(1.0);
  auto w = counts.sum() / (counts * classes);
  return w / w.mean();
}

torch::nn::CrossEntropyLoss make_criterion(const LossConfig& cfg) {
  return torch::nn::CrossEntropyLoss(
      torch::nn::CrossEntropyLossOptions().weight(cfg.class_weights));
}

class LabelledDataset : public torch::data::datasets::Dataset<LabelledDataset> {
 public:
  LabelledDataset(torch::Tensor inputs, torch::Tensor labels)
      : inputs_(std::move(inputs)), labels_(std::move(labels)) {}
  torch::data::Example<> get(size_t i) override { return {inputs_[i], labels_[i]}; }
  torch::optional<size_t> size() const override { return inputs_.size(0); }

 private:
  torch::Tensor inputs_, labels_;
};

}  // namespace train

int main(int argc, char** argv) {
  const int64_t classes = 4;
  const int epochs = argc > 1 ? std::stoi(argv[1]) : 3;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  auto inputs = torch::randn({1000, 16});
  auto labels = torch::randint(0, classes, {1000}, torch::kLong);
  auto dataset = train::LabelledDataset(inputs, labels)
                     .map(torch::data::transforms::Stack<>());

  train::LossConfig loss_cfg;
  loss_cfg.class_weights = train::inverse_frequency(labels, classes);
  auto criterion = train::make_criterion(loss_cfg);

  torch::nn::Sequential net(torch::nn::Linear(16, 32), torch::nn::Tanh(),
                            torch::nn::Linear(32, classes));
  net->to(device);
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));

  for (int epoch = 0; epoch < epochs; ++epoch) {
    auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        dataset, torch::data::DataLoaderOptions().batch_size(64));
    torch::Tensor epoch_loss = torch::zeros({}, torch::device(device));
    for (auto& batch : *loader) {
      auto x = batch.data.to(device);
      auto y = batch.target.to(device);
      opt.zero_grad();
      auto loss = criterion(net->forward(x), y); // expect: placement-mixed-device
      loss.backward();
      opt.step();
      epoch_loss += loss.detach();
    }
    std::cout << "epoch " << epoch << " loss " << epoch_loss.item<double>() << '\n';
  }
}
