// Host-side logic of the CUDA backend that needs no GPU, so it runs on every
// machine with the toolkit: the dimension collapsing and offset arithmetic
// every elementwise and reduction kernel relies on, and the caching
// allocator's size classes. Compiled by nvcc like the kernels themselves.
#include "cuda/caching_allocator.h"
#include "cuda/reduce_plan.cuh"
#include "cuda/strided_layout.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

using pl::backend::TensorArg;
using pl::cuda::detail::CachingAllocator;
using pl::cuda::detail::collapse;
using pl::cuda::detail::make_reduce_layout;
using pl::cuda::detail::is_column_reduction;
using pl::cuda::detail::plan_reduction;
using pl::cuda::detail::ReduceLayout;
using pl::cuda::detail::ReduceKernel;
using pl::cuda::detail::ReducePlan;
using pl::cuda::detail::ReduceTargets;

// An H100: 132 SMs of 2048 threads.
const ReduceTargets kH100 = ReduceTargets::of(132, 2048);
using pl::cuda::detail::StridedLayout;

template <int N>
StridedLayout<N> layout_of(const std::vector<std::int64_t> &sizes,
                           const std::vector<std::int64_t> (&strides)[N]) {
  const std::int64_t *stride_pointers[N];
  for (int k = 0; k < N; ++k)
    stride_pointers[k] = strides[k].data();
  return collapse<N>(sizes.data(), static_cast<int>(sizes.size()), stride_pointers);
}

// The offsets a layout gives for every linear index must equal the ones
// computed directly from the uncollapsed sizes and strides.
template <int N>
void expect_offsets_match_direct(const std::vector<std::int64_t> &sizes,
                                 const std::vector<std::int64_t> (&strides)[N]) {
  const StridedLayout<N> layout = layout_of<N>(sizes, strides);
  std::int64_t numel = 1;
  for (std::int64_t size : sizes)
    numel *= size;
  for (std::int64_t linear = 0; linear < numel; ++linear) {
    std::int64_t expected[N] = {};
    std::int64_t rest = linear;
    for (int d = static_cast<int>(sizes.size()) - 1; d >= 0; --d) {
      const std::int64_t index = rest % sizes[d];
      rest /= sizes[d];
      for (int k = 0; k < N; ++k)
        expected[k] += index * strides[k][d];
    }
    std::int64_t actual[N];
    layout.offsets(linear, actual);
    for (int k = 0; k < N; ++k)
      ASSERT_EQ(actual[k], expected[k]) << "operand " << k << ", linear index " << linear;
  }
}

TEST(StridedLayoutTest, ContiguousOperandsCollapseToOneDimension) {
  const StridedLayout<2> layout = layout_of<2>({2, 3, 4}, {{12, 4, 1}, {12, 4, 1}});
  EXPECT_EQ(layout.dim, 1);
  EXPECT_EQ(layout.sizes[0], 24);
  EXPECT_TRUE(layout.contiguous());
}

TEST(StridedLayoutTest, TransposedOperandKeepsBothDimensions) {
  const StridedLayout<2> layout = layout_of<2>({3, 4}, {{4, 1}, {1, 3}});
  EXPECT_EQ(layout.dim, 2);
  EXPECT_FALSE(layout.contiguous());
  expect_offsets_match_direct<2>({3, 4}, {{4, 1}, {1, 3}});
}

TEST(StridedLayoutTest, BroadcastRowKeepsItsZeroStride) {
  const StridedLayout<3> layout = layout_of<3>({3, 4}, {{4, 1}, {0, 1}, {4, 1}});
  EXPECT_EQ(layout.dim, 2);
  std::int64_t offset[3];
  layout.offsets(5, offset); // row 1, column 1
  EXPECT_EQ(offset[0], 5);
  EXPECT_EQ(offset[1], 1);
  EXPECT_EQ(offset[2], 5);
}

TEST(StridedLayoutTest, SizeOneDimensionsAreDropped) {
  const StridedLayout<1> layout = layout_of<1>({1, 5, 1}, {{99, 1, 7}});
  EXPECT_EQ(layout.dim, 1);
  EXPECT_TRUE(layout.contiguous());
}

