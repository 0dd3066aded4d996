// issue 19 class 11 (non-leaf parameters handed over in other ways): a member tensor registered later.
// BUG (non-leaf-parameter, at the move). Temperature scaling for a trained
// classifier: the wrapper creates its `temperature` member with
// requires_grad on the host, moves it to the device in the constructor, and
// registers it as a parameter a few lines later. The registered tensor is
// the moved copy, not a leaf; LBFGS optimises nothing.
// Look-alike: temperature_member_registered_on_device.cpp.
#include <torch/torch.h>

#include <iostream>

struct TemperatureScaledImpl : torch::nn::Module {
  TemperatureScaledImpl(torch::nn::Sequential classifier, torch::Device device)
      : model(register_module("model", std::move(classifier))) {
    temperature = torch::full({1}, 1.5, torch::requires_grad());
    temperature = temperature.to(device); // expect: placement-non-leaf-parameter
    model->to(device);
    model->eval();
    register_parameter("temperature", temperature);
  }
  torch::Tensor forward(const torch::Tensor &x) {
    torch::Tensor logits;
    {
      torch::NoGradGuard no_grad;
      logits = model->forward(x);
    }
    return logits / temperature;
  }
  torch::nn::Sequential model;
  torch::Tensor temperature;
};
TORCH_MODULE(TemperatureScaled);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential classifier(torch::nn::Linear(512, 256), torch::nn::ReLU(), torch::nn::Linear(256, 10));
  torch::load(classifier, "classifier.pt");
  TemperatureScaled scaled(classifier, device);
  torch::Tensor val_features, val_labels;
  torch::load(val_features, "val_features.pt");
  torch::load(val_labels, "val_labels.pt");
  auto x = val_features.to(device);
  auto y = val_labels.to(device);
  torch::optim::LBFGS optimizer(std::vector<torch::Tensor>{scaled->temperature},
                                torch::optim::LBFGSOptions(0.01).max_iter(50));
  optimizer.step([&] {
    optimizer.zero_grad();
    auto loss = torch::nn::functional::cross_entropy(scaled->forward(x), y);
    loss.backward();
    return loss;
  });
  std::cout << "temperature " << scaled->temperature.item<float>() << "\n";
  return 0;
}
