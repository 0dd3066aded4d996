// issue 8 class 14: state carried across iterations that goes down and up again.
// CORRECT. An online policy keeps its recurrent state between environment
// steps on `device`, where the cell runs; only the new observation is moved
// up each step (new data), and the action is read every 1000 steps.
// Look-alike of state_parked_on_host_each_step.cpp.
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

  torch::Tensor h = torch::zeros({1, 128}, torch::device(device));
  torch::Tensor c = torch::zeros({1, 128}, torch::device(device));
  for (int64_t step = 0; step < 100000; ++step) {
    auto observation = observe(step).to(device);
    auto state = policy->cell(observation, std::make_tuple(h, c));
    auto action = policy->actor(std::get<0>(state)).argmax(1);
    h = std::get<0>(state);
    c = std::get<1>(state);
    if (step % 1000 == 0) {
      std::cout << "step " << step << " action " << action.item<int64_t>() << "\n";
    }
  }
  return 0;
}
