// placement-unguarded-cuda (scored apart).
// CORRECT look-alike of second_gpu_under_is_available: the program asks
// for two devices with torch::cuda::device_count() before it uses cuda:1.
#include <torch/torch.h>

#include <iostream>

int main() {
  if (torch::cuda::device_count() < 2) {
    std::cerr << "needs two GPUs\n";
    return 1;
  }
  torch::Device student_device(torch::kCUDA, 0);
  torch::Device teacher_device(torch::kCUDA, 1);
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
