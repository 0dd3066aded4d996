// Device-generic streams and events, like c10::Stream and c10::Event: each
// thread has a current stream per device (the device's default stream until
// set), and every kernel and copy pl runs on a device goes to the calling
// thread's current stream there. Work on one stream runs in order; work on
// different streams may overlap. Works for every accelerator with streams
// (sim, cuda); pl::cuda::CUDAStream wraps one in libtorch's CUDA spellings
// (<pl/cuda_stream.h>).
//
// Asking for a stream of a device with none (the cpu), or of one that does
// not exist, is a pl::DeviceError naming the call site.
#pragma once

#include <cstdint>
#include <memory>
#include <source_location>

#include <pl/device.h>

namespace pl {

namespace backend {
class StreamEvent;
}

class Stream {
public:
  Stream(Device device, void *native_handle) : device_(device), handle_(native_handle) {}

  Device device() const noexcept { return device_; }
  DeviceIndex device_index() const noexcept { return device_.index(); }
  // The backend's handle; nullptr for the device's default stream.
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

// The calling thread's current stream on `device` ("sim" means sim:0).
Stream getCurrentStream(Device device, std::source_location loc = std::source_location::current());
Stream getDefaultStream(Device device, std::source_location loc = std::source_location::current());
// One of a few streams per device, created once and handed out in turn
// (high priority: from the device's high-priority pool, where it has one).
Stream getStreamFromPool(Device device, bool isHighPriority = false,
                         std::source_location loc = std::source_location::current());
// Makes `stream` the calling thread's current stream on its device.
void setCurrentStream(Stream stream);
// Waits for all work queued on the device, on any stream (on the cpu,
// where work is done when its call returns, nothing).
void synchronize(Device device, std::source_location loc = std::source_location::current());

// Makes a stream current on its device for a scope, then restores the one
// that was current before.
class StreamGuard {
public:
  explicit StreamGuard(Stream stream);
  ~StreamGuard();
  StreamGuard(const StreamGuard &) = delete;
  StreamGuard &operator=(const StreamGuard &) = delete;

  Stream original_stream() const noexcept { return original_; }
  Stream current_stream() const noexcept { return current_; }

private:
  Stream original_;
  Stream current_;
};

// A point in a stream's work. Unrecorded, it counts as complete.
class Event {
public:
  Event() = default;
  // Marks the point after the work queued on `stream` so far (re-recording
  // moves the point).
  void record(const Stream &stream);
  // Marks the point on the current stream of `device`.
  void record(Device device, std::source_location loc = std::source_location::current());
  // Makes later work on `stream` wait for this point (the host does not wait).
  void block(const Stream &stream) const;
  // Whether the work before the point has finished.
  bool query() const;
  // Waits until the work before the point has finished.
  void synchronize() const;
  // Milliseconds from this event to `end`, both recorded and complete;
  // pl::Error otherwise.
  double elapsed_time(const Event &end) const;
  bool is_recorded() const noexcept { return recorded_ != nullptr; }

private:
  std::shared_ptr<backend::StreamEvent> recorded_;
  // Where it was recorded, for the transfer guard's happens-before
  // (placement-unsynchronized-read): synchronising the event covers the
  // copies queued on that stream before it.
  Device device_ = Device(kCPU);
  void *stream_ = nullptr;
  std::uint64_t tick_ = 0;
};

} // namespace pl
