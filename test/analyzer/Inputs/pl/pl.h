// A small stand-in for the runtime's <pl/pl.h>: the declarations the
// analyzer's `pl` profile models, with the runtime's names and signatures
// (libtorch's API under namespace pl). No definitions: the tests only parse,
// and a mock keeps each test fast and independent of the runtime's sources.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
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

using IntArrayRef = std::initializer_list<std::int64_t>;

class TensorOptions {
public:
  TensorOptions();
  /* implicit */ TensorOptions(Device device);
  /* implicit */ TensorOptions(DeviceType type);
  /* implicit */ TensorOptions(ScalarType dtype);
  TensorOptions device(Device device) const;
  TensorOptions dtype(ScalarType dtype) const;
  Device device() const;
};

TensorOptions device(Device device);
TensorOptions dtype(ScalarType dtype);

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

  [[nodiscard("placement-discarded-transfer")]] Tensor to(Device device, bool non_blocking = false) const;
  [[nodiscard("placement-discarded-transfer")]] Tensor to(ScalarType dtype) const;
  [[nodiscard("placement-discarded-transfer")]] Tensor cuda() const;
  [[nodiscard("placement-discarded-transfer")]] Tensor cpu() const;

  template <class T> T item() const;
  Scalar item() const;

  Tensor add(const Tensor &other) const;
  Tensor &add_(const Tensor &other);
  Tensor sub(const Tensor &other) const;
  Tensor mul(const Tensor &other) const;
  Tensor &mul_(const Tensor &other);
  Tensor div(const Tensor &other) const;
  Tensor matmul(const Tensor &other) const;
  Tensor mm(const Tensor &other) const;
  Tensor &copy_(const Tensor &src, bool non_blocking = false);
  Tensor sum() const;
  Tensor mean() const;
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

  Tensor &operator+=(const Tensor &other);
  Tensor &operator+=(Scalar other);
  Tensor &operator-=(const Tensor &other);
  Tensor &operator*=(const Tensor &other);
  Tensor &operator*=(Scalar other);
  Tensor &operator/=(const Tensor &other);
  Tensor operator-() const;
};

Tensor operator+(const Tensor &a, const Tensor &b);
Tensor operator+(const Tensor &a, Scalar b);
Tensor operator+(Scalar a, const Tensor &b);
Tensor operator-(const Tensor &a, const Tensor &b);
Tensor operator-(const Tensor &a, Scalar b);
Tensor operator*(const Tensor &a, const Tensor &b);
Tensor operator*(const Tensor &a, Scalar b);
Tensor operator*(Scalar a, const Tensor &b);
Tensor operator/(const Tensor &a, const Tensor &b);
Tensor operator/(const Tensor &a, Scalar b);

Tensor empty(IntArrayRef sizes, TensorOptions options = {});
Tensor zeros(IntArrayRef sizes, TensorOptions options = {});
Tensor ones(IntArrayRef sizes, TensorOptions options = {});
Tensor full(IntArrayRef sizes, Scalar value, TensorOptions options = {});
Tensor arange(Scalar end, TensorOptions options = {});
Tensor randn(IntArrayRef sizes, TensorOptions options = {});
Tensor rand(IntArrayRef sizes, TensorOptions options = {});
Tensor tensor(double value, TensorOptions options = {});
Tensor tensor(std::initializer_list<double> values, TensorOptions options = {});
Tensor scalar_tensor(Scalar value, TensorOptions options = {});

Tensor add(const Tensor &a, const Tensor &b);
Tensor matmul(const Tensor &a, const Tensor &b);
Tensor mm(const Tensor &a, const Tensor &b);
Tensor relu(const Tensor &a);
Tensor cat(const std::vector<Tensor> &tensors, std::int64_t dim = 0);
Tensor stack(const std::vector<Tensor> &tensors, std::int64_t dim = 0);

namespace cuda {
bool is_available();
int device_count();
} // namespace cuda

namespace nn {

class Module {
public:
  virtual ~Module();
  void to(Device device, bool non_blocking = false);
  std::vector<Tensor> parameters(bool recurse = true) const;
  Tensor &register_parameter(std::string name, Tensor tensor);
  template <class M> std::shared_ptr<M> register_module(std::string name, std::shared_ptr<M> module);
};

template <class Contained> class ModuleHolder {
public:
  ModuleHolder() : impl_(std::make_shared<Contained>()) {}
  template <class Head, class... Tail>
  explicit ModuleHolder(Head &&head, Tail &&...tail)
      : impl_(std::make_shared<Contained>(std::forward<Head>(head), std::forward<Tail>(tail)...)) {}
  /* implicit */ ModuleHolder(std::shared_ptr<Contained> module) : impl_(std::move(module)) {}
  Contained *operator->() const { return impl_.get(); }
  Contained &operator*() const { return *impl_; }
  const std::shared_ptr<Contained> &ptr() const { return impl_; }
  template <class... Args> auto operator()(Args &&...args) {
    return impl_->forward(std::forward<Args>(args)...);
  }

private:
  std::shared_ptr<Contained> impl_;
};

#define PL_MODULE(Name)                                                                            \
  class Name : public ::pl::nn::ModuleHolder<Name##Impl> {                                         \
  public:                                                                                          \
    using ::pl::nn::ModuleHolder<Name##Impl>::ModuleHolder;                                        \
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
