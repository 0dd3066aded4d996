// A small stand-in for the runtime's <pl/pl.h>: the declarations the
// analyzer's `pl` profile models, with the runtime's names and signatures
// (runtime/include/pl: libtorch's API under namespace pl, source_location
// defaults, the variadic TensorOptions constructor, ModuleHolder). No
// definitions: the tests only parse, and a mock keeps each test fast and
// independent of the runtime's sources.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <source_location>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace pl {

enum class DeviceType : std::int8_t { CPU = 0, CUDA = 1, Sim = 2 };
inline constexpr DeviceType kCPU = DeviceType::CPU;
inline constexpr DeviceType kCUDA = DeviceType::CUDA;
inline constexpr DeviceType kSim = DeviceType::Sim;
using DeviceIndex = std::int16_t;

class Device {
public:
  /* implicit */ Device(DeviceType type, DeviceIndex index = -1);
  /* implicit */ Device(const std::string &text);
  /* implicit */ Device(const char *text);
  DeviceType type() const noexcept;
  DeviceIndex index() const noexcept;
  bool is_cpu() const noexcept;
  bool is_cuda() const noexcept;
  friend bool operator==(const Device &, const Device &) = default;
};

enum class ScalarType : std::int8_t { Float, Double, Long, Bool };
inline constexpr ScalarType kFloat = ScalarType::Float;
inline constexpr ScalarType kDouble = ScalarType::Double;
inline constexpr ScalarType kLong = ScalarType::Long;
inline constexpr ScalarType kBool = ScalarType::Bool;

class Scalar {
public:
  /* implicit */ Scalar(bool value);
  template <class T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  /* implicit */ Scalar(T value);
  template <class T>
    requires std::is_floating_point_v<T>
  /* implicit */ Scalar(T value);
  double toDouble() const;
};

using SourceLocation = std::source_location;

template <class T> class ArrayRef {
public:
  constexpr ArrayRef() = default;
  /* implicit */ constexpr ArrayRef(const T &single);
  /* implicit */ ArrayRef(const std::vector<T> &values);
  /* implicit */ constexpr ArrayRef(std::initializer_list<T> values);
  constexpr const T *begin() const;
  constexpr const T *end() const;
  constexpr std::size_t size() const;
};
using IntArrayRef = ArrayRef<std::int64_t>;

class TensorOptions {
public:
  TensorOptions() = default;
  // Anything a Device can be built from: Device, DeviceType, "sim:0", (kCUDA, 1).
  template <class... Args>
    requires(sizeof...(Args) > 0 && std::is_constructible_v<Device, Args && ...>)
  /* implicit */ TensorOptions(Args &&...args);
  /* implicit */ TensorOptions(ScalarType dtype);
  TensorOptions device(Device device) const;
  TensorOptions dtype(ScalarType dtype) const;
  Device device() const;
};

TensorOptions device(Device device);
TensorOptions dtype(ScalarType dtype);

class Tensor;
using TensorList = ArrayRef<Tensor>;

#define PL_NODISCARD_TRANSFER                                                                      \
  [[nodiscard("placement-discarded-transfer: the result is the moved tensor; the tensor itself "   \
              "is not moved in place")]]

class Tensor {
public:
  Tensor();
  Tensor(const Tensor &);
  Tensor(Tensor &&) noexcept;
  Tensor &operator=(const Tensor &);
  Tensor &operator=(Tensor &&) noexcept;
  ~Tensor();

  Device device() const;
  bool is_cuda() const;
  std::int64_t dim() const;
  std::int64_t numel() const;
  std::vector<std::int64_t> sizes() const;
  TensorOptions options() const;

  PL_NODISCARD_TRANSFER Tensor to(TensorOptions options, bool non_blocking = false,
                                  bool copy = false,
                                  SourceLocation loc = SourceLocation::current()) const;
  PL_NODISCARD_TRANSFER Tensor to(Device device, ScalarType dtype, bool non_blocking = false,
                                  bool copy = false,
                                  SourceLocation loc = SourceLocation::current()) const;
  PL_NODISCARD_TRANSFER Tensor to(ScalarType dtype, bool non_blocking = false,
                                  bool copy = false,
                                  SourceLocation loc = SourceLocation::current()) const;
  PL_NODISCARD_TRANSFER Tensor to(const Tensor &other, bool non_blocking = false,
                                  bool copy = false,
                                  SourceLocation loc = SourceLocation::current()) const;
  PL_NODISCARD_TRANSFER Tensor cuda(SourceLocation loc = SourceLocation::current()) const;
  PL_NODISCARD_TRANSFER Tensor cpu(SourceLocation loc = SourceLocation::current()) const;

  template <class T> T item(SourceLocation loc = SourceLocation::current()) const;
  Scalar item(SourceLocation loc = SourceLocation::current()) const;

  Tensor add(const Tensor &other) const;
  Tensor add(const Scalar &other) const;
  Tensor &add_(const Tensor &other) const;
  Tensor &add_(const Scalar &other) const;
  Tensor sub(const Tensor &other) const;
  Tensor mul(const Tensor &other) const;
  Tensor &mul_(const Tensor &other) const;
  Tensor div(const Tensor &other) const;
  Tensor matmul(const Tensor &other) const;
  Tensor mm(const Tensor &other) const;
  Tensor &copy_(const Tensor &src, bool non_blocking = false,
                SourceLocation loc = SourceLocation::current()) const;
  Tensor sum() const;
  Tensor sum(IntArrayRef dims, bool keepdim = false) const;
  Tensor mean() const;
  Tensor mean(IntArrayRef dims, bool keepdim = false) const;
  Tensor max() const;
  Tensor argmax() const;
  Tensor relu() const;
  Tensor exp() const;
  Tensor log() const;
  Tensor neg() const;
  Tensor view(IntArrayRef shape) const;
  Tensor reshape(IntArrayRef shape) const;
  Tensor transpose(std::int64_t dim0, std::int64_t dim1) const;
  Tensor t() const;
  Tensor contiguous() const;

