// RUN: %check_placement %s placement-mixed-device,placement-pageable-non-blocking,placement-non-leaf-parameter %t -- -- %mock_includes
//
// A lambda is analysed as a call wherever the flow sees it called: at once,
// later by its name, through a std::function that holds it, or by a std
// algorithm. Its captures carry the caller's facts into it (the device, and
// the call that made the tensor), and what it writes through a capture by
// reference, or through a reference parameter a std algorithm gives it,
// comes back to the caller after the call. Each case with the bug is
// followed by its correct look-alike.
#include <torch/torch.h>

#include <algorithm>
#include <array>
#include <functional>
#include <iterator>
#include <vector>

void consume(const torch::Tensor &t);
void later(const std::function<void()> &task);
torch::Tensor loadBatch();

// Called at once.
void movedInLambdaThenMixed() {
  torch::Tensor batch = loadBatch();
  [&] { batch = batch.to(torch::kCUDA); }();
  consume(batch + torch::ones({4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'batch' is on cuda but 'torch::ones({4})' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: 'batch' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'torch::ones({4})' was created on cpu here
}

void movedInLambdaThenApplied(torch::nn::Linear model) {
  model->to(torch::kCUDA);
  torch::Tensor batch = loadBatch();
  [&] { batch = batch.to(torch::kCUDA); }();
  consume(model(batch));
}

// A named lambda, called later.
void namedLambdaMoves() {
  torch::Tensor batch = loadBatch();
  auto upload = [&] { batch = batch.to(torch::kCUDA); };
  torch::Tensor mask = torch::ones({4});
  upload();
  consume(batch * mask);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'batch' is on cuda but 'mask' is on cpu in call to 'operator*' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:37: note: 'batch' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-5]]:24: note: 'mask' was created on cpu here
}

void namedLambdaMovesBoth() {
  torch::Tensor batch = loadBatch();
  torch::Tensor mask = torch::ones({4});
  auto upload = [&] {
    batch = batch.to(torch::kCUDA);
    mask = mask.to(torch::kCUDA);
  };
  upload();
  consume(batch * mask);
}

// A std::function kept in a struct.
struct Step {
  std::function<void()> run;
};

void stdFunctionMoves() {
  torch::nn::Linear model(4, 2);
  torch::Tensor batch = loadBatch();
  Step upload{[&] { batch = batch.to(torch::kCUDA); }};
  upload.run();
  consume(model(batch));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'batch' is on cuda but 'model' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:35: note: 'batch' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-7]]:21: note: 'model' was created on cpu here
}

void stdFunctionMovesWithTheModel() {
  torch::nn::Linear model(4, 2);
  torch::Tensor batch = loadBatch();
  Step upload{[&] {
    model->to(torch::kCUDA);
    batch = batch.to(torch::kCUDA);
  }};
  upload.run();
  consume(model(batch));
}

// A lambda the flow does not see called (given to a function of elsewhere)
// may change what it captured at any time: nothing is said of it after.
void givenAway() {
  torch::Tensor batch = loadBatch();
  auto upload = [&] { batch = batch.to(torch::kCUDA); };
  later(upload);
  consume(batch + torch::ones({4}).cuda());
}

void calledOnlyByALambdaGivenAway() {
  torch::Tensor batch = loadBatch();
  auto upload = [&] { batch = batch.to(torch::kCUDA); };
  auto step = [&] { upload(); };
  later(step);
  consume(batch + torch::ones({4}).cuda());
}

// std::for_each over a list: each element, taken by reference, is moved.
void forEachMovesEveryElement(std::vector<torch::Tensor> inputs) {
  std::for_each(inputs.begin(), inputs.end(), [](torch::Tensor &x) { x = x.to(torch::kCUDA); });
  consume(inputs.front() + torch::ones({4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'inputs.front()' is on cuda but 'torch::ones({4})' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:76: note: 'inputs.front()' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-3]]:28: note: 'torch::ones({4})' was created on cpu here
}

void forEachMovesEveryElementToo(std::vector<torch::Tensor> inputs) {
  std::for_each(inputs.begin(), inputs.end(), [](torch::Tensor &x) { x = x.to(torch::kCUDA); });
  consume(inputs.front() + torch::ones({4}).cuda());
}

// A callback over a std::array of one element runs once: what it writes
// through its captures is what the caller has after.
void forEachOnceWritesACapture() {
  torch::Tensor weight;
  std::array<int, 1> once{};
  std::for_each(once.begin(), once.end(),
                [&](int) { weight = torch::randn({4, 1}, torch::requires_grad()).to(torch::kCUDA); });
                // CHECK-MESSAGES: :[[@LINE-1]]:82: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
                // CHECK-MESSAGES: :[[@LINE+1]]:21: note: the optimizer is given the copy 'weight' here; it never updates it
  torch::optim::SGD optimizer({weight}, torch::optim::SGDOptions(0.1));
}

void forEachOnceWritesALeaf() {
  torch::Tensor weight;
  std::array<int, 1> once{};
  std::for_each(once.begin(), once.end(), [&](int) {
    weight = torch::randn({4, 1}, torch::TensorOptions().device(torch::kCUDA).requires_grad(true));
  });
  torch::optim::SGD optimizer({weight}, torch::optim::SGDOptions(0.1));
}

// std::transform: what the callback returns goes to the output list.
void transformUploads(const std::vector<int> &sizes) {
  std::vector<torch::Tensor> uploaded;
  torch::Tensor host = torch::ones({4});
  std::transform(sizes.begin(), sizes.end(), std::back_inserter(uploaded),
                 [&](int) { return host.to(torch::kCUDA); });
  consume(uploaded.front() + host);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'uploaded.front()' is on cuda but 'host' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:41: note: 'uploaded.front()' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-6]]:24: note: 'host' was created on cpu here
}

