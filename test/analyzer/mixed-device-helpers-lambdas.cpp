// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// Helpers defined in the same file are followed (summaries of what they
// return for the devices of their arguments); lambdas see what they capture.
#include <torch/torch.h>

#include <algorithm>
#include <functional>
#include <iterator>
#include <vector>

void consume(const torch::Tensor &t);

torch::Tensor causalMask(int64_t n) { return torch::ones({n, n}); }
torch::Tensor onDeviceOf(const torch::Tensor &like) { return torch::zeros({4}, like.options()); }

void helperReturnsAHostMask(const torch::Tensor &batch) {
  torch::Tensor scores = batch.to(torch::kCUDA);
  consume(scores.masked_fill(causalMask(4), -1e9));
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'scores' is on cuda but 'causalMask(4)' is on cpu in call to 'masked_fill' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:32: note: 'scores' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-3]]:30: note: 'causalMask(4)' was assigned a tensor on cpu here
}

void helperFollowsItsArgument(const torch::Tensor &batch) {
  torch::Tensor scores = batch.to(torch::kCUDA);
  consume(scores + onDeviceOf(scores));
}

void lambdaCapturesAHostTensor(const torch::Tensor &batch) {
  torch::Tensor bias = torch::ones({4});
  auto shift = [&](const torch::Tensor &x) { return x + bias; };
  // CHECK-MESSAGES: :[[@LINE-1]]:55: warning: 'x' is on cuda but 'bias' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE+3]]:23: note: 'x' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:24: note: 'bias' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE+1]]:11: note: with the values this call gives it
  consume(shift(batch.to(torch::kCUDA)));
}

void lambdaCapturesByValue(const torch::Tensor &batch) {
  torch::Tensor bias = torch::ones({4}).cuda();
  auto shift = [bias](const torch::Tensor &x) { return x + bias; };
  consume(shift(batch.to(torch::kCUDA)));
}

// std::transform calls its lambda and puts what it returns in the output
// list; std::for_each hands the lambda the list's elements.
void transformedIntoAList(torch::Device device, const std::vector<int> &sizes) {
  torch::Tensor offsets = torch::zeros({3});
  std::vector<torch::Tensor> buffers;
  std::transform(sizes.begin(), sizes.end(), std::back_inserter(buffers),
                 [&](int n) { return torch::zeros({3}).to(device); });
  consume(buffers.front() + offsets);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'buffers.front()' may be on the device in 'device' but 'offsets' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:56: note: 'buffers.front()' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-7]]:27: note: 'offsets' was created on cpu here
}

void transformedOntoTheHost(torch::Device device, const std::vector<int> &sizes) {
  torch::Tensor offsets = torch::zeros({3});
  std::vector<torch::Tensor> buffers;
  std::transform(sizes.begin(), sizes.end(), std::back_inserter(buffers),
                 [&](int n) { return torch::zeros({3}); });
  consume(buffers.front() + offsets);
}

void forEachElementMeetsAHostTensor(torch::Device device) {
  torch::Tensor offsets = torch::zeros({3});
  std::vector<torch::Tensor> batch{torch::ones({3}).to(device)};
  std::for_each(batch.begin(), batch.end(), [&](const torch::Tensor &part) { consume(part + offsets); });
  // CHECK-MESSAGES: :[[@LINE-1]]:91: warning: 'part' may be on the device in 'device' but 'offsets' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:53: note: 'part' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-5]]:27: note: 'offsets' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: with the values this call gives it
}

// A std::function calls the lambda stored in it; given two, which one runs
// is not known.
void calledThroughAStdFunction(torch::Device device, const torch::Tensor &x) {
  torch::Tensor w = torch::ones({3});
  std::function<torch::Tensor()> upload = [&] { return x.to(device); };
  consume(upload() + w);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'upload()' may be on the device in 'device' but 'w' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:11: note: 'upload()' was assigned a tensor on the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-5]]:21: note: 'w' was created on cpu here
}

void stdFunctionGivenTwoLambdas(torch::Device device, const torch::Tensor &x, bool onDevice) {
  torch::Tensor w = torch::ones({3});
  std::function<torch::Tensor()> upload = [&] { return x.to(device); };
  if (!onDevice)
    upload = [&] { return x; };
  consume(upload() + w);
}

// A hook kept in a std::function field, set by the constructor (in its body
// or its member initializer) and called by another method: the call runs
// that lambda. One that discards its move leaves the batch on the host.
class HookedTrainer {
public:
  explicit HookedTrainer(torch::Device device) : device_(device) {
    model_->to(device_);
    prepare_ = [this](torch::Tensor &x) { x.to(device_); };
  }
  void step(torch::Tensor batch) {
    prepare_(batch);
    consume(model_->forward(batch));
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'batch' is on cpu but 'model_' is on cuda in call to 'forward' [placement-mixed-device]
    // CHECK-MESSAGES: :[[@LINE+30]]:16: note: 'batch' was created on cpu here
    // CHECK-MESSAGES: :[[@LINE-8]]:13: note: 'model_' was moved to cuda here
    // CHECK-MESSAGES: :[[@LINE+28]]:11: note: with the values this call gives it
  }

private:
  torch::Device device_;
  torch::nn::Linear model_{4, 2};
  std::function<void(torch::Tensor &)> prepare_;
};

class HookedTrainerMoving {
public:
  explicit HookedTrainerMoving(torch::Device device)
      : device_(device), prepare_([this](torch::Tensor &x) { x = x.to(device_); }) {
    model_->to(device_);
  }
  void step(torch::Tensor batch) {
    prepare_(batch);
    consume(model_->forward(batch));
  }

private:
  torch::Device device_;
  torch::nn::Linear model_{4, 2};
  std::function<void(torch::Tensor &)> prepare_;
};

void trainWithHooks() {
  HookedTrainer trainer(torch::kCUDA);
  trainer.step(torch::ones({2, 4}));
  HookedTrainerMoving moving(torch::kCUDA);
  moving.step(torch::ones({2, 4}));
}
