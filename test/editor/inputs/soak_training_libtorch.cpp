// A libtorch training loop for placelint-clangd's soak test (test_soak.py),
// which edits it hundreds of times at the line marked `soak: edits here`:
// a bug added there and removed, half a statement typed and undone. Its one
// finding as written is marked.
#include <torch/torch.h>

#include <iostream>

struct NetImpl : torch::nn::Module {
  NetImpl()
      : fc1(register_module("fc1", torch::nn::Linear(784, 128))),
        fc2(register_module("fc2", torch::nn::Linear(128, 10))) {}

  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x.flatten(1)))); }

  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Net);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  torch::Tensor class_weights = torch::ones({10}).to(device); // expect: placement-create-then-move
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      torch::data::datasets::MNIST("./data/mnist")
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>()),
      64);

  for (int epoch = 0; epoch < 10; ++epoch) {
    int64_t step = 0;
    for (auto &batch : *loader) {
      torch::Tensor images = batch.data.to(device);
      torch::Tensor labels = batch.target.to(device);
      // soak: edits here
      optimizer.zero_grad();
      torch::Tensor loss = torch::nll_loss(torch::log_softmax(model(images), 1), labels, class_weights);
      loss.backward();
      optimizer.step();
      if (++step % 100 == 0) {
        std::cout << "epoch " << epoch << " step " << step << " loss " << loss.item<float>() << "\n";
      }
    }
  }
  return 0;
}
