// to / cpu / copy_: same tensor when already there, real copies otherwise,
// and the bytes the sim device counts.
#include "test_support.h"

namespace {

using pl::Device;
using pl_test::values;

class Transfers : public ::testing::Test {
protected:
  void SetUp() override { pl::sim::reset_transfer_stats(); }
};

TEST_F(Transfers, ToTheSameDeviceReturnsTheSameTensor) {
  const pl::Tensor cpu = pl::ones({3});
  EXPECT_TRUE(cpu.to(pl::kCPU).is_same(cpu));
  EXPECT_TRUE(cpu.cpu().is_same(cpu));
  EXPECT_TRUE(cpu.to(pl::kFloat).is_same(cpu));
  EXPECT_TRUE(cpu.to(cpu).is_same(cpu));
  const pl::Tensor sim = pl::ones({3}, Device("sim:1"));
  EXPECT_TRUE(sim.to(Device("sim:1")).is_same(sim));
  EXPECT_TRUE(sim.to(Device("sim:1"), pl::kFloat).is_same(sim));
  EXPECT_EQ(pl::sim::transfer_stats(), pl::sim::TransferStats{}) << "no bytes moved";
  EXPECT_FALSE(cpu.to(pl::kCPU, false, /*copy=*/true).is_same(cpu)) << "copy=true forces a copy";
}

TEST_F(Transfers, ToAnotherDeviceCopiesAndCountsTheBytes) {
  const pl::Tensor cpu = pl::arange(6, pl::kFloat);
  const pl::Tensor sim0 = cpu.to(Device("sim:0"));
  EXPECT_EQ(sim0.device(), Device("sim:0"));
  EXPECT_FALSE(sim0.is_same(cpu));
  EXPECT_TRUE(sim0.is_sim());
  EXPECT_FALSE(sim0.is_cuda());
  const pl::Tensor sim1 = sim0.to(Device("sim:1"));
  const pl::Tensor back = sim1.cpu();
  EXPECT_EQ(back.device(), Device("cpu"));
  const auto stats = pl::sim::transfer_stats();
  EXPECT_EQ(stats.host_to_device_bytes, 24u);
  EXPECT_EQ(stats.device_to_device_bytes, 24u);
  EXPECT_EQ(stats.device_to_host_bytes, 24u);
  EXPECT_EQ(stats.host_to_device_copies, 1u);
  EXPECT_EQ(stats.device_to_device_copies, 1u);
  EXPECT_EQ(stats.device_to_host_copies, 1u);
  EXPECT_EQ(values(back), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  // The copies are independent.
  sim0.fill_(9);
  EXPECT_EQ(values(cpu), (std::vector<double>{0, 1, 2, 3, 4, 5}));
}

TEST_F(Transfers, ConversionHappensOnTheSideWithFewerBytes) {
  const pl::Tensor doubles = pl::ones({4}, pl::kDouble);
  const pl::Tensor floats = doubles.to(Device("sim:0"), pl::kFloat);
  EXPECT_EQ(floats.dtype(), pl::kFloat);
  EXPECT_EQ(pl::sim::transfer_stats().host_to_device_bytes, 16u) << "cast to Float before moving";
  pl::sim::reset_transfer_stats();
  const pl::Tensor widened = floats.to(pl::TensorOptions(pl::kCPU).dtype(pl::kDouble));
  EXPECT_EQ(widened.dtype(), pl::kDouble);
  EXPECT_EQ(pl::sim::transfer_stats().device_to_host_bytes, 16u) << "widen after moving";
}

TEST_F(Transfers, NonContiguousSourcesMoveTheirValuesInOrder) {
  const pl::Tensor m = pl::arange(6, pl::kFloat).view({2, 3}).t();
  const pl::Tensor moved = m.to(Device("sim:0"));
  EXPECT_EQ(moved.sizes().vec(), (std::vector<std::int64_t>{3, 2}));
  EXPECT_TRUE(moved.is_contiguous());
  EXPECT_EQ(values(moved), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(pl::sim::transfer_stats().host_to_device_bytes, 24u);
}

TEST_F(Transfers, NonBlockingDownloadIsCompleteAfterASynchronisation) {
  const pl::Tensor sim = pl::full({3}, 2.5).to(Device("sim:0"), /*non_blocking=*/true);
  const pl::Tensor back = sim.to(pl::kCPU, true);
  pl::synchronize(Device("sim:0"));
  EXPECT_EQ(values(back), (std::vector<double>{2.5, 2.5, 2.5}));
}

TEST_F(Transfers, ItemCopiesOneElementToTheHost) {
  const pl::Tensor sim = pl::arange(5, Device("sim:1"));
  EXPECT_EQ(sim[3].item<std::int64_t>(), 3);
  EXPECT_EQ(sim[4].item<double>(), 4.0);
  EXPECT_EQ(sim[2].item<int>(), 2);
  EXPECT_TRUE(sim[1].item<bool>());
  EXPECT_EQ(sim[4].item().toLong(), 4);
  EXPECT_TRUE(sim[4].item().isIntegral(false));
  EXPECT_EQ(pl::sim::transfer_stats().device_to_host_bytes, 6u * 8u) << "one element per item()";
  EXPECT_THROW_MESSAGE(
      sim.item<float>(), pl::ShapeError,
      "item: a tensor with 5 elements cannot be converted to a scalar (sizes [5])");
}

TEST_F(Transfers, CopyIntoATensorOnAnotherDeviceBroadcastsAndCasts) {
  const pl::Tensor destination =
      pl::zeros({2, 3}, pl::TensorOptions(Device("sim:0")).dtype(pl::kDouble));
  const auto version = destination._version();
  pl::Tensor &result = destination.copy_(pl::arange(3));
  EXPECT_TRUE(result.is_same(destination));
  EXPECT_EQ(values(destination), (std::vector<double>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(destination._version(), version + 1);
  EXPECT_EQ(pl::sim::transfer_stats().host_to_device_bytes, 24u)
      << "the 3 source elements moved once";
  EXPECT_THROW_MESSAGE(destination.copy_(pl::ones({4})), pl::ShapeError,
                       "copy_: the size of tensor a (3) must match the size of tensor b (4) at "
                       "non-singleton dimension 1 (shapes [2, 3] and [4] do not broadcast)");
  EXPECT_THROW_MESSAGE(
      pl::zeros({3}).copy_(pl::ones({2, 3})), pl::ShapeError,
      "copy_: the source of sizes [2, 3] does not broadcast to the destination of sizes [3]");
}

TEST_F(Transfers, CopyFromAnOverlappingViewReadsTheOldValues) {
  const pl::Tensor m =
      pl::arange(4, pl::TensorOptions(Device("sim:0")).dtype(pl::kFloat)).view({2, 2});
  m.copy_(m.t());
  EXPECT_EQ(values(m), (std::vector<double>{0, 2, 1, 3}));
}

TEST_F(Transfers, DataPtrChecksTheElementType) {
  const pl::Tensor t = pl::ones({2});
  EXPECT_EQ(t.data_ptr<float>()[1], 1.0f);
  EXPECT_THROW_MESSAGE(t.data_ptr<double>(), pl::DTypeError,
                       "data_ptr: expected scalar type Double but the tensor has Float");
}

TEST_F(Transfers, SetDataRepointsEveryHandle) {
  const pl::Tensor a = pl::ones({2});
  const pl::Tensor alias = a;
  a.set_data(pl::zeros({3}, Device("sim:1")));
  EXPECT_EQ(alias.device(), Device("sim:1"));
  EXPECT_EQ(alias.numel(), 3);
}

} // namespace
