// Class: placement-mixed-device, correct look-alike.
// Modelled on: PyTorch forum threads "Expected all tensors to be on the same
// device" from C++ evaluation code, where a metric object keeps its running
// state in a tensor made in its constructor (on the host) and is then fed
// the model's predictions, which live on the GPU.
// Why it is not a bug: the metric is told the device at construction and
// makes counts_ there, so the in-place add combines two tensors on the
// model's device.
// Twin: mixed_confusion_matrix_member_on_host.cpp
#include <torch/torch.h>

#include <iomanip>
#include <iostream>

namespace metrics {

class ConfusionMatrix {
 public:
  ConfusionMatrix(int64_t num_classes, torch::Device device)
      : num_classes_(num_classes),
        counts_(torch::zeros({num_classes * num_classes},
                             torch::TensorOptions(torch::kLong).device(device))) {}

  void update(const torch::Tensor& predictions, const torch::Tensor& targets) {
    auto flat = targets * num_classes_ + predictions;
    counts_ += torch::bincount(flat, {}, num_classes_ * num_classes_);
  }

  torch::Tensor matrix() const { return counts_.view({num_classes_, num_classes_}); }

 private:
  int64_t num_classes_;
  torch::Tensor counts_;
};

}  // namespace metrics

struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl(int64_t in, int64_t classes)
      : body(register_module("body", torch::nn::Sequential(
                                         torch::nn::Linear(in, 64), torch::nn::ReLU(),
                                         torch::nn::Linear(64, classes)))) {}
  torch::Tensor forward(torch::Tensor x) { return body->forward(x); }
  torch::nn::Sequential body;
};
TORCH_MODULE(Classifier);

int main() {
  const int64_t kClasses = 5;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  std::cout << "evaluating on " << device << '\n';

  Classifier model(20, kClasses);
  model->to(device);
  model->eval();

  auto features = torch::randn({512, 20});
  auto labels = torch::randint(0, kClasses, {512}, torch::kLong);

  metrics::ConfusionMatrix confusion(kClasses, device);
  torch::NoGradGuard no_grad;
  for (int64_t start = 0; start < features.size(0); start += 128) {
    auto x = features.narrow(0, start, 128).to(device);
    auto y = labels.narrow(0, start, 128).to(device);
    auto predicted = model->forward(x).argmax(1);
    confusion.update(predicted, y);
  }

  auto m = confusion.matrix().to(torch::kCPU);
  auto correct = m.diagonal().sum().item<int64_t>();
  std::cout << std::fixed << std::setprecision(3)
            << "accuracy " << static_cast<double>(correct) / features.size(0) << '\n';
  std::cout << m << '\n';
}
