// issue 19 class 4 (assignment forms), correct look-alike.
// CORRECT. As gan_labels_assigned_in_loop.cpp, but the fake labels are filled
// on the device: the assignment passes the device to `full`.
#include <torch/torch.h>

#include <iostream>

struct DCGANGeneratorImpl : torch::nn::Module {
  explicit DCGANGeneratorImpl(int64_t nz)
      : conv1(torch::nn::ConvTranspose2dOptions(nz, 256, 4).bias(false)), batch_norm1(256),
        conv2(torch::nn::ConvTranspose2dOptions(256, 128, 3).stride(2).padding(1).bias(false)), batch_norm2(128),
        conv3(torch::nn::ConvTranspose2dOptions(128, 64, 4).stride(2).padding(1).bias(false)), batch_norm3(64),
        conv4(torch::nn::ConvTranspose2dOptions(64, 1, 4).stride(2).padding(1).bias(false)) {
    register_module("conv1", conv1);
    register_module("conv2", conv2);
    register_module("conv3", conv3);
    register_module("conv4", conv4);
    register_module("batch_norm1", batch_norm1);
    register_module("batch_norm2", batch_norm2);
    register_module("batch_norm3", batch_norm3);
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(batch_norm1(conv1(x)));
    x = torch::relu(batch_norm2(conv2(x)));
    x = torch::relu(batch_norm3(conv3(x)));
    return torch::tanh(conv4(x));
  }
  torch::nn::ConvTranspose2d conv1, conv2, conv3, conv4;
  torch::nn::BatchNorm2d batch_norm1, batch_norm2, batch_norm3;
};
TORCH_MODULE(DCGANGenerator);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t nz = 100;
  DCGANGenerator generator(nz);
  generator->to(device);
  torch::nn::Sequential discriminator(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 64, 4).stride(2).padding(1).bias(false)),
      torch::nn::LeakyReLU(torch::nn::LeakyReLUOptions().negative_slope(0.2)),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 128, 4).stride(2).padding(1).bias(false)),
      torch::nn::BatchNorm2d(128), torch::nn::LeakyReLU(torch::nn::LeakyReLUOptions().negative_slope(0.2)),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(128, 1, 7).bias(false)), torch::nn::Sigmoid());
  discriminator->to(device);
  torch::optim::Adam g_opt(generator->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  torch::optim::Adam d_opt(discriminator->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./mnist").map(torch::data::transforms::Normalize<>(0.5, 0.5))
          .map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(64).workers(2));

  torch::Tensor real_labels, fake_labels;
  for (int epoch = 0; epoch < 30; ++epoch) {
    for (auto &batch : *loader) {
      auto real_images = batch.data.to(device);
      const int64_t b = real_images.size(0);
      real_labels = torch::empty({b}, torch::device(device)).uniform_(0.8, 1.0);
      fake_labels = torch::full({b}, 0.0, torch::TensorOptions().device(device));
      discriminator->zero_grad();
      auto d_loss_real = torch::binary_cross_entropy(discriminator->forward(real_images).view({-1}), real_labels);
      auto noise = torch::randn({b, nz, 1, 1}, device);
      auto fake_images = generator->forward(noise);
      auto d_loss_fake = torch::binary_cross_entropy(discriminator->forward(fake_images.detach()).view({-1}), fake_labels);
      (d_loss_real + d_loss_fake).backward();
      d_opt.step();

      generator->zero_grad();
      real_labels.fill_(1.0);
      auto g_loss = torch::binary_cross_entropy(discriminator->forward(fake_images).view({-1}), real_labels);
      g_loss.backward();
      g_opt.step();
    }
  }
  torch::save(generator, "generator.pt");
  return 0;
}
