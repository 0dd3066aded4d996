// RUN: %check_placement %s placement-transfer-in-loop %t -- -- %mock_includes
//
// A transfer in a helper, a lambda or a method that a loop calls with the
// same tensor and device on every iteration is made once per iteration: it
// is reported where it is, in the callee, with a note at the caller's loop.
// What the calls give must not change in the loop; a callee that moves what
// it makes itself, or a call outside any loop, is not this rule's.
#include <torch/torch.h>
#include <algorithm>
#include <array>
#include <functional>
#include <vector>

void consume(const torch::Tensor &t);

torch::Tensor weighted(const torch::Tensor &logits, const torch::Tensor &weights, torch::Device device) {
  return logits * weights.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'weights' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE+5]]:3: note: hoist the transfer before this loop
}

void helperCalledWithTheSameWeights(torch::Device device, const std::vector<torch::Tensor> &batches) {
  torch::Tensor weights = torch::ones({3});
  for (const torch::Tensor &batch : batches)
    consume(weighted(batch.to(device), weights, device));
}

torch::Tensor normalised(const torch::Tensor &x, const torch::Tensor &scale, torch::Device device) {
  return x / scale.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'scale' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE+9]]:3: note: hoist the transfer before this loop
}

torch::Tensor step(const torch::Tensor &x, const torch::Tensor &scale, torch::Device device) {
  return normalised(x, scale, device);
}

void helperTwoCallsDown(torch::Device device, const std::vector<torch::Tensor> &batches) {
  torch::Tensor scale = torch::full({3}, 2.0);
  for (const torch::Tensor &batch : batches)
    consume(step(batch.to(device), scale, device));
}

void lambdaCalledAtOnce(torch::Device device, const std::vector<torch::Tensor> &batches) {
  torch::Tensor bias = torch::zeros({3});
  for (const torch::Tensor &batch : batches) {
    torch::Tensor out = [&] { return batch.to(device) + bias.to(device); }();
    // CHECK-MESSAGES: :[[@LINE-1]]:62: warning: 'bias' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: hoist the transfer before this loop
    consume(out);
  }
}

// Not the same tensor on every iteration, or no loop.
void helperCalledWithEachBatch(torch::Device device, const std::vector<torch::Tensor> &batches,
                               const torch::Tensor &logits) {
  for (size_t i = 0; i < batches.size(); ++i)
    consume(weighted(logits, batches[i], device));
}

void helperCalledOnce(torch::Device device, const torch::Tensor &logits) {
  torch::Tensor weights = torch::ones({3});
  consume(weighted(logits, weights, device));
}

torch::Tensor freshNoise(torch::Device device) { return torch::randn({3}).to(device); }

void helperMakingItsOwnTensor(torch::Device device, int steps) {
  for (int i = 0; i < steps; ++i)
    consume(freshNoise(device));
}

void lambdaMovingTheBatch(torch::Device device, const std::vector<torch::Tensor> &batches) {
  for (const torch::Tensor &batch : batches) {
    auto upload = [&] { return batch.to(device); };
    consume(upload());
  }
}

// A lambda handed to a std algorithm is called by it: its transfers of what
// it captures happen on every iteration of the loop around the call.
void forEachCallbackInALoop(torch::Device device, const std::vector<torch::Tensor> &batches) {
  torch::Tensor scale = torch::ones({3});
  for (const torch::Tensor &batch : batches) {
    std::array<torch::Tensor, 1> parts{batch};
    std::for_each(parts.begin(), parts.end(), [&](const torch::Tensor &part) { consume(part * scale.to(device)); });
    // CHECK-MESSAGES: :[[@LINE-1]]:101: warning: 'scale' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: hoist the transfer before this loop
  }
}

void forEachCallbackMovingTheElement(torch::Device device, const std::vector<std::vector<torch::Tensor>> &batches) {
  for (const std::vector<torch::Tensor> &batch : batches)
    std::for_each(batch.begin(), batch.end(), [&](const torch::Tensor &part) { consume(part.to(device)); });
}

// A std::function calls the lambda stored in it.
struct StepTask {
  std::function<void()> run;
};

void storedTaskCalledInALoop(torch::Device device, const std::vector<torch::Tensor> &batches) {
  torch::Tensor w = torch::ones({3});
  for (const torch::Tensor &b : batches) {
    StepTask step{[&] { consume(b.to(device) * w.to(device)); }};
    // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: 'w' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: hoist the transfer before this loop
    step.run();
  }
}

void storedTaskMovingTheBatch(torch::Device device, const std::vector<torch::Tensor> &batches) {
  for (const torch::Tensor &b : batches) {
    StepTask step{[&] { consume(b.to(device)); }};
    step.run();
  }
}
