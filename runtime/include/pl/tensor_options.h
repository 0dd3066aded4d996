// TensorOptions: the optional device, dtype and requires_grad of a tensor to
// create or convert to, and whether it is pinned, like c10::TensorOptions
// (without layout).
#pragma once

#include <optional>
#include <type_traits>
#include <utility>

#include <pl/device.h>
#include <pl/scalar_type.h>

namespace pl {

class TensorOptions {
public:
  TensorOptions() = default;
  // Anything a Device can be built from: Device, DeviceType, "sim:0", (kCUDA, 1).
  template <class... Args>
    requires(sizeof...(Args) > 0 && std::is_constructible_v<Device, Args && ...>)
  /* implicit */ TensorOptions(Args &&...args) : device_(Device(std::forward<Args>(args)...)) {}
  /* implicit */ TensorOptions(ScalarType dtype) : dtype_(dtype) {}

  [[nodiscard]] TensorOptions device(Device device) const {
    TensorOptions copy = *this;
    copy.device_ = device;
    return copy;
  }
  [[nodiscard]] TensorOptions dtype(ScalarType dtype) const {
    TensorOptions copy = *this;
    copy.dtype_ = dtype;
    return copy;
  }
  template <class T> [[nodiscard]] TensorOptions dtype() const {
    return dtype(ScalarTypeOf<T>::value);
  }
  // A factory given requires_grad(true) returns a leaf that requires grad.
  [[nodiscard]] TensorOptions requires_grad(bool requires_grad) const {
    TensorOptions copy = *this;
    copy.requires_grad_ = requires_grad;
    return copy;
  }
  // Factories make the tensor in page-locked (pinned) host memory, which a
  // CUDA device copies from and to asynchronously (Tensor::pin_memory). Only
  // for cpu tensors; needs a CUDA device.
  [[nodiscard]] TensorOptions pinned_memory(bool pinned) const {
    TensorOptions copy = *this;
    copy.pinned_memory_ = pinned;
    return copy;
  }

  // The device, cpu when none was given.
  Device device() const { return device_.value_or(Device(kCPU)); }
  // The dtype, kFloat when none was given.
  ScalarType dtype() const { return dtype_.value_or(kDefaultFloat); }
  bool requires_grad() const { return requires_grad_.value_or(false); }
  bool pinned_memory() const { return pinned_memory_; }
  bool has_device() const { return device_.has_value(); }
  bool has_dtype() const { return dtype_.has_value(); }
  std::optional<Device> device_opt() const { return device_; }
  std::optional<ScalarType> dtype_opt() const { return dtype_; }

private:
  std::optional<Device> device_;
  std::optional<ScalarType> dtype_;
  std::optional<bool> requires_grad_;
  bool pinned_memory_ = false;
};

inline TensorOptions device(Device device) { return TensorOptions().device(device); }
inline TensorOptions dtype(ScalarType dtype) { return TensorOptions().dtype(dtype); }
template <class T> TensorOptions dtype() { return TensorOptions().dtype<T>(); }
inline TensorOptions requires_grad(bool requires_grad = true) {
  return TensorOptions().requires_grad(requires_grad);
}

} // namespace pl
