// ArrayRef<T>: a non-owning view of a contiguous sequence, constructible from
// a braced list, a std::vector, a single element or a pointer and length, like
// c10::ArrayRef. IntArrayRef carries sizes and dims; TensorList carries tensors.
// Like c10::ArrayRef it does not own: a braced list lives until the end of the
// full expression that contains it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <ostream>
#include <vector>

namespace pl {

template <class T> class ArrayRef {
public:
  using value_type = T;
  using iterator = const T *;

  constexpr ArrayRef() = default;
  /* implicit */ constexpr ArrayRef(const T &single) : data_(&single), size_(1) {}
  constexpr ArrayRef(const T *data, std::size_t size) : data_(data), size_(size) {}
  /* implicit */ ArrayRef(const std::vector<T> &values)
      : data_(values.data()), size_(values.size()) {}
  // As c10's: std::begin rather than values.begin(), which g++ would warn
  // about (-Winit-list-lifetime) in every caller's braced list although not
  // owning the list is this type's documented contract.
  /* implicit */ constexpr ArrayRef(const std::initializer_list<T> &values)
      : data_(std::begin(values) == std::end(values) ? nullptr : std::begin(values)),
        size_(values.size()) {}

  constexpr const T *data() const { return data_; }
  constexpr std::size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const T *begin() const { return data_; }
  constexpr const T *end() const { return data_ + size_; }
  constexpr const T &operator[](std::size_t index) const { return data_[index]; }
  constexpr const T &front() const { return data_[0]; }
  constexpr const T &back() const { return data_[size_ - 1]; }
  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }

  bool equals(ArrayRef other) const {
    if (size_ != other.size_)
      return false;
    for (std::size_t i = 0; i < size_; ++i)
      if (!(data_[i] == other.data_[i]))
        return false;
    return true;
  }

private:
  const T *data_ = nullptr;
  std::size_t size_ = 0;
};

template <class T> bool operator==(ArrayRef<T> a, ArrayRef<T> b) { return a.equals(b); }
template <class T> bool operator==(ArrayRef<T> a, const std::vector<T> &b) {
  return a.equals(ArrayRef<T>(b));
}
template <class T> bool operator==(const std::vector<T> &a, ArrayRef<T> b) {
  return b.equals(ArrayRef<T>(a));
}

using IntArrayRef = ArrayRef<std::int64_t>;

// Prints [2, 3] like c10.
inline std::ostream &operator<<(std::ostream &os, IntArrayRef values) {
  os << '[';
  for (std::size_t i = 0; i < values.size(); ++i)
    os << (i == 0 ? "" : ", ") << values[i];
  return os << ']';
}

} // namespace pl
