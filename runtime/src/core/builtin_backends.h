// The device types built into this library, each as its two halves: the
// enumerator (which devices exist) and the backend (memory, copies, kernels).
// core/registry.cpp registers them by device type; nothing else calls these.
// Each returns a process-lifetime singleton (never destroyed: storages may be
// freed during static destruction) whose construction cannot fail.
#pragma once

#include "core/backend.h"
#include "core/device_enumerator.h"

namespace pl::backend {

// runtime/src/cpu
const DeviceEnumerator &cpu_devices();
Backend &cpu_backend();

// runtime/src/sim
const DeviceEnumerator &sim_devices();
Backend &sim_backend();

#if defined(PL_HAVE_CUDA)
// runtime/src/cuda; needs no GPU to construct: without one, cuda_devices()
// reports 0 devices and cuda_backend() is never called.
const DeviceEnumerator &cuda_devices();
Backend &cuda_backend();
#endif

} // namespace pl::backend
