// The transfer guard (placement-transfer-in-loop): levels, scoping and
// nesting per thread, repeated copies of unchanged data, the call-site limit
// for device-to-host syncs, and what is never reported.
#include <thread>

#include <placelint/rule_ids.h>

#include "test_support.h"

namespace {

using pl::Device;
using pl::TransferGuard;
using pl::TransferGuardError;
using pl::TransferGuardLevel;

class TransferGuardTest : public ::testing::Test {
protected:
  void SetUp() override {
    pl::clear_transfer_guard_history();
    saved_limit_ = pl::transfer_guard_call_site_limit();
  }
  void TearDown() override {
    pl::set_transfer_guard_call_site_limit(saved_limit_);
    pl::set_transfer_guard(TransferGuardLevel::Allow);
  }

private:
  std::size_t saved_limit_ = 0;
};

TEST_F(TransferGuardTest, AllowIsTheDefaultAndReportsNothing) {
  EXPECT_EQ(pl::transfer_guard_level(), TransferGuardLevel::Allow);
  const pl::Tensor weights = pl::ones({4});
  for (int step = 0; step < 3; ++step)
    EXPECT_NO_THROW((void)weights.to(Device("sim:0")));
}

TEST_F(TransferGuardTest, DisallowThrowsOnTheSecondCopyOfUnchangedData) {
  TransferGuard guard(TransferGuardLevel::Disallow);
  const pl::Tensor weights = pl::ones({4});
  int line = 0;
  const auto move = [&] {
    line = __LINE__ + 1;
    return weights.to(Device("sim:0"));
  };
  EXPECT_NO_THROW((void)move());
  try {
    (void)move();
    FAIL() << "the second copy of unchanged data was allowed";
  } catch (const TransferGuardError &error) {
    EXPECT_EQ(
        std::string(error.what()),
        std::string(PL_RULE_ID_TransferInLoop ": to: the tensor copied from cpu to sim:0 at ") +
            __FILE__ + ":" + std::to_string(line) +
            " was already copied there and has not changed since; hoist the transfer out "
            "of the loop");
  }
}

TEST_F(TransferGuardTest, ChangedDataNewBatchesOtherTargetsAndOtherViewsAreNotReported) {
  TransferGuard guard(TransferGuardLevel::Disallow);
  const pl::Tensor weights = pl::ones({4});
  (void)weights.to(Device("sim:0"));
  weights.add_(1); // a new version: the copy is not redundant
  EXPECT_NO_THROW((void)weights.to(Device("sim:0")));
  EXPECT_NO_THROW((void)weights.to(Device("sim:1"))) << "another target device";
  EXPECT_NO_THROW((void)weights.to(Device("sim:0"), pl::kDouble)) << "another dtype";
  for (int step = 0; step < 5; ++step) {
    const pl::Tensor batch = pl::randn({4}); // new storage every step
    EXPECT_NO_THROW((void)batch.to(Device("sim:0")));
  }
  const pl::Tensor rows = pl::ones({3, 2});
  for (int row = 0; row < 3; ++row)
    EXPECT_NO_THROW((void)rows[row].to(Device("sim:0"))) << "each row is different data";
  EXPECT_NO_THROW((void)weights.to(Device("cpu"))) << "no transfer: already there";
  EXPECT_NO_THROW((void)weights.to(Device("cpu")));
}

TEST_F(TransferGuardTest, CopyIntoADeviceBufferCountsAsATransfer) {
  TransferGuard guard(TransferGuardLevel::Disallow);
  const pl::Tensor source = pl::ones({4});
  const pl::Tensor buffer = pl::zeros({4}, Device("sim:0"));
  buffer.copy_(source);
  EXPECT_THROW_CONTAINING(buffer.copy_(source), TransferGuardError,
                          PL_RULE_ID_TransferInLoop ": copy_: the tensor copied from cpu to sim:0");
}

TEST_F(TransferGuardTest, LogWritesOneLinePerCallSiteAndContinues) {
  pl::set_transfer_guard(TransferGuardLevel::Log);
  const pl::Tensor weights = pl::ones({4});
  ::testing::internal::CaptureStderr();
  pl::Tensor moved;
  for (int step = 0; step < 5; ++step)
    moved = weights.to(Device("sim:1"));
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(moved.device(), Device("sim:1")) << "log level does not stop the transfer";
  EXPECT_THAT(log, ::testing::StartsWith(PL_RULE_ID_TransferInLoop
                                         ": to: the tensor copied from cpu to sim:1 at "));
  EXPECT_THAT(log, ::testing::HasSubstr("test_transfer_guard.cpp:"));
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 1) << log;
}

