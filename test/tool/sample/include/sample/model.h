// Included by two translation units: its finding must be reported once.
#pragma once

#include <pl/pl.h>

namespace sample {

inline pl::Tensor biased(const pl::Tensor &input) {
  if (!pl::cuda::is_available())
    return input;
  pl::Tensor bias = pl::zeros({4});
  pl::Tensor onDevice = input.to(pl::kCUDA);
  return onDevice + bias; // expect: placement-mixed-device
}

} // namespace sample
