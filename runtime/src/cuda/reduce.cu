// Sum, Mean, Max and ArgMax over any set of dimensions. The combine steps are
// pl::functors' reductions (core/functors.h), the ones the CPU backend runs;
// reduce_plan.cuh says which kernel reduces what.
#include "caching_allocator.h"
#include "cuda_error.h"
#include "kernels.h"
#include "reduce_plan.cuh"
#include "strided_layout.cuh"

#include "core/dispatch.h"
#include "core/functors.h"

#include <cmath>

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

// Max and ArgMax states carry the index of their value; -1 marks a state that
// has seen no element yet (a thread with no share of a short range).
template <class T> struct MaxPolicy {
  using State = functors::ArgMaxReduce::State<T>;
  using Out = T;
  __device__ static State empty() { return State{T(0), -1}; }
  __device__ static State add(State s, T v, std::int64_t r) {
    if (s.index < 0)
      return State{v, r};
    return State{functors::MaxReduce::combine(s.value, v), s.index};
  }
  __device__ static State merge(State a, State b) {
    if (a.index < 0)
      return b;
    if (b.index < 0)
      return a;
    return State{functors::MaxReduce::combine(a.value, b.value), a.index};
  }
  __device__ static Out finish(State s, std::int64_t) { return s.value; }
};

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

template <class Policy, class T>
__global__ void reduce_sequential(ReduceLayout layout, const T *in, typename Policy::Out *out) {
  const std::int64_t num_out = layout.num_outputs, extent = layout.extent;
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t o = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; o < num_out;
       o += stride) {
    std::int64_t in_base, out_offset;
    layout.output_offsets(o, in_base, out_offset);
    typename Policy::State s = Policy::empty();
    for (std::int64_t r = 0; r < extent; ++r)
      s = Policy::add(s, in[in_base + layout.reduced_offset(r)], r);
    out[out_offset] = Policy::finish(s, extent);
  }
}

// Merges the block's states in shared memory; thread 0 gets the result.
template <class Policy>
__device__ typename Policy::State block_merge(typename Policy::State *shared,
                                              typename Policy::State s) {
  shared[threadIdx.x] = s;
  __syncthreads();
  for (unsigned width = blockDim.x / 2; width > 0; width /= 2) {
    if (threadIdx.x < width)
      shared[threadIdx.x] = Policy::merge(shared[threadIdx.x], shared[threadIdx.x + width]);
    __syncthreads();
  }
  const typename Policy::State result = shared[0];
  __syncthreads(); // the next output reuses `shared`
  return result;
}

// Block (x, y) reduces chunk y of output x. With one chunk it writes the
// output; otherwise it writes its state to partials[x * gridDim.y + y].
template <class Policy, class T>
__global__ void reduce_blocks(ReduceLayout layout, const T *in, typename Policy::Out *out,
                              typename Policy::State *partials, std::int64_t chunk) {
  __shared__ typename Policy::State shared[kThreadsPerBlock];
  const std::int64_t num_out = layout.num_outputs, extent = layout.extent;
  const std::int64_t begin = std::int64_t{blockIdx.y} * chunk;
  const std::int64_t end = begin + chunk < extent ? begin + chunk : extent;
  for (std::int64_t o = blockIdx.x; o < num_out; o += gridDim.x) {
    std::int64_t in_base, out_offset;
    layout.output_offsets(o, in_base, out_offset);
    typename Policy::State s = Policy::empty();
    for (std::int64_t r = begin + threadIdx.x; r < end; r += blockDim.x)
      s = Policy::add(s, in[in_base + layout.reduced_offset(r)], r);
    s = block_merge<Policy>(shared, s);
    if (threadIdx.x == 0) {
      if (gridDim.y == 1)
        out[out_offset] = Policy::finish(s, extent);
      else
        partials[o * gridDim.y + blockIdx.y] = s;
    }
  }
}

template <class Policy>
__global__ void merge_partials(ReduceLayout layout, const typename Policy::State *partials,
                               unsigned splits, typename Policy::Out *out) {
  __shared__ typename Policy::State shared[kThreadsPerBlock];
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

template <class Policy, class T>
void run_reduce(int device, cudaStream_t stream, const TensorArg &out, const TensorArg &in,
                std::uint32_t reduced_dims) {
  const ReduceLayout layout = make_reduce_layout(out, in, reduced_dims);
  const std::int64_t num_out = layout.num_outputs;
  const auto *in_data = static_cast<const T *>(in.data);
  auto *out_data = static_cast<typename Policy::Out *>(out.data);
  if (num_out == 0)
    return;
  const ReducePlan plan = plan_reduction(num_out, layout.extent);

  if (plan.sequential) {
    reduce_sequential<Policy, T>
        <<<blocks_for(num_out), kThreadsPerBlock, 0, stream>>>(layout, in_data, out_data);
    PL_CUDA_CHECK_LAUNCH();
    return;
  }
  const auto out_blocks = static_cast<unsigned>(num_out < kMaxBlocks ? num_out : kMaxBlocks);
  const auto splits = static_cast<unsigned>(plan.splits);
  if (splits == 1) {
    reduce_blocks<Policy, T>
        <<<dim3(out_blocks, 1), kThreadsPerBlock, 0, stream>>>(layout, in_data, out_data, nullptr,
                                                               plan.chunk);
    PL_CUDA_CHECK_LAUNCH();
    return;
  }
  using State = typename Policy::State;
  ScratchBuffer partials(device, stream,
                         static_cast<std::size_t>(num_out) * splits * sizeof(State));
  auto *partial_data = static_cast<State *>(partials.data());
  reduce_blocks<Policy, T><<<dim3(out_blocks, splits), kThreadsPerBlock, 0, stream>>>(
      layout, in_data, out_data, partial_data, plan.chunk);
  PL_CUDA_CHECK_LAUNCH();
  merge_partials<Policy>
      <<<out_blocks, kThreadsPerBlock, 0, stream>>>(layout, partial_data, splits, out_data);
  PL_CUDA_CHECK_LAUNCH();
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
