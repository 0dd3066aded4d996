// DimVector: a tensor's sizes or strides, held inline (no heap allocation)
// up to kMaxDims dimensions, the most any tensor may have: every op's
// result would otherwise pay two allocations for its sizes and strides.
// Reads like a std::vector<int64_t> and converts to IntArrayRef.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <pl/array_ref.h>
#include <pl/error.h>

namespace pl {

// The most dimensions a tensor may have (kernel operands carry their sizes
// inline, backend::TensorArg); creating more throws pl::ShapeError.
inline constexpr int kMaxDims = 8;

class DimVector {
public:
  using value_type = std::int64_t;
  using iterator = std::int64_t *;
  using const_iterator = const std::int64_t *;

  DimVector() = default;
  // Throws ShapeError when values has more than kMaxDims elements.
  /* implicit */ DimVector(IntArrayRef values) { assign(values); }
  /* implicit */ DimVector(const std::vector<std::int64_t> &values) {
    assign(IntArrayRef(values));
  }
  DimVector(std::size_t count, std::int64_t value) {
    check_fits(count);
    size_ = static_cast<std::uint8_t>(count);
    std::fill(begin(), end(), value);
  }

  void assign(IntArrayRef values) {
    check_fits(values.size());
    size_ = static_cast<std::uint8_t>(values.size());
    std::copy(values.begin(), values.end(), values_);
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  std::int64_t *data() noexcept { return values_; }
  const std::int64_t *data() const noexcept { return values_; }
  iterator begin() noexcept { return values_; }
  iterator end() noexcept { return values_ + size_; }
  const_iterator begin() const noexcept { return values_; }
  const_iterator end() const noexcept { return values_ + size_; }
  std::int64_t &operator[](std::size_t index) noexcept { return values_[index]; }
  const std::int64_t &operator[](std::size_t index) const noexcept { return values_[index]; }
  std::int64_t &front() noexcept { return values_[0]; }
  std::int64_t front() const noexcept { return values_[0]; }
  std::int64_t &back() noexcept { return values_[size_ - 1]; }
  std::int64_t back() const noexcept { return values_[size_ - 1]; }

  void push_back(std::int64_t value) {
    check_fits(size_ + std::size_t{1});
    values_[size_++] = value;
  }
  void insert(const_iterator position, std::int64_t value) {
    check_fits(size_ + std::size_t{1});
    std::int64_t *at = values_ + (position - values_);
    std::copy_backward(at, end(), end() + 1);
    *at = value;
    ++size_;
  }
  void erase(const_iterator position) noexcept {
    std::int64_t *at = values_ + (position - values_);
    std::copy(at + 1, end(), at);
    --size_;
  }
  void resize(std::size_t count, std::int64_t value = 0) {
    check_fits(count);
    if (count > size_)
      std::fill(end(), values_ + count, value);
    size_ = static_cast<std::uint8_t>(count);
  }

  /* implicit */ operator IntArrayRef() const noexcept { return IntArrayRef(values_, size_); }
  std::vector<std::int64_t> vec() const { return std::vector<std::int64_t>(begin(), end()); }

  friend bool operator==(const DimVector &a, const DimVector &b) noexcept {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

private:
  static void check_fits(std::size_t count) {
    PL_CHECK(count <= static_cast<std::size_t>(kMaxDims), ShapeError, "tensors have at most ",
             kMaxDims, " dimensions, but ", count, " were requested");
  }

  std::int64_t values_[kMaxDims] = {};
  std::uint8_t size_ = 0;
};

} // namespace pl
