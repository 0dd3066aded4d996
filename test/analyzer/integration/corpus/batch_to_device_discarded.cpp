// placement-discarded-transfer in a training loop (issue 8: the corpus' third rule).
// BUG. The images of each batch are "moved" with `images.to(device);`, whose
// result is thrown away: `images` stays on the cpu and meets the model on
// `device`. Look-alike of batch_to_device_assigned.cpp.
#include <torch/torch.h>

#include <iostream>

struct LeNetImpl : torch::nn::Module {
  LeNetImpl()
      : conv1(register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 6, 5).padding(2)))),
        conv2(register_module("conv2", torch::nn::Conv2d(6, 16, 5))),
        fc1(register_module("fc1", torch::nn::Linear(16 * 5 * 5, 120))),
        fc2(register_module("fc2", torch::nn::Linear(120, 84))),
        fc3(register_module("fc3", torch::nn::Linear(84, 10))) {}

  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(conv1(x)), 2);
    x = torch::max_pool2d(torch::relu(conv2(x)), 2);
    x = torch::relu(fc1(x.flatten(1)));
    return fc3(torch::relu(fc2(x)));
  }

  torch::nn::Conv2d conv1, conv2;
  torch::nn::Linear fc1, fc2, fc3;
};
TORCH_MODULE(LeNet);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  LeNet model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  torch::nn::CrossEntropyLoss criterion;
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      torch::data::datasets::MNIST("./data/mnist")
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>()),
      64);

  for (int epoch = 0; epoch < 10; ++epoch) {
    int64_t step = 0;
    for (auto &batch : *loader) {
      torch::Tensor images = batch.data;
      torch::Tensor labels = batch.target.to(device);
      images.to(device); // expect: placement-discarded-transfer
      optimizer.zero_grad();
      auto loss = criterion(model(images), labels); // expect: placement-mixed-device
      loss.backward();
      optimizer.step();
      if (++step % 100 == 0) {
        std::cout << "epoch " << epoch << " step " << step << " loss " << loss.item<float>() << "\n";
      }
    }
  }
  return 0;
}
