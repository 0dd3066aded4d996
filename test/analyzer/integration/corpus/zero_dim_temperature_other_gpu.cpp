// issue 19 class 8 (0-dim tensors on another CUDA device): a 0-dim statistic from one GPU scaling a tensor on another.
// BUG (mixed-device). Distillation with the teacher on cuda:1 and the student
// on cuda:0: the temperature adapts to the teacher's logit spread,
// `teacher_logits.std()`, a 0-dim tensor on cuda:1, which then divides the
// student's logits on cuda:0. A 0-dim cpu tensor could do that; a 0-dim
// cuda:1 tensor cannot.
#include <torch/torch.h>

#include <iostream>

int main() {
  if (!torch::cuda::is_available() || torch::cuda::device_count() < 2)
    return 1;
  const torch::Device student_device("cuda:0"), teacher_device("cuda:1");
  torch::nn::Sequential teacher(torch::nn::Linear(512, 1024), torch::nn::ReLU(), torch::nn::Linear(1024, 100));
  torch::nn::Sequential student(torch::nn::Linear(512, 128), torch::nn::ReLU(), torch::nn::Linear(128, 100));
  torch::load(teacher, "teacher.pt");
  teacher->to(teacher_device);
  teacher->eval();
  student->to(student_device);
  torch::optim::Adam optimizer(student->parameters(), 1e-3);
  torch::Tensor features;
  torch::load(features, "features.pt");
  for (int64_t i = 0; i + 256 <= features.size(0); i += 256) {
    auto x = features.narrow(0, i, 256);
    torch::Tensor teacher_logits;
    {
      torch::NoGradGuard no_grad;
      teacher_logits = teacher->forward(x.to(teacher_device));
    }
    auto temperature = teacher_logits.std().clamp_min(1.0);
    auto student_logits = student->forward(x.to(student_device));
    auto soft_student = torch::log_softmax(student_logits / temperature, 1); // expect: placement-mixed-device
    auto soft_teacher = torch::softmax(teacher_logits / temperature, 1).to(student_device);
    auto loss = torch::kl_div(soft_student, soft_teacher, at::Reduction::Mean);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
