// Sum, Mean, Max and ArgMax over any set of dimensions. The combine steps are
// pl::functors' reductions (core/functors.h), the ones the CPU backend runs;
// reduce_plan.cuh says which kernel reduces what: one thread per output (per
// pack of adjacent outputs in a column reduction), one warp or one block per
// output (16-byte loads, warp-shuffle merges), split into chunks merged by a
// second kernel when there are too few outputs.
#include "caching_allocator.h"
#include "cuda_error.h"
#include "kernels.h"
#include "reduce_plan.cuh"
#include "strided_layout.cuh"
#include "vector_pack.cuh"

#include "core/dispatch.h"
#include "core/functors.h"

#include <cmath>
#include <cstring>
#include <optional>
#include <type_traits>

namespace pl::cuda::detail {
namespace {

// A reduction as: an empty state, add (value at reduced index r, in order),
// merge (two states over disjoint ranges), finish (the output value).
template <class T> struct SumPolicy {
  using State = T;
  using Out = T;
  __device__ static State empty() { return functors::SumReduce::identity<T>(); }
  __device__ static State add(State s, T v, std::int64_t) {
    return functors::SumReduce::combine(s, v);
  }
  __device__ static State merge(State a, State b) { return functors::SumReduce::combine(a, b); }
  __device__ static Out finish(State s, std::int64_t) { return s; }
};

template <class T> struct MeanPolicy : SumPolicy<T> {
  __device__ static T finish(T sum, std::int64_t count) {
    return count == 0 ? static_cast<T>(::nan("")) : sum / static_cast<T>(count);
  }
};

// Max's state is a value: the lowest one of T is the empty state, which any
// element (a NaN too) replaces, so a thread with no share of a short range
// merges away without a flag.
template <class T> struct MaxPolicy {
  using State = T;
  using Out = T;
  __device__ static State empty() {
    if constexpr (std::is_floating_point_v<T>)
      return -static_cast<T>(INFINITY);
    else if constexpr (std::is_same_v<T, bool>)
      return false;
    else {
      static_assert(std::is_signed_v<T>);
      return static_cast<T>(std::uint64_t{1} << (8 * sizeof(T) - 1)); // the most negative
    }
  }
  __device__ static State add(State s, T v, std::int64_t) { return functors::MaxReduce::combine(s, v); }
  __device__ static State merge(State a, State b) { return functors::MaxReduce::combine(a, b); }
  __device__ static Out finish(State s, std::int64_t) { return s; }
};

// ArgMax's state carries the index of its value; -1 marks a state that has
// seen no element yet (a thread with no share of a short range).
template <class T> struct ArgMaxPolicy {
  using State = functors::ArgMaxReduce::State<T>;
  using Out = std::int64_t;
  __device__ static State empty() { return State{T(0), -1}; }
  __device__ static State add(State s, T v, std::int64_t r) {
    if (s.index < 0)
      return State{v, r};
    return functors::ArgMaxReduce::combine(s, v, r);
  }
  __device__ static State merge(State a, State b) {
    if (a.index < 0)
      return b;
    if (b.index < 0)
      return a;
    return functors::ArgMaxReduce::merge(a, b);
  }
  __device__ static Out finish(State s, std::int64_t) { return s.index; }
};

// The offset of reduced element r from its output's base: one multiply when
// the reduced dimensions collapse to one (the usual case), the general
// division-based walk otherwise. The branch is uniform across the grid.
__device__ inline std::int64_t reduced_offset_of(const ReduceLayout &layout, std::int64_t r) {
  if (layout.reduced.dim <= 1)
    return layout.reduced.dim == 0 ? 0 : r * layout.reduced.strides[0][0];
  return layout.reduced_offset(r);
}

// Rows a thread of a column reduction loads before adding them up: enough
// loads in flight to cover memory latency with one thread per output.
constexpr int kRowsInFlight = 8;

// One thread per output (short extents and column reductions, where
// neighbouring threads read neighbouring elements): thread x of block
// (bx, y) reduces chunk y of its output. With one chunk it writes the output;
// otherwise its state goes to partials[y * num_outputs + o] (split-major:
// neighbouring threads write, and merge_columns reads, neighbouring states).
template <class Policy, class T>
__global__ void reduce_per_thread(ReduceLayout layout, const T *in, typename Policy::Out *out,
                                  typename Policy::State *partials, std::int64_t chunk) {
  const std::int64_t num_out = layout.num_outputs, extent = layout.extent;
  const std::int64_t begin = std::int64_t{blockIdx.y} * chunk;
  const std::int64_t end = begin + chunk < extent ? begin + chunk : extent;
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t o = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; o < num_out;
       o += stride) {
    std::int64_t in_base, out_offset;
    layout.output_offsets(o, in_base, out_offset);
    typename Policy::State s = Policy::empty();
    std::int64_t r = begin;
    for (; r + kRowsInFlight <= end; r += kRowsInFlight) {
      T values[kRowsInFlight];
#pragma unroll
      for (int k = 0; k < kRowsInFlight; ++k)
        values[k] = in[in_base + reduced_offset_of(layout, r + k)];
#pragma unroll
      for (int k = 0; k < kRowsInFlight; ++k)
        s = Policy::add(s, values[k], r + k);
    }
    for (; r < end; ++r)
      s = Policy::add(s, in[in_base + reduced_offset_of(layout, r)], r);
    if (gridDim.y == 1)
      out[out_offset] = Policy::finish(s, extent);
    else
      partials[blockIdx.y * num_out + o] = s;
  }
}

// A column reduction over W adjacent outputs a thread (column_packs_aligned
// holds): each row is one 16-byte load, kRowsInFlight of them in flight.
// Thread x of block (bx, y) reduces chunk y of outputs W*x .. W*x + W-1;
// partials as reduce_per_thread's.
template <class Policy, class T, int W>
__global__ void reduce_columns(ReduceLayout layout, const T *in, typename Policy::Out *out,
                               typename Policy::State *partials, std::int64_t chunk) {
  const std::int64_t groups = layout.num_outputs / W, extent = layout.extent;
  const std::int64_t row_stride = layout.reduced.strides[0][0];
  const std::int64_t begin = std::int64_t{blockIdx.y} * chunk;
  const std::int64_t end = begin + chunk < extent ? begin + chunk : extent;
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t g = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; g < groups;
       g += stride) {
    std::int64_t in_base, out_offset;
    layout.output_offsets(g * W, in_base, out_offset);
    typename Policy::State s[W];
#pragma unroll
    for (int j = 0; j < W; ++j)
      s[j] = Policy::empty();
    const T *column = in + in_base;
    std::int64_t r = begin;
    for (; r + kRowsInFlight <= end; r += kRowsInFlight) {
      Pack<T, W> rows[kRowsInFlight];
#pragma unroll
      for (int k = 0; k < kRowsInFlight; ++k)
        rows[k] = *reinterpret_cast<const Pack<T, W> *>(column + (r + k) * row_stride);
#pragma unroll
      for (int k = 0; k < kRowsInFlight; ++k)
#pragma unroll
        for (int j = 0; j < W; ++j)
          s[j] = Policy::add(s[j], rows[k].value[j], r + k);
    }
    for (; r < end; ++r) {
      const Pack<T, W> row = *reinterpret_cast<const Pack<T, W> *>(column + r * row_stride);
#pragma unroll
      for (int j = 0; j < W; ++j)
        s[j] = Policy::add(s[j], row.value[j], r);
    }
#pragma unroll
    for (int j = 0; j < W; ++j) {
      if (gridDim.y == 1)
        out[out_offset + j] = Policy::finish(s[j], extent);
      else
        partials[blockIdx.y * layout.num_outputs + g * W + j] = s[j];
    }
  }
}

