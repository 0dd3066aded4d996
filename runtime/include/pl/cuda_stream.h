// CUDA streams, like c10::cuda::CUDAStream and its guard: libtorch's CUDA
// spellings over the device-generic pl::Stream (<pl/stream.h>), which holds
// the state and does the work. As c10's CUDAStream wraps a c10::Stream, a
// CUDAStream holds one pl::Stream of a CUDA device and converts to it
// (unwrap()), so code written for any device takes it as it is.
//
// Each thread has a current stream per device (the device's default stream
// until set), and every kernel, cuBLAS call and copy pl runs on a device goes
// to the calling thread's current stream there. A tensor made on one stream
// and used on another needs a synchronisation in between
// (CUDAStream::synchronize, pl::cuda::synchronize), as in libtorch.
//
// Asking for a stream without a CUDA device throws pl::DeviceError naming the
// call site (placement-unguarded-cuda).
#pragma once

#include <source_location>

#include <pl/device.h>
#include <pl/stream.h>

namespace pl::cuda {

class CUDAStream {
public:
  // pl::DeviceError when `stream` is not a CUDA device's.
  explicit CUDAStream(Stream stream);

  Device device() const noexcept { return stream_.device(); }
  DeviceIndex device_index() const noexcept { return stream_.device_index(); }
  // The cudaStream_t, for calls into CUDA libraries; nullptr for the default stream.
  void *native_handle() const noexcept { return stream_.native_handle(); }
  // Waits until all work queued on the stream so far has finished.
  void synchronize() const { stream_.synchronize(); }
  // Whether all work queued on the stream so far has finished.
  bool query() const { return stream_.query(); }

  Stream unwrap() const noexcept { return stream_; }
  operator Stream() const noexcept { return stream_; }

  friend bool operator==(const CUDAStream &, const CUDAStream &) = default;

private:
  Stream stream_;
};

// The calling thread's current stream on `device` (-1: the current device).
CUDAStream getCurrentCUDAStream(DeviceIndex device = -1,
                                std::source_location loc = std::source_location::current());
// The device's default stream.
CUDAStream getDefaultCUDAStream(DeviceIndex device = -1,
                                std::source_location loc = std::source_location::current());
// One of a few streams per device, created once and handed out in turn.
CUDAStream getStreamFromPool(bool isHighPriority = false, DeviceIndex device = -1,
                             std::source_location loc = std::source_location::current());
// Makes `stream` the calling thread's current stream on its device.
inline void setCurrentCUDAStream(CUDAStream stream) { setCurrentStream(stream.unwrap()); }

// Makes a stream current on its device for a scope, then restores the
// stream that was current there before (a pl::StreamGuard).
class CUDAStreamGuard {
public:
  explicit CUDAStreamGuard(CUDAStream stream) : guard_(stream.unwrap()) {}

  CUDAStream original_stream() const { return CUDAStream(guard_.original_stream()); }
  CUDAStream current_stream() const { return CUDAStream(guard_.current_stream()); }

private:
  StreamGuard guard_;
};

} // namespace pl::cuda
