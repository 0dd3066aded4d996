// The transfer guard: levels, scoping and nesting per thread; for
// placement-transfer-in-loop repeated copies of unchanged data, the call-site
// limit for device-to-host syncs; for placement-create-then-move a host
// factory's tensor moved before any use; and what is never reported.
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <placelint/rule_ids.h>

#include "test_support.h"

namespace {

using pl::Device;
using pl::TransferGuard;
using pl::TransferGuardError;
using pl::TransferGuardLevel;

// Host data an op computed, not fresh from a factory: moving it is not
// placement-create-then-move, so the tests of the other findings use it.
pl::Tensor computed_on_host(pl::IntArrayRef sizes) { return pl::ones(sizes).mul(2); }

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
  const pl::Tensor weights = computed_on_host({4});
  for (int step = 0; step < 3; ++step)
    EXPECT_NO_THROW((void)weights.to(Device("sim:0")));
}

TEST_F(TransferGuardTest, DisallowThrowsOnTheSecondCopyOfUnchangedData) {
  TransferGuard guard(TransferGuardLevel::Disallow);
  const pl::Tensor weights = computed_on_host({4});
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
  const pl::Tensor weights = computed_on_host({4});
  (void)weights.to(Device("sim:0"));
  weights.add_(1); // a new version: the copy is not redundant
  EXPECT_NO_THROW((void)weights.to(Device("sim:0")));
  EXPECT_NO_THROW((void)weights.to(Device("sim:1"))) << "another target device";
  EXPECT_NO_THROW((void)weights.to(Device("sim:0"), pl::kDouble)) << "another dtype";
  for (int step = 0; step < 5; ++step) {
    const pl::Tensor batch = computed_on_host({4}); // new storage every step
    EXPECT_NO_THROW((void)batch.to(Device("sim:0")));
  }
  const pl::Tensor rows = computed_on_host({3, 2});
  for (int row = 0; row < 3; ++row)
    EXPECT_NO_THROW((void)rows[row].to(Device("sim:0"))) << "each row is different data";
  EXPECT_NO_THROW((void)weights.to(Device("cpu"))) << "no transfer: already there";
  EXPECT_NO_THROW((void)weights.to(Device("cpu")));
}

TEST_F(TransferGuardTest, CopyIntoADeviceBufferCountsAsATransfer) {
  TransferGuard guard(TransferGuardLevel::Disallow);
  const pl::Tensor source = computed_on_host({4});
  const pl::Tensor buffer = pl::zeros({4}, Device("sim:0"));
  buffer.copy_(source);
  EXPECT_THROW_CONTAINING(buffer.copy_(source), TransferGuardError,
                          PL_RULE_ID_TransferInLoop ": copy_: the tensor copied from cpu to sim:0");
}

