// sim as an asynchronous accelerator: streams (pool, current per thread,
// default, synchronize/query), events, device synchronize, non_blocking
// copies and the pinned block cache, checked deterministically with the
// chaos switch (pl::sim::set_delay) rather than by timing.
#include <thread>
#include <vector>

#include "test_support.h"

namespace {

using pl::Device;
using pl_test::values;

const Device kSim0("sim:0");

class SimStreams : public ::testing::Test {
protected:
  void TearDown() override {
    pl::sim::set_delay(pl::sim::Delay::none());
    pl::synchronize(kSim0);
    pl::synchronize(Device("sim:1"));
  }
  // Queued work runs only when a synchronisation asks for it.
  static void hold_work() { pl::sim::set_delay(pl::sim::Delay::until_synchronized()); }
  // Sim's pinned memory, also where a CUDA device makes CUDA's the default:
  // only its own is copied from asynchronously.
  static pl::Tensor sim_pinned(std::int64_t numel) {
    return pl::empty({numel}, pl::TensorOptions(pl::kFloat)).pin_memory(kSim0);
  }
};

TEST_F(SimStreams, QueuedWorkRunsLaterAndASynchronizeWaitsForIt) {
  hold_work();
  const pl::Tensor a = pl::ones({4}, pl::device(kSim0));
  const pl::Tensor b = a + 1;
  const pl::Stream stream = pl::getCurrentStream(kSim0);
  EXPECT_FALSE(stream.query());
  stream.synchronize();
  EXPECT_TRUE(stream.query());
  EXPECT_EQ(values(b), (std::vector<double>{2, 2, 2, 2}));
}

TEST_F(SimStreams, AHostReadWaitsForTheTensorsWork) {
  hold_work();
  const pl::Tensor x = pl::arange(5, pl::TensorOptions(pl::kDouble).device(kSim0));
  EXPECT_EQ((x * 2).sum().item<double>(), 20.0);
}

TEST_F(SimStreams, WorkOnOneStreamRunsInOrder) {
  pl::sim::set_delay(pl::sim::Delay::late(std::chrono::microseconds(200)));
  const pl::Tensor x = pl::zeros({3}, pl::device(kSim0));
  for (int i = 0; i < 5; ++i)
    x.mul_(2).add_(1);
  EXPECT_EQ(values(x), (std::vector<double>{31, 31, 31}));
}

TEST_F(SimStreams, CurrentStreamIsTheDefaultUntilAGuardSetsItPerThread) {
  const pl::Stream default_stream = pl::getDefaultStream(kSim0);
  EXPECT_EQ(default_stream.native_handle(), nullptr);
  EXPECT_EQ(pl::getCurrentStream(kSim0), default_stream);
  const pl::Stream side = pl::getStreamFromPool(kSim0);
  EXPECT_NE(side, default_stream);
  {
    pl::StreamGuard guard(side);
    EXPECT_EQ(pl::getCurrentStream(kSim0), side);
    EXPECT_EQ(guard.original_stream(), default_stream);
    // Other devices and other threads keep their own current stream.
    EXPECT_EQ(pl::getCurrentStream(Device("sim:1")), pl::getDefaultStream(Device("sim:1")));
    std::thread([&] { EXPECT_EQ(pl::getCurrentStream(kSim0), default_stream); }).join();
  }
  EXPECT_EQ(pl::getCurrentStream(kSim0), default_stream);
}

TEST_F(SimStreams, PoolHandsOutDifferentStreamsInTurn) {
  const pl::Stream first = pl::getStreamFromPool(kSim0);
  const pl::Stream second = pl::getStreamFromPool(kSim0);
  EXPECT_NE(first, second);
  EXPECT_EQ(first.device(), kSim0);
}

TEST_F(SimStreams, WorkGoesToTheCurrentStreamOnly) {
  hold_work();
  const pl::Stream side = pl::getStreamFromPool(kSim0);
  pl::Tensor y;
  {
    pl::StreamGuard guard(side);
    y = pl::full({2}, 3.0, pl::device(kSim0));
  }
  EXPECT_TRUE(pl::getDefaultStream(kSim0).query());
  EXPECT_FALSE(side.query());
  side.synchronize();
  EXPECT_EQ(values(y), (std::vector<double>{3, 3}));
}

TEST_F(SimStreams, DeviceSynchronizeWaitsForEveryStream) {
  hold_work();
  const pl::Stream side = pl::getStreamFromPool(kSim0);
  const pl::Tensor on_default = pl::ones({2}, pl::device(kSim0));
  {
    pl::StreamGuard guard(side);
    (void)pl::ones({2}, pl::device(kSim0));
  }
  pl::synchronize(kSim0);
  EXPECT_TRUE(side.query());
  EXPECT_TRUE(pl::getDefaultStream(kSim0).query());
}

TEST_F(SimStreams, EventMarksAPointInAStream) {
  hold_work();
  const pl::Tensor x = pl::ones({2}, pl::device(kSim0));
  pl::Event done;
  EXPECT_TRUE(done.query()); // unrecorded
  done.record(pl::getCurrentStream(kSim0));
  EXPECT_FALSE(done.query());
  done.synchronize();
  EXPECT_TRUE(done.query());
}

TEST_F(SimStreams, EventBlockOrdersAnotherStreamAfterIt) {
  hold_work();
  const pl::Stream producer = pl::getStreamFromPool(kSim0);
  const pl::Stream consumer = pl::getStreamFromPool(kSim0);
  pl::Tensor made;
  pl::Event ready;
  {
    pl::StreamGuard guard(producer);
    made = pl::full({3}, 4.0, pl::device(kSim0));
    ready.record(producer);
  }
  pl::Tensor used;
  {
    pl::StreamGuard guard(consumer);
    ready.block(consumer);
    used = made * 2;
  }
  consumer.synchronize();
  EXPECT_TRUE(ready.query());
  pl::StreamGuard guard(consumer);
  EXPECT_EQ(values(used), (std::vector<double>{8, 8, 8}));
}

TEST_F(SimStreams, ElapsedTimeCoversTheWorkBetweenTwoEvents) {
  pl::sim::set_delay(pl::sim::Delay::late(std::chrono::milliseconds(2)));
  const pl::Stream stream = pl::getCurrentStream(kSim0);
  pl::Event start;
  pl::Event end;
  start.record(stream);
  (void)pl::ones({2}, pl::device(kSim0));
  end.record(stream);
  end.synchronize();
  // The kernel and the end marker each waited 2 ms after the start marker.
  EXPECT_GE(start.elapsed_time(end), 4.0);
}

TEST_F(SimStreams, ElapsedTimeNeedsRecordedCompleteEvents) {
  pl::Event unrecorded;
  pl::Event recorded;
  recorded.record(kSim0);
  EXPECT_THROW((void)unrecorded.elapsed_time(recorded), pl::Error);
  hold_work();
  pl::Event pending;
  pending.record(kSim0);
  EXPECT_THROW((void)recorded.elapsed_time(pending), pl::Error);
}

TEST_F(SimStreams, StreamsOfTheCpuOrOfAMissingDeviceAreDeviceErrors) {
  EXPECT_THROW((void)pl::getCurrentStream(Device("cpu")), pl::DeviceError);
  EXPECT_THROW((void)pl::getStreamFromPool(Device("sim:7")), pl::DeviceError);
  EXPECT_THROW(pl::synchronize(Device("sim:7")), pl::DeviceError);
  EXPECT_NO_THROW(pl::synchronize(Device("cpu"))); // its work is already done
}

TEST_F(SimStreams, ACudaStreamOfAnotherDevicesStreamIsADeviceError) {
  EXPECT_THROW((void)pl::cuda::CUDAStream(pl::getCurrentStream(kSim0)), pl::DeviceError);
}

TEST_F(SimStreams, AStreamMadeUpByHandIsADeviceError) {
  int not_a_stream = 0;
  const pl::Stream made_up(kSim0, &not_a_stream);
  EXPECT_THROW(made_up.synchronize(), pl::DeviceError);
  EXPECT_THROW(pl::setCurrentStream(made_up), pl::DeviceError);
  EXPECT_THROW(pl::Event().record(made_up), pl::DeviceError);
  EXPECT_THROW((void)pl::Stream(Device("sim:5"), nullptr).query(), pl::DeviceError);
  EXPECT_THROW(pl::Stream(Device("cpu"), nullptr).synchronize(), pl::DeviceError);
}

TEST_F(SimStreams, NonBlockingUploadFromPinnedMemoryReturnsBeforeItsBytesMove) {
  hold_work();
  const pl::Tensor pinned = pl::full({3}, 1.0).pin_memory(kSim0);
  const pl::Tensor on_sim = pinned.to(kSim0, pl::kFloat, /*non_blocking=*/true);
  // The copy has not run yet: it reads the pinned values when it does.
  pinned.fill_(2.0);
  EXPECT_EQ(values(on_sim), (std::vector<double>{2, 2, 2}));
}

TEST_F(SimStreams, PinningForAnAcceleratorUsesItsPinnedMemory) {
  const pl::Tensor host = pl::ones({4});
  const pl::Tensor pinned = host.pin_memory(kSim0);
  EXPECT_TRUE(pinned.is_pinned());
  EXPECT_EQ(pinned.impl()->storage->pinned_for(), pl::kSim);
  EXPECT_EQ(pinned.pin_memory(kSim0).data_ptr(), pinned.data_ptr()); // already pinned for sim
  EXPECT_TRUE(pinned.equal(host));
  EXPECT_THROW((void)host.pin_memory(Device("cpu")), pl::DeviceError);
}

TEST_F(SimStreams, NonBlockingDownloadLandsInPinnedMemoryAfterASynchronisation) {
  hold_work();
  const pl::Tensor on_sim = pl::full({3}, 5.0, pl::device(kSim0));
  const pl::Tensor back = on_sim.to(pl::kCPU, pl::kFloat, /*non_blocking=*/true);
  EXPECT_TRUE(back.is_pinned());
  EXPECT_FALSE(pl::getCurrentStream(kSim0).query());
  pl::synchronize(kSim0);
  EXPECT_EQ(values(back), (std::vector<double>{5, 5, 5}));
}

// Memory pl did not pin (pageable, or pinned by its owner outside pl) may
// be changed or freed as soon as the copy returns: the copy is synchronous.
TEST_F(SimStreams, NonBlockingUploadFromMemoryPlDidNotPinIsSynchronous) {
  hold_work();
  std::vector<double> owned{1, 2, 3};
  const pl::Tensor blob = pl::from_blob(owned.data(), {3}, pl::TensorOptions(pl::kDouble));
  const pl::Tensor from_blob = blob.to(kSim0, pl::kDouble, /*non_blocking=*/true);
  owned[0] = 100;
  const pl::Tensor pageable = pl::full({2}, 7.0);
  const pl::Tensor from_pageable = pageable.to(kSim0, pl::kFloat, /*non_blocking=*/true);
  pageable.fill_(0.0);
  EXPECT_EQ(values(from_blob), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(values(from_pageable), (std::vector<double>{7, 7}));
}

TEST_F(SimStreams, PinnedBlockIsReusedOnlyAfterItsCopyIsDone) {
  hold_work();
  pl::Tensor pinned = sim_pinned(64);
  const void *block = pinned.data_ptr();
  const pl::Tensor on_sim = pinned.to(kSim0, pl::kFloat, /*non_blocking=*/true);
  pinned = pl::Tensor();
  const pl::Tensor while_queued = sim_pinned(64);
  EXPECT_NE(while_queued.data_ptr(), block);
  pl::synchronize(kSim0);
  const pl::Tensor after = sim_pinned(64);
  EXPECT_EQ(after.data_ptr(), block);
}

// A block read by two copies in flight on two streams waits for both.
TEST_F(SimStreams, PinnedBlockUsedByTwoCopiesWaitsForBoth) {
  hold_work();
  const pl::Stream side = pl::getStreamFromPool(kSim0);
  pl::Tensor pinned = sim_pinned(64);
  const void *block = pinned.data_ptr();
  const pl::Tensor first = pinned.to(kSim0, pl::kFloat, /*non_blocking=*/true);
  pl::Tensor second;
  {
    pl::StreamGuard guard(side);
    second = pinned.to(kSim0, pl::kFloat, /*non_blocking=*/true);
  }
  pinned = pl::Tensor();
  pl::getDefaultStream(kSim0).synchronize(); // the first copy only
  const pl::Tensor one_done = sim_pinned(64);
  EXPECT_NE(one_done.data_ptr(), block);
  side.synchronize();
  const pl::Tensor both_done = sim_pinned(64);
  EXPECT_EQ(both_done.data_ptr(), block);
}

TEST_F(SimStreams, FreedDeviceMemoryReturnsAfterTheQueuedWork) {
  const std::uint64_t before = pl::sim::allocated_bytes(1);
  {
    const pl::Tensor t = pl::ones({1024}, pl::device(Device("sim:1")));
    EXPECT_EQ(pl::sim::allocated_bytes(1), before + 4096);
  }
  EXPECT_EQ(pl::sim::allocated_bytes(1), before);
}

TEST_F(SimStreams, DelaySettingIsReadBack) {
  const auto late = pl::sim::Delay::late(std::chrono::microseconds(5));
  pl::sim::set_delay(late);
  EXPECT_EQ(pl::sim::delay(), late);
  EXPECT_THROW(pl::sim::set_delay(pl::sim::Delay::late(std::chrono::microseconds(-1))),
               pl::Error);
}

} // namespace
