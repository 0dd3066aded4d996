// issue 19 class 3 (device spellings): a `torch::Device &` reference parameter.
// BUG (mixed-device). The MNIST example's test() with the device passed as a
// non-const reference: the data is moved to it, the targets are not, and
// `pred.eq(targets)` compares a tensor on `device` with one on the cpu
// (libtorch's error is raised there on a GPU machine).
// Look-alike: eval_device_reference_param_moved.cpp.
#include <torch/torch.h>

#include <cstdio>

struct NetImpl : torch::nn::Module {
  NetImpl()
      : conv1(register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 10, 5)))),
        conv2(register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(10, 20, 5)))),
        fc1(register_module("fc1", torch::nn::Linear(320, 50))),
        fc2(register_module("fc2", torch::nn::Linear(50, 10))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(torch::max_pool2d(conv1->forward(x), 2));
    x = torch::relu(torch::max_pool2d(conv2->forward(x), 2));
    x = torch::relu(fc1->forward(x.view({-1, 320})));
    return torch::log_softmax(fc2->forward(x), 1);
  }
  torch::nn::Conv2d conv1, conv2;
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Net);

template <typename DataLoader>
void test(Net &model, torch::Device &device, DataLoader &data_loader, size_t dataset_size) {
  torch::NoGradGuard no_grad;
  model->eval();
  auto test_loss = torch::zeros({}, torch::device(device));
  auto correct = torch::zeros({}, torch::TensorOptions().dtype(torch::kLong).device(device));
  for (const auto &batch : data_loader) {
    auto data = batch.data.to(device);
    auto targets = batch.target;
    auto output = model->forward(data);
    test_loss += torch::nll_loss(output, targets.to(device), {}, torch::Reduction::Sum);
    auto pred = output.argmax(1);
    correct += pred.eq(targets).sum(); // expect: placement-mixed-device
  }
  std::printf("Test set: Average loss: %.4f | Accuracy: %.3f\n", test_loss.item<double>() / dataset_size,
              static_cast<double>(correct.item<int64_t>()) / dataset_size);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  torch::load(model, "mnist_cnn.pt");
  model->to(device);
  auto test_dataset = torch::data::datasets::MNIST("./data", torch::data::datasets::MNIST::Mode::kTest)
                          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                          .map(torch::data::transforms::Stack<>());
  const size_t test_size = test_dataset.size().value();
  auto test_loader = torch::data::make_data_loader(std::move(test_dataset), 1000);
  test(model, device, *test_loader, test_size);
  return 0;
}
