// pl::cuda streams and synchronize: libtorch's CUDA spellings of the
// device-generic front end (core/streams.cpp), which resolves the device
// first and so gives the clear error (placement-unguarded-cuda, naming the
// call site) without CUDA.
#include <pl/cuda.h>
#include <pl/cuda_stream.h>

#include "core/internal.h"

namespace pl::cuda {

CUDAStream::CUDAStream(Stream stream) : stream_(stream) {
  PL_CHECK(stream.device().is_cuda(), DeviceError, "CUDAStream: ", stream.device(),
           "'s stream is not a CUDA stream");
}

void synchronize(DeviceIndex device, std::source_location loc) {
  pl::synchronize(Device(kCUDA, device), loc);
}

CUDAStream getCurrentCUDAStream(DeviceIndex device, std::source_location loc) {
  return CUDAStream(getCurrentStream(Device(kCUDA, device), loc));
}

CUDAStream getDefaultCUDAStream(DeviceIndex device, std::source_location loc) {
  return CUDAStream(getDefaultStream(Device(kCUDA, device), loc));
}

CUDAStream getStreamFromPool(bool isHighPriority, DeviceIndex device, std::source_location loc) {
  return CUDAStream(pl::getStreamFromPool(Device(kCUDA, device), isHighPriority, loc));
}

} // namespace pl::cuda