// A state moved between lanes as 32-bit words (State is a value, or a value
// and an index).
template <class State> __device__ State shuffle_down(const State &s, unsigned delta) {
  constexpr int kWords = static_cast<int>((sizeof(State) + 3) / 4);
  unsigned words[kWords] = {};
  memcpy(words, &s, sizeof(State));
#pragma unroll
  for (int i = 0; i < kWords; ++i)
    words[i] = __shfl_down_sync(0xffffffffu, words[i], delta);
  State moved;
  memcpy(&moved, words, sizeof(State));
  return moved;
}

// Lane 0 gets the merge of the warp's 32 states.
template <class Policy>
__device__ typename Policy::State warp_merge(typename Policy::State s) {
#pragma unroll
  for (unsigned delta = 16; delta > 0; delta /= 2)
    s = Policy::merge(s, shuffle_down(s, delta));
  return s;
}

constexpr unsigned kWarpsPerBlock = kThreadsPerBlock / 32;
// Packs each thread loads before adding them up.
constexpr int kUnroll = 4;

// Thread 0 gets the merge of the block's states: shuffles within each warp,
// then the first warp merges the warps' results. `shared` holds one state a
// warp; every thread of the block must call this.
template <class Policy>
__device__ typename Policy::State block_merge(typename Policy::State *shared,
                                              typename Policy::State s) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  s = warp_merge<Policy>(s);
  if (lane == 0)
    shared[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = lane < blockDim.x / 32 ? shared[lane] : Policy::empty();
    s = warp_merge<Policy>(s);
  }
  __syncthreads(); // the next output reuses `shared`
  return s;
}

