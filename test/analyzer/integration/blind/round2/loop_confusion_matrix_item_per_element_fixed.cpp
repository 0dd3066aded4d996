// Rule: placement-transfer-in-loop, correct look-alike.
// Modelled on: C++ evaluation code that fills a confusion matrix, fixed as
// rdevon/cortex#199 advises: keep the counts on the device, read them at the end.
// Why it is correct: accumulate() counts (target, prediction) pairs with bincount
// on the device; the matrix is downloaded once, after the evaluation loop.
// Twin: loop_confusion_matrix_item_per_element.cpp (item() per element).
#include <torch/torch.h>

#include <cstdio>
#include <vector>


namespace metrics {

void accumulate(torch::Tensor &cm, const torch::Tensor &preds, const torch::Tensor &targets) {
  const int64_t k = cm.size(0);
  cm += torch::bincount(targets * k + preds, {}, k * k).view({k, k});
}

void print(const torch::Tensor &cm_on_host) {
  auto acc = cm_on_host.accessor<int64_t, 2>();
  for (int64_t r = 0; r < acc.size(0); ++r) {
    for (int64_t c = 0; c < acc.size(1); ++c) std::printf("%6lld", static_cast<long long>(acc[r][c]));
    std::printf("\n");
  }
}

} // namespace metrics

struct Clusters : torch::data::datasets::Dataset<Clusters> {
  Clusters(int64_t n, int64_t k) : x(torch::randn({n, 8})), y(torch::randint(0, k, {n}, torch::kLong)) {
    x += y.unsqueeze(1).to(torch::kFloat);
  }
  torch::data::Example<> get(size_t i) override { return {x[i], y[i]}; }
  torch::optional<size_t> size() const override { return static_cast<size_t>(x.size(0)); }
  torch::Tensor x, y;
};

int main() {
  const int64_t classes = 4;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  torch::nn::Sequential classifier(torch::nn::Linear(8, 32), torch::nn::ReLU(), torch::nn::Linear(32, classes));
  classifier->to(device);
  classifier->eval();

  auto loader = torch::data::make_data_loader(Clusters(2000, classes).map(torch::data::transforms::Stack<>()),
                                              torch::data::DataLoaderOptions().batch_size(128));
  auto cm = torch::zeros({classes, classes}, torch::TensorOptions().dtype(torch::kLong).device(device));
  torch::NoGradGuard no_grad;
  for (auto &batch : *loader) {
    auto inputs = batch.data.to(device);
    auto targets = batch.target.to(device);
    auto preds = classifier->forward(inputs).argmax(1);
    metrics::accumulate(cm, preds, targets);
  }
  metrics::print(cm.cpu());
  return 0;
}
