// CUDA streams, like c10::cuda::CUDAStream and its guard: each thread has a
// current stream per device (the device's default stream until set), and
// every kernel, cuBLAS call and copy pl runs on a device goes to the calling
// thread's current stream there. Work on different streams may overlap; work
// on one stream runs in order. A tensor made on one stream and used on
// another needs a synchronisation in between (Stream::synchronize,
// pl::cuda::synchronize), as in libtorch.
//
// Asking for a stream without a CUDA device throws pl::DeviceError naming the
// call site (placement-unguarded-cuda).
#pragma once

#include <source_location>

#include <pl/device.h>

namespace pl::cuda {

class Stream {
public:
  // The device's default stream (native handle nullptr) is never created or
  // destroyed; pool streams live as long as the process.
  Stream(Device device, void *native_handle) : device_(device), handle_(native_handle) {}

  Device device() const noexcept { return device_; }
  DeviceIndex device_index() const noexcept { return device_.index(); }
  // The cudaStream_t, for calls into CUDA libraries; nullptr for the default stream.
  void *native_handle() const noexcept { return handle_; }
  // Waits until all work queued on the stream so far has finished.
  void synchronize() const;
  // Whether all work queued on the stream so far has finished.
  bool query() const;

  friend bool operator==(const Stream &a, const Stream &b) noexcept {
    return a.device_ == b.device_ && a.handle_ == b.handle_;
  }

private:
  Device device_;
  void *handle_;
};

// The calling thread's current stream on `device` (-1: the current device).
Stream getCurrentCUDAStream(DeviceIndex device = -1,
                            std::source_location loc = std::source_location::current());
// The device's default stream.
Stream getDefaultCUDAStream(DeviceIndex device = -1,
                            std::source_location loc = std::source_location::current());
// One of a few streams per device, created once and handed out in turn.
Stream getStreamFromPool(bool isHighPriority = false, DeviceIndex device = -1,
                         std::source_location loc = std::source_location::current());
// Makes `stream` the calling thread's current stream on its device.
void setCurrentCUDAStream(Stream stream);

// Makes a stream current on its device for a scope, then restores the
// stream that was current there before.
class CUDAStreamGuard {
public:
  explicit CUDAStreamGuard(Stream stream);
  ~CUDAStreamGuard();
  CUDAStreamGuard(const CUDAStreamGuard &) = delete;
  CUDAStreamGuard &operator=(const CUDAStreamGuard &) = delete;

  Stream original_stream() const noexcept { return original_; }
  Stream current_stream() const noexcept { return current_; }

private:
  Stream original_;
  Stream current_;
};

} // namespace pl::cuda
