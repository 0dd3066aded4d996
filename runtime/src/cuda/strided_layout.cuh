// Index arithmetic shared by the elementwise and reduction kernels: the
// operands of one kernel share sizes and differ in strides. On the host the
// dimensions are first collapsed (size-1 dimensions dropped, neighbours that
// are contiguous in every operand merged), so most calls, broadcasting
// included, run with one or two dimensions and few divisions per element.
#pragma once

#include "core/backend.h"

#include <cstdint>

namespace pl::cuda::detail {

inline constexpr int kThreadsPerBlock = 256;
// Grid-stride loops cover the rest; more blocks than this only add overhead.
inline constexpr std::int64_t kMaxBlocks = std::int64_t{1} << 16;

inline unsigned blocks_for(std::int64_t elements) {
  const std::int64_t blocks = (elements + kThreadsPerBlock - 1) / kThreadsPerBlock;
  return static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks);
}

// N operands over one shape, row-major linear index -> element offset of each.
template <int N> struct StridedLayout {
  int dim = 0;
  std::int64_t sizes[backend::kMaxDims] = {};
  std::int64_t strides[N][backend::kMaxDims] = {};

  __host__ __device__ void offsets(std::int64_t linear, std::int64_t (&offset)[N]) const {
    for (int k = 0; k < N; ++k)
      offset[k] = 0;
    for (int d = dim - 1; d >= 0; --d) {
      const std::int64_t size = sizes[d];
      const std::int64_t index = linear % size;
      linear /= size;
      for (int k = 0; k < N; ++k)
        offset[k] += index * strides[k][d];
    }
  }

  // One dimension with unit strides: linear index == offset in every operand.
  bool contiguous() const {
    if (dim == 0)
      return true;
    if (dim != 1)
      return false;
    for (int k = 0; k < N; ++k)
      if (strides[k][0] != 1)
        return false;
    return true;
  }
};

// The collapsed layout of operands that share `sizes` (taken from the first).
template <int N>
StridedLayout<N> collapse(const std::int64_t *sizes, int dim,
                          const std::int64_t *const (&strides)[N]) {
  StridedLayout<N> layout;
  for (int d = 0; d < dim; ++d) {
    if (sizes[d] == 1)
      continue;
    bool mergeable = layout.dim > 0;
    for (int k = 0; k < N && mergeable; ++k)
      mergeable = layout.strides[k][layout.dim - 1] == strides[k][d] * sizes[d];
    if (mergeable) { // the outer dimension steps exactly over the inner one
      layout.sizes[layout.dim - 1] *= sizes[d];
      for (int k = 0; k < N; ++k)
        layout.strides[k][layout.dim - 1] = strides[k][d];
    } else {
      layout.sizes[layout.dim] = sizes[d];
      for (int k = 0; k < N; ++k)
        layout.strides[k][layout.dim] = strides[k][d];
      ++layout.dim;
    }
  }
  return layout;
}

} // namespace pl::cuda::detail
