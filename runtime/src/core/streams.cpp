// pl::Stream, pl::Event and pl::synchronize: the device-generic front end
// over the backend's stream capabilities (core/backend.h), like c10::Stream
// and c10::Event. Resolving the device first gives the clear error naming
// the call site for a device that does not exist.
#include <pl/stream.h>

#include "core/device_enumerator.h"
#include "core/internal.h"

namespace pl {
namespace {

// A resolved device that has streams; DeviceError naming loc otherwise.
Device stream_device(std::string_view op, Device requested, std::source_location loc) {
  const Device device = detail::resolve_device(requested, loc);
  PL_CHECK(!device.is_cpu(), DeviceError, op, ": ", device, " has no streams (at ",
           loc.file_name(), ":", loc.line(), ")");
  return device;
}

// The backend of a stream's device, which must exist and have streams (a
// pl::Stream can be constructed from anything).
backend::Backend &backend_of(const Stream &stream) {
  const Device device = stream.device();
  PL_CHECK(!device.is_cpu() && device.index() >= 0 &&
               device.index() < backend::devices_for(device.type()).device_count(),
           DeviceError, "the stream's device ", device, " has no streams here");
  return backend::backend_for(device.type());
}

} // namespace

void Stream::synchronize() const {
  backend_of(*this).synchronize_stream(device_index(), handle_);
  detail::note_stream_synchronized(device_, handle_);
}

bool Stream::query() const { return backend_of(*this).stream_idle(device_index(), handle_); }

Stream getCurrentStream(Device device, std::source_location loc) {
  const Device resolved = stream_device("getCurrentStream", device, loc);
  return Stream(resolved, backend::backend_for(resolved.type()).current_stream(resolved.index()));
}

Stream getDefaultStream(Device device, std::source_location loc) {
  return Stream(stream_device("getDefaultStream", device, loc), nullptr);
}

Stream getStreamFromPool(Device device, bool isHighPriority, std::source_location loc) {
  const Device resolved = stream_device("getStreamFromPool", device, loc);
  return Stream(resolved, backend::backend_for(resolved.type())
                              .stream_from_pool(resolved.index(), isHighPriority));
}

void setCurrentStream(Stream stream) {
  backend_of(stream).set_current_stream(stream.device_index(), stream.native_handle());
}

void synchronize(Device device, std::source_location loc) {
  // Work on the cpu is done when its call returns, so code written for any
  // device may synchronise it.
  if (detail::resolve_device(device, loc).is_cpu())
    return;
  const Device resolved = stream_device("synchronize", device, loc);
  backend::backend_for(resolved.type()).synchronize_device(resolved.index());
  detail::note_device_synchronized(resolved);
}

StreamGuard::StreamGuard(Stream stream)
    : original_(getCurrentStream(stream.device())), current_(stream) {
  setCurrentStream(stream);
}

StreamGuard::~StreamGuard() { setCurrentStream(original_); }

void Event::record(const Stream &stream) {
  std::shared_ptr<backend::StreamEvent> event =
      backend_of(stream).record_event(stream.device_index(), stream.native_handle());
  PL_CHECK(event != nullptr, DeviceError, "Event::record: ", stream.device(),
           " has no events in this build");
  recorded_ = std::move(event);
  device_ = stream.device();
  stream_ = stream.native_handle();
  tick_ = detail::next_sync_tick();
}

void Event::record(Device device, std::source_location loc) {
  record(getCurrentStream(device, loc));
}

void Event::block(const Stream &stream) const {
  if (recorded_ != nullptr)
    backend_of(stream).stream_wait_event(stream.device_index(), stream.native_handle(), recorded_);
}

bool Event::query() const { return recorded_ == nullptr || recorded_->done(); }

void Event::synchronize() const {
  if (recorded_ == nullptr)
    return;
  recorded_->synchronize();
  detail::note_stream_synchronized_up_to(device_, stream_, tick_);
}

double Event::elapsed_time(const Event &end) const {
  PL_CHECK(recorded_ != nullptr && end.recorded_ != nullptr, Error,
           "elapsed_time: both events must be recorded");
  return end.recorded_->elapsed_ms_since(*recorded_);
}

} // namespace pl
