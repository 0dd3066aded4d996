// Views: new sizes/strides/offset over the same storage (no copy).
#include <algorithm>
#include <optional>

#include "core/autograd_hooks.h"
#include "core/internal.h"

namespace pl {
namespace {

// Resolves one -1 in `requested` for `numel` elements; ShapeError otherwise.
std::vector<std::int64_t> infer_sizes(std::string_view op, IntArrayRef requested,
                                      std::int64_t numel) {
  std::vector<std::int64_t> sizes = requested.vec();
  std::optional<std::size_t> inferred;
  std::int64_t known = 1;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      PL_CHECK(!inferred, ShapeError, op, ": only one dimension can be inferred (sizes ", requested,
               ")");
      inferred = i;
    } else {
      PL_CHECK(sizes[i] >= 0, ShapeError, op, ": invalid size ", sizes[i], " in ", requested);
      known *= sizes[i];
    }
  }
  if (inferred) {
    PL_CHECK(known != 0 && numel % known == 0, ShapeError, op, ": shape ", requested,
             " is invalid for input of size ", numel);
    sizes[*inferred] = numel / known;
  } else {
    PL_CHECK(known == numel, ShapeError, op, ": shape ", requested,
             " is invalid for input of size ", numel);
  }
  PL_CHECK(sizes.size() <= static_cast<std::size_t>(backend::kMaxDims), ShapeError, op,
           ": tensors have at most ", backend::kMaxDims, " dimensions");
  return sizes;
}

// PyTorch's computeStride: strides that view `old` as `sizes` without a
// copy, or nothing when the memory layout does not allow it.
std::optional<DimVector> view_strides(const TensorImpl &old, IntArrayRef sizes) {
  if (old.numel == 0)
    return detail::contiguous_strides(sizes);
  DimVector strides(sizes.size(), 0);
  if (old.sizes.empty()) {
    std::fill(strides.begin(), strides.end(), 1);
    return strides;
  }
  std::int64_t view_d = static_cast<std::int64_t>(sizes.size()) - 1;
  std::int64_t chunk_base_stride = old.strides.back();
  std::int64_t tensor_numel = 1;
  std::int64_t view_numel = 1;
  for (std::int64_t tensor_d = static_cast<std::int64_t>(old.sizes.size()) - 1; tensor_d >= 0;
       --tensor_d) {
    tensor_numel *= old.sizes[static_cast<std::size_t>(tensor_d)];
    if (tensor_d == 0 ||
        (old.sizes[static_cast<std::size_t>(tensor_d - 1)] != 1 &&
         old.strides[static_cast<std::size_t>(tensor_d - 1)] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 &&
             (view_numel < tensor_numel || sizes[static_cast<std::size_t>(view_d)] == 1)) {
        strides[static_cast<std::size_t>(view_d)] = view_numel * chunk_base_stride;
        view_numel *= sizes[static_cast<std::size_t>(view_d)];
        --view_d;
      }
      if (view_numel != tensor_numel)
        return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = old.strides[static_cast<std::size_t>(tensor_d - 1)];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1)
    return std::nullopt;
  return strides;
}

// A view with self's elements in other sizes, recorded for autograd.
Tensor reshaped(const Tensor &self, Tensor out) {
  if (detail::is_tracked(self)) [[unlikely]]
    detail::autograd_hooks().record({.op = ops::OpId::Reshape, .inputs = self, .outputs = out});
  return out;
}

} // namespace

Tensor Tensor::view(IntArrayRef sizes) const {
  const char *op = ops::name(ops::OpId::View);
  const TensorImpl &impl = impl_ref();
  auto new_sizes = infer_sizes(op, sizes, impl.numel);
  auto strides = view_strides(impl, new_sizes);
  PL_CHECK(strides.has_value(), ShapeError, op, ": sizes ", IntArrayRef(new_sizes),
           " are not compatible with the tensor's sizes ", impl.sizes, " and strides ",
           impl.strides,
           " (at least one dimension spans across two contiguous subspaces); use reshape instead");
  return reshaped(*this, detail::make_view(*this, std::move(new_sizes), std::move(*strides),
                                           impl.storage_offset));
}

