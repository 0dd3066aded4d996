// A small stand-in for libtorch 1.13's <torch/torch.h>: the declarations the
// analyzer's libtorch profile models, with the real namespaces, class layout
// (at::Tensor derives from at::TensorBase; torch:: sees at:: and c10:: through
// using-directives) and signatures, so that overload resolution and implicit
// conversions (DeviceType -> Device -> TensorOptions, double -> Scalar) look
// to the analyzer exactly as they do in the real headers. No definitions:
// the tests only parse.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <optional>
#include <tuple>
#include <string>
#include <utility>
#include <vector>

namespace c10 {

enum class DeviceType : int8_t { CPU = 0, CUDA = 1, HIP = 6, Meta = 9 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kMeta = DeviceType::Meta;
using DeviceIndex = int8_t;

struct Device {
  /* implicit */ Device(DeviceType type, DeviceIndex index = -1);
  /* implicit */ Device(const std::string &device_string);
  DeviceType type() const noexcept;
  DeviceIndex index() const noexcept;
  bool is_cuda() const noexcept;
  bool is_cpu() const noexcept;
  bool operator==(const Device &other) const noexcept;
};

enum class ScalarType : int8_t { Half = 5, Float = 6, Double = 7, Long = 4, Bool = 11 };
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kBool = ScalarType::Bool;

template <typename T> using optional = std::optional<T>;
constexpr std::nullopt_t nullopt = std::nullopt;

template <typename T> class ArrayRef {
public:
  ArrayRef();
  /* implicit */ ArrayRef(const T &one);
  /* implicit */ ArrayRef(const std::vector<T> &vec);
  /* implicit */ ArrayRef(const std::initializer_list<T> &list);
  const T *begin() const;
  const T *end() const;
  size_t size() const;
};
using IntArrayRef = ArrayRef<int64_t>;
std::ostream &operator<<(std::ostream &out, IntArrayRef sizes);

class Scalar {
public:
  /* implicit */ Scalar(double v);
  /* implicit */ Scalar(float v);
  /* implicit */ Scalar(int v);
  /* implicit */ Scalar(int64_t v);
  /* implicit */ Scalar(bool v);
  double toDouble() const;
};

struct TensorOptions {
  TensorOptions();
  /* implicit */ TensorOptions(std::optional<Device> device);
  template <typename... Args,
            typename = std::enable_if_t<std::is_constructible<Device, Args &&...>::value>>
  /* implicit */ TensorOptions(Args &&...args);
  /* implicit */ TensorOptions(ScalarType dtype);
  TensorOptions device(std::optional<Device> device) const noexcept;
  TensorOptions dtype(std::optional<ScalarType> dtype) const noexcept;
  TensorOptions requires_grad(std::optional<bool> requires_grad) const noexcept;
  TensorOptions pinned_memory(std::optional<bool> pinned_memory) const noexcept;
  Device device() const noexcept;
};

inline TensorOptions device(Device device) { return TensorOptions().device(device); }
inline TensorOptions dtype(ScalarType dtype) { return TensorOptions().dtype(dtype); }
inline TensorOptions requires_grad(bool requires_grad = true) {
  return TensorOptions().requires_grad(requires_grad);
}

} // namespace c10

namespace at {
using namespace c10;

class Tensor;
using TensorList = c10::ArrayRef<Tensor>;

class TensorBase {
public:
  Device device() const;
  int64_t get_device() const;
  template <typename T> T *data_ptr() const;
  bool is_cuda() const;
  int64_t dim() const;
  int64_t numel() const;
  IntArrayRef sizes() const;
  TensorOptions options() const;
  bool defined() const;
};

class Tensor : public TensorBase {
public:
  Tensor();
  Tensor(const Tensor &) = default;
  Tensor(Tensor &&) = default;
  Tensor &operator=(const Tensor &) &;
  Tensor &operator=(Tensor &&) &;
  // A write through a view (`t[i] = x`): fill_ or copy_ into the viewed part.
  Tensor &operator=(const Scalar &value) &&;
  Tensor &operator=(const Tensor &source) &&;

  template <typename T> T item() const;
  Scalar item() const;

  Tensor cpu() const;
  Tensor cuda() const;
  Tensor to(TensorOptions options = {}, bool non_blocking = false, bool copy = false,
            std::optional<int> memory_format = std::nullopt) const;
  Tensor to(Device device, ScalarType dtype, bool non_blocking = false, bool copy = false,
            std::optional<int> memory_format = std::nullopt) const;
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false,
            std::optional<int> memory_format = std::nullopt) const;
  Tensor to(const Tensor &other, bool non_blocking = false, bool copy = false,
            std::optional<int> memory_format = std::nullopt) const;

