// unsynchronized-read: a download on a side stream, and that stream's
// synchronize(). CORRECT. As download_side_stream_wrong_stream_synced.cpp,
// but the trainer waits for the side stream the copy ran on before torch::save
// reads the snapshot (issue 23: "a side stream's synchronize() after the copy
// on that stream" completes it).
#include "cuda_stream_api.h"

#include <string>

int main() {
  if (!torch::cuda::is_available())
    return 0;
  torch::Device device(torch::kCUDA);
  torch::nn::Linear model(1024, 1024);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-4));
  auto ema = model->weight.detach().clone();
  at::cuda::CUDAStream snapshot_stream = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent weights_ready;
  for (int64_t step = 1; step <= 100000; ++step) {
    auto inputs = torch::randn({64, 1024}, torch::device(device));
    auto loss = model(inputs).pow(2).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    {
      torch::NoGradGuard no_grad;
      ema.mul_(0.999).add_(model->weight, 0.001);
    }
    if (step % 1000 == 0) {
      weights_ready.record(at::cuda::getCurrentCUDAStream());
      weights_ready.block(snapshot_stream);
      torch::Tensor snapshot;
      {
        at::cuda::CUDAStreamGuard on_snapshot_stream(snapshot_stream);
        snapshot = ema.to(torch::kCPU, /*non_blocking=*/true);
      }
      snapshot_stream.synchronize();
      torch::save(snapshot, "ema_" + std::to_string(step) + ".pt");
    }
  }
  return 0;
}