Tensor Tensor::reshape(IntArrayRef sizes) const {
  const char *op = ops::name(ops::OpId::Reshape);
  const TensorImpl &impl = impl_ref();
  auto new_sizes = infer_sizes(op, sizes, impl.numel);
  if (auto strides = view_strides(impl, new_sizes))
    return reshaped(*this, detail::make_view(*this, std::move(new_sizes), std::move(*strides),
                                             impl.storage_offset));
  return clone().view(new_sizes);
}

Tensor Tensor::transpose(std::int64_t dim0, std::int64_t dim1) const {
  const char *op = ops::name(ops::OpId::Transpose);
  const TensorImpl &impl = impl_ref();
  const auto ndim = static_cast<std::int64_t>(impl.sizes.size());
  const auto d0 = static_cast<std::size_t>(detail::wrap_dim(op, dim0, ndim));
  const auto d1 = static_cast<std::size_t>(detail::wrap_dim(op, dim1, ndim));
  if (ndim == 0)
    return reshaped(*this, detail::make_view(*this, {}, {}, impl.storage_offset));
  auto sizes = impl.sizes;
  auto strides = impl.strides;
  std::swap(sizes[d0], sizes[d1]);
  std::swap(strides[d0], strides[d1]);
  Tensor out = detail::make_view(*this, std::move(sizes), std::move(strides), impl.storage_offset);
  if (detail::is_tracked(*this)) [[unlikely]]
    detail::autograd_hooks().record(
        {.op = ops::OpId::Transpose, .inputs = *this, .outputs = out, .ints = {dim0, dim1}});
  return out;
}

Tensor Tensor::t() const {
  const char *op = ops::name(ops::OpId::T);
  const TensorImpl &impl = impl_ref();
  PL_CHECK(impl.sizes.size() <= 2, ShapeError,
           op, ": expects a tensor with <= 2 dimensions, but it has ", impl.sizes.size());
  if (impl.sizes.size() < 2)
    return reshaped(*this, detail::make_view(*this, impl.sizes, impl.strides, impl.storage_offset));
  return transpose(0, 1);
}

Tensor Tensor::narrow(std::int64_t dim, std::int64_t start, std::int64_t length) const {
  const char *op = ops::name(ops::OpId::Narrow);
  const TensorImpl &impl = impl_ref();
  PL_CHECK(!impl.sizes.empty(), IndexError, op, ": cannot narrow a 0-dim tensor");
  const auto d = static_cast<std::size_t>(
      detail::wrap_dim(op, dim, static_cast<std::int64_t>(impl.sizes.size())));
  const std::int64_t extent = impl.sizes[d];
  if (start < 0)
    start += extent;
  PL_CHECK(start >= 0 && start <= extent && length >= 0 && start + length <= extent, IndexError,
           op, ": start ", start, " and length ", length, " are out of range for dimension ", d,
           " of size ", extent);
  auto sizes = impl.sizes;
  sizes[d] = length;
  Tensor out = detail::make_view(*this, std::move(sizes), impl.strides,
                                 impl.storage_offset + start * impl.strides[d]);
  if (detail::is_tracked(*this)) [[unlikely]]
    detail::autograd_hooks().record({.op = ops::OpId::Narrow,
                                     .inputs = *this,
                                     .outputs = out,
                                     .ints = {static_cast<std::int64_t>(d), start}});
  return out;
}

