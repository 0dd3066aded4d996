// The sim backend: a simulated accelerator with kDeviceCount devices. Each
// device has its own host allocations (its own caching allocator) and runs
// the host kernels, asynchronously as a GPU does: every kernel, copy and
// free is queued on the calling thread's current sim stream and runs later
// on that stream's worker (sim_stream.h). Every copy to, from or between sim
// devices is counted when it is queued. Pinned host memory comes from a
// PinnedBlockCache, so a non_blocking copy really returns before its bytes
// move.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

#include <pl/sim.h>

#include "core/builtin_backends.h"
#include "core/pinned_block_cache.h"
#include "host/caching_allocator.h"
#include "host/kernels.h"
#include "host/thread_pool.h"
#include "sim/sim_delay.h"
#include "sim/sim_stream.h"

namespace pl {
namespace backend {
namespace {

using sim_detail::SimStream;

constexpr std::size_t kMaxCachedBytesPerDevice = std::size_t{256} << 20;
// Pool streams per device (handed out in turn); sim has no priorities.
constexpr std::size_t kPoolStreams = 4;

struct AtomicStats {
  std::atomic<std::uint64_t> host_to_device_bytes{0};
  std::atomic<std::uint64_t> device_to_host_bytes{0};
  std::atomic<std::uint64_t> device_to_device_bytes{0};
  std::atomic<std::uint64_t> host_to_device_copies{0};
  std::atomic<std::uint64_t> device_to_host_copies{0};
  std::atomic<std::uint64_t> device_to_device_copies{0};
};

class SimDevices final : public DeviceEnumerator {
public:
  int device_count() const noexcept override { return sim::kDeviceCount; }
  // A request for "sim" means sim:0: sim has no current device to change.
  DeviceIndex current_device() const override { return 0; }
  std::string_view missing_device_rule() const noexcept override { return {}; }
  std::string missing_device_reason(int count) const override {
    return "there are only " + std::to_string(count) + " sim devices (sim:0 to sim:" +
           std::to_string(count - 1) + ")";
  }
};

// The point after a task on a sim stream; its time is taken when the
// worker reaches it (for elapsed_time).
class SimEvent final : public StreamEvent {
public:
  static std::shared_ptr<SimEvent> record(SimStream &stream) {
    auto event = std::make_shared<SimEvent>();
    event->stream_ = &stream;
    event->seq_ = stream.enqueue([event] { event->reached_ = std::chrono::steady_clock::now(); });
    return event;
  }
  bool done() override { return stream_->done(seq_); }
  void synchronize() override { stream_->wait_until(seq_); }
  double elapsed_ms_since(StreamEvent &start) override {
    auto *const begin = dynamic_cast<SimEvent *>(&start);
    PL_CHECK(begin != nullptr, Error,
             "elapsed_time: the events were recorded on different kinds of device");
    PL_CHECK(begin->done() && done(), Error,
             "elapsed_time: both events must be complete (synchronize the later one first)");
    return std::chrono::duration<double, std::milli>(reached_ - begin->reached_).count();
  }

private:
  SimStream *stream_ = nullptr;
  std::uint64_t seq_ = 0;
  // Written by the worker before the task completes; read once done().
  std::chrono::steady_clock::time_point reached_;
};

// The streams of one device, made on first use: the default stream and the pool.
class DeviceStreams {
public:
  SimStream &default_stream() { return made(default_); }
  SimStream &from_pool() {
    return made(pool_[next_pool_.fetch_add(1, std::memory_order_relaxed) % kPoolStreams]);
  }
  // Whether `stream` is one of this device's pool streams.
  bool in_pool(const SimStream *stream) {
    std::lock_guard lock(mutex_);
    return std::any_of(pool_.begin(), pool_.end(),
                       [&](const std::unique_ptr<SimStream> &s) { return s.get() == stream; });
  }
  // Every stream made so far.
  template <class Visit> void for_each_made(Visit &&visit) {
    std::lock_guard lock(mutex_);
    if (default_)
      visit(*default_);
    for (auto &stream : pool_)
      if (stream)
        visit(*stream);
  }

private:
  SimStream &made(std::unique_ptr<SimStream> &slot) {
    std::lock_guard lock(mutex_);
    if (!slot) {
      prepare_first_stream();
      slot = std::make_unique<SimStream>();
    }
    return *slot;
  }
  static void prepare_first_stream();

  std::mutex mutex_;
  std::unique_ptr<SimStream> default_;
  std::array<std::unique_ptr<SimStream>, kPoolStreams> pool_;
  std::atomic<std::size_t> next_pool_{0};
};

// The calling thread's current stream per device; nullptr is the default stream.
thread_local std::array<SimStream *, sim::kDeviceCount> current_streams{};

class SimBackend final : public Backend {
public:
  SimBackend() {
    for (int i = 0; i < sim::kDeviceCount; ++i)
      allocators_[i] = std::make_unique<host::CachingHostAllocator>("sim:" + std::to_string(i),
                                                                   kMaxCachedBytesPerDevice);
  }

