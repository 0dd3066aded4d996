// issue 8 class 3: no cascade after a reported mismatch.
// BUG, once. The images of each batch are not moved (only the labels are):
// `model(images)` mixes the model on `device` with a cpu batch. At run time
// that call throws, so nothing downstream of it is a second bug: the loss,
// the accuracy count and the backward pass work on `logits`, which would be
// on the model's device, together with `labels` on the same device.
#include <torch/torch.h>

#include <iostream>

struct NetImpl : torch::nn::Module {
  NetImpl()
      : conv1(register_module("conv1", torch::nn::Conv2d(1, 10, 5))),
        conv2(register_module("conv2", torch::nn::Conv2d(10, 20, 5))),
        fc1(register_module("fc1", torch::nn::Linear(320, 50))),
        fc2(register_module("fc2", torch::nn::Linear(50, 10))) {}

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(torch::max_pool2d(conv1(x), 2));
    x = torch::relu(torch::max_pool2d(conv2(x), 2));
    x = torch::relu(fc1(x.view({-1, 320})));
    return torch::log_softmax(fc2(x), /*dim=*/1);
  }

  torch::nn::Conv2d conv1, conv2;
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Net);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.5));
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data/mnist")
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>()),
      64);

  for (int epoch = 1; epoch <= 10; ++epoch) {
    torch::Tensor correct = torch::zeros({}, torch::dtype(torch::kLong).device(device));
    for (auto &batch : *loader) {
      auto images = batch.data;
      auto labels = batch.target.to(device);
      optimizer.zero_grad();
      auto logits = model(images); // expect: placement-mixed-device
      auto loss = torch::nll_loss(logits, labels);
      correct += logits.argmax(1).eq(labels).sum();
      loss.backward();
      optimizer.step();
    }
    std::cout << "epoch " << epoch << " correct " << correct.item<int64_t>() << "\n";
  }
  return 0;
}
