// Rule: placement-transfer-in-loop (a sync per element, in a helper's loop called per batch).
// Modelled on: C++ evaluation code that fills a confusion matrix element by element
// (`preds[i].item<int64_t>()`), and rdevon/cortex#199 ("Use `.item()` to collect
// results ... only at an epoch's end": every item() forces a GPU sync).
// Why it is a bug: predictions and targets are on the device; accumulate() reads
// each element with item(), one device-to-host copy and stream sync per sample,
// on every iteration of its loop (and for every batch of the evaluation).
// Twin: loop_confusion_matrix_item_per_element_fixed.cpp (bincount on the device,
// one download after the evaluation).
#include <torch/torch.h>

#include <cstdio>
#include <vector>

using Matrix = std::vector<std::vector<int64_t>>;

namespace metrics {

void accumulate(Matrix &cm, const torch::Tensor &preds, const torch::Tensor &targets) {
  for (int64_t i = 0; i < preds.size(0); ++i) {
    const auto p = preds[i].item<int64_t>(); // expect: placement-transfer-in-loop
    const auto t = targets[i].item<int64_t>(); // expect: placement-transfer-in-loop
    ++cm[static_cast<size_t>(t)][static_cast<size_t>(p)];
  }
}

void print(const Matrix &cm) {
  for (const auto &row : cm) {
    for (auto v : row) std::printf("%6lld", static_cast<long long>(v));
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
  Matrix cm(classes, std::vector<int64_t>(classes, 0));
  torch::NoGradGuard no_grad;
  for (auto &batch : *loader) {
    auto inputs = batch.data.to(device);
    auto targets = batch.target.to(device);
    auto preds = classifier->forward(inputs).argmax(1);
    metrics::accumulate(cm, preds, targets);
  }
  metrics::print(cm);
  return 0;
}
