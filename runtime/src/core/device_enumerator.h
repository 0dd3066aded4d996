// Device enumeration: which devices of one type exist, apart from their
// memory and kernels (core/backend.h). After c10's DeviceGuardImplInterface
// and ggml's backend_reg: one small object per device type, looked up by
// type, so that the front end resolves and checks a requested device without
// knowing any device type itself.
//
// Every device type has an enumerator, also one whose backend this build
// lacks: that one reports no devices and says why (core/registry.cpp), so
// "cuda" without CUDA support is an error message, not a missing entry.
#pragma once

#include <string>
#include <string_view>

#include <pl/device.h>

namespace pl::backend {

class DeviceEnumerator {
public:
  // Devices usable now; 0 when none (CUDA: no driver, no GPU, or no CUDA
  // support in this build). Never throws.
  virtual int device_count() const noexcept = 0;
  // The index a request without one means ("cuda": the current CUDA device;
  // cpu has no index, -1). Called only when device_count() > 0.
  virtual DeviceIndex current_device() const = 0;
  // The rule a request for a device that does not exist breaks, which starts
  // the error message; empty for none.
  virtual std::string_view missing_device_rule() const noexcept = 0;
  // Why a requested device is not one of the `count` (= device_count())
  // devices: ends the message "cuda:1 requested at f.cpp:12, but <reason>".
  virtual std::string missing_device_reason(int count) const = 0;

protected:
  // Enumerators are process-lifetime singletons, never deleted through this.
  ~DeviceEnumerator() = default;
};

// The enumerator of a device type; there is one for every DeviceType.
const DeviceEnumerator &devices_for(DeviceType type);

} // namespace pl::backend
