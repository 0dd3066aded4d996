// The device-type registry (runtime/src/core/registry.cpp): every device type
// has an enumerator, the public availability functions read it, and a type
// this build lacks has no backend but a clear error.
#include <string>

#include <placelint/rule_ids.h>

#include "core/backend.h"
#include "core/device_enumerator.h"
#include "test_support.h"

namespace {

using pl::backend::backend_for;
using pl::backend::devices_for;

TEST(Registry, EveryDeviceTypeHasAnEnumerator) {
  EXPECT_EQ(devices_for(pl::kCPU).device_count(), 1);
  EXPECT_EQ(devices_for(pl::kSim).device_count(), pl::sim::device_count());
  EXPECT_EQ(devices_for(pl::kCUDA).device_count(), pl::cuda::device_count());
}

TEST(Registry, RequestsWithoutAnIndexMeanTheCurrentDevice) {
  EXPECT_EQ(devices_for(pl::kCPU).current_device(), -1);
  EXPECT_EQ(devices_for(pl::kSim).current_device(), 0);
}

TEST(Registry, EachBuiltInTypeHasItsOwnBackend) {
  EXPECT_NE(&backend_for(pl::kCPU), &backend_for(pl::kSim));
}

// With CUDA support the backend exists even without a GPU (only the
// enumerator asks the driver); without it, asking for the backend says so.
TEST(Registry, CudaHasABackendExactlyWhenTheBuildHasCudaSupport) {
  const pl::backend::DeviceEnumerator &cuda = devices_for(pl::kCUDA);
  EXPECT_EQ(cuda.missing_device_rule(), PL_RULE_ID_UnguardedCuda);
  if (cuda.missing_device_reason(0) != "this build has no CUDA support") {
    EXPECT_NO_THROW((void)backend_for(pl::kCUDA));
    return;
  }
  EXPECT_EQ(cuda.device_count(), 0);
  EXPECT_THROW_MESSAGE(backend_for(pl::kCUDA), pl::DeviceError,
                       PL_RULE_ID_UnguardedCuda ": cuda requested, but this build has no CUDA "
                                                "support");
}

} // namespace
