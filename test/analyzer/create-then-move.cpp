// RUN: %check_placement %s placement-create-then-move %t -compile-fixed -- -- %mock_includes
//
// A factory builds a tensor on the host (no device given) and its first use
// is a move to a device: the fix-it passes the device to the factory, and
// the fixed file must compile.
#include <torch/torch.h>

void consume(const torch::Tensor &t);

void chained(torch::Device device, int64_t n) {
  torch::Tensor state = torch::zeros({n, 32}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: 'zeros' creates a tensor on the host only to move it to the device in 'device'; create it there [placement-create-then-move]
  // CHECK-FIXES:   torch::Tensor state = torch::zeros({n, 32}, torch::TensorOptions().device(device));
  torch::Tensor noise = torch::randn({n}).cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: 'randn' creates a tensor on the host only to move it to cuda; create it there [placement-create-then-move]
  // No fix: made on CUDA, its values would come from CUDA's generator.
  // CHECK-FIXES:   torch::Tensor noise = torch::randn({n}).cuda();
}

void existingOptionsAreExtended(torch::Device device, int64_t n) {
  torch::Tensor labels = torch::zeros({n}, torch::kLong).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:58: warning: 'zeros' creates a tensor on the host only to move it to the device in 'device'; create it there [placement-create-then-move]
  // CHECK-FIXES:   torch::Tensor labels = torch::zeros({n}, torch::TensorOptions(torch::kLong).device(device));
}

void deviceAndDtypeMoveTogether(torch::Device device) {
  torch::Tensor scale = torch::full({4}, 0.5).to(device, torch::kDouble);
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: 'full' creates a tensor on the host only to move it to the device in 'device'; create it there [placement-create-then-move]
  // CHECK-FIXES:   torch::Tensor scale = torch::full({4}, 0.5, torch::TensorOptions().device(device).dtype(torch::kDouble));
}

void throughAVariable(torch::Device device, int64_t n) {
  torch::Tensor mask = torch::ones({n, n});
  // CHECK-FIXES:   torch::Tensor mask = torch::ones({n, n}, torch::TensorOptions().device(device));
  consume(mask.to(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'ones' creates a tensor on the host only to move it to the device in 'device'; create it there [placement-create-then-move]
  // CHECK-MESSAGES: :[[@LINE-4]]:24: note: 'mask' was created on cpu here
  // CHECK-FIXES:   consume(mask);
}

void everyIteration(torch::Device device, int steps) {
  for (int i = 0; i < steps; ++i)
    consume(torch::zeros({4}).to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'zeros' creates a tensor on the host only to move it to the device in 'device', on every iteration; create it there, once, before the loop [placement-create-then-move]
    // CHECK-FIXES:     consume(torch::zeros({4}, torch::TensorOptions().device(device)));
}

void likeAHostTensor(torch::Device device) {
  torch::Tensor host = torch::ones({4});
  consume(host);
  consume(torch::zeros_like(host).to(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'zeros_like' creates a tensor on the host only to move it to the device in 'device'; create it there [placement-create-then-move]
  // CHECK-FIXES:   consume(torch::zeros_like(host, torch::TensorOptions().device(device)));
}

// Written on the host first: the move is not the first use.
void filledOnTheHost(torch::Device device, int64_t n) {
  torch::Tensor table = torch::zeros({n});
  table.mul_(2.0);
  consume(table.to(device));
}

// A move to the cpu, a dtype-only to(), a factory given the device.
void notAMove(torch::Device device, int64_t n) {
  consume(torch::zeros({n}).to(torch::kCPU));
  consume(torch::zeros({n}).to(torch::kDouble));
  consume(torch::zeros({n}, torch::device(device)));
  consume(torch::zeros({n}, torch::TensorOptions().device(device)).to(device));
}

// Moved only to take its options or its device for something else.
torch::TensorOptions optionsOnDevice(torch::Device device) {
  return torch::zeros({1}).to(device).options();
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'zeros' creates a tensor on the host and moves it to the device in 'device' only to take its options; give the device to the options instead [placement-create-then-move]
  // CHECK-FIXES: return torch::TensorOptions().device(device);
}
torch::TensorOptions longOptionsOnDevice(torch::Device device) {
  return torch::zeros({1}, torch::kLong).to(device).options();
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'zeros' creates a tensor on the host and moves it to the device in 'device' only to take its options; give the device to the options instead [placement-create-then-move]
  // CHECK-FIXES: return torch::TensorOptions(torch::kLong).device(device);
}
torch::Device deviceOf(torch::Device device) {
  return torch::empty({0}).to(device).device();
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'empty' creates a tensor on the host and moves it to the device in 'device' only to take its device; use that device instead [placement-create-then-move]
  // CHECK-FIXES: return torch::Device(device);
}
torch::Tensor referenceForOptions(torch::Device device, int64_t n) {
  auto reference = torch::empty({0}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'empty' creates a tensor on the host and moves it to the device in 'device' only to take its options; give the device to the options instead [placement-create-then-move]
  // CHECK-FIXES: auto reference = torch::empty({0}, torch::TensorOptions().device(device));
  return torch::ones({n}, reference.options()) + torch::zeros({n}, reference.options());
}
// Used for more than its options: an ordinary create-then-move.
torch::Tensor referenceUsed(torch::Device device, int64_t n) {
  auto reference = torch::zeros({n}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'zeros' creates a tensor on the host only to move it to the device in 'device'; create it there [placement-create-then-move]
  // CHECK-FIXES: auto reference = torch::zeros({n}, torch::TensorOptions().device(device));
  return torch::ones({n}, reference.options()) + reference;
}

// A fix-it keeps the program's behaviour, or is not offered.
// The host tensors are used again after their moves (PyTorch's
// test/cpp/api/meta_tensor.cpp): they were not made only to be moved.
void hostTensorsUsedAfterTheMove() {
  torch::Tensor a = torch::ones({3});
  torch::Tensor b = torch::ones({3});
  torch::Tensor onMeta = torch::add(a.to(torch::kMeta), b.to(torch::kMeta));
  consume(a + b);
}
// Moved under a condition (PyTorch's serialize.cpp: `if (is_cuda) inputs =
// inputs.cuda();`): reported, but making it on CUDA would do so on every
// path, so no fix.
void movedOnOnePath(bool isCuda) {
  torch::Tensor inputs = torch::randn({5, 5});
  if (isCuda)
    inputs = inputs.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'randn' creates a tensor on the host only to move it to cuda; create it there [placement-create-then-move]
  // CHECK-MESSAGES: :[[@LINE-4]]:26: note: 'inputs' was created on cpu here
  consume(inputs);
}
// CHECK-FIXES: {{^}}  torch::Tensor inputs = torch::randn({5, 5});{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (isCuda){{$}}
// CHECK-FIXES-NEXT: {{^}}    inputs = inputs.cuda();{{$}}
// An early return between the factory and the move: made on CUDA, the
// tensor would be made before the availability check.
torch::Tensor earlyReturn() {
  torch::Tensor table = torch::zeros({8});
  if (!torch::cuda::is_available())
    return torch::Tensor();
  table = table.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'zeros' creates a tensor on the host only to move it to cuda; create it there [placement-create-then-move]
  // CHECK-MESSAGES: :[[@LINE-5]]:25: note: 'table' was created on cpu here
  return table;
}
// CHECK-FIXES: {{^}}  torch::Tensor table = torch::zeros({8});{{$}}
// A tensor handed to another variable (`std::move`, a copy of the handle)
// before its move: its uses under the first name count. Filled and read on
// the host first, it was not made only to be moved.
torch::Tensor handedOnAfterHostUse(const torch::Device &device) {
  torch::Tensor observations = torch::empty({256, 12});
  observations.copy_(torch::randn({256, 12}));
  consume(observations.sum());
  torch::Tensor kept = std::move(observations);
  return kept.to(device);
}
// Handed on unused, it was.
torch::Tensor handedOnUnused() {
  torch::Tensor buffer = torch::zeros({16});
  torch::Tensor kept = std::move(buffer);
  return kept.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'zeros' creates a tensor on the host only to move it to cuda; create it there [placement-create-then-move]
  // CHECK-MESSAGES: :[[@LINE-4]]:26: note: 'kept' was created on cpu here
}
