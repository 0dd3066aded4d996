// Class: placement-unsynchronized-read, correct look-alike.
// Modelled on: pytorch/pytorch#86264 and #127612 (a non_blocking
// device-to-host copy read before synchronisation gives stale values) and
// evaluation loops that "overlap" the download of each batch's predictions
// with the next batch by copying them with non_blocking=true.
// Why it is not a bug: after the loop, and before anything reads the host
// tensors, the program waits for the GPU with torch::cuda::synchronize()
// when it runs on one; on the cpu, to(kCPU, true) of a cpu tensor returns
// the tensor itself and nothing is pending.
// Twin: unsync_eval_predictions_gathered_async.cpp
#include <torch/torch.h>

#include <iostream>
#include <vector>

namespace eval {

torch::Tensor to_host_async(const torch::Tensor& t) {
  return t.to(torch::kCPU, /*non_blocking=*/true);
}

struct Report {
  double accuracy = 0.0;
  int64_t samples = 0;
};

}  // namespace eval

struct TaggerImpl : torch::nn::Module {
  TaggerImpl(int64_t in, int64_t tags)
      : proj(register_module("proj", torch::nn::Linear(in, 64))),
        out(register_module("out", torch::nn::Linear(64, tags))) {}
  torch::Tensor forward(torch::Tensor x) { return out->forward(torch::relu(proj->forward(x))); }
  torch::nn::Linear proj, out;
};
TORCH_MODULE(Tagger);

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Tagger model(24, 7);
  model->to(device);
  model->eval();

  auto inputs = torch::randn({4096, 24});
  auto labels = torch::randint(0, 7, {4096}, torch::kLong);

  std::vector<torch::Tensor> predictions_host;
  {
    torch::NoGradGuard no_grad;
    for (int64_t i = 0; i < inputs.size(0); i += 512) {
      auto x = inputs.slice(0, i, i + 512).to(device);
      predictions_host.push_back(eval::to_host_async(model->forward(x).argmax(1)));
    }
  }

  if (device.is_cuda()) torch::cuda::synchronize();
  eval::Report report;
  auto predicted = torch::cat(predictions_host);
  report.samples = predicted.size(0);
  report.accuracy = predicted.eq(labels).to(torch::kDouble).mean().item<double>();
  std::cout << "accuracy " << report.accuracy << " over " << report.samples << " samples\n";
}