Tensor Tensor::select(std::int64_t dim, std::int64_t index) const {
  const char *op = ops::name(ops::OpId::Select);
  const TensorImpl &impl = impl_ref();
  PL_CHECK(!impl.sizes.empty(), IndexError, op, ": cannot index a 0-dim tensor");
  const auto d = static_cast<std::size_t>(
      detail::wrap_dim(op, dim, static_cast<std::int64_t>(impl.sizes.size())));
  const std::int64_t extent = impl.sizes[d];
  PL_CHECK(index >= -extent && index < extent, IndexError, op, ": index ", index,
           " is out of bounds for dimension ", d, " with size ", extent);
  if (index < 0)
    index += extent;
  auto sizes = impl.sizes;
  auto strides = impl.strides;
  const std::int64_t offset = impl.storage_offset + index * strides[d];
  sizes.erase(sizes.begin() + static_cast<std::ptrdiff_t>(d));
  strides.erase(strides.begin() + static_cast<std::ptrdiff_t>(d));
  Tensor out = detail::make_view(*this, std::move(sizes), std::move(strides), offset);
  if (detail::is_tracked(*this)) [[unlikely]]
    detail::autograd_hooks().record({.op = ops::OpId::Select,
                                     .inputs = *this,
                                     .outputs = out,
                                     .ints = {static_cast<std::int64_t>(d), index}});
  return out;
}

Tensor Tensor::unsqueeze(std::int64_t dim) const {
  const char *op = ops::name(ops::OpId::Unsqueeze);
  const TensorImpl &impl = impl_ref();
  const auto ndim = static_cast<std::int64_t>(impl.sizes.size());
  PL_CHECK(dim >= -(ndim + 1) && dim <= ndim, IndexError,
           op, ": dimension out of range (expected to be in range of [", -(ndim + 1), ", ",
           ndim, "], but got ", dim, ")");
  PL_CHECK(ndim < backend::kMaxDims, ShapeError, op, ": tensors have at most ",
           backend::kMaxDims, " dimensions");
  const auto d = static_cast<std::size_t>(dim < 0 ? dim + ndim + 1 : dim);
  auto sizes = impl.sizes;
  auto strides = impl.strides;
  const std::int64_t stride = d < sizes.size() ? sizes[d] * strides[d] : 1;
  sizes.insert(sizes.begin() + static_cast<std::ptrdiff_t>(d), 1);
  strides.insert(strides.begin() + static_cast<std::ptrdiff_t>(d), stride);
  return reshaped(
      *this, detail::make_view(*this, std::move(sizes), std::move(strides), impl.storage_offset));
}

Tensor Tensor::squeeze(std::int64_t dim) const {
  const char *op = ops::name(ops::OpId::Squeeze);
  const TensorImpl &impl = impl_ref();
  const auto d = static_cast<std::size_t>(
      detail::wrap_dim(op, dim, static_cast<std::int64_t>(impl.sizes.size())));
  if (impl.sizes.empty() || impl.sizes[d] != 1)
    return reshaped(*this, detail::make_view(*this, impl.sizes, impl.strides, impl.storage_offset));
  auto sizes = impl.sizes;
  auto strides = impl.strides;
  sizes.erase(sizes.begin() + static_cast<std::ptrdiff_t>(d));
  strides.erase(strides.begin() + static_cast<std::ptrdiff_t>(d));
  return reshaped(
      *this, detail::make_view(*this, std::move(sizes), std::move(strides), impl.storage_offset));
}

Tensor Tensor::flatten(std::int64_t start_dim, std::int64_t end_dim) const {
  const char *op = ops::name(ops::OpId::Flatten);
  const TensorImpl &impl = impl_ref();
  const auto ndim = static_cast<std::int64_t>(impl.sizes.size());
  if (ndim == 0)
    return reshape({1});
  const std::int64_t start = detail::wrap_dim(op, start_dim, ndim);
  const std::int64_t end = detail::wrap_dim(op, end_dim, ndim);
  PL_CHECK(start <= end, IndexError, op, ": start_dim ", start_dim, " comes after end_dim ",
           end_dim);
  std::vector<std::int64_t> sizes;
  std::int64_t merged = 1;
  for (std::int64_t d = 0; d < ndim; ++d) {
    const std::int64_t size = impl.sizes[static_cast<std::size_t>(d)];
    if (d < start || d > end) {
      sizes.push_back(size);
    } else {
      merged *= size;
      if (d == end)
        sizes.push_back(merged);
    }
  }
  return reshape(sizes);
}

} // namespace pl
