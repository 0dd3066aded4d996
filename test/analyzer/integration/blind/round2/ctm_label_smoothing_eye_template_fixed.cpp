// Rule: placement-create-then-move, correct look-alike (a function template).
// Modelled on: label-smoothing cross-entropy helpers in C++ training code (a
// one-hot table indexed by the targets), as shared on the PyTorch forums.
// Why it is correct: one_hot_table<N>() gives torch::eye the device in its
// options, so the table is made where it is used and nothing is copied.
// Twin: ctm_label_smoothing_eye_template.cpp (eye on the host, then moved).
#include <torch/torch.h>

#include <iomanip>
#include <iostream>

namespace loss {

template <int64_t NumClasses>
torch::Tensor one_hot_table(torch::Device device) {
  torch::Tensor table = torch::eye(NumClasses, torch::TensorOptions().device(device));
  return table;
}

template <int64_t NumClasses>
class LabelSmoothingCE {
 public:
  LabelSmoothingCE(double smoothing, torch::Device device)
      : smoothing_(smoothing), table_(one_hot_table<NumClasses>(device)) {}

  torch::Tensor operator()(const torch::Tensor &logits, const torch::Tensor &target) const {
    auto soft = table_.index_select(0, target) * (1.0 - smoothing_) + smoothing_ / NumClasses;
    return -(soft * torch::log_softmax(logits, 1)).sum(1).mean();
  }

 private:
  double smoothing_;
  torch::Tensor table_;
};

} // namespace loss

struct MlpImpl : torch::nn::Module {
  MlpImpl() : layers(register_module("layers", torch::nn::Sequential(torch::nn::Linear(20, 64), torch::nn::GELU(),
                                                                     torch::nn::Linear(64, 10)))) {}
  torch::Tensor forward(const torch::Tensor &x) { return layers->forward(x); }
  torch::nn::Sequential layers;
};
TORCH_MODULE(Mlp);

int main() {
  constexpr int64_t kClasses = 10;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Mlp net;
  net->to(device);
  loss::LabelSmoothingCE<kClasses> criterion(0.1, device);
  torch::optim::AdamW opt(net->parameters(), torch::optim::AdamWOptions(1e-3).weight_decay(1e-2));

  auto x = torch::randn({1024, 20}, torch::TensorOptions().device(device));
  auto y = x.slice(1, 0, kClasses).argmax(1);
  for (int step = 1; step <= 300; ++step) {
    opt.zero_grad();
    auto l = criterion(net(x), y);
    l.backward();
    opt.step();
    if (step % 100 == 0) std::cout << "step " << std::setw(4) << step << " loss " << l.item<double>() << "\n";
  }
  return 0;
}
