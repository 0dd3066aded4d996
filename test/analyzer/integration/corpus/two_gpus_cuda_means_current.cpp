// issue 8 class 9: `.cuda()` / kCUDA without an index next to cuda:1.
// BUG. Knowledge distillation over two GPUs: the teacher is put on cuda:1 and
// fed there, the student is moved with `kCUDA` and fed with `.cuda()`, both of
// which mean the current device, cuda:0. The distillation loss then combines
// student logits on cuda:0 with teacher logits on cuda:1.
// Look-alike of two_gpus_teacher_logits_moved.cpp.
#include <torch/torch.h>

#include <iostream>

torch::nn::Sequential make_mlp(int64_t in, int64_t hidden, int64_t out) {
  return torch::nn::Sequential(torch::nn::Linear(in, hidden), torch::nn::ReLU(), torch::nn::Linear(hidden, hidden),
                               torch::nn::ReLU(), torch::nn::Linear(hidden, out));
}

int main() {
  if (!torch::cuda::is_available() || torch::cuda::device_count() < 2) {
    std::cerr << "distillation needs two GPUs\n";
    return 1;
  }
  const torch::Device teacher_device("cuda:1");
  const double temperature = 4.0;
  auto teacher = make_mlp(784, 2048, 10);
  auto student = make_mlp(784, 128, 10);
  torch::load(teacher, "teacher.pt");
  teacher->to(teacher_device);
  teacher->eval();
  student->to(torch::kCUDA);
  torch::optim::Adam optimizer(student->parameters(), 1e-3);

  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data/mnist").map(torch::data::transforms::Stack<>()), 256);
  for (auto &batch : *loader) {
    auto images = batch.data.flatten(1);
    torch::Tensor teacher_logits;
    {
      torch::NoGradGuard no_grad;
      teacher_logits = teacher->forward(images.to(teacher_device));
    }
    auto student_logits = student->forward(images.cuda());
    auto labels = batch.target.cuda();
    auto student_log_probs = torch::log_softmax(student_logits / temperature, 1);
    auto teacher_probs = torch::softmax(teacher_logits / temperature, 1);
    auto soft = torch::kl_div(student_log_probs, teacher_probs, at::Reduction::Mean); // expect: placement-mixed-device
    auto loss = 0.9 * soft * temperature * temperature + 0.1 * torch::cross_entropy_loss(student_logits, labels);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  torch::save(student, "student.pt");
  return 0;
}