TEST_F(TransferGuardTest, LogWritesOneLinePerCallSiteAndContinues) {
  pl::set_transfer_guard(TransferGuardLevel::Log);
  const pl::Tensor weights = computed_on_host({4});
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

TEST_F(TransferGuardTest, ABackwardTransferIsReportedAtTheForwardLine) {
  pl::set_transfer_guard_call_site_limit(1);
  const TransferGuard guard(TransferGuardLevel::Log);
  const pl::Tensor weight = computed_on_host({2});
  weight.requires_grad_();
  int copy_line = 0;
  ::testing::internal::CaptureStderr();
  for (int step = 0; step < 2; ++step) {
    {
      const pl::NoGradGuard no_grad;
      weight.add_(1); // as an optimizer step: never a repeated copy of unchanged data
    }
    const pl::Tensor buffer = pl::zeros({2}, Device("sim:0"));
    copy_line = __LINE__ + 1;
    buffer.copy_(weight);
    buffer.sum().backward(); // weight's gradient moves from sim:0 back to the host
  }
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(log, ::testing::HasSubstr(std::string("the call at ") + __FILE__ + ":" +
                                        std::to_string(copy_line) +
                                        " copied from sim:0 to the host more than 1 times"));
  EXPECT_THAT(log, ::testing::Not(::testing::HasSubstr("engine.cpp")));
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
    EXPECT_NO_THROW((void)computed_on_host({2}).to(Device("sim:0")));
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
    const pl::Tensor weights = computed_on_host({2});
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
    const pl::Tensor weights = computed_on_host({2});
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
  const pl::Tensor first = computed_on_host({1});
  (void)first.to(Device("sim:0"));
  std::vector<pl::Tensor> keep;
  for (int i = 0; i < 2000; ++i) {
    keep.push_back(computed_on_host({1}));
    (void)keep.back().to(Device("sim:0"));
  }
  EXPECT_NO_THROW((void)first.to(Device("sim:0")));
  // ...while a recent one still is.
  EXPECT_THROW((void)keep.back().to(Device("sim:0")), TransferGuardError);
}


// ---- placement-create-then-move ---------------------------------------------------

std::string create_then_move_message(const std::string &op, int factory_line, const char *target,
                                     int move_line) {
  return std::string(PL_RULE_ID_CreateThenMove ": ") + op + ": the tensor made on the host by " +
         "the factory at " + __FILE__ + ":" + std::to_string(factory_line) + " is moved to " +
         target + " at " + __FILE__ + ":" + std::to_string(move_line) +
         " before anything used it; create it on " + target +
         " (pass the device in the factory's options)";
}

TEST_F(TransferGuardTest, CreateThenMoveLogsOneLineNamingTheFactoryAndTheMove) {
  pl::set_transfer_guard(TransferGuardLevel::Log);
  ::testing::internal::CaptureStderr();
  const int factory_line = __LINE__ + 1;
  const pl::Tensor state = pl::zeros({8, 4});
  const int move_line = __LINE__ + 1;
  const pl::Tensor moved = state.to(Device("sim:0"));
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(moved.device(), Device("sim:0")) << "log level does not stop the transfer";
  EXPECT_EQ(log, create_then_move_message("to", factory_line, "sim:0", move_line) + "\n");
}

TEST_F(TransferGuardTest, CreateThenMoveThrowsUnderDisallowForEveryHostFactory) {
  TransferGuard guard(TransferGuardLevel::Disallow);
  const Device sim("sim:1");
  const auto made_and_moved = [&] { return pl::full({2}, 0.5).to(sim); };
  int line = __LINE__ - 1;
  EXPECT_THROW_MESSAGE(made_and_moved(), TransferGuardError,
                       create_then_move_message("to", line, "sim:1", line));
  const std::vector<std::function<pl::Tensor()>> factories = {
      [] { return pl::empty({2}); },       [] { return pl::zeros({2}); },
      [] { return pl::ones({2}); },        [] { return pl::full({2}, 3); },
      [] { return pl::scalar_tensor(1); }, [] { return pl::arange(4); },
      [] { return pl::rand({2}); },        [] { return pl::randn({2}); },
      [] { return pl::tensor({1.0, 2.0}); },
      [] { return pl::zeros({2}, pl::kLong); } /* a dtype is no device */};
  for (const auto &factory : factories) {
    const pl::Tensor made = factory();
    EXPECT_THROW_CONTAINING((void)made.to(sim), TransferGuardError,
                            PL_RULE_ID_CreateThenMove ": to: the tensor made on the host");
  }
  const auto moved_with_a_dtype = [&] { return pl::ones({2}).to(sim, pl::kDouble); };
  line = __LINE__ - 1;
  EXPECT_THROW_MESSAGE(moved_with_a_dtype(), TransferGuardError,
                       create_then_move_message("to", line, "sim:1", line));
}

TEST_F(TransferGuardTest, CreateThenMoveIsNotReportedForBlobsCpuTargetsOrTouchedTensors) {
  TransferGuard guard(TransferGuardLevel::Disallow);
  const Device sim("sim:0");
  float values[4] = {1, 2, 3, 4};
  EXPECT_NO_THROW((void)pl::from_blob(values, {4}).to(sim)) << "from_blob wraps data";
  EXPECT_NO_THROW((void)pl::zeros({4}).to(Device("cpu"))) << "no transfer";
  EXPECT_NO_THROW((void)pl::zeros({4}).cpu());
  EXPECT_NO_THROW((void)pl::zeros({4}).to(pl::kDouble)) << "a dtype-only conversion";
  EXPECT_NO_THROW((void)pl::zeros({4}, sim).to(Device("sim:1"))) << "made on a device";

  const pl::Tensor read_by_an_op = pl::ones({4});
  (void)(read_by_an_op + 1);
  EXPECT_NO_THROW((void)read_by_an_op.to(sim));
  const pl::Tensor written_in_place = pl::zeros({4});
  written_in_place.add_(1);
  EXPECT_NO_THROW((void)written_in_place.to(sim));
  const pl::Tensor viewed = pl::zeros({2, 2});
  (void)viewed.view({4});
  EXPECT_NO_THROW((void)viewed.to(sim));
  const pl::Tensor filled_by_pointer = pl::empty({4});
  filled_by_pointer.data_ptr<float>()[0] = 1;
  EXPECT_NO_THROW((void)filled_by_pointer.to(sim));
  const pl::Tensor read_by_item = pl::ones({});
  (void)read_by_item.item<float>();
  EXPECT_NO_THROW((void)read_by_item.to(sim));
  const pl::Tensor printed = pl::ones({2});
  std::ostringstream out;
  out << printed;
  EXPECT_NO_THROW((void)printed.to(sim));
  const pl::Tensor copied_into = pl::zeros({4});
  copied_into.copy_(computed_on_host({4}));
  EXPECT_NO_THROW((void)copied_into.to(sim));
  const pl::Tensor buffer = pl::zeros({4}, sim);
  EXPECT_NO_THROW(buffer.copy_(pl::ones({4}))) << "copy_ into a device buffer is no new tensor";
}

TEST_F(TransferGuardTest, CreateThenMoveIsNotReportedUnderAllow) {
  EXPECT_EQ(pl::transfer_guard_level(), TransferGuardLevel::Allow);
  ::testing::internal::CaptureStderr();
  const pl::Tensor moved = pl::zeros({4}).to(Device("sim:0"));
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(moved.device(), Device("sim:0"));
}

} // namespace
