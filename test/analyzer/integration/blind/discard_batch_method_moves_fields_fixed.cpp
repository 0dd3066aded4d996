// Class: placement-discarded-transfer, correct look-alike.
// Modelled on: the recurring libtorch question "tensor.to(device) does not
// move my tensor" (PyTorch forum; pytorch/pytorch issues where users expect
// Tensor::to to work in place like Module::to), here inside a batch type's
// own helper method.
// Why it is not a bug: Batch::to_device assigns the moved tensors back to
// its fields, so the model on the GPU gets GPU images and labels.
// Twin: discard_batch_method_moves_fields.cpp
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct Batch {
  torch::Tensor images;
  torch::Tensor labels;

  void to_device(torch::Device d) {
    images = images.to(d);
    labels = labels.to(d);
  }
};

struct ConvNetImpl : torch::nn::Module {
  ConvNetImpl() {
    features = register_module("features", torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 8, 3).padding(1)),
        torch::nn::ReLU(), torch::nn::AdaptiveAvgPool2d(1)));
    head = register_module("head", torch::nn::Linear(8, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    return head->forward(features->forward(x).flatten(1));
  }
  torch::nn::Sequential features{nullptr};
  torch::nn::Linear head{nullptr};
};
TORCH_MODULE(ConvNet);

std::vector<Batch> make_batches(int count, int64_t batch_size) {
  std::vector<Batch> batches;
  for (int i = 0; i < count; ++i) {
    batches.push_back({torch::rand({batch_size, 1, 28, 28}),
                       torch::randint(0, 10, {batch_size}, torch::kLong)});
  }
  return batches;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  ConvNet net;
  net->to(device);
  torch::optim::Adam optimizer(net->parameters(), torch::optim::AdamOptions(1e-3));

  auto batches = make_batches(8, 32);
  int64_t step = 0;
  for (auto& batch : batches) {
    batch.to_device(device);
    optimizer.zero_grad();
    auto logits = net->forward(batch.images);
    auto loss = torch::nn::functional::cross_entropy(logits, batch.labels);
    loss.backward();
    optimizer.step();
    if (++step % 4 == 0) {
      std::cout << "step " << step << " loss " << loss.item<float>() << '\n';
    }
  }
}