  Tensor &operator+=(const Tensor &other);
  Tensor &operator+=(Scalar other);
  Tensor &operator-=(const Tensor &other);
  Tensor &operator-=(Scalar other);
  Tensor &operator*=(const Tensor &other);
  Tensor &operator*=(Scalar other);
  Tensor &operator/=(const Tensor &other);
  Tensor &operator/=(Scalar other);
  Tensor operator-() const;

  Tensor add(const Tensor &other, const Scalar &alpha = 1) const;
  Tensor &add_(const Tensor &other, const Scalar &alpha = 1) const;
  Tensor add(const Scalar &other, const Scalar &alpha = 1) const;
  Tensor sub(const Tensor &other, const Scalar &alpha = 1) const;
  Tensor mul(const Tensor &other) const;
  Tensor &mul_(const Tensor &other) const;
  Tensor div(const Tensor &other) const;
  Tensor matmul(const Tensor &other) const;
  Tensor mm(const Tensor &mat2) const;
  Tensor &copy_(const Tensor &src, bool non_blocking = false) const;
  Tensor pin_memory() const;
  bool is_pinned() const;
  Tensor sum(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor mean(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor relu() const;
  Tensor softmax(int64_t dim) const;
  std::vector<Tensor> split(int64_t split_size, int64_t dim = 0) const;
  Tensor exp() const;
  Tensor view(IntArrayRef size) const;
  Tensor reshape(IntArrayRef shape) const;
  Tensor t() const;
  Tensor contiguous() const;
  Tensor detach() const;
  Tensor clone() const;
  Tensor std() const;
  Tensor var() const;
  Tensor all() const;
  Tensor any() const;
  Tensor max() const;
  Tensor argmax(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
  Tensor mean(IntArrayRef dim, bool keepdim = false) const;
  Tensor sigmoid() const;
  Tensor masked_fill(const Tensor &mask, const Scalar &value) const;
  Tensor index_select(int64_t dim, const Tensor &index) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor view_as(const Tensor &other) const;
  Tensor operator[](int64_t index) const;
  Tensor &index_put_(std::initializer_list<int64_t> indices, const Scalar &value);
  Tensor &index_put_(std::initializer_list<int64_t> indices, const Tensor &values);
  const Tensor &grad() const;
  const Tensor &requires_grad_(bool requires_grad = true) const;
  void backward() const;
  Tensor &mul_(const Scalar &other) const;
  Tensor &sub_(const Tensor &other) const;
  Tensor &fill_(const Scalar &value) const;
};

Tensor operator+(const Tensor &x, const Tensor &y);
Tensor operator+(const Tensor &x, const Scalar &y);
Tensor operator+(const Scalar &x, const Tensor &y);
Tensor operator-(const Tensor &x, const Tensor &y);
Tensor operator-(const Tensor &x, const Scalar &y);
Tensor operator-(const Scalar &x, const Tensor &y);
Tensor operator*(const Tensor &x, const Tensor &y);
Tensor operator*(const Tensor &x, const Scalar &y);
Tensor operator*(const Scalar &x, const Tensor &y);
Tensor operator/(const Tensor &x, const Tensor &y);
Tensor operator/(const Tensor &x, const Scalar &y);
Tensor operator/(const Scalar &x, const Tensor &y);

class ITensorListRef {
public:
  /* implicit */ ITensorListRef(TensorList list);
  /* implicit */ ITensorListRef(const std::vector<Tensor> &vec);
  /* implicit */ ITensorListRef(std::initializer_list<Tensor> list);
};

Tensor matmul(const Tensor &self, const Tensor &other);
Tensor mm(const Tensor &self, const Tensor &mat2);
Tensor add(const Tensor &self, const Tensor &other, const Scalar &alpha = 1);
Tensor cat(const ITensorListRef &tensors, int64_t dim = 0);
Tensor stack(TensorList tensors, int64_t dim = 0);
Tensor relu(const Tensor &self);
Tensor sigmoid(const Tensor &self);
Tensor where(const Tensor &condition, const Tensor &self, const Tensor &other);
Tensor nll_loss(const Tensor &self, const Tensor &target, const optional<Tensor> &weight = {},
                int64_t reduction = 1, int64_t ignore_index = -100);
Tensor mse_loss(const Tensor &self, const Tensor &target, int64_t reduction = 1);
Tensor zeros(IntArrayRef size, TensorOptions options = {});
Tensor ones(IntArrayRef size, TensorOptions options = {});

// As ATen prints them.
std::ostream &operator<<(std::ostream &out, const Tensor &t);

} // namespace at

namespace c10 {
namespace detail {
[[noreturn]] void torchCheckFail(const char *func, const char *file, unsigned line,
                                 const char *message);
} // namespace detail
} // namespace c10
// As c10/util/Exception.h has it, less the message formatting.
#define TORCH_CHECK(cond, ...)                                                                     \
  if (__builtin_expect(static_cast<bool>(!(cond)), 0)) {                                          \
    ::c10::detail::torchCheckFail(__func__, __FILE__, static_cast<unsigned>(__LINE__), #cond);    \
  }

// As cuda_runtime_api.h has it.
typedef struct CUstream_st *cudaStream_t;
namespace c10 {
namespace cuda {
// As c10/cuda/CUDAStream.h has it: a stream of one device.
class CUDAStream {
public:
  operator cudaStream_t() const;
  cudaStream_t stream() const;
  void synchronize() const;
  bool query() const;
};
CUDAStream getCurrentCUDAStream(int8_t device_index = -1);
CUDAStream getStreamFromPool(bool isHighPriority = false, int8_t device = -1);
} // namespace cuda
} // namespace c10
namespace at::cuda {
using c10::cuda::CUDAStream;
using c10::cuda::getCurrentCUDAStream;
using c10::cuda::getStreamFromPool;
// As ATen/cuda/CUDAEvent.h has it.
class CUDAEvent {
public:
  void record(const CUDAStream &stream);
  void synchronize() const;
  bool query() const;
};
} // namespace at::cuda

namespace c10 {
// What a scripted module takes and returns.
class IValue {
public:
  /* implicit */ IValue(at::Tensor t);
  at::Tensor toTensor() const;
};
} // namespace c10

namespace torch {
using namespace at;
using Dtype = at::ScalarType;

at::Tensor ones(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor zeros(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor empty(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor randn(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor rand(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor full(at::IntArrayRef size, const at::Scalar &fill_value, at::TensorOptions options = {});
at::Tensor arange(const at::Scalar &end, at::TensorOptions options = {});
at::Tensor scalar_tensor(const at::Scalar &s, at::TensorOptions options = {});
at::Tensor zeros_like(const at::Tensor &self, at::TensorOptions options = {});
at::Tensor tensor(double value, const at::TensorOptions &options = {});
at::Tensor tensor(at::ArrayRef<double> values, const at::TensorOptions &options = {});
// Reads what torch::save wrote into a tensor or a list of them.
void load(at::Tensor &tensor, const std::string &path);
void load(std::vector<at::Tensor> &tensors, const std::string &path);

namespace cuda {
size_t device_count();
bool is_available();
void synchronize(int64_t device_index = -1);
} // namespace cuda

namespace nn {

template <typename Contained> class ModuleHolder;

class Module {
public:
  virtual ~Module() = default;
  virtual void to(torch::Device device, torch::Dtype dtype, bool non_blocking = false);
  virtual void to(torch::Dtype dtype, bool non_blocking = false);
  virtual void to(torch::Device device, bool non_blocking = false);
  std::vector<Tensor> parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  Tensor &register_parameter(std::string name, Tensor tensor, bool requires_grad = true);
  Tensor &register_buffer(std::string name, Tensor tensor);
  template <typename ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name, std::shared_ptr<ModuleType> module);
  template <typename ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name, ModuleHolder<ModuleType> module_holder);
  void train(bool on = true);
  void eval();
};

template <typename Derived> class Cloneable : public Module {};

namespace detail {
struct ModuleHolderIndicator {};
} // namespace detail

template <typename Contained> class ModuleHolder : detail::ModuleHolderIndicator {
public:
  ModuleHolder() : impl_(std::make_shared<Contained>()) {}
  /* implicit */ ModuleHolder(std::nullptr_t) : impl_(nullptr) {}
  template <typename Head, typename... Tail>
  explicit ModuleHolder(Head &&head, Tail &&...tail)
      : impl_(new Contained(std::forward<Head>(head), std::forward<Tail>(tail)...)) {}
  /* implicit */ ModuleHolder(std::shared_ptr<Contained> module) : impl_(std::move(module)) {}
  Contained *operator->() { return impl_.get(); }
  const Contained *operator->() const { return impl_.get(); }
  Contained &operator*() { return *impl_; }
  const std::shared_ptr<Contained> &ptr() const { return impl_; }
  template <typename... Args>
  auto operator()(Args &&...args) -> decltype(std::declval<Contained &>().forward(std::forward<Args>(args)...)) {
    return impl_->forward(std::forward<Args>(args)...);
  }

protected:
  std::shared_ptr<Contained> impl_;
};

#define TORCH_MODULE_IMPL(Name, ImplType)                                                          \
  class Name : public torch::nn::ModuleHolder<ImplType> {                                          \
  public:                                                                                          \
    using torch::nn::ModuleHolder<ImplType>::ModuleHolder;                                         \
    using Impl = ImplType;                                                                         \
  }
#define TORCH_MODULE(Name) TORCH_MODULE_IMPL(Name, Name##Impl)

class LinearImpl : public Cloneable<LinearImpl> {
public:
  LinearImpl(int64_t in_features, int64_t out_features);
  Tensor forward(const Tensor &input);
  Tensor weight;
  Tensor bias;
};
TORCH_MODULE(Linear);

class ReLUImpl : public Cloneable<ReLUImpl> {
public:
  ReLUImpl();
  Tensor forward(Tensor input);
};
TORCH_MODULE(ReLU);

class DropoutImpl : public Cloneable<DropoutImpl> {
public:
  explicit DropoutImpl(double p = 0.5);
  Tensor forward(Tensor input);
};
TORCH_MODULE(Dropout);

// As TORCH_ARG writes it: the setter and the tensor it sets.
struct CrossEntropyLossOptions {
  auto weight(const Tensor &new_weight) -> decltype(*this) &;
  Tensor weight_;
};
class CrossEntropyLossImpl : public Cloneable<CrossEntropyLossImpl> {
public:
  explicit CrossEntropyLossImpl(const CrossEntropyLossOptions &options_ = {});
  Tensor forward(const Tensor &input, const Tensor &target);
};
TORCH_MODULE(CrossEntropyLoss);

class MSELossImpl : public Cloneable<MSELossImpl> {
public:
  MSELossImpl();
  Tensor forward(const Tensor &input, const Tensor &target);
};
TORCH_MODULE(MSELoss);

class LSTMImpl : public Cloneable<LSTMImpl> {
public:
  LSTMImpl(int64_t input_size, int64_t hidden_size);
  std::tuple<Tensor, std::tuple<Tensor, Tensor>>
  forward(const Tensor &input, std::optional<std::tuple<Tensor, Tensor>> hx_opt = {});
};
TORCH_MODULE(LSTM);

class GRUImpl : public Cloneable<GRUImpl> {
public:
  GRUImpl(int64_t input_size, int64_t hidden_size);
  std::tuple<Tensor, Tensor> forward(const Tensor &input, Tensor hx = {});
};
TORCH_MODULE(GRU);

namespace functional {
Tensor cross_entropy(const Tensor &input, const Tensor &target);
} // namespace functional

} // namespace nn

namespace optim {
class Optimizer {
public:
  virtual ~Optimizer() = default;
  virtual Tensor step();
  void zero_grad();
};
struct AdamOptions {
  /* implicit */ AdamOptions(double lr = 1e-3);
};
class Adam : public Optimizer {
public:
  explicit Adam(std::vector<Tensor> params, AdamOptions defaults = {});
};
struct SGDOptions {
  /* implicit */ SGDOptions(double lr);
};
class SGD : public Optimizer {
public:
  SGD(std::vector<Tensor> params, SGDOptions defaults);
};
} // namespace optim

namespace data {
template <typename Data = Tensor, typename Target = Tensor> struct Example {
  Data data;
  Target target;
};
// The loader a make_data_loader returns, iterated batch by batch.
class StatelessDataLoader {
public:
  struct Iterator {
    Example<> &operator*();
    Example<> *operator->();
    Iterator &operator++();
    bool operator!=(const Iterator &other) const;
  };
  Iterator begin();
  Iterator end();
};
std::unique_ptr<StatelessDataLoader> make_data_loader(int64_t batch_size);
} // namespace data

namespace jit {
using IValue = c10::IValue;
struct Module {
  IValue forward(std::vector<IValue> inputs);
  void to(at::Device device, bool non_blocking = false);
};
Module load(const std::string &filename, std::optional<c10::Device> device = std::nullopt);
} // namespace jit
} // namespace torch
