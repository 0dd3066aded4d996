// RUN: %check_placement %s placement-unguarded-cuda %t -- -- %mock_includes
//
// CUDA asked for in the code (`.cuda()`, `kCUDA`, `"cuda:1"` where a device
// is expected) must be guarded by an availability check on every path: an
// if, an early return, a ternary, TORCH_CHECK, assert. A check that only
// prints lets the request go ahead; a device from outside is not the code's
// request; comparing a device with kCUDA asks for nothing.
#include <torch/torch.h>
#include <algorithm>
#include <cassert>
#include <cstdio>
void consume(const torch::Tensor &t);
void unguarded(torch::nn::Linear model) {
  model->to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  consume(torch::ones({2}).cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  consume(torch::ones({2}).to(torch::Device("cuda:1")));
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
}
void guardedByIf(torch::nn::Linear model) {
  if (torch::cuda::is_available()) {
    model->to(torch::kCUDA);
    consume(torch::ones({2}).cuda());
  }
}
void guardedByEarlyReturn(torch::nn::Linear model) {
  if (!torch::cuda::is_available())
    return;
  model->to(torch::kCUDA);
}
void printOnlyIsNoGuard(torch::nn::Linear model) {
  if (!torch::cuda::is_available())
    std::printf("no GPU\n");
  model->to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
}
void ternary(torch::Tensor x) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  consume(x.to(device));
}
void fromOutside(torch::Device device, torch::Tensor x) {
  consume(x.to(device));
  if (device.type() == torch::kCUDA)
    consume(x);
}
void checkedByMacros(torch::nn::Linear model, torch::nn::Linear head) {
  TORCH_CHECK(torch::cuda::is_available(), "this program needs a GPU");
  model->to(torch::kCUDA);
}
void checkedByAssert(torch::nn::Linear model) {
  assert(torch::cuda::is_available());
  model->to(torch::kCUDA);
}
// The model moved under the check, its input not.
void splitPlacement(torch::nn::Linear model, torch::Tensor x) {
  if (torch::cuda::is_available())
    model->to(torch::kCUDA);
  consume(model(x.cuda()));
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: CUDA is requested under an availability check here
}
void countChecked(torch::Tensor x) {
  if (torch::cuda::device_count() > 1)
    consume(x.to(torch::Device(torch::kCUDA, 1)));
}
// Availability checks are the library's, matched with their namespace: a
// function of the user's that is only named like one checks nothing.
namespace plugin {
bool is_available(); // whether the plugin is loaded
} // namespace plugin
void checkedByALookAlike(torch::Tensor x) {
  if (plugin::is_available())
    consume(x.cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
}
// An index the analysis cannot compute (a loop's, a parameter's) still asks
// for CUDA: counted as cuda:0, so any availability check guards it. A
// GPU-count option as the loop bound is no check; the option capped with
// min(option, device_count()) and compared with 0 is.
void replicate(torch::nn::Linear model, int gpus) {
  for (int i = 0; i < gpus; ++i)
    model->to(torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(i)));
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES: :[[@LINE+6]]:3: note: 'replicate' is called here with no availability check
}
struct Options {
  int gpus = 2;
};
void replicateAsTyped(torch::nn::Linear model, const Options &options) {
  replicate(model, options.gpus);
}
void replicateCapped(torch::nn::Linear model, int gpus) {
  for (int i = 0; i < gpus; ++i)
    model->to(torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(i)));
}
void replicateOnWhatIsThere(torch::nn::Linear model, const Options &options) {
  const int usable = std::min(options.gpus, static_cast<int>(torch::cuda::device_count()));
  if (usable == 0)
    return;
  replicateCapped(model, usable);
}
// A check that only prints does not guard a helper's request either, with
// the index an int parameter.
struct Classifier {
  void loadTo(int gpu) { net->to(torch::Device(torch::kCUDA, gpu)); }
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES: :[[@LINE+8]]:14: note: 'loadTo' is called here with no availability check
  void loadChecked(int gpu) { net->to(torch::Device(torch::kCUDA, gpu)); }
  torch::nn::Linear net{4, 4};
};
void warnOnly() {
  if (!torch::cuda::is_available())
    std::printf("warning: no GPU\n");
  Classifier classifier;
  classifier.loadTo(0);
  if (!torch::cuda::is_available())
    return;
  classifier.loadChecked(0);
}
