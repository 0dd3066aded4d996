// issue 19 class 6 (model parallel), correct look-alike.
// CORRECT. As model_parallel_labels_on_first_gpu.cpp, but the labels go to
// the output's device, cuda:1.
#include <torch/torch.h>

#include <iostream>

struct PipelinedNetImpl : torch::nn::Module {
  PipelinedNetImpl()
      : seq1(register_module("seq1", torch::nn::Sequential(
                                         torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 3).padding(1)),
                                         torch::nn::ReLU(), torch::nn::MaxPool2d(2),
                                         torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 128, 3).padding(1)),
                                         torch::nn::ReLU(), torch::nn::AdaptiveAvgPool2d(1)))),
        seq2(register_module("seq2", torch::nn::Sequential(torch::nn::Flatten(), torch::nn::Linear(128, 256),
                                                           torch::nn::ReLU(), torch::nn::Linear(256, 100)))) {
    seq1->to(torch::Device("cuda:0"));
    seq2->to(torch::Device("cuda:1"));
  }
  torch::Tensor forward(const torch::Tensor &x) {
    return seq2->forward(seq1->forward(x.to(torch::Device("cuda:0"))).to(torch::Device("cuda:1")));
  }
  torch::nn::Sequential seq1, seq2;
};
TORCH_MODULE(PipelinedNet);

int main() {
  if (!torch::cuda::is_available() || torch::cuda::device_count() < 2)
    return 1;
  const torch::Device first("cuda:0");
  PipelinedNet model;
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  torch::Tensor images, labels;
  torch::load(images, "cifar100_images.pt");
  torch::load(labels, "cifar100_labels.pt");
  for (int64_t i = 0; i + 128 <= images.size(0); i += 128) {
    auto inputs = images.narrow(0, i, 128).to(first);
    optimizer.zero_grad();
    auto outputs = model->forward(inputs);
    auto targets = labels.narrow(0, i, 128).to(outputs.device());
    auto loss = torch::nn::functional::cross_entropy(outputs, targets);
    loss.backward();
    optimizer.step();
  }
  return 0;
}
