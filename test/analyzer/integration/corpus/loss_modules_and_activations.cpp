// issue 8 class 2: modules without parameters and loss modules.
// CORRECT. ReLU, Dropout and Flatten are held as plain members (not
// registered) and the loss modules are never moved: none of them has a
// parameter or buffer, so they have no device of their own and applying them
// to device tensors is fine. The Linear and Conv2d layers are registered and
// move with `model->to(device)`.
#include <torch/torch.h>

#include <iostream>

struct SmallCnnImpl : torch::nn::Module {
  SmallCnnImpl()
      : conv(register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 16, 5)))),
        fc(register_module("fc", torch::nn::Linear(16 * 24 * 24, 10))),
        dropout(torch::nn::DropoutOptions(0.25)) {}

  torch::Tensor forward(torch::Tensor x) {
    x = act(conv(x));
    x = flatten(x);
    return fc(dropout(x));
  }

  torch::nn::Conv2d conv;
  torch::nn::Linear fc;
  torch::nn::ReLU act;
  torch::nn::Flatten flatten;
  torch::nn::Dropout dropout;
};
TORCH_MODULE(SmallCnn);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  SmallCnn model;
  model->to(device);
  torch::nn::CrossEntropyLoss criterion;
  torch::nn::SmoothL1Loss box_loss;
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));

  auto dataset = torch::data::datasets::MNIST("./data/mnist")
                     .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                     .map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(dataset), 64);

  int64_t step = 0;
  for (auto &batch : *loader) {
    auto images = batch.data.to(device);
    auto labels = batch.target.to(device);
    optimizer.zero_grad();
    auto logits = model(images);
    auto loss = criterion(logits, labels);
    auto confidence = logits.softmax(1).amax(1);
    auto calibration = box_loss(confidence, torch::ones_like(confidence));
    (loss + 0.1 * calibration).backward();
    optimizer.step();
    if (++step % 100 == 0) {
      std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
    }
  }
  return 0;
}
