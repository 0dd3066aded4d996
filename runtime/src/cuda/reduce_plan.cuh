// How a reduction maps onto the GPU, apart from the kernels so that the host
// side (index arithmetic, the choice of kernel and the split) is testable
// without a GPU.
//
// Each output element reduces `extent` input elements. Short extents, and
// column reductions (outputs next to each other in the input, the reduced
// dimensions outside them), run one thread per output, or per 16-byte pack
// of adjacent outputs: a warp then reads 32 neighbouring elements (packs)
// per step. Ranges up to kWarpReduceLimit run one warp
// per output; longer ones one block per output. Both read 16 bytes a load
// where the ranges are contiguous and aligned, and merge with warp shuffles.
// When that leaves the GPU short of work, the extent is also split into
// chunks (grid.y) whose partial states a second, small kernel merges.
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

// Whether the outputs are consecutive in the input while the reduced range
// is not: an outer-dimension ("column") reduction. One block per output would
// have each warp load touch 32 rows; one thread per output reads them
// coalesced.
inline bool is_column_reduction(const ReduceLayout &layout) {
  const bool outputs_adjacent =
      layout.kept.dim > 0 && layout.kept.strides[0][layout.kept.dim - 1] == 1;
  const bool reduced_contiguous = layout.reduced.dim == 1 && layout.reduced.strides[0][0] == 1;
  return outputs_adjacent && !reduced_contiguous;
}

enum class ReduceKernel : std::uint8_t { PerThread, PerWarp, PerBlock };

struct ReducePlan {
  ReduceKernel kernel; // who reduces one output (or one chunk of it)
  std::int64_t splits; // chunks per output (grid.y); 1 = no merge kernel
  std::int64_t chunk;  // elements per chunk; chunk * splits >= extent
};

inline constexpr std::int64_t kSequentialReduceLimit = 32;
// Ranges up to this long are reduced by one warp each (many short rows).
inline constexpr std::int64_t kWarpReduceLimit = 1024;
// Each thread of a column reduction walks at least this many rows.
inline constexpr std::int64_t kMinRowsPerThread = 16;
// A chunk of a split block reduction covers at least this many elements
// (16 per thread: one unrolled step of four 16-byte loads for floats).
inline constexpr std::int64_t kElementsPerReduceBlock = 4096;
inline constexpr std::int64_t kMaxGridY = 65535;

// How much parallel work keeps the device busy: enough blocks for a few
// waves, enough threads to fill every SM (ReduceTargets::of_device).
struct ReduceTargets {
  std::int64_t blocks;
  std::int64_t threads;

  // sm_count SMs of max_threads_per_sm threads: four waves of blocks of
  // kThreadsPerBlock, so that the last wave's tail is a small part.
  static ReduceTargets of(std::int64_t sm_count, std::int64_t max_threads_per_sm) {
    const std::int64_t threads = sm_count * max_threads_per_sm;
    return {4 * threads / kThreadsPerBlock, threads};
  }
};

inline ReducePlan plan_reduction(std::int64_t num_outputs, std::int64_t extent, bool columns,
                                 const ReduceTargets &targets) {
  if (extent <= kSequentialReduceLimit)
    return {ReduceKernel::PerThread, 1, extent};
  if (columns) {
    std::int64_t splits = (targets.threads + num_outputs - 1) / num_outputs;
    const std::int64_t most = (extent + kMinRowsPerThread - 1) / kMinRowsPerThread;
    splits = splits < most ? splits : most;
    splits = splits < kMaxGridY ? splits : kMaxGridY;
    const std::int64_t chunk = (extent + splits - 1) / splits;
    return {ReduceKernel::PerThread, (extent + chunk - 1) / chunk, chunk}; // no empty chunk
  }
  if (extent <= kWarpReduceLimit)
    return {ReduceKernel::PerWarp, 1, extent};
  std::int64_t splits = (extent + kElementsPerReduceBlock - 1) / kElementsPerReduceBlock;
  const std::int64_t blocks_per_output =
      num_outputs >= targets.blocks ? 1 : targets.blocks / num_outputs;
  splits = splits < blocks_per_output ? splits : blocks_per_output;
  splits = splits < kMaxGridY ? splits : kMaxGridY;
  return {ReduceKernel::PerBlock, splits, (extent + splits - 1) / splits};
}

} // namespace pl::cuda::detail