TEST(StridedLayoutTest, SingleElementHasNoDimensions) {
  const StridedLayout<2> layout = layout_of<2>({1, 1}, {{3, 1}, {0, 0}});
  EXPECT_EQ(layout.dim, 0);
  EXPECT_TRUE(layout.contiguous());
  std::int64_t offset[2];
  layout.offsets(0, offset);
  EXPECT_EQ(offset[0], 0);
  EXPECT_EQ(offset[1], 0);
}

TEST(StridedLayoutTest, NarrowedColumnsDoNotMerge) {
  // Columns 1..3 of a 4x6 matrix: rows are 6 apart but only 3 wide.
  const StridedLayout<1> layout = layout_of<1>({4, 3}, {{6, 1}});
  EXPECT_EQ(layout.dim, 2);
  std::int64_t offset[1];
  layout.offsets(4, offset); // row 1, column 1 of the view
  EXPECT_EQ(offset[0], 7);
}

TEST(StridedLayoutTest, OffsetsMatchDirectComputationForMixedLayouts) {
  // Contiguous, permuted, broadcast and padded operands over one shape,
  // where only some neighbouring dimensions can merge.
  expect_offsets_match_direct<3>({2, 3, 4, 5}, {{60, 20, 5, 1}, {1, 2, 6, 24}, {0, 5, 0, 1}});
  expect_offsets_match_direct<2>({4, 1, 6, 2}, {{12, 12, 2, 1}, {24, 3, 4, 1}});
  expect_offsets_match_direct<2>({3, 2, 2}, {{8, 4, 2}, {4, 2, 1}});
}

TensorArg arg_of(const std::vector<std::int64_t> &sizes, const std::vector<std::int64_t> &strides) {
  TensorArg arg{};
  arg.dtype = pl::kFloat;
  arg.dim = static_cast<std::int32_t>(sizes.size());
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    arg.sizes[d] = sizes[d];
    arg.strides[d] = strides[d];
  }
  return arg;
}

// Every (output, reduced element) pair must address the input element whose
// kept coordinates are the output's and whose reduced coordinates are r's
// (both row-major over their dimensions), and the output where it belongs.
void expect_reduce_offsets_match_direct(const std::vector<std::int64_t> &sizes,
                                        const std::vector<std::int64_t> &in_strides,
                                        const std::vector<std::int64_t> &out_strides,
                                        std::uint32_t reduced_dims) {
  std::vector<std::int64_t> out_sizes = sizes;
  for (std::size_t d = 0; d < sizes.size(); ++d)
    if (reduced_dims & (1u << d))
      out_sizes[d] = 1;
  const ReduceLayout layout =
      make_reduce_layout(arg_of(out_sizes, out_strides), arg_of(sizes, in_strides), reduced_dims);
  std::int64_t numel = 1;
  for (std::int64_t size : sizes)
    numel *= size;
  ASSERT_EQ(layout.num_outputs * layout.extent, numel);

  std::int64_t seen = 0;
  for (std::int64_t o = 0; o < layout.num_outputs; ++o) {
    std::int64_t in_base, out_offset;
    layout.output_offsets(o, in_base, out_offset);
    for (std::int64_t r = 0; r < layout.extent; ++r, ++seen) {
      std::int64_t expected_in = 0, expected_out = 0, kept_rest = o, reduced_rest = r;
      for (int d = static_cast<int>(sizes.size()) - 1; d >= 0; --d) {
        const bool is_reduced = reduced_dims & (1u << d);
        std::int64_t &rest = is_reduced ? reduced_rest : kept_rest;
        const std::int64_t index = rest % sizes[d];
        rest /= sizes[d];
        expected_in += index * in_strides[d];
        if (!is_reduced)
          expected_out += index * out_strides[d];
      }
      ASSERT_EQ(in_base + layout.reduced_offset(r), expected_in) << "o=" << o << " r=" << r;
      ASSERT_EQ(out_offset, expected_out) << "o=" << o;
    }
  }
  EXPECT_EQ(seen, numel);
}