TEST_F(TransferGuardTest, CallSiteLimitCatchesADeviceToHostSyncEveryIteration) {
  pl::set_transfer_guard_call_site_limit(3);
  EXPECT_EQ(pl::transfer_guard_call_site_limit(), 3u);
  TransferGuard guard(TransferGuardLevel::Disallow);
  pl::Tensor loss = pl::ones({1}, Device("sim:0"));
  int line = 0;
  const auto sync = [&] {
    line = __LINE__ + 1;
    return loss.item<float>();
  };
  for (int step = 0; step < 3; ++step) {
    loss.add_(1); // changes each step: never a repeated copy of unchanged data
    EXPECT_NO_THROW((void)sync());
  }
  loss.add_(1);
  EXPECT_THROW_MESSAGE(sync(), TransferGuardError,
                       std::string(PL_RULE_ID_TransferInLoop ": item: the call at ") + __FILE__ +
                           ":" + std::to_string(line) +
                           " copied from sim:0 to the host more than 3 times; a device-to-host "
                           "sync on every iteration stalls the device, move it out of the loop");
}

TEST_F(TransferGuardTest, CallSiteLimitCountsCpuCallsPerSite) {
  pl::set_transfer_guard_call_site_limit(2);
  TransferGuard guard(TransferGuardLevel::Disallow);
  for (int step = 0; step < 2; ++step) {
    const pl::Tensor on_device = pl::randn({2}, Device("sim:0"));
    EXPECT_NO_THROW((void)on_device.cpu());
  }
  const pl::Tensor on_device = pl::randn({2}, Device("sim:0"));
  EXPECT_NO_THROW((void)on_device.cpu()) << "another call site has its own count";
  // Host-to-device copies of new data are the normal pattern: no limit.
  for (int step = 0; step < 10; ++step)
    EXPECT_NO_THROW((void)pl::randn({2}).to(Device("sim:0")));
}

TEST_F(TransferGuardTest, ScopedGuardsNestAndRestore) {
  pl::set_transfer_guard(TransferGuardLevel::Log);
  EXPECT_EQ(pl::transfer_guard_level(), TransferGuardLevel::Log);
  {
    TransferGuard outer(TransferGuardLevel::Disallow);
    EXPECT_EQ(pl::transfer_guard_level(), TransferGuardLevel::Disallow);
    {
      TransferGuard inner(TransferGuardLevel::Allow);
      EXPECT_EQ(pl::transfer_guard_level(), TransferGuardLevel::Allow);
    }
    EXPECT_EQ(pl::transfer_guard_level(), TransferGuardLevel::Disallow);
  }
  EXPECT_EQ(pl::transfer_guard_level(), TransferGuardLevel::Log);
}

TEST_F(TransferGuardTest, ScopedGuardsArePerThread) {
  TransferGuard guard(TransferGuardLevel::Disallow);
  TransferGuardLevel seen = TransferGuardLevel::Disallow;
  bool threw = false;
  std::thread other([&] {
    seen = pl::transfer_guard_level();
    const pl::Tensor weights = pl::ones({2});
    try {
      for (int step = 0; step < 3; ++step)
        (void)weights.to(Device("sim:0"));
    } catch (const TransferGuardError &) {
      threw = true;
    }
  });
  other.join();
  EXPECT_EQ(seen, TransferGuardLevel::Allow) << "the other thread keeps the global level";
  EXPECT_FALSE(threw);
}

TEST_F(TransferGuardTest, GlobalLevelAppliesToThreadsWithoutAScopedGuard) {
  pl::set_transfer_guard(TransferGuardLevel::Disallow);
  bool threw = false;
  std::thread other([&] {
    const pl::Tensor weights = pl::ones({2});
    try {
      for (int step = 0; step < 2; ++step)
        (void)weights.to(Device("sim:1"));
    } catch (const TransferGuardError &) {
      threw = true;
    }
  });
  other.join();
  EXPECT_TRUE(threw);
}

TEST_F(TransferGuardTest, BookkeepingStaysBoundedOverALongLoop) {
  // Many distinct transfers: the ring of recent transfers forgets old ones,
  // so a copy repeated after many others is no longer matched...
  TransferGuard guard(TransferGuardLevel::Disallow);
  const pl::Tensor first = pl::ones({1});
  (void)first.to(Device("sim:0"));
  std::vector<pl::Tensor> keep;
  for (int i = 0; i < 2000; ++i) {
    keep.push_back(pl::ones({1}));
    (void)keep.back().to(Device("sim:0"));
  }
  EXPECT_NO_THROW((void)first.to(Device("sim:0")));
  // ...while a recent one still is.
  EXPECT_THROW((void)keep.back().to(Device("sim:0")), TransferGuardError);
}

} // namespace
