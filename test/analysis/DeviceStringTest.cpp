#include "placelint/analysis/DeviceString.h"

#include <gtest/gtest.h>

namespace placelint::analysis {
namespace {

TEST(DeviceStringTest, AcceptsTheGrammar) {
  EXPECT_EQ(parseDeviceString("cpu"), AbstractDevice::cpu());
  EXPECT_EQ(parseDeviceString("cuda"), AbstractDevice::cuda());
  EXPECT_EQ(parseDeviceString("cuda:0"), AbstractDevice::cuda(0));
  EXPECT_EQ(parseDeviceString("cuda:1"), AbstractDevice::cuda(1));
  EXPECT_EQ(parseDeviceString("cuda:15"), AbstractDevice::cuda(15));
  EXPECT_EQ(parseDeviceString("sim:0"), AbstractDevice::sim(0));
  EXPECT_EQ(parseDeviceString("sim:3"), AbstractDevice::sim(3));
  EXPECT_EQ(parseDeviceString("sim"), AbstractDevice::sim());
  EXPECT_EQ(parseDeviceString("cuda:32767"), AbstractDevice::cuda(32767));
}

TEST(DeviceStringTest, RejectsEverythingElse) {
  for (const char *Bad : {"", "gpu", "CUDA", "Cpu", "cpu:0", "cuda:", "cuda:01", "cuda:-1",
                          "cuda:+1", "cuda:1:2", "cuda:x", " cuda", "cuda ", "sim:",
                          "sim:01", "cpu:1", ":0", "cuda:32768", "cuda:99999999999"})
    EXPECT_FALSE(parseDeviceString(Bad)) << "'" << Bad << "'";
}

} // namespace
} // namespace placelint::analysis
