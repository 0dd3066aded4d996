#include <atomic>

#include <pl/tensor_impl.h>

#include "core/internal.h"

namespace pl {
namespace {

std::uint64_t next_storage_id() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}

} // namespace

StorageImpl::StorageImpl(Device device, std::size_t nbytes)
    : data_(nullptr), nbytes_(nbytes), device_(device), id_(next_storage_id()), owned_(true) {
  if (nbytes_ > 0)
    data_ = detail::backend_of(device_).allocate(device_.index(), nbytes_);
}

StorageImpl::StorageImpl(Device device, void *data, std::size_t nbytes,
                         std::function<void(void *)> deleter)
    : data_(data), nbytes_(nbytes), device_(device), id_(next_storage_id()), owned_(false),
      deleter_(std::move(deleter)) {}

StorageImpl::StorageImpl(std::size_t nbytes, PinnedFor pinned)
    : data_(nullptr), nbytes_(nbytes), device_(kCPU), id_(next_storage_id()), owned_(true),
      pinned_for_(pinned.accelerator) {
  if (nbytes_ == 0)
    return;
  data_ = backend::backend_for(pinned.accelerator).allocate_pinned_host(nbytes_);
  PL_CHECK(data_ != nullptr, DeviceError, ops::name(ops::OpId::PinMemory), ": ",
           Device(pinned.accelerator), " devices have no pinned host memory");
}

StorageImpl::~StorageImpl() {
  if (pinned_for_.has_value()) {
    if (data_ != nullptr)
      backend::backend_for(*pinned_for_).deallocate_pinned_host(data_);
  } else if (owned_) {
    if (data_ != nullptr)
      detail::backend_of(device_).deallocate(device_.index(), data_, nbytes_);
  } else if (deleter_) {
    deleter_(data_);
  }
}

} // namespace pl
