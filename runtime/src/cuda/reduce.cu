// Sum, Mean, Max and ArgMax over any set of dimensions. The combine steps are
// pl::functors' reductions (core/functors.h), the ones the CPU backend runs.
//
// Each output element reduces R input elements. Small R: one thread per
// output, in index order. Otherwise one block per output, threads striding
// over R and a tree in shared memory; when there are too few outputs to fill
// the GPU, R is also split across blocks (grid.y), whose partial states a
// second kernel merges.
#include "caching_allocator.h"
#include "cuda_error.h"
#include "kernels.h"
#include "strided_layout.cuh"

#include "core/dispatch.h"
#include "core/functors.h"

#include <cmath>

namespace pl::cuda::detail {
namespace {

// Reduced extents up to this run one thread per output.
constexpr std::int64_t kSequentialLimit = 32;
// A block of a split reduction covers at least this many elements.
constexpr std::int64_t kElementsPerBlock = 8192;
// Split reductions aim at this many blocks in all.
constexpr std::int64_t kTargetBlocks = 2048;
constexpr unsigned kMaxGridY = 65535;

// Where the input of output element o and of reduced element r start.
struct ReduceLayout {
  StridedLayout<2> kept;    // strides[0]: input, strides[1]: output
  StridedLayout<1> reduced; // strides[0]: input

