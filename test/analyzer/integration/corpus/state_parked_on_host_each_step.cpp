// issue 8 class 14: state carried across iterations that goes down and up again.
// BUG. An online policy keeps its recurrent state between environment steps,
// "parked" on the host to save device memory: each step moves it up to
// `device`, runs the cell and moves the new state back down. A copy up and a
// sync down on every step when `device` is CUDA; the state never needs to
// leave the device. Look-alike of state_kept_on_device.cpp.
#include <torch/torch.h>

#include <iostream>

struct PolicyImpl : torch::nn::Module {
  PolicyImpl(int64_t observation, int64_t hidden, int64_t actions)
      : cell(register_module("cell", torch::nn::LSTMCell(observation, hidden))),
        actor(register_module("actor", torch::nn::Linear(hidden, actions))) {}
  torch::nn::LSTMCell cell;
  torch::nn::Linear actor;
};
TORCH_MODULE(Policy);

torch::Tensor observe(int64_t step) { return torch::sin(torch::arange(24, torch::kFloat) + step).unsqueeze(0); }

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Policy policy(24, 128, 4);
  torch::load(policy, "policy.pt");
  policy->to(device);
  policy->eval();
  torch::NoGradGuard no_grad;

  torch::Tensor h = torch::zeros({1, 128});
  torch::Tensor c = torch::zeros({1, 128});
  for (int64_t step = 0; step < 100000; ++step) {
    auto observation = observe(step).to(device);
    auto state = policy->cell(observation, std::make_tuple(h.to(device), c.to(device))); // expect: placement-transfer-in-loop
    auto action = policy->actor(std::get<0>(state)).argmax(1);
    h = std::get<0>(state).cpu(); // expect: placement-transfer-in-loop
    c = std::get<1>(state).cpu(); // expect: placement-transfer-in-loop
    if (step % 1000 == 0) {
      std::cout << "step " << step << " action " << action.item<int64_t>() << "\n";
    }
  }
  return 0;
}
