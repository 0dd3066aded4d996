// How a reduction maps onto the GPU, apart from the kernels so that the host
// side (index arithmetic, the choice of kernel and the split) is testable
// without a GPU.
//
// Each output element reduces `extent` input elements. Short extents run one
// thread per output, in index order. Otherwise one block per output reduces
// with a tree in shared memory; when there are too few outputs to fill the
// GPU, the extent is also split into chunks reduced by separate blocks
// (grid.y) whose partial states a second kernel merges.
#pragma once

#include "strided_layout.cuh"

#include "core/backend.h"

#include <cstdint>

namespace pl::cuda::detail {

// Where output element o and its reduced element r live.
struct ReduceLayout {
  StridedLayout<2> kept;    // the kept dimensions; strides[0]: input, [1]: output
  StridedLayout<1> reduced; // the reduced dimensions; strides[0]: input
  std::int64_t num_outputs = 1;
  std::int64_t extent = 1; // elements reduced into each output

  __host__ __device__ void output_offsets(std::int64_t o, std::int64_t &in,
                                          std::int64_t &out) const {
    std::int64_t offset[2];
    kept.offsets(o, offset);
    in = offset[0];
    out = offset[1];
  }
  __host__ __device__ std::int64_t reduced_offset(std::int64_t r) const {
    std::int64_t offset[1];
    reduced.offsets(r, offset);
    return offset[0];
  }
};

// Reduces `in` over the dimensions whose bit is set in reduced_dims into `out`
// (backend.h's contract: out has in's rank, size 1 in reduced dimensions).
inline ReduceLayout make_reduce_layout(const backend::TensorArg &out, const backend::TensorArg &in,
                                       std::uint32_t reduced_dims) {
  std::int64_t kept_sizes[backend::kMaxDims], kept_in[backend::kMaxDims],
      kept_out[backend::kMaxDims], reduced_sizes[backend::kMaxDims], reduced_in[backend::kMaxDims];
  int kept = 0, reduced = 0;
  ReduceLayout layout;
  for (int d = 0; d < in.dim; ++d) {
    if (reduced_dims & (1u << d)) {
      reduced_sizes[reduced] = in.sizes[d];
      reduced_in[reduced++] = in.strides[d];
      layout.extent *= in.sizes[d];
    } else {
      kept_sizes[kept] = in.sizes[d];
      kept_in[kept] = in.strides[d];
      kept_out[kept++] = out.strides[d];
      layout.num_outputs *= in.sizes[d];
    }
  }
  layout.kept = collapse<2>(kept_sizes, kept, {kept_in, kept_out});
  layout.reduced = collapse<1>(reduced_sizes, reduced, {reduced_in});
  return layout;
}

struct ReducePlan {
  bool sequential;     // one thread per output
  std::int64_t splits; // chunks per output (grid.y); 1 = no merge kernel
  std::int64_t chunk;  // elements per chunk; chunk * splits >= extent
};

inline constexpr std::int64_t kSequentialReduceLimit = 32;
// A chunk of a split reduction covers at least this many elements.
inline constexpr std::int64_t kElementsPerReduceBlock = 8192;
// Split reductions aim at this many blocks in all.
inline constexpr std::int64_t kTargetReduceBlocks = 2048;
inline constexpr std::int64_t kMaxGridY = 65535;

inline ReducePlan plan_reduction(std::int64_t num_outputs, std::int64_t extent) {
  if (extent <= kSequentialReduceLimit)
    return {true, 1, extent};
  std::int64_t splits = (extent + kElementsPerReduceBlock - 1) / kElementsPerReduceBlock;
  const std::int64_t blocks_per_output =
      num_outputs >= kTargetReduceBlocks ? 1 : kTargetReduceBlocks / num_outputs;
  splits = splits < blocks_per_output ? splits : blocks_per_output;
  splits = splits < kMaxGridY ? splits : kMaxGridY;
  return {false, splits, (extent + splits - 1) / splits};
}

} // namespace pl::cuda::detail
