// RUN: %check_placement %s placement-unguarded-cuda %t -- -- %mock_includes
// RUN: %check_placement -check-suffix=RUNNER %s placement-unguarded-cuda %t -- \
// RUN:   -config="{CheckOptions: {GpuTestSuffixes: '_CUDA=1;_MultiCUDA=2'}}" -- %mock_includes
//
// gtest tests that the project's test runner runs only where GPUs are
// (PyTorch's `--gtest_filter=-*_CUDA` on a machine without one): with
// GpuTestSuffixes, their bodies, and helpers called only from them, are
// guarded for as many devices as the suffix says; without it, every
// request in them is reported.
#include <gtest/gtest.h>
#include <torch/torch.h>
void consume(const torch::Tensor &t);

// Called from GPU tests only.
void checkOnDevice(torch::Tensor t) {
  consume(t.cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES: :[[@LINE+7]]:3: note: 'checkOnDevice' is called here with no availability check
}

TEST(TensorTest, MovesToCuda_CUDA) {
  auto t = torch::ones({2, 2});
  consume(t.to(torch::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  checkOnDevice(t);
}

struct DeviceFixture : ::testing::Test {
  torch::Tensor ones = torch::ones({3});
};

TEST_F(DeviceFixture, Upload_CUDA) {
  consume(ones.cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
}

// One GPU is what a `_CUDA` test may count on: its second is not there.
TEST(TensorTest, SecondDevice_CUDA) {
  checkOnDevice(torch::zeros({2}));
  consume(torch::ones({2}).to(torch::Device(torch::kCUDA, 1)));
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES-RUNNER: :[[@LINE-2]]:45: warning: cuda:1 is requested where the checks on this path ensure only 1 CUDA device; the program fails on a machine with fewer than 2 GPUs; compare cuda::device_count() with the index [placement-unguarded-cuda]
}

TEST(TensorTest, SecondDevice_MultiCUDA) {
  consume(torch::ones({2}).to(torch::Device(torch::kCUDA, 1)));
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
}

// PyTorch's pattern: one helper for both devices, `true` from the GPU test
// and `false` from the other. The call passing false does not run the
// request; the one passing true is in a GPU test.
void roundTrip(bool cuda) {
  auto t = torch::ones({2});
  if (cuda)
    t = t.to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES: :[[@LINE+6]]:36: note: 'roundTrip' is called here with no availability check
  consume(t);
}

TEST(TensorTest, RoundTrip) { roundTrip(false); }

TEST(TensorTest, RoundTrip_CUDA) { roundTrip(true); }

// A test that runs everywhere: its request is reported with the option too.
TEST(TensorTest, MovesToCuda) {
  consume(torch::ones({2}).cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES-RUNNER: :[[@LINE-2]]:28: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
}

// The name's end, not a part of it: `_CUDAGraph` is not a GPU test.
TEST(TensorTest, Capture_CUDAGraph) {
  consume(torch::ones({2}).cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES-RUNNER: :[[@LINE-2]]:28: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
}
