// issue 8 class 9: replicas' gradients on two GPUs combined in one op.
// BUG. Hand-written data parallelism: one replica of the model per GPU, each
// fed half of the batch. The gradients are averaged with
// `grads0[i] + grads1[i]`, which adds a tensor on cuda:0 to one on cuda:1.
// Look-alike of replica_gradients_gathered.cpp.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct PolicyImpl : torch::nn::Module {
  PolicyImpl()
      : fc1(register_module("fc1", torch::nn::Linear(64, 256))),
        fc2(register_module("fc2", torch::nn::Linear(256, 8))) {}
  torch::Tensor forward(const torch::Tensor &x) { return fc2(torch::tanh(fc1(x))); }
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Policy);

int main() {
  if (!torch::cuda::is_available() || torch::cuda::device_count() < 2) {
    std::cerr << "needs two GPUs\n";
    return 1;
  }
  const torch::Device gpu0(torch::kCUDA, 0);
  const torch::Device gpu1(torch::kCUDA, 1);
  Policy replica0, replica1;
  replica0->to(gpu0);
  replica1->to(gpu1);
  torch::optim::SGD optimizer(replica0->parameters(), 0.01);

  for (int64_t step = 0; step < 10000; ++step) {
    auto states = torch::randn({512, 64});
    auto returns = torch::randn({512, 8});
    auto loss0 = torch::mse_loss(replica0(states.slice(0, 0, 256).to(gpu0)), returns.slice(0, 0, 256).to(gpu0));
    auto loss1 = torch::mse_loss(replica1(states.slice(0, 256).to(gpu1)), returns.slice(0, 256).to(gpu1));
    replica0->zero_grad();
    replica1->zero_grad();
    loss0.backward();
    loss1.backward();

    torch::NoGradGuard no_grad;
    auto params0 = replica0->parameters();
    auto params1 = replica1->parameters();
    for (size_t i = 0; i < params0.size(); ++i) {
      auto grads0 = params0[i].grad();
      auto grads1 = params1[i].grad();
      params0[i].mutable_grad() = (grads0 + grads1) / 2; // expect: placement-mixed-device
    }
    optimizer.step();
    for (size_t i = 0; i < params0.size(); ++i) {
      params1[i].copy_(params0[i]);
    }
  }
  return 0;
}
