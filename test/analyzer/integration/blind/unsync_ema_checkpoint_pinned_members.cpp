// Class: placement-unsynchronized-read, with the bug.
// Modelled on: EMA checkpointing in C++ trainers that copy the shadow
// weights into pinned host buffers with copy_(src, non_blocking=true) so
// that the save does not stall training (cf. pytorch/pytorch#86264, and the
// "async checkpoint saves zeros" reports on the PyTorch forum).
// Why it is a bug: snapshot() only queues the device-to-host copies into the
// pinned members; write() then hands those buffers to torch::save with no
// synchronisation, so the file may hold stale or partial weights.
// Twin: unsync_ema_checkpoint_pinned_members_fixed.cpp
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <vector>

class EmaCheckpointer {
 public:
  EmaCheckpointer(const std::vector<torch::Tensor>& params, double decay) : decay_(decay) {
    torch::NoGradGuard no_grad;
    for (const auto& p : params) {
      shadow_.push_back(p.detach().clone());
      host_.push_back(torch::empty(p.sizes(), p.options().device(torch::kCPU).pinned_memory(true)));
    }
  }

  void update(const std::vector<torch::Tensor>& params) {
    torch::NoGradGuard no_grad;
    for (size_t i = 0; i < params.size(); ++i) {
      shadow_[i].mul_(decay_).add_(params[i].detach(), 1.0 - decay_);
    }
  }

  void snapshot() {
    for (size_t i = 0; i < shadow_.size(); ++i) host_[i].copy_(shadow_[i], /*non_blocking=*/true);
  }

  void write(const std::string& path) const {
    torch::save(host_, path); // expect: placement-unsynchronized-read
  }

 private:
  double decay_;
  std::vector<torch::Tensor> shadow_;
  std::vector<torch::Tensor> host_;
};

int main(int argc, char** argv) {
  if (!torch::cuda::is_available()) {
    std::cerr << "this trainer needs a GPU\n";
    return 1;
  }
  const std::string out_dir = argc > 1 ? argv[1] : ".";
  const torch::Device device(torch::kCUDA);

  torch::nn::Sequential net(torch::nn::Linear(64, 128), torch::nn::SiLU(), torch::nn::Linear(128, 64));
  net->to(device);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3));
  EmaCheckpointer ema(net->parameters(), 0.999);

  for (int step = 1; step <= 2000; ++step) {
    auto x = torch::randn({256, 64}, torch::device(device));
    opt.zero_grad();
    auto loss = torch::mse_loss(net->forward(x), x);
    loss.backward();
    opt.step();
    ema.update(net->parameters());
    if (step % 500 == 0) {
      ema.snapshot();
      ema.write(out_dir + "/ema_" + std::to_string(step) + ".pt");
      std::cout << "step " << step << " saved\n";
    }
  }
}
