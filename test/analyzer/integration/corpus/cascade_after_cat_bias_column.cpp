// issue 8 class 3: no cascade after a reported mismatch.
// BUG, once. A bias column made with torch::ones (on the cpu) is appended to
// the device features with torch::cat: cat mixes devices and throws. Nothing
// after it is a second bug: `joint`, the logits and the loss would all be on
// the device of the features, together with the labels.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential encoder(torch::nn::Flatten(), torch::nn::Linear(784, 64), torch::nn::ReLU());
  torch::nn::Linear head(65, 10);
  encoder->to(device);
  head->to(device);
  std::vector<torch::Tensor> params = encoder->parameters();
  for (auto &p : head->parameters()) {
    params.push_back(p);
  }
  torch::optim::SGD optimizer(params, 0.05);
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data/mnist").map(torch::data::transforms::Stack<>()), 100);

  int64_t step = 0;
  for (auto &batch : *loader) {
    auto images = batch.data.to(device);
    auto labels = batch.target.to(device);
    auto features = encoder->forward(images);
    auto bias_column = torch::ones({features.size(0), 1});
    auto joint = torch::cat({features, bias_column}, 1); // expect: placement-mixed-device
    auto logits = head(joint);
    auto loss = torch::cross_entropy_loss(logits, labels);
    auto accuracy = logits.argmax(1).eq(labels).to(torch::kFloat).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    if (++step % 100 == 0) {
      std::cout << "step " << step << " accuracy " << accuracy.item<float>() << "\n";
    }
  }
  return 0;
}
