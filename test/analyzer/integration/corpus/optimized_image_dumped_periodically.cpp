// issue 8 class 16: a tensor changed in place by an optimizer, dumped periodically.
// CORRECT. Neural style transfer: the image itself is the parameter, on
// `device`, and Adam changes it in place on every step. Every 50 steps a copy
// is taken to the host for saving, under `if (step % 50 == 0)`: not every
// iteration, and the source is not invariant (optimizer.step() changes it).
#include <torch/torch.h>

#include <string>
#include <vector>

torch::Tensor gram(const torch::Tensor &features) {
  auto f = features.flatten(2);
  return f.bmm(f.transpose(1, 2)) / f.size(2);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential extractor(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 3).padding(1)), torch::nn::ReLU(),
                                  torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 64, 3).padding(1)), torch::nn::ReLU());
  torch::load(extractor, "features.pt");
  extractor->to(device);
  extractor->eval();

  auto content = torch::rand({1, 3, 256, 256}, torch::device(device));
  auto style = torch::rand({1, 3, 256, 256}, torch::device(device));
  torch::Tensor content_features, style_gram;
  {
    torch::NoGradGuard no_grad;
    content_features = extractor->forward(content);
    style_gram = gram(extractor->forward(style));
  }
  torch::Tensor image = content.clone().set_requires_grad(true);
  torch::optim::Adam optimizer({image}, torch::optim::AdamOptions(0.02));

  std::vector<torch::Tensor> snapshots;
  for (int step = 0; step < 1000; ++step) {
    auto features = extractor->forward(image);
    auto loss = torch::mse_loss(features, content_features) + 1e4 * torch::mse_loss(gram(features), style_gram);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    if (step % 50 == 0) {
      snapshots.push_back(image.detach().clamp(0, 1).to(torch::kCPU));
    }
  }
  for (size_t i = 0; i < snapshots.size(); ++i) {
    torch::save(snapshots[i], "snapshot_" + std::to_string(i) + ".pt");
  }
  return 0;
}
