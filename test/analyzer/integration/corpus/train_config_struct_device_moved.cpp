// issue 19 class 3 (device spellings), correct look-alike.
// CORRECT. As train_config_struct_device.cpp, but the labels are moved to
// `opts.device` too.
#include <torch/torch.h>

#include <cstring>
#include <iostream>
#include <string>

struct TrainOptions {
  torch::Device device = torch::kCPU;
  int64_t batch_size = 128;
  int epochs = 10;
  double lr = 0.05;
  std::string data_root = "./cifar-bin";
};

TrainOptions parse(int argc, char **argv) {
  TrainOptions opts;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--epochs") == 0)
      opts.epochs = std::stoi(argv[i + 1]);
    else if (std::strcmp(argv[i], "--lr") == 0)
      opts.lr = std::stod(argv[i + 1]);
  }
  if (torch::cuda::is_available())
    opts.device = torch::kCUDA;
  return opts;
}

int main(int argc, char **argv) {
  const TrainOptions opts = parse(argc, argv);
  torch::nn::Sequential model(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 32, 3).padding(1)), torch::nn::ReLU(), torch::nn::MaxPool2d(2),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).padding(1)), torch::nn::ReLU(), torch::nn::MaxPool2d(2),
      torch::nn::Flatten(), torch::nn::Linear(64 * 7 * 7, 10));
  model->to(opts.device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(opts.lr).momentum(0.9));
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST(opts.data_root).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(opts.batch_size).workers(4));
  for (int epoch = 0; epoch < opts.epochs; ++epoch) {
    for (auto &batch : *loader) {
      auto images = batch.data.to(opts.device);
      auto labels = batch.target.to(opts.device);
      optimizer.zero_grad();
      auto loss = torch::nn::functional::cross_entropy(model->forward(images), labels);
      loss.backward();
      optimizer.step();
    }
    std::cout << "epoch " << epoch << " done\n";
  }
  return 0;
}