  Tensor &operator+=(const Tensor &other) const;
  Tensor &operator+=(const Scalar &other) const;
  Tensor &operator-=(const Tensor &other) const;
  Tensor &operator-=(const Scalar &other) const;
  Tensor &operator*=(const Tensor &other) const;
  Tensor &operator*=(const Scalar &other) const;
  Tensor &operator/=(const Tensor &other) const;
  Tensor &operator/=(const Scalar &other) const;
  Tensor operator-() const;
};

Tensor operator+(const Tensor &a, const Tensor &b);
Tensor operator-(const Tensor &a, const Tensor &b);
Tensor operator*(const Tensor &a, const Tensor &b);
Tensor operator/(const Tensor &a, const Tensor &b);
Tensor operator+(const Tensor &a, const Scalar &b);
Tensor operator-(const Tensor &a, const Scalar &b);
Tensor operator*(const Tensor &a, const Scalar &b);
Tensor operator/(const Tensor &a, const Scalar &b);
Tensor operator+(const Scalar &a, const Tensor &b);
Tensor operator-(const Scalar &a, const Tensor &b);
Tensor operator*(const Scalar &a, const Tensor &b);
Tensor operator/(const Scalar &a, const Tensor &b);

Tensor empty(IntArrayRef sizes, TensorOptions options = {},
             SourceLocation loc = SourceLocation::current());
Tensor zeros(IntArrayRef sizes, TensorOptions options = {},
             SourceLocation loc = SourceLocation::current());
Tensor ones(IntArrayRef sizes, TensorOptions options = {},
            SourceLocation loc = SourceLocation::current());
Tensor full(IntArrayRef sizes, const Scalar &fill_value, TensorOptions options = {},
            SourceLocation loc = SourceLocation::current());
Tensor scalar_tensor(const Scalar &value, TensorOptions options = {},
                     SourceLocation loc = SourceLocation::current());
Tensor arange(const Scalar &end, TensorOptions options = {},
              SourceLocation loc = SourceLocation::current());
Tensor randn(IntArrayRef sizes, TensorOptions options = {},
             SourceLocation loc = SourceLocation::current());
Tensor rand(IntArrayRef sizes, TensorOptions options = {},
            SourceLocation loc = SourceLocation::current());
Tensor tensor(double value, TensorOptions options = {},
              SourceLocation loc = SourceLocation::current());
Tensor tensor(std::initializer_list<double> values, TensorOptions options = {},
              SourceLocation loc = SourceLocation::current());

Tensor add(const Tensor &a, const Tensor &b);
Tensor matmul(const Tensor &a, const Tensor &b);
Tensor mm(const Tensor &a, const Tensor &b);
Tensor relu(const Tensor &a);
Tensor cat(TensorList tensors, std::int64_t dim = 0);
Tensor stack(TensorList tensors, std::int64_t dim = 0);

namespace cuda {
bool is_available();
int device_count();
} // namespace cuda

namespace nn {

class Module {
public:
  virtual ~Module();
  // In place: every parameter and buffer moves.
  virtual void to(Device device, bool non_blocking = false,
                  SourceLocation loc = SourceLocation::current());
  virtual void to(ScalarType dtype, bool non_blocking = false);
  std::vector<Tensor> parameters(bool recurse = true) const;
  Tensor &register_parameter(std::string name, Tensor tensor, bool requires_grad = true);
  template <class M> std::shared_ptr<M> register_module(std::string name, std::shared_ptr<M> module);
};

template <class Contained> class ModuleHolder {
public:
  ModuleHolder()
    requires std::is_default_constructible_v<Contained>
      : impl_(std::make_shared<Contained>()) {}
  /* implicit */ ModuleHolder(std::shared_ptr<Contained> module) : impl_(std::move(module)) {}
  template <class Head, class... Tail>
    requires(!std::is_base_of_v<ModuleHolder, std::decay_t<Head>> &&
             !std::is_same_v<std::decay_t<Head>, std::shared_ptr<Contained>> &&
             std::is_constructible_v<Contained, Head &&, Tail &&...>)
  explicit ModuleHolder(Head &&head, Tail &&...tail)
      : impl_(std::make_shared<Contained>(std::forward<Head>(head), std::forward<Tail>(tail)...)) {}
  Contained *operator->() const { return impl_.get(); }
  Contained &operator*() const { return *impl_; }
  const std::shared_ptr<Contained> &ptr() const { return impl_; }
  template <class... Args> decltype(auto) operator()(Args &&...args) const {
    return impl_->forward(std::forward<Args>(args)...);
  }

protected:
  std::shared_ptr<Contained> impl_;
};

#define PL_MODULE(Name)                                                                            \
  class Name : public ::pl::nn::ModuleHolder<Name##Impl> {                                         \
  public:                                                                                          \
    using ::pl::nn::ModuleHolder<Name##Impl>::ModuleHolder;                                        \
    using Impl = Name##Impl;                                                                       \
  }

class LinearImpl : public Module {
public:
  LinearImpl(std::int64_t in_features, std::int64_t out_features);
  Tensor forward(const Tensor &input);
  Tensor weight;
  Tensor bias;
};
PL_MODULE(Linear);

class ReLUImpl : public Module {
public:
  Tensor forward(const Tensor &input);
};
PL_MODULE(ReLU);

} // namespace nn
} // namespace pl
