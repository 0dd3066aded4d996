// issue 19 class 3 (device spellings): the target device behind a smart pointer, `to(*m_device)`.
// BUG (mixed-device). A value probe for an actor-critic policy keeps its
// device as `std::unique_ptr<torch::Device>` (chosen after the probe is made)
// and moves the policy with `m_policy->to(*m_device)`. The batch of recorded
// observations it builds with `torch::tensor(std::vector<float>)` stays on the
// cpu and is fed to the policy on `*m_device`: it fails on every machine with
// a GPU. Look-alike: value_probe_device_unique_ptr_moved.cpp.
#include <torch/torch.h>

#include <iostream>
#include <memory>
#include <vector>

struct PolicyImpl : torch::nn::Module {
  PolicyImpl(int64_t obs, int64_t actions)
      : body(register_module("body", torch::nn::Sequential(torch::nn::Linear(obs, 64), torch::nn::Tanh(),
                                                           torch::nn::Linear(64, 64), torch::nn::Tanh()))),
        pi(register_module("pi", torch::nn::Linear(64, actions))),
        v(register_module("v", torch::nn::Linear(64, 1))) {}
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor &obs) {
    auto h = body->forward(obs);
    return {pi(h), v(h)};
  }
  torch::nn::Sequential body;
  torch::nn::Linear pi, v;
};
TORCH_MODULE(Policy);

class ValueProbe {
 public:
  explicit ValueProbe(Policy policy) : m_policy(std::move(policy)) {}
  void set_device(torch::Device device) { m_device = std::make_unique<torch::Device>(device); }

  // Mean value estimate over a set of recorded observations (obs_dim floats each).
  float mean_value(const std::vector<float> &recorded, int64_t obs_dim) {
    m_policy->to(*m_device);
    m_policy->eval();
    torch::NoGradGuard no_grad;
    auto states = torch::tensor(recorded).view({-1, obs_dim});
    auto values = m_policy->forward(states).second; // expect: placement-mixed-device
    return values.mean().item<float>();
  }

 private:
  Policy m_policy;
  std::unique_ptr<torch::Device> m_device;
};

int main() {
  ValueProbe probe(Policy(4, 2));
  probe.set_device(torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU));
  std::vector<float> recorded = {0.01f, 0.0f, -0.02f, 0.0f, 0.02f, 0.1f, -0.03f, -0.1f};
  std::cout << "mean value " << probe.mean_value(recorded, 4) << "\n";
  return 0;
}
