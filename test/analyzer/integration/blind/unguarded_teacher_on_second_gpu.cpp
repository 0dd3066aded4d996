// Class: placement-unguarded-cuda, with the bug (cuda:1 requested with one GPU ensured).
// Marker moved by the lead after the blind measurement (2026-11-27): the rule
// page reports `Device(kCUDA, 1)` where the device is written, once, not at
// each use (the blind writer had marked the two uses).
// Modelled on: knowledge-distillation scripts that put the teacher on a
// second GPU to save memory on the first (PyTorch forum "distillation
// teacher on another GPU"), checking only that CUDA exists.
// Why it is a bug: is_available() ensures one GPU; the teacher is moved to
// cuda:1 and each batch is copied to cuda:1, which fails on a machine with
// a single GPU. The student's cuda:0 is correctly guarded.
// Twin: unguarded_teacher_on_second_gpu_fixed.cpp
#include <torch/torch.h>

#include <iostream>

namespace kd {

torch::nn::Sequential make_mlp(int64_t in, int64_t hidden, int64_t out) {
  return torch::nn::Sequential(torch::nn::Linear(in, hidden), torch::nn::GELU(),
                               torch::nn::Linear(hidden, out));
}

torch::Tensor distill_loss(const torch::Tensor& student_logits, const torch::Tensor& teacher_logits,
                           double temperature) {
  auto p_t = torch::softmax(teacher_logits / temperature, 1);
  auto log_p_s = torch::log_softmax(student_logits / temperature, 1);
  return torch::kl_div(log_p_s, p_t, at::Reduction::Mean) * temperature * temperature;
}

}  // namespace kd

int main() {
  if (!torch::cuda::is_available()) {
    std::cerr << "distillation needs a GPU\n";
    return 1;
  }
  const torch::Device student_device(torch::kCUDA, 0);
  const torch::Device teacher_device(torch::kCUDA, 1); // expect: placement-unguarded-cuda

  auto teacher = kd::make_mlp(32, 512, 10);
  auto student = kd::make_mlp(32, 32, 10);
  teacher->to(teacher_device);
  student->to(student_device);
  teacher->eval();
  torch::optim::AdamW opt(student->parameters(), torch::optim::AdamWOptions(3e-4));

  auto data = torch::randn({1024, 32});
  for (int64_t i = 0; i < data.size(0); i += 64) {
    auto batch = data.slice(0, i, i + 64);
    torch::Tensor soft_targets;
    {
      torch::NoGradGuard no_grad;
      soft_targets = teacher->forward(batch.to(teacher_device)).to(student_device);
    }
    opt.zero_grad();
    auto loss = kd::distill_loss(student->forward(batch.to(student_device)), soft_targets, 4.0);
    loss.backward();
    opt.step();
    if ((i / 64) % 4 == 0) std::cout << "batch " << i / 64 << " kd " << loss.item<float>() << '\n';
  }
}
