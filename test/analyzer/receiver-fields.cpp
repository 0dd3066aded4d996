// RUN: %check_placement %s placement-transfer-in-loop,placement-create-then-move,placement-mixed-device %t -- -- %mock_includes
//
// A method called on an object starts from the fields as the caller's
// construction of that object gave them (a constructor storing its
// arguments, an aggregate's initializers), the way a helper starts from its
// arguments; a lambda in a constructor or method sees the fields of the
// `this` it captured; a lambda inside a helper sees what the helper's
// caller gives it. Each case with the bug is followed by its look-alike.
#include <torch/torch.h>

#include <cstdint>
#include <memory>

torch::Tensor loadBatch();
void consume(const torch::Tensor &t);

// Fields set by a constructor, moved by a method called in a loop: the
// same unchanged upload on every iteration.
struct Upload {
  torch::Tensor data;
  torch::Device device;
  Upload(torch::Tensor data_value, torch::Device device_value) : data(data_value), device(device_value) {}
  torch::Tensor run() { return data.to(device); }
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: 'data' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE+6]]:3: note: hoist the transfer before this loop
  void set(torch::Tensor value) { data = value; }
};

void constructedInLoopFromInvariant(torch::Device device) {
  torch::Tensor rollout = torch::randn({256, 12});
  for (int epoch = 0; epoch < 8; ++epoch) {
    Upload upload(rollout, device);
    consume(upload.run());
  }
}

void constructedBeforeLoop(torch::Device device) {
  torch::Tensor rollout = torch::randn({256, 12});
  Upload upload(rollout, device);
  for (int epoch = 0; epoch < 8; ++epoch)
    consume(upload.run());
}

void constructedFromLoopVariable(torch::Device device) {
  torch::Tensor rollout = torch::randn({256, 12});
  for (int start = 0; start < 256; start += 32) {
    Upload upload(rollout.narrow(0, start, 32), device);
    consume(upload.run());
  }
}

void fieldReassignedBeforeCall(torch::Device device) {
  torch::Tensor rollout = torch::randn({256, 12});
  for (int epoch = 0; epoch < 8; ++epoch) {
    Upload upload(rollout, device);
    upload.data = loadBatch();
    consume(upload.run());
  }
}

void fieldSetBeforeCall(torch::Device device) {
  torch::Tensor rollout = torch::randn({256, 12});
  for (int epoch = 0; epoch < 8; ++epoch) {
    Upload upload(rollout, device);
    upload.set(loadBatch());
    consume(upload.run());
  }
}

void sourceChangedInPlace(torch::Device device) {
  torch::Tensor rollout = torch::randn({256, 12});
  for (int epoch = 0; epoch < 8; ++epoch) {
    rollout.add_(loadBatch());
    Upload upload(rollout, device);
    consume(upload.run());
  }
}

// An aggregate: each field from its initializer.
struct Staged {
  torch::Tensor table;
  torch::Device device;
  torch::Tensor run() { return table.to(device); }
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'table' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE+5]]:3: note: hoist the transfer before this loop
};

void aggregateInLoop(torch::Device device) {
  torch::Tensor table = torch::randn({16, 4});
  for (int step = 0; step < 100; ++step) {
    Staged staged{table, device};
    consume(staged.run());
  }
}

void aggregateOnTheHost() {
  torch::Tensor table = torch::randn({16, 4});
  for (int step = 0; step < 100; ++step) {
    Staged staged{table, torch::Device(torch::kCPU)};
    consume(staged.run());
  }
}

// A lambda in a constructor sees the fields the member initializers set.
class RunningMean {
 public:
  RunningMean(std::int64_t features, torch::Device device)
      : device_(std::make_shared<torch::Device>(device)) {
    [&] { mean_ = torch::zeros({features}).to(*device_); }();
    // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: 'zeros' creates a tensor on the host only to move it to the device in 'device'; create it there [placement-create-then-move]
  }

 private:
  std::shared_ptr<torch::Device> device_;
  torch::Tensor mean_;
};

class RunningMeanOnDevice {
 public:
  RunningMeanOnDevice(std::int64_t features, torch::Device device)
      : device_(std::make_shared<torch::Device>(device)) {
    [&] { mean_ = torch::zeros({features}, torch::TensorOptions().device(*device_)); }();
  }

 private:
  std::shared_ptr<torch::Device> device_;
  torch::Tensor mean_;
};

// A lambda inside a helper: what the helper's caller gives it.
torch::Tensor corrected(const torch::Tensor &prediction) {
  auto offset = torch::full({1, 4}, 0.1);
  return [&] { return prediction - offset; }();
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'prediction' is on cuda but 'offset' is on cpu in call to 'operator-' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE+17]]:35: note: 'prediction' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: 'offset' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE+16]]:11: note: with the values this call gives it
}

torch::Tensor correctedHeld(const torch::Tensor &prediction) {
  auto offset = torch::full({1, 4}, 0.1);
  auto held = [&] { return prediction; };
  auto bias = [&] { return offset; };
  return held() - bias();
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'held()' is on cuda but 'bias()' is on cpu in call to 'operator-' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: 'held()' was assigned a tensor on cuda here
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'bias()' was assigned a tensor on cpu here
  // CHECK-MESSAGES: :[[@LINE+6]]:11: note: with the values this call gives it
}

void correctedOnTheDevice() {
  torch::Tensor out = loadBatch().to(torch::kCUDA);
  consume(corrected(out));
  consume(correctedHeld(out));
}

torch::Tensor correctedOnItsDevice(const torch::Tensor &prediction) {
  auto offset = torch::full({1, 4}, 0.1, prediction.options());
  return [&] { return prediction - offset; }();
}

void correctedOnTheHost() {
  consume(correctedOnItsDevice(loadBatch().to(torch::kCUDA)));
  consume(corrected(loadBatch()));
}
