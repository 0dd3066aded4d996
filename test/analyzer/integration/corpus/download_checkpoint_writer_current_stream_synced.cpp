// unsynchronized-read: a checkpoint writer that downloads on its own side
// stream and then synchronises the current stream. BUG. The writer keeps a
// stream from the pool so that copying the weights to the host overlaps
// training; write() queues the copy under a CUDAStreamGuard, leaves the
// guard's scope and then waits on getCurrentCUDAStream(), which outside the
// scope is the default stream again, not the stream the copy ran on; the
// torch::save that reads the host copy can see a half-copied tensor (issue
// 23: "a side stream's synchronize() after the copy on that stream"
// completes it, another stream's does not; PyTorch's "CUDA semantics" page,
// stream section: with non-default streams, synchronisation is the user's
// responsibility).
// Look-alike: download_checkpoint_writer_side_stream_synced.cpp.
#include "cuda_stream_api.h"

#include <string>

struct CheckpointWriter {
  at::cuda::CUDAStream copy_stream = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent weights_ready;

  void write(const torch::Tensor &weights, const std::string &path) {
    weights_ready.record(at::cuda::getCurrentCUDAStream());
    weights_ready.block(copy_stream);
    torch::Tensor host_weights;
    {
      at::cuda::CUDAStreamGuard on_copy_stream(copy_stream);
      host_weights = weights.detach().to(torch::kCPU, /*non_blocking=*/true);
    }
    at::cuda::getCurrentCUDAStream().synchronize();
    torch::save(host_weights, path); // expect: placement-unsynchronized-read
  }
};

int main() {
  if (!torch::cuda::is_available())
    return 0;
  torch::Device device(torch::kCUDA);
  torch::nn::Linear encoder(512, 512);
  encoder->to(device);
  torch::optim::Adam optimizer(encoder->parameters(), torch::optim::AdamOptions(3e-4));
  CheckpointWriter writer;
  for (int64_t step = 1; step <= 20000; ++step) {
    auto inputs = torch::randn({32, 512}, torch::device(device));
    auto loss = (encoder(inputs) - inputs).pow(2).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    if (step % 5000 == 0)
      writer.write(encoder->weight, "encoder_" + std::to_string(step) + ".pt");
  }
  return 0;
}
