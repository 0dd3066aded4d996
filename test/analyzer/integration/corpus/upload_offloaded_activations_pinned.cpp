// pageable-non-blocking: a two-stage model offloads the first stage's
// activations to host memory during the forward pass and reloads them for
// the backward pass, both copies with non_blocking. CORRECT. As
// upload_offloaded_activations_pageable.cpp, but the host buffer is made with
// TensorOptions().pinned_memory(true): copy_ writes into its pinned memory,
// which stays pinned, so both copies run asynchronously
// (NVIDIA/TransformerEngine#1762's pinned offload buffers; pytorch/pytorch#175421).
#include <torch/torch.h>

#include <iostream>

int main() {
  if (!torch::cuda::is_available())
    return 0;
  torch::Device device(torch::kCUDA);
  const int64_t batch = 64, width = 1024;
  torch::nn::Linear stage1(width, width), stage2(width, 10);
  stage1->to(device);
  stage2->to(device);
  torch::optim::SGD optimizer({stage1->weight, stage1->bias, stage2->weight, stage2->bias},
                              torch::optim::SGDOptions(0.01));
  auto offloaded = torch::empty({batch, width}, torch::TensorOptions().pinned_memory(true));
  for (int step = 0; step < 200; ++step) {
    auto x = torch::randn({batch, width}, device);
    auto labels = torch::randint(0, 10, {batch}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto hidden = torch::relu(stage1->forward(x));
    offloaded.copy_(hidden.detach(), /*non_blocking=*/true);
    auto logits = stage2->forward(hidden);
    auto loss = torch::cross_entropy_loss(logits, labels);
    torch::cuda::synchronize(); // the offload has landed
    auto reloaded = offloaded.to(device, /*non_blocking=*/true);
    auto drift = (reloaded - hidden.detach()).abs().max();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    if (step % 50 == 0)
      std::cout << "step " << step << ": loss " << loss.item<float>() << ", drift " << drift.item<float>() << "\n";
  }
  return 0;
}
