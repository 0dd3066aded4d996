// The data behind a Tensor handle: StorageImpl (one allocation on one
// device, with the version counter every view of it shares) and TensorImpl
// (a strided view of a storage). Public so that Tensor's hot accessors
// (device, dtype, sizes) stay inline; user code goes through Tensor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <source_location>
#include <vector>

#include <pl/device.h>
#include <pl/dim_vector.h>
#include <pl/scalar_type.h>

namespace pl {

namespace autograd {
struct AutogradMeta;
}

class StorageImpl {
public:
  // Allocates nbytes on `device` (a concrete, available device) through its
  // backend; throws AllocationError.
  StorageImpl(Device device, std::size_t nbytes);
  // Wraps memory the caller owns (from_blob); `deleter` (may be empty) runs
  // when the last view goes away.
  StorageImpl(Device device, void *data, std::size_t nbytes, std::function<void(void *)> deleter);
  // Page-locked host memory (a cpu storage) from the backend of the
  // `accelerator` device type, which copies from and to it asynchronously;
  // throws DeviceError when that backend has none.
  struct PinnedFor {
    DeviceType accelerator;
  };
  StorageImpl(std::size_t nbytes, PinnedFor pinned);
  ~StorageImpl();
  StorageImpl(const StorageImpl &) = delete;
  StorageImpl &operator=(const StorageImpl &) = delete;

  void *data() const noexcept { return data_; }
  std::size_t nbytes() const noexcept { return nbytes_; }
  Device device() const noexcept { return device_; }
  bool is_pinned() const noexcept { return pinned_for_.has_value(); }
  // The accelerator whose pinned memory this is (none when pageable).
  std::optional<DeviceType> pinned_for() const noexcept { return pinned_for_; }
  // Unique for the life of the process (addresses are reused, ids are not).
  std::uint64_t id() const noexcept { return id_; }
  std::uint32_t version() const noexcept { return version_; }
  void bump_version() noexcept { ++version_; }

  // placement-create-then-move: a storage a host factory just made, that no
  // op, view or data access has read yet, remembers the factory's call site
  // so that the transfer guard can name it when the storage is moved at once.
  void mark_fresh_from_host_factory(std::source_location factory) noexcept {
    fresh_from_factory_ = factory;
  }
  // Called on every read; the check keeps the hot path free of stores.
  void mark_used() noexcept {
    if (fresh_from_factory_.has_value()) [[unlikely]]
      fresh_from_factory_.reset();
  }
  const std::optional<std::source_location> &fresh_from_factory() const noexcept {
    return fresh_from_factory_;
  }

  // placement-unsynchronized-read: the pinned destination of a non_blocking
  // device-to-host copy remembers where that copy was queued (its device,
  // stream, the host's stream-order tick, the call site), so that a host read
  // with no synchronisation since is reported by happens-before, whether or
  // not the copy has finished by chance. Set once, when the storage is made.
  struct QueuedDownload {
    Device device;
    void *stream;
    std::uint64_t tick;
    std::source_location loc;
  };
  void set_queued_download(QueuedDownload download) noexcept { queued_download_ = download; }
  const std::optional<QueuedDownload> &queued_download() const noexcept {
    return queued_download_;
  }

private:
  void *data_;
  std::size_t nbytes_;
  Device device_;
  std::uint64_t id_;
  std::uint32_t version_ = 0;
  bool owned_;
  std::optional<DeviceType> pinned_for_; // the accelerator whose pinned memory this is
  std::optional<std::source_location> fresh_from_factory_;
  std::optional<QueuedDownload> queued_download_;
  std::function<void(void *)> deleter_;
};

struct TensorImpl {
  std::shared_ptr<StorageImpl> storage;
  Device device = Device(kCPU);
  ScalarType dtype = kDefaultFloat;
  DimVector sizes;
  DimVector strides; // in elements
  std::int64_t storage_offset = 0;   // in elements
  std::int64_t numel = 1;
  // Autograd's state (grad, grad_fn, requires_grad): null for every tensor
  // that takes no part in autograd, so an op on plain tensors tests one
  // pointer. The version counter it relies on is the storage's.
  std::shared_ptr<autograd::AutogradMeta> autograd_meta;
};

} // namespace pl
