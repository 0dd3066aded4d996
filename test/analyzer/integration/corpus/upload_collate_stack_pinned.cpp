// pageable-non-blocking: a hand-written collate stacks the samples and
// uploads them with non_blocking. CORRECT. As upload_collate_stack_pageable.cpp,
// but the stacked batch is pinned (pin_memory()) before the non_blocking
// copies, as DataLoader(pin_memory=True) does for Python users: the copies run
// asynchronously (constantinpape/torch-em#357 turns pin_memory on with
// non_blocking; pytorch/tutorials#2983).
#include <torch/torch.h>

#include <vector>

struct Sample {
  std::vector<float> pixels; // 3 x 32 x 32, decoded by the reader
  int64_t label;
};

std::vector<Sample> read_shard(int shard) {
  std::vector<Sample> samples(1024);
  for (size_t i = 0; i < samples.size(); ++i) {
    samples[i].pixels.assign(3 * 32 * 32, static_cast<float>((i + shard) % 255) / 255.0f);
    samples[i].label = static_cast<int64_t>(i % 10);
  }
  return samples;
}

int main() {
  if (!torch::cuda::is_available())
    return 0;
  torch::Device device(torch::kCUDA);
  torch::nn::Sequential model(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).padding(1)), torch::nn::ReLU(),
                              torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(), torch::nn::Linear(32, 10));
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  const size_t batch_size = 128;
  for (int shard = 0; shard < 50; ++shard) {
    std::vector<Sample> samples = read_shard(shard);
    for (size_t start = 0; start + batch_size <= samples.size(); start += batch_size) {
      std::vector<torch::Tensor> images;
      std::vector<torch::Tensor> labels;
      for (size_t i = start; i < start + batch_size; ++i) {
        images.push_back(torch::tensor(samples[i].pixels).view({3, 32, 32}));
        labels.push_back(torch::tensor(samples[i].label));
      }
      auto image_batch = torch::stack(images).pin_memory();
      auto label_batch = torch::stack(labels).pin_memory();
      auto x = image_batch.to(device, /*non_blocking=*/true);
      auto y = label_batch.to(device, /*non_blocking=*/true);
      auto loss = torch::cross_entropy_loss(model->forward(x), y);
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
    }
  }
  return 0;
}