void transformUploadsBoth(const std::vector<int> &sizes) {
  std::vector<torch::Tensor> uploaded;
  torch::Tensor host = torch::ones({4}).cuda();
  std::transform(sizes.begin(), sizes.end(), std::back_inserter(uploaded),
                 [&](int) { return host.to(torch::kCUDA); });
  consume(uploaded.front() + host);
}

// The captured tensor's maker is the caller's: a non_blocking upload of a
// tensor the caller made in pageable memory is staged synchronously.
void pageableCapturedUpload() {
  const torch::Tensor batch = torch::randn({4}) * 2.0 - 1.0;
  torch::Tensor x = [&] { return batch.to(torch::kCUDA, torch::kFloat, /*non_blocking=*/true); }();
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: non_blocking copy of 'batch' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE-3]]:55: note: 'batch' is made here in pageable memory
  consume(x);
}

void pinnedCapturedUpload() {
  const torch::Tensor batch = (torch::randn({4}) * 2.0 - 1.0).pin_memory();
  torch::Tensor x = [&] { return batch.to(torch::kCUDA, torch::kFloat, /*non_blocking=*/true); }();
  consume(x);
}

void pageableCapturedByCallback(const std::vector<int> &sizes) {
  const torch::Tensor batch = torch::randn({4}) * 2.0;
  std::vector<torch::Tensor> uploaded;
  std::transform(sizes.begin(), sizes.end(), std::back_inserter(uploaded), [&](int) {
    return batch.to(torch::kCUDA, torch::kFloat, /*non_blocking=*/true);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: non_blocking copy of 'batch' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
    // CHECK-MESSAGES: :[[@LINE-5]]:49: note: 'batch' is made here in pageable memory
  });
  consume(uploaded.front());
}

void pinnedCapturedByCallback(const std::vector<int> &sizes) {
  const torch::Tensor batch = (torch::randn({4}) * 2.0).pin_memory();
  std::vector<torch::Tensor> uploaded;
  std::transform(sizes.begin(), sizes.end(), std::back_inserter(uploaded), [&](int) {
    return batch.to(torch::kCUDA, torch::kFloat, /*non_blocking=*/true);
  });
  consume(uploaded.front());
}

// A weight made a non-leaf in a lambda, given to an optimizer by the caller.
void nonLeafMadeInANamedLambda() {
  torch::Tensor weight;
  auto init = [&] { weight = torch::randn({4, 1}, torch::requires_grad()).to(torch::kCUDA); };
  // CHECK-MESSAGES: :[[@LINE-1]]:75: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
  // CHECK-MESSAGES: :[[@LINE+2]]:21: note: the optimizer is given the copy 'weight' here; it never updates it
  init();
  torch::optim::SGD optimizer({weight}, torch::optim::SGDOptions(0.1));
}

void leafMadeInANamedLambda() {
  torch::Tensor weight;
  auto init = [&] { weight = torch::randn({4, 1}).to(torch::kCUDA).requires_grad_(); };
  init();
  torch::optim::SGD optimizer({weight}, torch::optim::SGDOptions(0.1));
}

// A callback over a list that may be empty runs zero or more times, as the
// body of a range-for: after it, a variable it moves may still be where it was.
void forEachMayNotRun(const std::vector<int> &steps) {
  torch::Tensor weight = torch::ones({4});
  std::for_each(steps.begin(), steps.end(), [&](int) { weight = weight.to(torch::kCUDA); });
  consume(weight + torch::ones({4}).cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'weight' may be on cpu but 'torch::ones({4}).cuda()' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:26: note: 'weight' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-3]]:37: note: 'torch::ones({4}).cuda()' was moved to cuda here
}

void forEachMayNotRunMovedBefore(const std::vector<int> &steps) {
  torch::Tensor weight = torch::ones({4}).cuda();
  std::for_each(steps.begin(), steps.end(), [&](int) { weight = weight.to(torch::kCUDA); });
  consume(weight + torch::ones({4}).cuda());
}
