// RUN: %check_placement %s placement-create-then-move %t -compile-fixed -- -- %mock_includes
//
// The forms a tensor made on the host only to be moved takes in real code:
// more factories, conversions between the factory and the move, the
// variable assigned rather than initialised, in a loop; and what is not
// this rule's: from_blob (host memory that exists already), a discarded
// move (placement-discarded-transfer's, one report per bug).
#include <torch/torch.h>

void consume(const torch::Tensor &t);
namespace torch {
at::Tensor randperm(int64_t n, at::TensorOptions options = {});
at::Tensor bernoulli(const at::Tensor &p);
at::Tensor normal(double mean, double std, at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor from_blob(void *data, at::IntArrayRef sizes, at::TensorOptions options = {});
} // namespace torch

// Random factories get no fix: made on the device, libtorch draws their
// values from its generator, and a seeded program would draw other numbers.
void moreFactories(torch::Device device) {
  consume(torch::randperm(16).to(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'randperm' creates a tensor on the host only to move it to the device in 'device'; create it there [placement-create-then-move]
  // CHECK-FIXES:   consume(torch::randperm(16).to(device));
  consume(torch::normal(0.0, 1.0, {4}).to(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 'normal' creates a tensor on the host only to move it to the device in 'device'; create it there [placement-create-then-move]
  // CHECK-FIXES:   consume(torch::normal(0.0, 1.0, {4}).to(device));
  consume(torch::bernoulli(torch::full({4}, 0.5)).to(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: 'full' creates a tensor on the host only to move it to the device in 'device'; create it there [placement-create-then-move]
}

void moreFactoriesOnTheDevice(torch::Device device) {
  consume(torch::randperm(16, torch::device(device)));
  consume(torch::normal(0.0, 1.0, {4}, torch::device(device)));
  consume(torch::bernoulli(torch::full({4}, 0.5, torch::device(device))));
}

void conversionsBetween(torch::Device device) {
  consume(torch::ones({1}).to(torch::kBool).to(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: 'ones' creates a tensor on the host only to move it to the device in 'device'; create it there [placement-create-then-move]
  // CHECK-FIXES:   consume(torch::ones({1}, torch::TensorOptions().device(device)).to(torch::kBool));
  consume(torch::arange(8).view({2, 4}).to(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'arange' creates a tensor on the host only to move it to the device in 'device'; create it there [placement-create-then-move]
  // CHECK-FIXES:   consume(torch::arange(8, torch::TensorOptions().device(device)).view({2, 4}));
  consume(torch::ones({3}).contiguous().cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'ones' creates a tensor on the host only to move it to cuda; create it there [placement-create-then-move]
  // CHECK-FIXES:   consume(torch::ones({3}, torch::TensorOptions().device(torch::kCUDA)).contiguous());
}

void conversionsOfADeviceTensor(torch::Device device) {
  consume(torch::ones({1}, torch::device(device)).to(torch::kBool));
  consume(torch::arange(8, torch::device(device)).view({2, 4}));
}

void assignedThenMoved(torch::Device device) {
  torch::Tensor noise;
  noise = torch::randn({4});
  // CHECK-FIXES:   noise = torch::randn({4});
  noise = noise.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'randn' creates a tensor on the host only to move it to the device in 'device'; create it there [placement-create-then-move]
  // CHECK-MESSAGES: :[[@LINE-4]]:11: note: 'noise' was created on cpu here
  consume(noise);
}

void assignedThenUsedOnTheHost(torch::Device device) {
  torch::Tensor noise;
  noise = torch::randn({4});
  consume(noise);
  noise = noise.to(device);
}

void assignedInALoop(torch::Device device, int steps) {
  torch::Tensor label;
  for (int step = 0; step < steps; ++step) {
    label = torch::full({8}, step).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'full' creates a tensor on the host only to move it to the device in 'device', on every iteration; create it there [placement-create-then-move]
    // CHECK-FIXES:     label = torch::full({8}, step, torch::TensorOptions().device(device));
    consume(label);
  }
}

void wrappedHostMemory(torch::Device device, float *data) {
  consume(torch::from_blob(data, {4}).clone().to(device));
}

void discardedIsReportedOnce(torch::Device device) {
  torch::Tensor state = torch::zeros({4});
  state.to(device);
  consume(state);
}

// A field of the object made on the host and moved back into itself by the
// next statement (a rollout storage's constructor): nothing can read it in
// between.
class RolloutStorage {
public:
  RolloutStorage(int64_t steps, torch::Device device) {
    rewards_ = torch::zeros({steps});
    // CHECK-FIXES: {{^}}    rewards_ = torch::zeros({steps}, torch::TensorOptions().device(device));{{$}}
    rewards_ = rewards_.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'zeros' creates a tensor on the host only to move it to the device in 'device'; create it there [placement-create-then-move]
    // CHECK-MESSAGES: :[[@LINE-4]]:16: note: 'rewards_' was created on cpu here
    masks_ = torch::ones({steps});
    masks_.mul_(0.5);
    masks_ = masks_.to(device); // filled on the host first
    returns_ = torch::zeros({steps});
    consume(returns_);
    returns_ = returns_.to(device); // used on the host first
    consume(rewards_ + masks_ + returns_);
  }

private:
  torch::Tensor rewards_, masks_, returns_;
};
