// Pack<T, W>: W consecutive elements loaded or stored as one access. With
// 16 bytes of T the compiler emits 128-bit global loads and stores
// (LDG.E.128 / STG.E.128): a quarter of the memory instructions of
// element-wise access, which the elementwise and reduction kernels need to
// reach memory speed. The address must be aligned to the pack (checked on
// the host before a kernel takes this path).
#pragma once

#include <cstddef>
#include <cstdint>

namespace pl::cuda::detail {

inline constexpr std::size_t kPackBytes = 16;

template <class T, int W> struct alignas(sizeof(T) * W) Pack {
  T value[W];
};

// Elements of T in one 16-byte pack.
template <class T> inline constexpr int kPackWidth = static_cast<int>(kPackBytes / sizeof(T));

inline bool pack_aligned(const void *data) {
  return reinterpret_cast<std::uintptr_t>(data) % kPackBytes == 0;
}

} // namespace pl::cuda::detail
