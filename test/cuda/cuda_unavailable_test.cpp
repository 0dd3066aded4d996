// What a user sees when asking for CUDA where there is none: a
// pl::DeviceError whose message starts with the rule id
// placement-unguarded-cuda and names the requested device. Runs on machines
// without a GPU and in builds without CUDA support; the out-of-range test
// runs everywhere.
#include <pl/pl.h>
#include <placelint/rule_ids.h>

#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace {

constexpr std::string_view kRuleId = PL_RULE_ID_UnguardedCuda;

// Runs `request`, which must throw pl::DeviceError, and returns its message.
std::string device_error_of(const std::function<void()> &request) {
  try {
    request();
  } catch (const pl::DeviceError &error) {
    return error.what();
  }
  ADD_FAILURE() << "asking for CUDA did not throw pl::DeviceError";
  return {};
}

class CudaUnavailableTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (pl::cuda::is_available())
      GTEST_SKIP() << "a CUDA GPU is available; these tests need a machine without one";
  }
};

TEST_F(CudaUnavailableTest, ReportsNoDevice) { EXPECT_EQ(pl::cuda::device_count(), 0); }

TEST_F(CudaUnavailableTest, FactoryOnCudaThrowsUnguardedCuda) {
  const std::string message = device_error_of([] {
    (void)pl::zeros({2, 3}, pl::device(pl::Device("cuda:0")));
  });
  EXPECT_TRUE(message.starts_with(kRuleId)) << message;
  EXPECT_NE(message.find("cuda:0"), std::string::npos) << message;
}

TEST_F(CudaUnavailableTest, TransferToCudaThrowsUnguardedCuda) {
  const pl::Tensor host = pl::ones({4});
  for (const auto &request : std::vector<std::function<void()>>{
           [&] { (void)host.cuda(); },
           [&] { (void)host.to(pl::kCUDA); },
           [&] { (void)host.to(pl::Device("cuda:0"), pl::kFloat, /*non_blocking=*/true); },
       }) {
    const std::string message = device_error_of(request);
    EXPECT_TRUE(message.starts_with(kRuleId)) << message;
  }
}

TEST_F(CudaUnavailableTest, MessageSaysWhyAndWhere) {
  const std::string message = device_error_of([] { (void)pl::ones({1}, pl::device(pl::kCUDA)); });
  // The call site is this file; the reason is either a build without CUDA or
  // a machine without a GPU, and the message must say which.
  EXPECT_NE(message.find("cuda_unavailable_test.cpp"), std::string::npos) << message;
  EXPECT_TRUE(message.find("no CUDA device is available") != std::string::npos ||
              message.find("no CUDA support") != std::string::npos)
      << message;
}

TEST_F(CudaUnavailableTest, HostWorkIsUnaffected) {
  (void)device_error_of([] { (void)pl::ones({1}, pl::device(pl::kCUDA)); });
  const pl::Tensor sum = (pl::ones({3}) + pl::ones({3})).sum();
  EXPECT_EQ(sum.item<float>(), 6.0f);
}

// Without a GPU, pinned memory is that of the accelerator present (sim),
// so pin_memory and the factories' option work.
TEST_F(CudaUnavailableTest, PinnedMemoryIsSimsWithoutAGpu) {
  const pl::Tensor host = pl::ones({4});
  EXPECT_FALSE(host.is_pinned());
  EXPECT_TRUE(host.pin_memory().is_pinned());
  EXPECT_TRUE(pl::empty({4}, pl::TensorOptions().pinned_memory(true)).is_pinned());
  EXPECT_TRUE(pl::rand({4}, pl::TensorOptions().pinned_memory(true)).is_pinned());
}

TEST_F(CudaUnavailableTest, StreamsAndSynchronizeThrowUnguardedCuda) {
  for (const auto &request : std::vector<std::function<void()>>{
           [] { pl::cuda::synchronize(); },
           [] { (void)pl::cuda::getCurrentCUDAStream(); },
           [] { (void)pl::cuda::getStreamFromPool(); },
           [] { (void)pl::cuda::getDefaultCUDAStream(0); },
       }) {
    const std::string message = device_error_of(request);
    EXPECT_TRUE(message.starts_with(kRuleId)) << message;
  }
}

// non_blocking to the host from sim lands in sim's pinned memory, as
// from a GPU; the values are there after a synchronisation.
TEST_F(CudaUnavailableTest, NonBlockingCopyFromSimIsPinned) {
  const pl::Tensor on_sim = pl::arange(4, pl::device(pl::Device("sim:0")));
  const pl::Tensor back = on_sim.to(pl::TensorOptions(pl::kCPU), /*non_blocking=*/true);
  EXPECT_TRUE(back.is_pinned());
  pl::synchronize(pl::Device("sim:0"));
  EXPECT_TRUE(back.equal(pl::arange(4)));
}

// Runs with or without a GPU: the first index past the last device.
TEST(CudaDeviceIndexTest, OutOfRangeIndexThrowsUnguardedCuda) {
  const int missing = pl::cuda::device_count();
  const std::string device = "cuda:" + std::to_string(missing);
  const std::string message =
      device_error_of([&] { (void)pl::empty({8}, pl::device(pl::Device(device))); });
  EXPECT_TRUE(message.starts_with(kRuleId)) << message;
  EXPECT_NE(message.find(device), std::string::npos) << message;
}

} // namespace
