// Rule: placement-pageable-non-blocking (a batch a class method allocates in
// pageable memory, uploaded by the caller with non_blocking).
// Modelled on: hand-written C++ data feeders (a "BatchAssembler" that gathers
// samples into a contiguous batch, as C++ recommender and speech trainers do
// instead of torch::data), and pytorch/pytorch#42539 (non_blocking only affects
// copies from pinned memory; the PyTorch pinmem_nonblock tutorial): a
// non_blocking copy from unpinned memory silently blocks.
// Why it is a bug: BatchAssembler::next() allocates each batch with torch::empty
// (no pinned_memory: the `pin` flag it was given is never used) and fills it on
// the host; the training loop uploads it with
// `to(device, /*non_blocking=*/true)`, which is staged synchronously.
// Twin: pageable_batch_assembler_next_fixed.cpp (the batch is allocated pinned).
#include <torch/torch.h>

#include <iostream>
#include <random>
#include <vector>

class BatchAssembler {
 public:
  BatchAssembler(std::vector<torch::Tensor> samples, int64_t batch_size, bool pin)
      : samples_(std::move(samples)), batch_size_(batch_size), pin_(pin), rng_(42) {}

  torch::Tensor next() {
    const int64_t features = samples_.front().size(0);
    auto batch = torch::empty({batch_size_, features});
    std::uniform_int_distribution<size_t> pick(0, samples_.size() - 1);
    for (int64_t i = 0; i < batch_size_; ++i) batch[i].copy_(samples_[pick(rng_)]);
    return batch;
  }

 private:
  std::vector<torch::Tensor> samples_;
  int64_t batch_size_;
  bool pin_;
  std::mt19937 rng_;
};

std::vector<torch::Tensor> synthetic_samples(size_t n, int64_t features) {
  std::vector<torch::Tensor> out;
  for (size_t i = 0; i < n; ++i) out.push_back(torch::randn({features}));
  return out;
}

int main() {
  const bool use_cuda = torch::cuda::is_available();
  const torch::Device device = use_cuda ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  BatchAssembler assembler(synthetic_samples(5000, 256), 512, /*pin=*/use_cuda);

  torch::nn::Sequential model(torch::nn::Linear(256, 256), torch::nn::ReLU(), torch::nn::Linear(256, 256));
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  auto total = torch::zeros({}, torch::TensorOptions().device(device));
  for (int step = 0; step < 200; ++step) {
    auto x = assembler.next().to(device, /*non_blocking=*/true); // expect: placement-pageable-non-blocking
    opt.zero_grad();
    auto loss = torch::mse_loss(model->forward(x), x);
    loss.backward();
    opt.step();
    total += loss.detach();
  }
  std::cout << "mean reconstruction loss " << (total / 200).item<float>() << "\n";
  return 0;
}
