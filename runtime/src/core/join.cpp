// cat and stack.
#include <string>

#include <pl/ops.h>

#include "core/autograd_hooks.h"
#include "core/internal.h"

namespace pl {
namespace {

// The device of a non-empty tensor list, the operands named tensors[i].
Device list_device(ops::OpId op, TensorList tensors) {
  PL_CHECK(!tensors.empty(), ShapeError, ops::name(op), ": expected a non-empty list of tensors");
  std::vector<std::string> names;
  names.reserve(tensors.size());
  for (std::size_t i = 0; i < tensors.size(); ++i)
    names.push_back("tensors[" + std::to_string(i) + "]");
  std::vector<detail::NamedTensor> operands;
  for (std::size_t i = 0; i < tensors.size(); ++i)
    operands.push_back({names[i], &tensors[i]});
  return detail::common_device(op, operands);
}

} // namespace

Tensor cat(TensorList tensors, std::int64_t dim) {
  const char *op = ops::name(ops::OpId::Cat);
  const Device device = list_device(ops::OpId::Cat, tensors);

  const TensorImpl &first = *tensors[0].impl();
  detail::ResultTypeState promotion;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const TensorImpl &impl = *tensors[i].impl();
    PL_CHECK(!impl.sizes.empty(), ShapeError, op, ": zero-dimensional tensor (at position ", i,
             ") cannot be concatenated");
    // All operands are dimensioned, so each counts the same in promotion.
    promotion.add(impl);
  }
  const auto ndim = static_cast<std::int64_t>(first.sizes.size());
  const auto d = static_cast<std::size_t>(detail::wrap_dim(op, dim, ndim));
  DimVector sizes = first.sizes;
  sizes[d] = 0;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const TensorImpl &impl = *tensors[i].impl();
    bool compatible = impl.sizes.size() == first.sizes.size();
    for (std::size_t k = 0; compatible && k < impl.sizes.size(); ++k)
      compatible = k == d || impl.sizes[k] == first.sizes[k];
    PL_CHECK(compatible, ShapeError, op, ": sizes of tensors must match except in dimension ", d,
             ", but tensors[0] has sizes ", first.sizes, " and tensors[", i, "] has sizes ",
             impl.sizes);
    sizes[d] += impl.sizes[d];
  }
  Tensor out = detail::make_tensor(sizes, promotion.result(), device);
  std::int64_t offset = 0;
  for (const Tensor &tensor : tensors) {
    const TensorImpl &impl = *tensor.impl();
    if (impl.numel > 0) {
      const Tensor slot = out.narrow(static_cast<std::int64_t>(d), offset, impl.sizes[d]);
      detail::backend_of(device).copy(device.index(), detail::kernel_arg(slot),
                                      detail::kernel_arg(impl));
    }
    offset += impl.sizes[d];
  }
  if (detail::is_tracked(tensors)) [[unlikely]]
    detail::autograd_hooks().record(
        {.op = ops::OpId::Cat, .inputs = tensors, .outputs = out, .ints = dim});
  return out;
}

Tensor stack(TensorList tensors, std::int64_t dim) {
  const char *op = ops::name(ops::OpId::Stack);
  list_device(ops::OpId::Stack, tensors);
  const IntArrayRef first = tensors[0].sizes();
  for (std::size_t i = 1; i < tensors.size(); ++i)
    PL_CHECK(tensors[i].sizes() == first, ShapeError, op,
             ": expects each tensor to be equal size, but got ", first, " at entry 0 and ",
             tensors[i].sizes(), " at entry ", i);
  const auto ndim = static_cast<std::int64_t>(first.size());
  PL_CHECK(dim >= -(ndim + 1) && dim <= ndim, IndexError, op,
           ": dimension out of range (expected to be in range of [", -(ndim + 1), ", ", ndim,
           "], but got ", dim, ")");
  std::vector<Tensor> expanded;
  expanded.reserve(tensors.size());
  for (const Tensor &tensor : tensors)
    expanded.push_back(tensor.unsqueeze(dim));
  return cat(expanded, dim < 0 ? dim + ndim + 1 : dim);
}

} // namespace pl
