// placement-unguarded-cuda (scored apart).
// BUG. Distillation on two GPUs: the student on cuda:0, the teacher on
// cuda:1. The program checks torch::cuda::is_available(), which is true on
// a one-GPU workstation too, where `Device(kCUDA, 1)` then fails.
#include <torch/torch.h>

#include <iostream>

int main() {
  if (!torch::cuda::is_available()) {
    std::cerr << "needs CUDA\n";
    return 1;
  }
  torch::Device student_device(torch::kCUDA, 0);
  torch::Device teacher_device(torch::kCUDA, 1); // expect: placement-unguarded-cuda
  torch::nn::Linear student(256, 10), teacher(256, 10);
  student->to(student_device);
  teacher->to(teacher_device);
  torch::optim::SGD optimizer(student->parameters(), torch::optim::SGDOptions(0.01));
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({32, 256}, torch::TensorOptions().device(student_device));
    torch::Tensor soft;
    {
      torch::NoGradGuard no_grad;
      soft = teacher->forward(x.to(teacher_device)).softmax(1).to(student_device);
    }
    auto loss = torch::kl_div(student->forward(x).log_softmax(1), soft, at::Reduction::Mean);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
