// issue 19 class 12 (a device value that places nothing): a config's CUDA default stored, checked, then used.
// CORRECT. The run configuration defaults its device to CUDA in a member
// initializer; before anything is placed, `main` falls back to the cpu when
// `cuda::is_available()` says no. Storing `torch::Device(torch::kCUDA)` is
// not a request; every use of `cfg.device` comes after the check.
#include <torch/torch.h>

#include <iostream>

struct RunConfig {
  torch::Device device{torch::kCUDA};
  int64_t batch_size = 32;
  double lr = 1e-3;
};

int main() {
  RunConfig cfg;
  if (!torch::cuda::is_available()) {
    std::cerr << "CUDA not available, falling back to the cpu\n";
    cfg.device = torch::Device(torch::kCPU);
  }
  torch::nn::GRU gru(torch::nn::GRUOptions(40, 128).batch_first(true));
  torch::nn::Linear head(128, 12);
  gru->to(cfg.device);
  head->to(cfg.device);
  std::vector<torch::Tensor> params = gru->parameters();
  for (auto &p : head->parameters())
    params.push_back(p);
  torch::optim::Adam optimizer(params, cfg.lr);
  torch::Tensor mfcc, labels;
  torch::load(mfcc, "keyword_mfcc.pt");
  torch::load(labels, "keyword_labels.pt");
  for (int64_t i = 0; i + cfg.batch_size <= mfcc.size(0); i += cfg.batch_size) {
    auto x = mfcc.narrow(0, i, cfg.batch_size).to(cfg.device);
    auto y = labels.narrow(0, i, cfg.batch_size).to(cfg.device);
    auto last = std::get<0>(gru->forward(x)).select(1, -1);
    auto loss = torch::nn::functional::cross_entropy(head(last), y);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