// The state of lane `lane` of `lanes` over [begin, end) of the range whose
// first element is at in_base: elements lane, lane + lanes, ... or, with
// W > 1 (the range contiguous, begin and in_base on pack boundaries), packs
// of W, kUnroll of them loaded before their values are added (in index
// order, as ArgMax needs), then the last (end - begin) % W one at a time.
template <class Policy, class T, int W>
__device__ typename Policy::State accumulate(const ReduceLayout &layout, const T *in,
                                             std::int64_t in_base, std::int64_t begin,
                                             std::int64_t end, unsigned lane, unsigned lanes) {
  typename Policy::State s = Policy::empty();
  std::int64_t scalar_begin = begin;
  if constexpr (W > 1) {
    const T *row = in + in_base;
    const std::int64_t packs_end = end > begin ? begin + (end - begin) / W * W : begin;
    const std::int64_t step = std::int64_t{lanes} * W;
    for (std::int64_t r = begin + std::int64_t{lane} * W; r < packs_end; r += kUnroll * step) {
      Pack<T, W> packs[kUnroll];
#pragma unroll
      for (int k = 0; k < kUnroll; ++k)
        if (r + k * step < packs_end)
          packs[k] = *reinterpret_cast<const Pack<T, W> *>(row + r + k * step);
#pragma unroll
      for (int k = 0; k < kUnroll; ++k)
        if (r + k * step < packs_end)
#pragma unroll
          for (int j = 0; j < W; ++j)
            s = Policy::add(s, packs[k].value[j], r + k * step + j);
    }
    scalar_begin = packs_end;
  }
  for (std::int64_t r = scalar_begin + lane; r < end; r += lanes)
    s = Policy::add(s, in[in_base + reduced_offset_of(layout, r)], r);
  return s;
}

// One warp per output (ranges of up to kWarpReduceLimit, where a block per
// output would leave most of its threads idle): no barrier, the merge is
// five shuffles.
template <class Policy, class T, int W>
__global__ void reduce_warps(ReduceLayout layout, const T *in, typename Policy::Out *out) {
  const unsigned lane = threadIdx.x % 32;
  const std::int64_t warps = std::int64_t{gridDim.x} * kWarpsPerBlock;
  for (std::int64_t o = std::int64_t{blockIdx.x} * kWarpsPerBlock + threadIdx.x / 32;
       o < layout.num_outputs; o += warps) {
    std::int64_t in_base, out_offset;
    layout.output_offsets(o, in_base, out_offset);
    const typename Policy::State s = warp_merge<Policy>(
        accumulate<Policy, T, W>(layout, in, in_base, 0, layout.extent, lane, 32));
    if (lane == 0)
      out[out_offset] = Policy::finish(s, layout.extent);
  }
}

// Block (x, y) reduces chunk y of output x (W as in accumulate; the host
// checks that every chunk starts on a pack boundary). With one chunk it
// writes the output; otherwise its state goes to partials[x * gridDim.y + y].
template <class Policy, class T, int W>
__global__ void reduce_blocks(ReduceLayout layout, const T *in, typename Policy::Out *out,
                              typename Policy::State *partials, std::int64_t chunk) {
  __shared__ typename Policy::State shared[kWarpsPerBlock];
  const std::int64_t num_out = layout.num_outputs, extent = layout.extent;
  const std::int64_t begin = std::int64_t{blockIdx.y} * chunk;
  const std::int64_t end = begin + chunk < extent ? begin + chunk : extent;
  for (std::int64_t o = blockIdx.x; o < num_out; o += gridDim.x) {
    std::int64_t in_base, out_offset;
    layout.output_offsets(o, in_base, out_offset);
    typename Policy::State s =
        accumulate<Policy, T, W>(layout, in, in_base, begin, end, threadIdx.x, blockDim.x);
    s = block_merge<Policy>(shared, s);
    if (threadIdx.x == 0) {
      if (gridDim.y == 1)
        out[out_offset] = Policy::finish(s, extent);
      else
        partials[o * gridDim.y + blockIdx.y] = s;
    }
  }
}