TEST(ReduceLayoutTest, MiddleDimensionOfContiguousInput) {
  expect_reduce_offsets_match_direct({3, 4, 5}, {20, 5, 1}, {5, 5, 1}, 0b010);
}

TEST(ReduceLayoutTest, OuterAndInnerDimensionsOfTransposedInput) {
  expect_reduce_offsets_match_direct({5, 4, 3}, {1, 5, 20}, {1, 1, 1}, 0b101);
}

TEST(ReduceLayoutTest, AllDimensionsGiveOneOutput) {
  const std::vector<std::int64_t> sizes = {2, 3, 7};
  expect_reduce_offsets_match_direct(sizes, {21, 7, 1}, {1, 1, 1}, 0b111);
  const ReduceLayout layout =
      make_reduce_layout(arg_of({1, 1, 1}, {1, 1, 1}), arg_of(sizes, {21, 7, 1}), 0b111);
  EXPECT_EQ(layout.num_outputs, 1);
  EXPECT_EQ(layout.extent, 42);
  EXPECT_EQ(layout.reduced.dim, 1) << "contiguous reduced dimensions merge";
}

TEST(ReduceLayoutTest, ArgMaxIndexIsThePositionAlongTheReducedDimension) {
  // One reduced dimension: r is the index along it, as ArgMax reports.
  const ReduceLayout layout =
      make_reduce_layout(arg_of({4, 1}, {1, 1}), arg_of({4, 6}, {1, 4}), 0b10);
  for (std::int64_t r = 0; r < 6; ++r)
    EXPECT_EQ(layout.reduced_offset(r), r * 4);
}

TEST(ReduceLayoutTest, EmptyExtentHasOutputsButNothingToReduce) {
  const ReduceLayout layout =
      make_reduce_layout(arg_of({1, 3}, {3, 1}), arg_of({0, 3}, {3, 1}), 0b01);
  EXPECT_EQ(layout.num_outputs, 3);
  EXPECT_EQ(layout.extent, 0);
  EXPECT_EQ(plan_reduction(layout.num_outputs, layout.extent, false, kH100).kernel,
            ReduceKernel::PerThread);
}

TEST(ReducePlanTest, ShortExtentsRunOneThreadPerOutput) {
  EXPECT_EQ(plan_reduction(1000, 32, false, kH100).kernel, ReduceKernel::PerThread);
  EXPECT_EQ(plan_reduction(1000, 33, false, kH100).kernel, ReduceKernel::PerWarp);
}

TEST(ReducePlanTest, ModerateExtentsRunOneWarpPerOutputAndLongOnesABlock) {
  EXPECT_EQ(plan_reduction(1000000, 1024, false, kH100).kernel, ReduceKernel::PerWarp);
  EXPECT_EQ(plan_reduction(1000000, 1024, false, kH100).splits, 1);
  EXPECT_EQ(plan_reduction(1000000, 1025, false, kH100).kernel, ReduceKernel::PerBlock);
}

TEST(ReducePlanTest, ManyOutputsUseOneBlockEach) {
  const ReducePlan plan = plan_reduction(100000, 5000, false, kH100);
  EXPECT_EQ(plan.kernel, ReduceKernel::PerBlock);
  EXPECT_EQ(plan.splits, 1);
  EXPECT_GE(plan.chunk, 5000);
}

TEST(ReducePlanTest, FewOutputsSplitIntoChunksThatCoverTheExtentWithoutEmptyOnes) {
  for (std::int64_t outputs : {1, 3, 100, 4223}) {
    for (std::int64_t extent : {std::int64_t{33}, std::int64_t{8193}, std::int64_t{1000000},
                                std::int64_t{3000001}, std::int64_t{1} << 34}) {
      const ReducePlan plan = plan_reduction(outputs, extent, false, kH100);
      EXPECT_GE(plan.splits, 1);
      EXPECT_LE(plan.splits, 65535);
      EXPECT_LE(plan.splits * outputs, std::max<std::int64_t>(kH100.blocks, outputs));
      EXPECT_GE(plan.splits * plan.chunk, extent) << outputs << " x " << extent;
      EXPECT_LT((plan.splits - 1) * plan.chunk, extent) << outputs << " x " << extent;
    }
  }
  EXPECT_GT(plan_reduction(1, 3000001, false, kH100).splits, 132 * 4)
      << "one large output fills every SM several times over";
}