  // ---- memory --------------------------------------------------------------
  void *allocate(DeviceIndex device, std::size_t nbytes) override {
    return allocator(device).allocate(nbytes);
  }
  // Queued: the block goes back to the cache once the work queued before the
  // free (which may still read it) has run.
  void deallocate(DeviceIndex device, void *ptr, std::size_t nbytes) noexcept override {
    host::CachingHostAllocator *const owner = &allocator(device);
    current(device).enqueue([owner, ptr, nbytes] { owner->deallocate(ptr, nbytes); });
  }
  void copy_from_host(void *dst, DeviceIndex device, const void *src, std::size_t nbytes,
                      bool non_blocking) override {
    stats_.host_to_device_bytes += nbytes;
    ++stats_.host_to_device_copies;
    SimStream &stream = current(device);
    const std::uint64_t seq = stream.enqueue([=] { std::memcpy(dst, src, nbytes); });
    if (non_blocking)
      keep_pinned_block(src, stream);
    else
      stream.wait_until(seq);
  }
  void copy_to_host(void *dst, const void *src, DeviceIndex device, std::size_t nbytes,
                    bool non_blocking) override {
    stats_.device_to_host_bytes += nbytes;
    ++stats_.device_to_host_copies;
    SimStream &stream = current(device);
    const std::uint64_t seq = stream.enqueue([=] { std::memcpy(dst, src, nbytes); });
    if (non_blocking)
      keep_pinned_block(dst, stream);
    else
      stream.wait_until(seq);
  }
  // Synchronous, as cudaMemcpyPeer on the default stream: after the work
  // queued on both devices so far.
  void copy_between_devices(void *dst, DeviceIndex dst_device, const void *src,
                            DeviceIndex src_device, std::size_t nbytes) override {
    stats_.device_to_device_bytes += nbytes;
    ++stats_.device_to_device_copies;
    current(src_device).synchronize();
    SimStream &stream = current(dst_device);
    stream.wait_until(stream.enqueue([=] { std::memcpy(dst, src, nbytes); }));
  }

  // ---- kernels: the host kernels, queued -----------------------------------
  void fill(DeviceIndex device, const TensorArg &out, ScalarArg value) override {
    current(device).enqueue([out, value] { host::fill(out, value); });
  }
  void copy(DeviceIndex device, const TensorArg &out, const TensorArg &in) override {
    current(device).enqueue([out, in] { host::copy(out, in); });
  }
  void unary(DeviceIndex device, UnaryOp op, const TensorArg &out, const TensorArg &in) override {
    current(device).enqueue([op, out, in] { host::unary(op, out, in); });
  }
  void binary(DeviceIndex device, BinaryOp op, const TensorArg &out, const TensorArg &a,
              const TensorArg &b) override {
    current(device).enqueue([op, out, a, b] { host::binary(op, out, a, b); });
  }
  void binary_scalar(DeviceIndex device, BinaryOp op, const TensorArg &out, const TensorArg &a,
                     ScalarArg s, bool scalar_is_lhs) override {
    current(device).enqueue(
        [op, out, a, s, scalar_is_lhs] { host::binary_scalar(op, out, a, s, scalar_is_lhs); });
  }
  void reduce(DeviceIndex device, ReduceOp op, const TensorArg &out, const TensorArg &in,
              std::uint32_t reduced_dims) override {
    current(device).enqueue(
        [op, out, in, reduced_dims] { host::reduce(op, out, in, reduced_dims); });
  }
  void gemm(DeviceIndex device, const GemmArgs &args) override {
    current(device).enqueue([args] { host::gemm(args); });
  }

  // ---- pinned host memory and streams ------------------------------------------
  bool has_pinned_host_memory() const override { return true; }
  void *allocate_pinned_host(std::size_t nbytes) override { return pinned_.allocate(nbytes); }
  void deallocate_pinned_host(void *ptr) noexcept override { pinned_.deallocate(ptr); }

  StreamHandle current_stream(DeviceIndex device) override {
    return current_streams[index(device)];
  }
  void set_current_stream(DeviceIndex device, StreamHandle stream) override {
    (void)checked_stream(device, stream);
    current_streams[index(device)] = static_cast<SimStream *>(stream);
  }
  StreamHandle stream_from_pool(DeviceIndex device, bool /*high_priority*/) override {
    return &streams_[index(device)].from_pool();
  }
  void synchronize_stream(DeviceIndex device, StreamHandle stream) override {
    checked_stream(device, stream).synchronize();
  }
  bool stream_idle(DeviceIndex device, StreamHandle stream) override {
    return checked_stream(device, stream).idle();
  }
  void synchronize_device(DeviceIndex device) override {
    std::vector<SimStream *> made;
    streams_[index(device)].for_each_made([&](SimStream &s) { made.push_back(&s); });
    for (SimStream *stream : made)
      stream->synchronize();
  }
  std::shared_ptr<StreamEvent> record_event(DeviceIndex device, StreamHandle stream) override {
    return SimEvent::record(checked_stream(device, stream));
  }
  void stream_wait_event(DeviceIndex device, StreamHandle stream,
                         std::shared_ptr<StreamEvent> event) override {
    checked_stream(device, stream).enqueue([event] { event->synchronize(); });
  }

