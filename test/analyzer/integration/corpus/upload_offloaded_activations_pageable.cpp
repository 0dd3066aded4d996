// pageable-non-blocking: a two-stage model offloads the first stage's
// activations to host memory during the forward pass and reloads them for
// the backward pass, both copies with non_blocking. BUG. The host buffer is
// made with torch::empty and no pinned memory; copy_ writes into that
// buffer's own (pageable) memory, so the reload's non_blocking copy is staged
// synchronously and overlaps nothing (the pinned CPU buffers of activation
// offloading: NVIDIA/TransformerEngine#1762's offloaded_tensor.copy_(tensor,
// non_blocking=True) into a pin_memory=True buffer; pytorch/pytorch#175421,
// save_on_cpu's pinned pack; pytorch/torchtitan#467).
// Look-alike: upload_offloaded_activations_pinned.cpp.
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
  auto offloaded = torch::empty({batch, width});
  for (int step = 0; step < 200; ++step) {
    auto x = torch::randn({batch, width}, device);
    auto labels = torch::randint(0, 10, {batch}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto hidden = torch::relu(stage1->forward(x));
    offloaded.copy_(hidden.detach(), /*non_blocking=*/true);
    auto logits = stage2->forward(hidden);
    auto loss = torch::cross_entropy_loss(logits, labels);
    torch::cuda::synchronize(); // the offload has landed
    auto reloaded = offloaded.to(device, /*non_blocking=*/true); // expect: placement-pageable-non-blocking
    auto drift = (reloaded - hidden.detach()).abs().max();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    if (step % 50 == 0)
      std::cout << "step " << step << ": loss " << loss.item<float>() << ", drift " << drift.item<float>() << "\n";
  }
  return 0;
}
