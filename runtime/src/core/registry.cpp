// Backend registration by device type, device resolution and availability.
#include <sstream>

#include <pl/cuda.h>
#include <pl/sim.h>
#include <placelint/rule_ids.h>

#include "core/builtin_backends.h"
#include "core/internal.h"

namespace pl {
namespace backend {

Backend &backend_for(DeviceType type) {
  switch (type) {
  case DeviceType::CPU:
    return cpu_backend();
  case DeviceType::Sim:
    return sim_backend();
  case DeviceType::CUDA:
#if defined(PL_HAVE_CUDA)
    return cuda_backend();
#else
    detail::fail<DeviceError>(PL_RULE_ID_UnguardedCuda ": cuda requested, but this build has no "
                                                       "CUDA support");
#endif
  }
  PL_ASSERT(false && "unknown DeviceType");
  return cpu_backend();
}

} // namespace backend

namespace cuda {

int device_count() {
#if defined(PL_HAVE_CUDA)
  return backend::cuda_backend().device_count();
#else
  return 0;
#endif
}

bool is_available() { return device_count() > 0; }

} // namespace cuda

namespace detail {
namespace {

std::string where(std::source_location loc) {
  std::ostringstream text;
  text << loc.file_name() << ':' << loc.line();
  return text.str();
}

} // namespace

Device resolve_device(Device requested, std::source_location loc) {
  switch (requested.type()) {
  case DeviceType::CPU:
    return requested;
  case DeviceType::Sim: {
    const DeviceIndex index = requested.has_index() ? requested.index() : 0;
    PL_CHECK(index < sim::kDeviceCount, DeviceError, requested, " requested at ", where(loc),
             ", but there are only ", sim::kDeviceCount,
             " sim devices (sim:0 to sim:", sim::kDeviceCount - 1, ")");
    return Device(DeviceType::Sim, index);
  }
  case DeviceType::CUDA: {
#if defined(PL_HAVE_CUDA)
    const int count = cuda::device_count();
    PL_CHECK(count > 0, DeviceError, PL_RULE_ID_UnguardedCuda ": ", requested, " requested at ",
             where(loc), ", but no CUDA device is available (check pl::cuda::is_available())");
    const DeviceIndex index =
        requested.has_index() ? requested.index() : backend::cuda_backend().current_device();
    PL_CHECK(index < count, DeviceError, PL_RULE_ID_UnguardedCuda ": ", requested, " requested at ",
             where(loc), ", but only ", count, " CUDA device", count == 1 ? " is" : "s are",
             " available (check pl::cuda::device_count())");
    return Device(DeviceType::CUDA, index);
#else
    fail<DeviceError>(PL_RULE_ID_UnguardedCuda ": ", requested, " requested at ", where(loc),
                      ", but this build has no CUDA support");
#endif
  }
  }
  PL_ASSERT(false && "unknown DeviceType");
  return requested;
}

} // namespace detail
} // namespace pl