  __device__ void outputOffsets(std::int64_t o, std::int64_t &in, std::int64_t &out) const {
    std::int64_t offset[2];
    kept.offsets(o, offset);
    in = offset[0];
    out = offset[1];
  }
  __device__ std::int64_t reducedOffset(std::int64_t r) const {
    std::int64_t offset[1];
    reduced.offsets(r, offset);
    return offset[0];
  }
};

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
__global__ void reduceSequential(ReduceLayout layout, const T *in, typename Policy::Out *out,
                                 std::int64_t numOut, std::int64_t extent) {
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t o = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; o < numOut;
       o += stride) {
    std::int64_t inBase, outOffset;
    layout.outputOffsets(o, inBase, outOffset);
    typename Policy::State s = Policy::empty();
    for (std::int64_t r = 0; r < extent; ++r)
      s = Policy::add(s, in[inBase + layout.reducedOffset(r)], r);
    out[outOffset] = Policy::finish(s, extent);
  }
}

// Merges the block's states in shared memory; thread 0 gets the result.
template <class Policy>
__device__ typename Policy::State blockMerge(typename Policy::State *shared,
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
__global__ void reduceBlocks(ReduceLayout layout, const T *in, typename Policy::Out *out,
                             typename Policy::State *partials, std::int64_t numOut,
                             std::int64_t extent, std::int64_t chunk) {
  __shared__ typename Policy::State shared[kThreadsPerBlock];
  const std::int64_t begin = std::int64_t{blockIdx.y} * chunk;
  const std::int64_t end = begin + chunk < extent ? begin + chunk : extent;
  for (std::int64_t o = blockIdx.x; o < numOut; o += gridDim.x) {
    std::int64_t inBase, outOffset;
    layout.outputOffsets(o, inBase, outOffset);
    typename Policy::State s = Policy::empty();
    for (std::int64_t r = begin + threadIdx.x; r < end; r += blockDim.x)
      s = Policy::add(s, in[inBase + layout.reducedOffset(r)], r);
    s = blockMerge<Policy>(shared, s);
    if (threadIdx.x == 0) {
      if (gridDim.y == 1)
        out[outOffset] = Policy::finish(s, extent);
      else
        partials[o * gridDim.y + blockIdx.y] = s;
    }
  }
}

template <class Policy>
__global__ void mergePartials(ReduceLayout layout, const typename Policy::State *partials,
                              unsigned splits, typename Policy::Out *out, std::int64_t numOut,
                              std::int64_t extent) {
  __shared__ typename Policy::State shared[kThreadsPerBlock];
  for (std::int64_t o = blockIdx.x; o < numOut; o += gridDim.x) {
    typename Policy::State s = Policy::empty();
    for (unsigned i = threadIdx.x; i < splits; i += blockDim.x)
      s = Policy::merge(s, partials[o * splits + i]);
    s = blockMerge<Policy>(shared, s);
    if (threadIdx.x == 0) {
      std::int64_t inBase, outOffset;
      layout.outputOffsets(o, inBase, outOffset);
      out[outOffset] = Policy::finish(s, extent);
    }
  }
}

// Scratch device memory from the caching allocator for one launch. Freeing
// right after queuing the kernels that use it is safe: the block can only be
// reused by work queued later on the same stream.
class ScratchBuffer {
public:
  ScratchBuffer(int device, std::size_t bytes)
      : device_(device), bytes_(bytes), data_(cachingAllocator().allocate(device, bytes)) {}
  ~ScratchBuffer() { cachingAllocator().deallocate(device_, data_, bytes_); }
  ScratchBuffer(const ScratchBuffer &) = delete;
  ScratchBuffer &operator=(const ScratchBuffer &) = delete;
  void *data() const { return data_; }

private:
  int device_;
  std::size_t bytes_;
  void *data_;
};

ReduceLayout makeLayout(const TensorArg &out, const TensorArg &in, std::uint32_t reducedDims,
                        std::int64_t &numOut, std::int64_t &extent) {
  std::int64_t keptSizes[backend::kMaxDims], keptIn[backend::kMaxDims],
      keptOut[backend::kMaxDims], reducedSizes[backend::kMaxDims], reducedIn[backend::kMaxDims];
  int kept = 0, reduced = 0;
  numOut = 1;
  extent = 1;
  for (int d = 0; d < in.dim; ++d) {
    if (reducedDims & (1u << d)) {
      reducedSizes[reduced] = in.sizes[d];
      reducedIn[reduced++] = in.strides[d];
      extent *= in.sizes[d];
    } else {
      keptSizes[kept] = in.sizes[d];
      keptIn[kept] = in.strides[d];
      keptOut[kept++] = out.strides[d];
      numOut *= in.sizes[d];
    }
  }
  ReduceLayout layout;
  layout.kept = collapse<2>(keptSizes, kept, {keptIn, keptOut});
  layout.reduced = collapse<1>(reducedSizes, reduced, {reducedIn});
  return layout;
}

template <class Policy, class T>
void runReduce(int device, const TensorArg &out, const TensorArg &in, std::uint32_t reducedDims) {
  std::int64_t numOut, extent;
  const ReduceLayout layout = makeLayout(out, in, reducedDims, numOut, extent);
  const auto *inData = static_cast<const T *>(in.data);
  auto *outData = static_cast<typename Policy::Out *>(out.data);
  if (numOut == 0)
    return;
  const unsigned outBlocks =
      static_cast<unsigned>(numOut < kMaxBlocks ? numOut : kMaxBlocks);

  if (extent <= kSequentialLimit) {
    reduceSequential<Policy, T>
        <<<blocksFor(numOut), kThreadsPerBlock>>>(layout, inData, outData, numOut, extent);
    PL_CUDA_CHECK_LAUNCH();
    return;
  }

  std::int64_t splits = (extent + kElementsPerBlock - 1) / kElementsPerBlock;
  const std::int64_t blocksPerOutput = numOut >= kTargetBlocks ? 1 : kTargetBlocks / numOut;
  splits = splits < blocksPerOutput ? splits : blocksPerOutput;
  splits = splits < kMaxGridY ? splits : kMaxGridY;
  if (splits <= 1) {
    reduceBlocks<Policy, T><<<dim3(outBlocks, 1), kThreadsPerBlock>>>(
        layout, inData, outData, nullptr, numOut, extent, extent);
    PL_CUDA_CHECK_LAUNCH();
    return;
  }

  using State = typename Policy::State;
  const std::int64_t chunk = (extent + splits - 1) / splits;
  ScratchBuffer partials(device, static_cast<std::size_t>(numOut * splits) * sizeof(State));
  auto *partialData = static_cast<State *>(partials.data());
  reduceBlocks<Policy, T><<<dim3(outBlocks, static_cast<unsigned>(splits)), kThreadsPerBlock>>>(
      layout, inData, outData, partialData, numOut, extent, chunk);
  PL_CUDA_CHECK_LAUNCH();
  mergePartials<Policy><<<outBlocks, kThreadsPerBlock>>>(
      layout, partialData, static_cast<unsigned>(splits), outData, numOut, extent);
  PL_CUDA_CHECK_LAUNCH();
}

} // namespace

void launchReduce(int device, ReduceOp op, const TensorArg &out, const TensorArg &in,
                  std::uint32_t reducedDims) {
  backend::visit_dtype(in.dtype, [&](auto tag) {
    using T = decltype(tag);
    switch (op) {
    case ReduceOp::Sum:
      if constexpr (!std::is_same_v<T, bool>)
        return runReduce<SumPolicy<T>, T>(device, out, in, reducedDims);
      break;
    case ReduceOp::Mean:
      if constexpr (std::is_floating_point_v<T>)
        return runReduce<MeanPolicy<T>, T>(device, out, in, reducedDims);
      break;
    case ReduceOp::Max:
      return runReduce<MaxPolicy<T>, T>(device, out, in, reducedDims);
    case ReduceOp::ArgMax:
      return runReduce<ArgMaxPolicy<T>, T>(device, out, in, reducedDims);
    }
    PL_ASSERT(false && "reduction dispatched for a dtype the front end rejects");
  });
}

} // namespace pl::cuda::detail