// Merges reduce_blocks' output-major partial states, a block per output.
template <class Policy>
__global__ void merge_partials(ReduceLayout layout, const typename Policy::State *partials,
                               unsigned splits, typename Policy::Out *out) {
  __shared__ typename Policy::State shared[kWarpsPerBlock];
  for (std::int64_t o = blockIdx.x; o < layout.num_outputs; o += gridDim.x) {
    typename Policy::State s = Policy::empty();
    for (unsigned i = threadIdx.x; i < splits; i += blockDim.x)
      s = Policy::merge(s, partials[o * splits + i]);
    s = block_merge<Policy>(shared, s);
    if (threadIdx.x == 0) {
      std::int64_t in_base, out_offset;
      layout.output_offsets(o, in_base, out_offset);
      out[out_offset] = Policy::finish(s, layout.extent);
    }
  }
}

// Merges the split-major partial states of the per-thread kernels, one
// thread per output.
template <class Policy>
__global__ void merge_columns(ReduceLayout layout, const typename Policy::State *partials,
                              unsigned splits, typename Policy::Out *out) {
  const std::int64_t num_out = layout.num_outputs;
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t o = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; o < num_out;
       o += stride) {
    typename Policy::State s = Policy::empty();
    for (unsigned y = 0; y < splits; ++y)
      s = Policy::merge(s, partials[y * num_out + o]);
    std::int64_t in_base, out_offset;
    layout.output_offsets(o, in_base, out_offset);
    out[out_offset] = Policy::finish(s, layout.extent);
  }
}

// Scratch device memory from the caching allocator for one launch. Freeing
// right after queuing the kernels that use it is safe: the block can only be
// reused by work queued later on the same stream.
class ScratchBuffer {
public:
  ScratchBuffer(int device, cudaStream_t stream, std::size_t bytes)
      : device_(device), bytes_(bytes),
        data_(caching_allocator().allocate(device, bytes, stream)) {}
  ~ScratchBuffer() { caching_allocator().deallocate(device_, data_, bytes_); }
  ScratchBuffer(const ScratchBuffer &) = delete;
  ScratchBuffer &operator=(const ScratchBuffer &) = delete;
  void *data() const { return data_; }

private:
  int device_;
  std::size_t bytes_;
  void *data_;
};

// Whether each output's reduced range is contiguous and starts on a pack
// boundary, so that the warp and block kernels may read it W elements at a
// time (a split range also needs chunk to be a multiple of W).
template <class T> bool ranges_pack_aligned(const ReduceLayout &layout, const T *in) {
  constexpr int kWidth = kPackWidth<T>;
  if (!pack_aligned(in))
    return false;
  if (layout.reduced.dim > 1 || (layout.reduced.dim == 1 && layout.reduced.strides[0][0] != 1))
    return false;
  for (int d = 0; d < layout.kept.dim; ++d)
    if (layout.kept.strides[0][d] % kWidth != 0)
      return false;
  return true;
}

// Outputs a thread of a column reduction takes: a 16-byte pack of T, where
// that is at most four states of registers.
template <class T> inline constexpr int kColumnWidth = kPackWidth<T> <= 4 ? kPackWidth<T> : 1;

// Whether a column reduction may read W = kColumnWidth<T> adjacent outputs
// as one pack per row: one kept dimension, contiguous in the input and the
// output, a whole number of packs, every row starting on a pack boundary.
template <class T> bool column_packs_aligned(const ReduceLayout &layout, const T *in) {
  constexpr int kWidth = kColumnWidth<T>;
  return kWidth > 1 && pack_aligned(in) && layout.kept.dim == 1 &&
         layout.kept.strides[0][0] == 1 && layout.kept.strides[1][0] == 1 &&
         layout.num_outputs % kWidth == 0 && layout.reduced.dim == 1 &&
         layout.reduced.strides[0][0] % kWidth == 0;
}

