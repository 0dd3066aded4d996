// pageable-non-blocking: KV-cache blocks swapped out and back in with
// non_blocking. CORRECT. As upload_swapped_blocks_pageable.cpp, but the swap-out
// is `to(torch::kCPU, /*non_blocking=*/true)`, which libtorch allocates in
// pinned memory; the swap-in then runs asynchronously, and it is queued on
// the same stream after the swap-out, so it reads the landed bytes (vLLM's
// pinned swap space; PyTorch's CUDA semantics notes on non_blocking copies).
#include <torch/torch.h>

#include <map>

int main() {
  if (!torch::cuda::is_available())
    return 0;
  torch::Device device(torch::kCUDA);
  const int64_t blocks = 256, block_size = 16, heads = 8, head_dim = 64;
  auto kv_cache = torch::zeros({blocks, 2, block_size, heads, head_dim},
                               torch::TensorOptions().dtype(torch::kHalf).device(device));
  std::map<int64_t, torch::Tensor> swapped; // sequence id -> its blocks on the host
  for (int64_t tick = 0; tick < 1000; ++tick) {
    const int64_t sequence = tick % 8;
    auto block_ids = torch::arange(sequence * 32, sequence * 32 + 32,
                                   torch::TensorOptions().dtype(torch::kLong).device(device));
    if (tick % 3 == 0) {
      // Preempted: its blocks go to the swap space.
      auto host_blocks = kv_cache.index_select(0, block_ids).to(torch::kCPU, /*non_blocking=*/true);
      swapped[sequence] = host_blocks;
    } else if (swapped.count(sequence)) {
      // Resumed: its blocks come back.
      auto host_blocks = swapped[sequence];
      swapped.erase(sequence);
      kv_cache.index_copy_(0, block_ids, host_blocks.to(device, /*non_blocking=*/true));
    }
  }
  return 0;
}
