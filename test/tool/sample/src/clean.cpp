// Device-agnostic code with no placement bug: nothing to report.
#include <pl/pl.h>

pl::Tensor forwardOn(const pl::Tensor &input, pl::Device device) {
  pl::Tensor weights = pl::randn({4, 4}, pl::device(device));
  pl::Tensor moved = input.to(device);
  return pl::matmul(moved, weights);
}
