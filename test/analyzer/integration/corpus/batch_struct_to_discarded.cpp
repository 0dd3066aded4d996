// issue 19 class 5 (structs and batch types): a batch struct's own to() whose result is discarded.
// BUG (discarded-transfer, then mixed-device). A behaviour-cloning trainer
// keeps its minibatches in a struct whose `to(device)` returns a moved copy,
// like Tensor::to. The loop calls `batch.to(device);` and drops the copy, so
// the policy on `device` is fed the cpu observations.
// Look-alike: batch_struct_to_assigned.cpp.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct Batch {
  torch::Tensor observations;
  torch::Tensor actions;
  Batch to(torch::Device device) const { return {observations.to(device), actions.to(device)}; }
};

std::vector<Batch> load_demonstrations(const std::string &path, int64_t batch_size) {
  torch::Tensor obs, act;
  torch::load(obs, path + "/observations.pt");
  torch::load(act, path + "/actions.pt");
  std::vector<Batch> batches;
  for (int64_t start = 0; start + batch_size <= obs.size(0); start += batch_size)
    batches.push_back({obs.narrow(0, start, batch_size), act.narrow(0, start, batch_size)});
  return batches;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential policy(torch::nn::Linear(39, 256), torch::nn::ReLU(), torch::nn::Linear(256, 256),
                               torch::nn::ReLU(), torch::nn::Linear(256, 4), torch::nn::Tanh());
  policy->to(device);
  torch::optim::Adam optimizer(policy->parameters(), 3e-4);
  auto batches = load_demonstrations("demos", 256);
  for (int epoch = 0; epoch < 50; ++epoch) {
    for (auto &batch : batches) {
      batch.to(device); // expect: placement-discarded-transfer
      optimizer.zero_grad();
      auto predicted = policy->forward(batch.observations); // expect: placement-mixed-device
      auto loss = torch::mse_loss(predicted, batch.actions);
      loss.backward();
      optimizer.step();
    }
  }
  torch::save(policy, "bc_policy.pt");
  return 0;
}
