// Elementwise math, written once as plain functors usable from host and
// device code: the CPU backend and the CUDA kernels instantiate the same
// functors, so the CPU tests cover the arithmetic the CUDA kernels run.
//
// Every functor is a trivially copyable empty struct with a templated
// PL_HOST_DEVICE call operator over the element type T (bool, int64_t, float,
// double). The front end only dispatches combinations that are valid (for
// example Div and Exp only on floating types), so the functors do not check.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#define PL_HOST_DEVICE __host__ __device__
#else
#define PL_HOST_DEVICE
#endif

namespace pl::functors {

template <class T> PL_HOST_DEVICE inline bool is_nan(T value) {
  if constexpr (std::is_floating_point_v<T>)
    return value != value;
  else
    return false;
}

// Conversion between element types; bool is "nonzero" as in PyTorch. A
// floating value outside int64's range (inf, NaN, 1e30) has no defined
// conversion in C++: it saturates, NaN giving 0, as CUDA's conversion does.
template <class To, class From> PL_HOST_DEVICE inline To cast(From value) {
  if constexpr (std::is_same_v<To, bool>) {
    return value != From(0);
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    static_assert(std::is_same_v<To, std::int64_t>, "the one integral element type");
    if (is_nan(value))
      return 0;
    if (value < From(INT64_MIN))
      return INT64_MIN;
    if (value >= From(INT64_MAX)) // INT64_MAX rounds up to 2^63, the first value out of range
      return INT64_MAX;
    return static_cast<To>(value);
  } else {
    return static_cast<To>(value);
  }
}

// int64 arithmetic wraps around in two's complement, as PyTorch's does;
// signed overflow is undefined in C++, so it is done on the unsigned type.
template <class T> PL_HOST_DEVICE inline T wrapping_add(T a, T b) {
  if constexpr (std::is_same_v<T, std::int64_t>)
    return static_cast<T>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
  else
    return a + b;
}
template <class T> PL_HOST_DEVICE inline T wrapping_sub(T a, T b) {
  if constexpr (std::is_same_v<T, std::int64_t>)
    return static_cast<T>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
  else
    return a - b;
}
template <class T> PL_HOST_DEVICE inline T wrapping_mul(T a, T b) {
  if constexpr (std::is_same_v<T, std::int64_t>)
    return static_cast<T>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
  else
    return a * b;
}

// ---- binary ---------------------------------------------------------------

struct Add {
  template <class T> PL_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a || b;
    else
      return wrapping_add(a, b);
  }
};

struct Sub {
  template <class T> PL_HOST_DEVICE T operator()(T a, T b) const { return wrapping_sub(a, b); }
};

struct Mul {
  template <class T> PL_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a && b;
    else
      return wrapping_mul(a, b);
  }
};

// True division; the front end promotes integer operands to a floating type.
struct Div {
  template <class T> PL_HOST_DEVICE T operator()(T a, T b) const { return a / b; }
};

// 1 where a == b, else 0, in the operands' type; two NaNs count as equal,
// so that the mask of a NaN maximum picks the NaNs (as PyTorch's max()
// gradient does). For the backward formulas, which multiply by it.
struct EqualMask {
  template <class T> PL_HOST_DEVICE T operator()(T a, T b) const {
    return T(a == b || (is_nan(a) && is_nan(b)));
  }
};

// ---- unary ----------------------------------------------------------------

struct Neg {
  template <class T> PL_HOST_DEVICE T operator()(T a) const {
    if constexpr (std::is_same_v<T, std::int64_t>)
      return wrapping_sub(T(0), a);
    else
      return -a; // not 0 - a: -(+0.0) is -0.0
  }
};

// NaN stays NaN (like PyTorch's clamp_min(0)).
struct Relu {
  template <class T> PL_HOST_DEVICE T operator()(T a) const { return a < T(0) ? T(0) : a; }
};

struct Exp {
  template <class T> PL_HOST_DEVICE T operator()(T a) const {
#if defined(__CUDA_ARCH__)
    return ::exp(a);
#else
    return std::exp(a);
#endif
  }
};

struct Log {
  template <class T> PL_HOST_DEVICE T operator()(T a) const {
#if defined(__CUDA_ARCH__)
    return ::log(a);
#else
    return std::log(a);
#endif
  }
};

struct Sqrt {
  template <class T> PL_HOST_DEVICE T operator()(T a) const {
#if defined(__CUDA_ARCH__)
    return ::sqrt(a);
#else
    return std::sqrt(a);
#endif
  }
};

// ---- reductions -----------------------------------------------------------
// A reduction is identity(), combine(acc, value) in index order, and
// finish(acc, count). Backends may combine partial accumulators in any order
// for Sum; Max and ArgMax are order-insensitive except for ties, where the
// lowest index wins.

struct SumReduce {
  template <class T> PL_HOST_DEVICE static T identity() { return T(0); }
  template <class T> PL_HOST_DEVICE static T combine(T acc, T value) {
    return wrapping_add(acc, value);
  }
};

// NaN propagates: once the accumulator is NaN it stays NaN.
struct MaxReduce {
  template <class T> PL_HOST_DEVICE static T combine(T acc, T value) {
    if (is_nan(acc))
      return acc;
    return (is_nan(value) || value > acc) ? value : acc;
  }
};

// The index of the first maximum; a NaN counts as the maximum (first NaN wins).
struct ArgMaxReduce {
  template <class T> struct State {
    T value;
    std::int64_t index;
  };
  template <class T>
  PL_HOST_DEVICE static State<T> combine(State<T> acc, T value, std::int64_t index) {
    if (is_nan(acc.value))
      return acc;
    if (is_nan(value) || value > acc.value)
      return State<T>{value, index};
    return acc;
  }
  // Merges two partial states that cover disjoint index ranges.
  template <class T> PL_HOST_DEVICE static State<T> merge(State<T> a, State<T> b) {
    const bool a_first = a.index < b.index;
    const State<T> first = a_first ? a : b;
    const State<T> second = a_first ? b : a;
    if (is_nan(first.value))
      return first;
    if (is_nan(second.value) || second.value > first.value)
      return second;
    return first;
  }
};

} // namespace pl::functors
