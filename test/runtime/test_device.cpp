// Device: parsing, round trip, hashing, invariants, and resolving requests
// for devices that do not exist (placement-unguarded-cuda).
#include <cctype>
#include <unordered_set>

#include <placelint/rule_ids.h>

#include "test_support.h"

namespace {

using pl::Device;
using pl::DeviceError;

TEST(Device, ParsesEveryFormOfTheGrammar) {
  EXPECT_EQ(Device("cpu"), Device(pl::kCPU));
  EXPECT_EQ(Device("cuda"), Device(pl::kCUDA, -1));
  EXPECT_EQ(Device("cuda:0"), Device(pl::kCUDA, 0));
  EXPECT_EQ(Device("cuda:1"), Device(pl::kCUDA, 1));
  EXPECT_EQ(Device("cuda:10"), Device(pl::kCUDA, 10));
  EXPECT_EQ(Device("sim"), Device(pl::kSim, -1));
  EXPECT_EQ(Device("sim:1"), Device(pl::kSim, 1));
  EXPECT_EQ(Device(std::string("sim:0")), Device(pl::kSim, 0));
}

TEST(Device, StrRoundTripsWithTheParser) {
  for (const char *text :
       {"cpu", "cuda", "cuda:0", "cuda:7", "cuda:32767", "sim", "sim:0", "sim:1"}) {
    const Device device(text);
    EXPECT_EQ(device.str(), text);
    EXPECT_EQ(Device::parse(device.str()), device);
  }
}

TEST(Device, AccessorsDescribeTheDevice) {
  const Device cuda1("cuda:1");
  EXPECT_TRUE(cuda1.is_cuda());
  EXPECT_FALSE(cuda1.is_cpu());
  EXPECT_FALSE(cuda1.is_sim());
  EXPECT_TRUE(cuda1.has_index());
  EXPECT_EQ(cuda1.index(), 1);
  EXPECT_EQ(cuda1.type(), pl::kCUDA);
  EXPECT_FALSE(Device("cuda").has_index());
  EXPECT_EQ(Device("cuda").index(), -1);
  EXPECT_TRUE(Device("sim:0").is_sim());
}

TEST(Device, TheCpuHasOneValue) {
  EXPECT_EQ(Device(pl::kCPU, 0), Device(pl::kCPU));
  EXPECT_EQ(Device(pl::kCPU, 0).str(), "cpu");
  EXPECT_FALSE(Device(pl::kCPU, 0).has_index());
}

TEST(Device, DifferentIndicesAreDifferentDevices) {
  EXPECT_NE(Device("cuda:0"), Device("cuda:1"));
  EXPECT_NE(Device("sim:0"), Device("sim:1"));
  EXPECT_NE(Device("cuda"), Device("cuda:0"));
  EXPECT_NE(Device("sim:0"), Device("cuda:0"));
}

TEST(Device, HashSeparatesTypesAndIndices) {
  std::unordered_set<Device> set;
  for (const char *text : {"cpu", "cuda", "cuda:0", "cuda:1", "sim", "sim:0", "sim:1"})
    set.insert(Device(text));
  EXPECT_EQ(set.size(), 7u);
  EXPECT_EQ(set.count(Device(pl::kSim, 1)), 1u);
  EXPECT_EQ(std::hash<Device>{}(Device("cuda:1")), std::hash<Device>{}(Device(pl::kCUDA, 1)));
}

TEST(Device, StreamsAsItsString) {
  std::ostringstream os;
  os << Device("sim:1") << ' ' << pl::kCUDA;
  EXPECT_EQ(os.str(), "sim:1 cuda");
}

struct BadDeviceString {
  const char *text;
  const char *reason;
};

class DeviceParseRejects : public ::testing::TestWithParam<BadDeviceString> {};

TEST_P(DeviceParseRejects, WithAClearDeviceError) {
  const BadDeviceString bad = GetParam();
  const std::string expected = std::string("invalid device string '") + bad.text +
                               "': " + bad.reason +
                               "; expected cpu, cuda, cuda:N, sim or sim:N, with N a non-negative "
                               "decimal index without leading zeros";
  EXPECT_THROW_MESSAGE(Device(bad.text), DeviceError, expected);
}

INSTANTIATE_TEST_SUITE_P(
    Grammar, DeviceParseRejects,
    ::testing::Values(BadDeviceString{"cuda:-2", "index is not a non-negative decimal number"},
                      BadDeviceString{"cuda:-1", "index is not a non-negative decimal number"},
                      BadDeviceString{"cuda:01", "leading zero in index"},
                      BadDeviceString{"sim:00", "leading zero in index"},
                      BadDeviceString{"gpu", "unknown device type"},
                      BadDeviceString{"CUDA", "unknown device type"},
                      BadDeviceString{"", "unknown device type"},
                      BadDeviceString{" cpu", "unknown device type"},
                      BadDeviceString{"cpu:1", "the cpu device takes no index"},
                      BadDeviceString{"cpu:0", "the cpu device takes no index"},
                      BadDeviceString{"cuda:", "missing index after ':'"},
                      BadDeviceString{"cuda:1:2", "index is not a non-negative decimal number"},
                      BadDeviceString{"cuda:+1", "index is not a non-negative decimal number"},
                      BadDeviceString{"cuda:1 ", "index is not a non-negative decimal number"},
                      BadDeviceString{"cuda:99999", "index out of range"}),
    // Test names show the rejected string, e.g. Grammar/DeviceParseRejects.WithAClearDeviceError/2_cuda_01.
    [](const ::testing::TestParamInfo<BadDeviceString> &info) {
      std::string name = std::to_string(info.index) + "_";
      for (const char c : std::string_view(info.param.text))
        name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return name;
    });

TEST(Device, ConstructorEnforcesTheInvariants) {
  EXPECT_THROW_CONTAINING(Device(pl::kCUDA, -2), DeviceError, "invalid device index -2 for cuda");
  EXPECT_THROW_CONTAINING(Device(pl::kCPU, 1), DeviceError, "there is one cpu device");
  EXPECT_NO_THROW(Device(pl::kSim, 0));
}

TEST(DeviceErrorType, IsAPlError) { EXPECT_THROW(Device("gpu"), pl::Error); }

// ---- availability ---------------------------------------------------------------

TEST(CudaAvailability, MatchesTheBuildAndTheMachine) {
  EXPECT_EQ(pl::cuda::is_available(), pl::cuda::device_count() > 0);
  EXPECT_GE(pl::cuda::device_count(), 0);
}

TEST(CudaRequests, WithoutAGpuThrowUnguardedCudaNamingTheCallSite) {
  if (pl::cuda::is_available())
    GTEST_SKIP() << "this machine has a GPU";
  const pl::Tensor t = pl::ones({2});
  const int line = __LINE__ + 1;
  const auto request = [&] { return t.cuda(); };
  try {
    (void)request();
    FAIL() << "cuda() succeeded without a GPU";
  } catch (const DeviceError &error) {
    const std::string message = error.what();
    EXPECT_THAT(message, ::testing::StartsWith(PL_RULE_ID_UnguardedCuda ": cuda requested at "));
    EXPECT_THAT(message, ::testing::HasSubstr("test_device.cpp:" + std::to_string(line)));
    EXPECT_THAT(message, ::testing::AnyOf(::testing::EndsWith("this build has no CUDA support"),
                                          ::testing::HasSubstr("no CUDA device is available")));
  }
}

TEST(CudaRequests, EveryEntryPointChecksAvailability) {
  if (pl::cuda::is_available())
    GTEST_SKIP() << "this machine has a GPU";
  const pl::Tensor t = pl::ones({2});
  EXPECT_THROW_CONTAINING(t.to(pl::kCUDA), DeviceError,
                          PL_RULE_ID_UnguardedCuda ": cuda requested at ");
  EXPECT_THROW_CONTAINING(t.to(Device("cuda:0")), DeviceError,
                          PL_RULE_ID_UnguardedCuda ": cuda:0 requested at ");
  EXPECT_THROW_CONTAINING(t.to(Device("cuda:1"), pl::kDouble), DeviceError, "cuda:1 requested at ");
  EXPECT_THROW_CONTAINING(pl::zeros({2}, pl::kCUDA), DeviceError, "test_device.cpp:");
  EXPECT_THROW_CONTAINING(pl::tensor({1.0}, Device("cuda:0")), DeviceError, "cuda:0 requested");
  EXPECT_THROW_CONTAINING(pl::randn({2}, pl::device(pl::kCUDA)), DeviceError, "cuda requested");
  pl::nn::Linear model(2, 2);
  EXPECT_THROW_CONTAINING(model->to(Device("cuda:0")), DeviceError,
                          PL_RULE_ID_UnguardedCuda ": cuda:0 requested at ");
  EXPECT_EQ(model->weight.device(), Device("cpu")) << "a failed move leaves the module in place";
}

TEST(CudaRequests, OutOfRangeIndexNamesTheDeviceCount) {
  if (!pl::cuda::is_available())
    GTEST_SKIP() << "needs a GPU";
  const int count = pl::cuda::device_count();
  EXPECT_THROW_CONTAINING(pl::zeros({1}, Device(pl::kCUDA, static_cast<pl::DeviceIndex>(count))),
                          DeviceError, "CUDA device");
}

TEST(SimRequests, OutOfRangeIndexIsADeviceError) {
  const int line = __LINE__ + 1;
  const auto request = [] { return pl::zeros({1}, Device("sim:2")); };
  EXPECT_THROW_MESSAGE(request(), DeviceError,
                       std::string("sim:2 requested at ") + __FILE__ + ":" + std::to_string(line) +
                           ", but there are only 2 sim devices (sim:0 to sim:1)");
  EXPECT_EQ(pl::sim::device_count(), 2);
}

TEST(SimRequests, SimWithoutIndexMeansSim0) {
  EXPECT_EQ(pl::zeros({1}, Device("sim")).device(), Device("sim:0"));
  EXPECT_EQ(pl::ones({1}).to(pl::kSim).device(), Device("sim:0"));
}

} // namespace
