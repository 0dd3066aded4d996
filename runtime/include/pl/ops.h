// Free-function forms of the tensor operations and the arithmetic
// operators, as in libtorch (torch::add, torch::matmul, a + b, 2 * t, ...).
#pragma once

#include <cstdint>
#include <optional>
#include <tuple>

#include <pl/tensor.h>

namespace pl {

// One free function per method of the elementwise ops of <placelint/ops.def>
// (pl::add(a, b) is a.add(b), pl::relu(t) is t.relu()).
#define PL_BINARY_OP(Name, Kind, Method, Function, ...)                                            \
  inline Tensor Function(const Tensor &self, const Tensor &other) { return self.Method(other); }   \
  inline Tensor Function(const Tensor &self, const Scalar &other) { return self.Method(other); }
#define PL_UNARY_OP(Name, Kind, Method, Function, ...)                                             \
  inline Tensor Function(const Tensor &self) { return self.Method(); }
#include <placelint/ops.def>

// scalar (op) tensor, keeping the operand order for - and /.
Tensor rsub(const Tensor &self, const Scalar &other); // other - self
Tensor rdiv(const Tensor &self, const Scalar &other); // other / self

inline Tensor operator+(const Tensor &a, const Tensor &b) { return a.add(b); }
inline Tensor operator-(const Tensor &a, const Tensor &b) { return a.sub(b); }
inline Tensor operator*(const Tensor &a, const Tensor &b) { return a.mul(b); }
inline Tensor operator/(const Tensor &a, const Tensor &b) { return a.div(b); }
inline Tensor operator+(const Tensor &a, const Scalar &b) { return a.add(b); }
inline Tensor operator-(const Tensor &a, const Scalar &b) { return a.sub(b); }
inline Tensor operator*(const Tensor &a, const Scalar &b) { return a.mul(b); }
inline Tensor operator/(const Tensor &a, const Scalar &b) { return a.div(b); }
inline Tensor operator+(const Scalar &a, const Tensor &b) { return b.add(a); }
inline Tensor operator-(const Scalar &a, const Tensor &b) { return rsub(b, a); }
inline Tensor operator*(const Scalar &a, const Tensor &b) { return b.mul(a); }
inline Tensor operator/(const Scalar &a, const Tensor &b) { return rdiv(b, a); }

inline Tensor sum(const Tensor &self) { return self.sum(); }
inline Tensor sum(const Tensor &self, IntArrayRef dims, bool keepdim = false) {
  return self.sum(dims, keepdim);
}
inline Tensor mean(const Tensor &self) { return self.mean(); }
inline Tensor mean(const Tensor &self, IntArrayRef dims, bool keepdim = false) {
  return self.mean(dims, keepdim);
}
inline Tensor max(const Tensor &self) { return self.max(); }
inline std::tuple<Tensor, Tensor> max(const Tensor &self, std::int64_t dim, bool keepdim = false) {
  return self.max(dim, keepdim);
}
inline Tensor argmax(const Tensor &self, std::optional<std::int64_t> dim = std::nullopt,
                     bool keepdim = false) {
  return self.argmax(dim, keepdim);
}

inline Tensor matmul(const Tensor &self, const Tensor &other) { return self.matmul(other); }
inline Tensor mm(const Tensor &self, const Tensor &mat2) { return self.mm(mat2); }
// input @ weight^T + bias (bias may be undefined); names its operands
// 'input', 'weight', 'bias' in errors.
Tensor linear(const Tensor &input, const Tensor &weight, const Tensor &bias = {});

inline Tensor transpose(const Tensor &self, std::int64_t dim0, std::int64_t dim1) {
  return self.transpose(dim0, dim1);
}
inline Tensor reshape(const Tensor &self, IntArrayRef sizes) { return self.reshape(sizes); }
inline Tensor flatten(const Tensor &self, std::int64_t start_dim = 0, std::int64_t end_dim = -1) {
  return self.flatten(start_dim, end_dim);
}

// Joins along an existing (cat) or a new (stack) dimension; all tensors on
// one device; dtypes promoted.
Tensor cat(TensorList tensors, std::int64_t dim = 0);
Tensor stack(TensorList tensors, std::int64_t dim = 0);

inline bool equal(const Tensor &self, const Tensor &other) { return self.equal(other); }
inline bool allclose(const Tensor &self, const Tensor &other, double rtol = 1e-05,
                     double atol = 1e-08) {
  return self.allclose(other, rtol, atol);
}

} // namespace pl