// What keeps `device` busy, from its SM count and threads per SM (cheap
// attribute queries, no synchronisation).
ReduceTargets targets_of(int device) {
  int sm_count = 0, threads_per_sm = 0;
  PL_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  PL_CUDA_CHECK(
      cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  return ReduceTargets::of(sm_count, threads_per_sm);
}

template <class Policy, class T>
void run_reduce(int device, cudaStream_t stream, const TensorArg &out, const TensorArg &in,
                std::uint32_t reduced_dims) {
  const ReduceLayout layout = make_reduce_layout(out, in, reduced_dims);
  const std::int64_t num_out = layout.num_outputs;
  const auto *in_data = static_cast<const T *>(in.data);
  auto *out_data = static_cast<typename Policy::Out *>(out.data);
  if (num_out == 0)
    return;
  const bool columns = is_column_reduction(layout);
  // Packed columns: a thread per kColumnWidth outputs, planned as such.
  const bool packed_columns = columns && column_packs_aligned(layout, in_data);
  constexpr int kColumns = kColumnWidth<T>;
  const std::int64_t threads_out = packed_columns ? num_out / kColumns : num_out;
  ReduceTargets targets = targets_of(device);
  if (packed_columns) // each thread keeps kColumns times the bytes in flight
    targets.threads /= kColumns;
  ReducePlan plan = plan_reduction(threads_out, layout.extent, columns, targets);
  constexpr int kWidth = kPackWidth<T>;
  // Chunks of a split range start on pack boundaries (a last chunk may end
  // up empty; its empty state merges away).
  if (plan.kernel == ReduceKernel::PerBlock && plan.splits > 1)
    plan.chunk = (plan.chunk + kWidth - 1) / kWidth * kWidth;
  const bool packed = ranges_pack_aligned(layout, in_data);
  const auto splits = static_cast<unsigned>(plan.splits);
  using State = typename Policy::State;
  std::optional<ScratchBuffer> partials;
  State *partial_data = nullptr;
  if (splits > 1) {
    partials.emplace(device, stream, static_cast<std::size_t>(num_out) * splits * sizeof(State));
    partial_data = static_cast<State *>(partials->data());
  }

  switch (plan.kernel) {
  case ReduceKernel::PerThread: {
    const dim3 grid(blocks_for(threads_out), splits);
    if constexpr (kColumns > 1)
      if (packed_columns) {
        reduce_columns<Policy, T, kColumns><<<grid, kThreadsPerBlock, 0, stream>>>(
            layout, in_data, out_data, partial_data, plan.chunk);
        break;
      }
    reduce_per_thread<Policy, T><<<grid, kThreadsPerBlock, 0, stream>>>(layout, in_data, out_data,
                                                                       partial_data, plan.chunk);
    break;
  }
  case ReduceKernel::PerWarp: {
    const std::int64_t blocks = (num_out + kWarpsPerBlock - 1) / kWarpsPerBlock;
    const auto grid = static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks);
    if (packed)
      reduce_warps<Policy, T, kWidth>
          <<<grid, kThreadsPerBlock, 0, stream>>>(layout, in_data, out_data);
    else
      reduce_warps<Policy, T, 1><<<grid, kThreadsPerBlock, 0, stream>>>(layout, in_data, out_data);
    break;
  }
  case ReduceKernel::PerBlock: {
    const dim3 grid(static_cast<unsigned>(num_out < kMaxBlocks ? num_out : kMaxBlocks), splits);
    if (packed)
      reduce_blocks<Policy, T, kWidth><<<grid, kThreadsPerBlock, 0, stream>>>(
          layout, in_data, out_data, partial_data, plan.chunk);
    else
      reduce_blocks<Policy, T, 1><<<grid, kThreadsPerBlock, 0, stream>>>(
          layout, in_data, out_data, partial_data, plan.chunk);
    break;
  }
  }
  PL_CUDA_CHECK_LAUNCH();
  if (splits > 1) {
    if (plan.kernel == ReduceKernel::PerThread) {
      merge_columns<Policy><<<blocks_for(num_out), kThreadsPerBlock, 0, stream>>>(
          layout, partial_data, splits, out_data);
    } else {
      const auto merge_blocks = static_cast<unsigned>(num_out < kMaxBlocks ? num_out : kMaxBlocks);
      merge_partials<Policy>
          <<<merge_blocks, kThreadsPerBlock, 0, stream>>>(layout, partial_data, splits, out_data);
    }
    PL_CUDA_CHECK_LAUNCH();
  }
}

} // namespace

void launch_reduce(int device, cudaStream_t stream, ReduceOp op, const TensorArg &out,
                   const TensorArg &in, std::uint32_t reduced_dims) {
  backend::visit_dtype(in.dtype, [&](auto tag) {
    using T = decltype(tag);
    switch (op) {
    case ReduceOp::Sum:
      if constexpr (!std::is_same_v<T, bool>)
        return run_reduce<SumPolicy<T>, T>(device, stream, out, in, reduced_dims);
      break;
    case ReduceOp::Mean:
      if constexpr (std::is_floating_point_v<T>)
        return run_reduce<MeanPolicy<T>, T>(device, stream, out, in, reduced_dims);
      break;
    case ReduceOp::Max:
      return run_reduce<MaxPolicy<T>, T>(device, stream, out, in, reduced_dims);
    case ReduceOp::ArgMax:
      return run_reduce<ArgMaxPolicy<T>, T>(device, stream, out, in, reduced_dims);
    }
    PL_ASSERT(false && "reduction dispatched for a dtype the front end rejects");
  });
}

} // namespace pl::cuda::detail
