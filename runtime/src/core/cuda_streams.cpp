// pl::cuda streams and synchronize: the front end over the backend's stream
// capabilities (core/backend.h). Resolving the device first gives the clear
// error (placement-unguarded-cuda, naming the call site) without CUDA.
#include <pl/cuda.h>
#include <pl/cuda_stream.h>

#include "core/internal.h"

namespace pl::cuda {
namespace {

Device resolve_cuda(DeviceIndex device, std::source_location loc) {
  return detail::resolve_device(Device(kCUDA, device), loc);
}

backend::Backend &cuda_backend() { return backend::backend_for(DeviceType::CUDA); }

} // namespace

void synchronize(DeviceIndex device, std::source_location loc) {
  const Device resolved = resolve_cuda(device, loc);
  cuda_backend().synchronize_device(resolved.index());
  detail::note_device_synchronized(resolved);
}

void Stream::synchronize() const {
  cuda_backend().synchronize_stream(device_.index(), handle_);
  detail::note_stream_synchronized(device_, handle_);
}

bool Stream::query() const { return cuda_backend().stream_idle(device_.index(), handle_); }

Stream getCurrentCUDAStream(DeviceIndex device, std::source_location loc) {
  const Device resolved = resolve_cuda(device, loc);
  return Stream(resolved, cuda_backend().current_stream(resolved.index()));
}

Stream getDefaultCUDAStream(DeviceIndex device, std::source_location loc) {
  return Stream(resolve_cuda(device, loc), nullptr);
}

Stream getStreamFromPool(bool isHighPriority, DeviceIndex device, std::source_location loc) {
  const Device resolved = resolve_cuda(device, loc);
  return Stream(resolved, cuda_backend().stream_from_pool(resolved.index(), isHighPriority));
}

void setCurrentCUDAStream(Stream stream) {
  cuda_backend().set_current_stream(stream.device_index(), stream.native_handle());
}

CUDAStreamGuard::CUDAStreamGuard(Stream stream)
    : original_(getCurrentCUDAStream(stream.device_index())), current_(stream) {
  setCurrentCUDAStream(stream);
}

CUDAStreamGuard::~CUDAStreamGuard() { setCurrentCUDAStream(original_); }

} // namespace pl::cuda
