// Rule: placement-unsynchronized-read (accessor() of a non_blocking download, the
// only synchronisation inside a timer helper called after the read).
// Modelled on: C++ vector-search / retrieval services (top-k over an embedding
// table on the GPU, ids downloaded asynchronously to overlap with logging), and
// pytorch/pytorch#86264 ('to("cpu", non_blocking=True) work weird': the host
// reads before the copy lands unless it synchronizes).
// Why it is a bug: `ids` comes from `topk(...).to(kCPU, non_blocking=true)`; the
// results are printed through accessor() before LatencyTimer::stop(), whose
// torch::cuda::synchronize() is the first wait for the copy.
// Twin: unsync_topk_ids_read_before_timer_sync_fixed.cpp (the timer is stopped before the read).
#include <torch/torch.h>

#include <chrono>
#include <iostream>
#include <string>
#include <vector>

class LatencyTimer {
 public:
  explicit LatencyTimer(bool cuda) : cuda_(cuda) {}
  void start() { t0_ = std::chrono::steady_clock::now(); }
  // Waits for the device so that the time covers the queued work.
  double stop_ms() {
    if (cuda_) torch::cuda::synchronize();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  bool cuda_;
  std::chrono::steady_clock::time_point t0_;
};

struct Index {
  torch::Tensor embeddings; // [N, D], unit rows, on the device
  std::vector<std::string> names;
};

Index build_index(int64_t n, int64_t dim, torch::Device device) {
  Index index;
  index.embeddings = torch::nn::functional::normalize(torch::randn({n, dim}, torch::TensorOptions().device(device)),
                                                      torch::nn::functional::NormalizeFuncOptions().dim(1));
  for (int64_t i = 0; i < n; ++i) index.names.push_back("doc-" + std::to_string(i));
  return index;
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  const int64_t k = 5;
  Index index = build_index(10000, 128, device);
  auto queries = torch::nn::functional::normalize(torch::randn({4, 128}, torch::TensorOptions().device(device)),
                                                  torch::nn::functional::NormalizeFuncOptions().dim(1));

  LatencyTimer timer(device.is_cuda());
  timer.start();
  auto top = torch::topk(torch::matmul(queries, index.embeddings.t()), k, /*dim=*/1);
  auto ids = std::get<1>(top).to(torch::kCPU, /*non_blocking=*/true);

  auto acc = ids.accessor<int64_t, 2>(); // expect: placement-unsynchronized-read
  for (int64_t q = 0; q < acc.size(0); ++q) {
    std::cout << "query " << q << ":";
    for (int64_t j = 0; j < k; ++j) std::cout << " " << index.names[static_cast<size_t>(acc[q][j])];
    std::cout << "\n";
  }
  std::cout << "search took " << timer.stop_ms() << " ms\n";
  return 0;
}
