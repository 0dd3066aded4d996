// issue 19 class 5 (structs and batch types): fields of a local struct moved one by one, one forgotten.
// BUG (mixed-device). A DQN update samples a `Transition` batch from a replay
// buffer on the host and moves its fields one by one; `done` is forgotten, so
// the TD target multiplies the device Q-values by a cpu mask.
// Look-alike: transition_fields_all_moved.cpp.
#include <torch/torch.h>

#include <deque>
#include <iostream>
#include <random>

struct Transition {
  torch::Tensor state, action, reward, next_state, done;
};

class ReplayBuffer {
 public:
  explicit ReplayBuffer(size_t capacity) : capacity_(capacity) {}
  void push(Transition t) {
    if (memory_.size() == capacity_)
      memory_.pop_front();
    memory_.push_back(std::move(t));
  }
  Transition sample(size_t n) {
    std::uniform_int_distribution<size_t> pick(0, memory_.size() - 1);
    std::vector<torch::Tensor> s, a, r, ns, d;
    for (size_t i = 0; i < n; ++i) {
      const Transition &t = memory_[pick(rng_)];
      s.push_back(t.state);
      a.push_back(t.action);
      r.push_back(t.reward);
      ns.push_back(t.next_state);
      d.push_back(t.done);
    }
    return {torch::stack(s), torch::stack(a), torch::stack(r), torch::stack(ns), torch::stack(d)};
  }
  size_t size() const { return memory_.size(); }

 private:
  size_t capacity_;
  std::deque<Transition> memory_;
  std::mt19937 rng_{42};
};

struct QNetImpl : torch::nn::Module {
  QNetImpl(int64_t obs, int64_t actions)
      : fc1(register_module("fc1", torch::nn::Linear(obs, 128))),
        fc2(register_module("fc2", torch::nn::Linear(128, actions))) {}
  torch::Tensor forward(const torch::Tensor &x) { return fc2(torch::relu(fc1(x))); }
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(QNet);

void optimize(QNet &online, QNet &target, ReplayBuffer &buffer, torch::optim::Optimizer &optimizer,
              torch::Device device, double gamma) {
  Transition batch = buffer.sample(128);
  batch.state = batch.state.to(device);
  batch.action = batch.action.to(device);
  batch.reward = batch.reward.to(device);
  batch.next_state = batch.next_state.to(device);
  auto q = online->forward(batch.state).gather(1, batch.action.view({-1, 1})).squeeze(1);
  torch::Tensor expected;
  {
    torch::NoGradGuard no_grad;
    auto next_q = std::get<0>(target->forward(batch.next_state).max(1));
    expected = batch.reward + gamma * next_q * (1 - batch.done); // expect: placement-mixed-device
  }
  auto loss = torch::smooth_l1_loss(q, expected);
  optimizer.zero_grad();
  loss.backward();
  optimizer.step();
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  QNet online(4, 2), target(4, 2);
  online->to(device);
  target->to(device);
  torch::optim::Adam optimizer(online->parameters(), 1e-3);
  ReplayBuffer buffer(10000);
  for (int i = 0; i < 1000; ++i)
    buffer.push({torch::rand({4}), torch::tensor(int64_t{i % 2}), torch::tensor(1.0f), torch::rand({4}),
                 torch::tensor(i % 200 == 199 ? 1.0f : 0.0f)});
  for (int step = 0; step < 500; ++step)
    optimize(online, target, buffer, optimizer, device, 0.99);
  return 0;
}