  // ---- pl::sim --------------------------------------------------------------------
  sim::TransferStats transfer_stats() const {
    sim::TransferStats s;
    s.host_to_device_bytes = stats_.host_to_device_bytes;
    s.device_to_host_bytes = stats_.device_to_host_bytes;
    s.device_to_device_bytes = stats_.device_to_device_bytes;
    s.host_to_device_copies = stats_.host_to_device_copies;
    s.device_to_host_copies = stats_.device_to_host_copies;
    s.device_to_device_copies = stats_.device_to_device_copies;
    return s;
  }
  void reset_transfer_stats() {
    stats_.host_to_device_bytes = 0;
    stats_.device_to_host_bytes = 0;
    stats_.device_to_device_bytes = 0;
    stats_.host_to_device_copies = 0;
    stats_.device_to_host_copies = 0;
    stats_.device_to_device_copies = 0;
  }
  std::uint64_t allocated_bytes(int device) {
    synchronize_device(static_cast<DeviceIndex>(device));
    return allocators_[static_cast<std::size_t>(device)]->stats().allocated_bytes;
  }
  void set_delay(sim::Delay delay) {
    sim_detail::store_delay(delay);
    for (DeviceStreams &device : streams_)
      device.for_each_made([](SimStream &stream) { stream.notify_delay_changed(); });
  }
  // At process exit: runs what is queued and joins the workers; later work
  // (storages freed by static destructors) runs on its caller.
  void shut_down_streams() {
    for (DeviceStreams &device : streams_)
      device.for_each_made([](SimStream &stream) { stream.shutdown(); });
  }

private:
  static std::size_t index(DeviceIndex device) {
    PL_ASSERT(device >= 0 && device < sim::kDeviceCount);
    return static_cast<std::size_t>(device);
  }
  host::CachingHostAllocator &allocator(DeviceIndex device) { return *allocators_[index(device)]; }
  SimStream &stream_of(DeviceIndex device, StreamHandle stream) {
    return stream == nullptr ? streams_[index(device)].default_stream()
                             : *static_cast<SimStream *>(stream);
  }
  // A handle from a pl::Stream, which anyone can construct: the default
  // stream or one of the device's pool streams, else a DeviceError.
  SimStream &checked_stream(DeviceIndex device, StreamHandle stream) {
    PL_CHECK(stream == nullptr || streams_[index(device)].in_pool(static_cast<SimStream *>(stream)),
             DeviceError, "sim:", device,
             ": the stream is none of its streams (pl::getDefaultStream, pl::getStreamFromPool)");
    return stream_of(device, stream);
  }
  SimStream &current(DeviceIndex device) { return stream_of(device, current_stream(device)); }
  // The front end's contract: a non_blocking copy's host side is this
  // backend's pinned memory. Its block waits for the copy before reuse.
  void keep_pinned_block(const void *host, SimStream &stream) {
    const bool pinned = pinned_.record_use(host, SimEvent::record(stream));
    PL_ASSERT(pinned);
  }

  std::array<std::unique_ptr<host::CachingHostAllocator>, sim::kDeviceCount> allocators_;
  std::array<DeviceStreams, sim::kDeviceCount> streams_;
  PinnedBlockCache pinned_;
  AtomicStats stats_;
};

SimBackend &sim_instance() {
  // Never destroyed: storages may be freed during static destruction.
  static SimBackend *const instance = new SimBackend();
  return *instance;
}

void DeviceStreams::prepare_first_stream() {
  // A bad PL_SIM_DELAY is reported here, to the caller, not in a worker.
  (void)sim_detail::current_delay();
  static std::once_flag registered;
  std::call_once(registered, [] {
    // The host thread pool the kernels use must outlive the workers: made
    // before the exit handler is registered, it is destroyed after it runs.
    (void)host::parallel_threads();
    std::atexit([] { sim_instance().shut_down_streams(); });
  });
}

} // namespace

const DeviceEnumerator &sim_devices() {
  static const SimDevices instance;
  return instance;
}

Backend &sim_backend() { return sim_instance(); }

} // namespace backend

namespace sim {

int device_count() { return kDeviceCount; }
TransferStats transfer_stats() { return backend::sim_instance().transfer_stats(); }
void reset_transfer_stats() { backend::sim_instance().reset_transfer_stats(); }
std::uint64_t allocated_bytes(int index) {
  PL_CHECK(index >= 0 && index < kDeviceCount, DeviceError, "sim:", index,
           " does not exist: there are ", kDeviceCount, " sim devices");
  return backend::sim_instance().allocated_bytes(index);
}
void set_delay(Delay delay) {
  PL_CHECK(delay.per_task.count() >= 0, Error, "set_delay: a negative delay (",
           delay.per_task.count(), "us)");
  backend::sim_instance().set_delay(delay);
}
Delay delay() { return backend::sim_detail::current_delay(); }

} // namespace sim
} // namespace pl
