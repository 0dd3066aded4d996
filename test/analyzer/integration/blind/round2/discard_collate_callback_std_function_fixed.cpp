// Rule: placement-discarded-transfer, correct look-alike.
// Modelled on: the recurring libtorch question of an input left on the CPU after
// `x.to(device);` (Tensor::to returns a copy, unlike Module::to), and trainers that
// keep a user-configurable batch hook in a std::function member.
// Why it is correct: the default `prepare_` hook assigns both moved tensors back
// through its reference parameters, so fit() gives the moved model device inputs.
// Twin: discard_collate_callback_std_function.cpp (`x.to(device_);` dropped).
#include <torch/torch.h>

#include <functional>
#include <iostream>
#include <string>

struct Blobs : torch::data::datasets::Dataset<Blobs> {
  explicit Blobs(int64_t n) : points(torch::randn({n, 2})), labels((points.sum(1) > 0).to(torch::kLong)) {}
  torch::data::Example<> get(size_t i) override { return {points[i], labels[i]}; }
  torch::optional<size_t> size() const override { return static_cast<size_t>(points.size(0)); }
  torch::Tensor points, labels;
};

class Trainer {
 public:
  using Hook = std::function<void(torch::Tensor &, torch::Tensor &)>;

  Trainer(torch::nn::Sequential model, torch::Device device)
      : model_(std::move(model)), device_(device), opt_(model_->parameters(), torch::optim::SGDOptions(0.1)) {
    prepare_ = [this](torch::Tensor &x, torch::Tensor &y) {
      x = x.to(device_);
      y = y.to(device_);
    };
  }

  template <typename Loader>
  double fit_epoch(Loader &loader) {
    model_->train();
    double seen = 0;
    auto running = torch::zeros({}, torch::TensorOptions().device(device_));
    for (auto &batch : loader) {
      auto x = batch.data;
      auto y = batch.target;
      prepare_(x, y);
      opt_.zero_grad();
      auto logits = model_->forward(x);
      auto loss = torch::nn::functional::cross_entropy(logits, y);
      loss.backward();
      opt_.step();
      running += loss.detach() * x.size(0);
      seen += x.size(0);
    }
    return running.item<double>() / seen;
  }

 private:
  torch::nn::Sequential model_;
  torch::Device device_;
  torch::optim::SGD opt_;
  Hook prepare_;
};

int main(int argc, char **argv) {
  const bool force_cpu = argc > 1 && std::string(argv[1]) == "--cpu";
  const bool use_cuda = !force_cpu && torch::cuda::is_available();
  torch::Device device(use_cuda ? torch::kCUDA : torch::kCPU);

  torch::nn::Sequential model(torch::nn::Linear(2, 16), torch::nn::ReLU(), torch::nn::Linear(16, 2));
  model->to(device);
  Trainer trainer(model, device);

  auto loader = torch::data::make_data_loader(Blobs(1024).map(torch::data::transforms::Stack<>()),
                                              torch::data::DataLoaderOptions().batch_size(64));
  for (int epoch = 0; epoch < 3; ++epoch)
    std::cout << "epoch " << epoch << " loss " << trainer.fit_epoch(*loader) << "\n";
  return 0;
}
