// The runtime mirrors of placement-unsynchronized-read (a host read of a
// non_blocking download's destination with no synchronisation since the copy
// was queued, by happens-before) and placement-pageable-non-blocking (a
// non_blocking upload from memory pl did not pin), under the transfer guard.
// sim work is held until a synchronisation (the chaos switch), so a read
// that is reported is one that would see stale values.
#include <sstream>
#include <string>

#include <placelint/rule_ids.h>

#include "test_support.h"

namespace {

using pl::Device;
using pl::TransferGuard;
using pl::TransferGuardError;
using pl::TransferGuardLevel;

const Device kSim0("sim:0");

class AsyncRules : public ::testing::Test {
protected:
  void SetUp() override {
    pl::clear_transfer_guard_history();
    pl::sim::set_delay(pl::sim::Delay::until_synchronized());
  }
  void TearDown() override {
    pl::sim::set_delay(pl::sim::Delay::none());
    pl::synchronize(kSim0);
  }
  // A sim tensor (computed, not fresh from a factory) and its non_blocking
  // download, queued at the line *copy_line.
  static pl::Tensor download(int *copy_line) {
    const pl::Tensor on_sim = pl::ones({3}, pl::device(kSim0)).mul(3);
    *copy_line = __LINE__ + 1;
    return on_sim.to(pl::kCPU, pl::kFloat, /*non_blocking=*/true);
  }
};

std::string line_of(int line) { return "test_async_rules.cpp:" + std::to_string(line); }

TEST_F(AsyncRules, ItemBeforeASynchronisationThrowsNamingBothLines) {
  TransferGuard guard(TransferGuardLevel::Disallow);
  int copy_line = 0;
  const pl::Tensor host = download(&copy_line);
  int read_line = 0;
  try {
    read_line = __LINE__ + 1;
    (void)host[0].item<float>();
    FAIL() << "the unsynchronised read was allowed";
  } catch (const TransferGuardError &error) {
    const std::string message = error.what();
    EXPECT_TRUE(message.starts_with(PL_RULE_ID_UnsynchronizedRead ": item: ")) << message;
    EXPECT_NE(message.find(line_of(read_line)), std::string::npos) << message;
    EXPECT_NE(message.find(line_of(copy_line)), std::string::npos) << message;
    EXPECT_NE(message.find("before a synchronisation"), std::string::npos) << message;
  }
}

TEST_F(AsyncRules, DataPtrAndHostOpsAndPrintingAreReads) {
  TransferGuard guard(TransferGuardLevel::Disallow);
  int copy_line = 0;
  const pl::Tensor host = download(&copy_line);
  EXPECT_THROW((void)host.data_ptr<float>(), TransferGuardError);
  EXPECT_THROW((void)(host + 1), TransferGuardError);
  EXPECT_THROW((void)host.sum(), TransferGuardError);
  std::ostringstream printed;
  EXPECT_THROW(printed << host, TransferGuardError);
  EXPECT_THROW((void)host.to(Device("sim:1")), TransferGuardError);
}

TEST_F(AsyncRules, LogModeLogsTheReadAndGoesOn) {
  TransferGuard guard(TransferGuardLevel::Log);
  int copy_line = 0;
  const pl::Tensor host = download(&copy_line);
  testing::internal::CaptureStderr();
  (void)host.data_ptr<float>();
  const std::string logged = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(logged.starts_with(PL_RULE_ID_UnsynchronizedRead ": data_ptr: ")) << logged;
  EXPECT_NE(logged.find(line_of(copy_line)), std::string::npos) << logged;
}

TEST_F(AsyncRules, EverySynchronisationAfterTheCopyMakesTheReadSilent) {
  TransferGuard guard(TransferGuardLevel::Disallow);
  int copy_line = 0;
  const pl::Tensor after_device_sync = download(&copy_line);
  pl::synchronize(kSim0);
  EXPECT_EQ(after_device_sync[1].item<float>(), 3.0f);

  const pl::Tensor after_stream_sync = download(&copy_line);
  pl::getCurrentStream(kSim0).synchronize();
  EXPECT_EQ(after_stream_sync[1].item<float>(), 3.0f);

  const pl::Tensor after_event = download(&copy_line);
  pl::Event copied;
  copied.record(kSim0);
  copied.synchronize();
  EXPECT_EQ(after_event[1].item<float>(), 3.0f);

  // A blocking copy on the same stream waits for the download queued before it.
  const pl::Tensor after_blocking = download(&copy_line);
  (void)pl::ones({1}, pl::device(kSim0)).item<float>();
  EXPECT_EQ(after_blocking[1].item<float>(), 3.0f);
}

// Happens-before, not timing: the copy has run, but nothing the program did
// says so.
TEST_F(AsyncRules, ACopyThatFinishedByChanceIsStillReported) {
  pl::sim::set_delay(pl::sim::Delay::none());
  TransferGuard guard(TransferGuardLevel::Disallow);
  int copy_line = 0;
  const pl::Tensor host = download(&copy_line);
  while (!pl::getCurrentStream(kSim0).query()) {
  }
  EXPECT_THROW((void)host[0].item<float>(), TransferGuardError);
}

TEST_F(AsyncRules, AnEventRecordedBeforeTheCopyDoesNotCoverIt) {
  TransferGuard guard(TransferGuardLevel::Disallow);
  pl::Event before;
  before.record(kSim0);
  int copy_line = 0;
  const pl::Tensor host = download(&copy_line);
  before.synchronize();
  EXPECT_THROW((void)host[0].item<float>(), TransferGuardError);
}

TEST_F(AsyncRules, SynchronisingAnotherStreamDoesNotCoverTheCopy) {
  TransferGuard guard(TransferGuardLevel::Disallow);
  int copy_line = 0;
  const pl::Tensor host = download(&copy_line);
  pl::getStreamFromPool(kSim0).synchronize();
  pl::synchronize(Device("sim:1"));
  EXPECT_THROW((void)host[0].item<float>(), TransferGuardError);
}

TEST_F(AsyncRules, BlockingDownloadsAndAllowAreSilent) {
  const pl::Tensor on_sim = pl::ones({3}, pl::device(kSim0)).mul(3);
  {
    TransferGuard guard(TransferGuardLevel::Disallow);
    const pl::Tensor blocking = on_sim.to(pl::kCPU);
    EXPECT_EQ(blocking[2].item<float>(), 3.0f);
  }
  int copy_line = 0;
  const pl::Tensor unsynchronised = download(&copy_line);
  EXPECT_NO_THROW((void)unsynchronised.data_ptr<float>()); // the guard allows by default
}

TEST_F(AsyncRules, PageableNonBlockingUploadThrowsNamingTheLine) {
  TransferGuard guard(TransferGuardLevel::Disallow);
  const pl::Tensor pageable = pl::ones({4}).mul(2);
  int line = 0;
  try {
    line = __LINE__ + 1;
    (void)pageable.to(kSim0, pl::kFloat, /*non_blocking=*/true);
    FAIL() << "the pageable non_blocking upload was allowed";
  } catch (const TransferGuardError &error) {
    const std::string message = error.what();
    EXPECT_TRUE(message.starts_with(PL_RULE_ID_PageableNonBlocking ": to: ")) << message;
    EXPECT_NE(message.find(line_of(line)), std::string::npos) << message;
    EXPECT_NE(message.find("not pinned"), std::string::npos) << message;
  }
}

TEST_F(AsyncRules, PinnedOrBlockingUploadsAreNotPageableNonBlocking) {
  TransferGuard guard(TransferGuardLevel::Disallow);
  const pl::Tensor pinned = pl::ones({4}).mul(2).pin_memory();
  EXPECT_NO_THROW((void)pinned.to(kSim0, pl::kFloat, /*non_blocking=*/true));
  const pl::Tensor pageable = pl::ones({4}).mul(3);
  EXPECT_NO_THROW((void)pageable.to(kSim0, pl::kFloat, /*non_blocking=*/false));
  const pl::Tensor target = pl::zeros({4}, pl::device(kSim0));
  EXPECT_THROW(target.copy_(pageable, /*non_blocking=*/true), TransferGuardError);
}

} // namespace