TEST(ReducePlanTest, ColumnReductionsRunOneThreadPerOutputInChunksOfRows) {
  // sum over dim 0 of a 4096 x 4096 matrix: outputs adjacent, rows apart.
  const ReduceLayout layout =
      make_reduce_layout(arg_of({1, 4096}, {4096, 1}), arg_of({4096, 4096}, {4096, 1}), 0b01);
  EXPECT_TRUE(is_column_reduction(layout));
  for (std::int64_t outputs : {1, 4096, 1000000}) {
    for (std::int64_t extent : {std::int64_t{33}, std::int64_t{4096}, std::int64_t{3000001}}) {
      const ReducePlan plan = plan_reduction(outputs, extent, /*columns=*/true, kH100);
      EXPECT_EQ(plan.kernel, ReduceKernel::PerThread);
      EXPECT_LE(plan.splits, 65535);
      EXPECT_GE(plan.splits * plan.chunk, extent) << outputs << " x " << extent;
      EXPECT_LT((plan.splits - 1) * plan.chunk, extent) << outputs << " x " << extent;
    }
  }
  EXPECT_GE(plan_reduction(4096, 4096, true, kH100).splits * 4096, kH100.threads)
      << "enough threads to fill every SM";
  EXPECT_EQ(plan_reduction(1000000, 4096, true, kH100).splits, 1) << "enough outputs already";
}

TEST(ReducePlanTest, RowReductionsAreNotColumnReductions) {
  // sum over dim 1: each output's range is contiguous.
  EXPECT_FALSE(is_column_reduction(
      make_reduce_layout(arg_of({4096, 1}, {1, 1}), arg_of({4096, 4096}, {4096, 1}), 0b10)));
  // every element: no kept dimension.
  EXPECT_FALSE(is_column_reduction(
      make_reduce_layout(arg_of({1, 1}, {1, 1}), arg_of({4096, 4096}, {4096, 1}), 0b11)));
  // sum over dim 1 of a transposed matrix: outputs adjacent, a column each.
  EXPECT_TRUE(is_column_reduction(
      make_reduce_layout(arg_of({4096, 1}, {1, 1}), arg_of({4096, 4096}, {1, 4096}), 0b10)));
}

TEST(CachingAllocatorSizeClassTest, SmallRequestsRoundToHalfKilobytes) {
  EXPECT_EQ(CachingAllocator::size_class(0), 512u);
  EXPECT_EQ(CachingAllocator::size_class(1), 512u);
  EXPECT_EQ(CachingAllocator::size_class(512), 512u);
  EXPECT_EQ(CachingAllocator::size_class(513), 1024u);
  EXPECT_EQ(CachingAllocator::size_class(std::size_t{1} << 20), std::size_t{1} << 20);
}

TEST(CachingAllocatorSizeClassTest, LargeRequestsWasteAtMostAnEighth) {
  EXPECT_EQ(CachingAllocator::size_class(std::size_t{64} << 20), std::size_t{64} << 20);
  EXPECT_EQ(CachingAllocator::size_class((std::size_t{1} << 20) + 1),
            (std::size_t{1} << 20) + (std::size_t{1} << 17));
  std::size_t previous = 0;
  for (std::size_t bytes = (std::size_t{1} << 20) + 1; bytes < (std::size_t{1} << 34);
       bytes = bytes * 5 / 4 + 3) {
    const std::size_t size = CachingAllocator::size_class(bytes);
    EXPECT_GE(size, bytes);
    EXPECT_LE(size - bytes, bytes / 8) << bytes;
    EXPECT_GE(size, previous);
    EXPECT_EQ(CachingAllocator::size_class(size), size) << "a class maps to itself";
    previous = size;
  }
}

} // namespace
