#include <pl/pl.h>

#include <vector>

pl::Tensor sumOnDevice(const std::vector<pl::Tensor> &batches) {
  if (!pl::cuda::is_available())
    return {};
  pl::Tensor mask = pl::ones({4});
  pl::Tensor total = pl::zeros({4}, pl::kCUDA);
  for (const pl::Tensor &batch : batches) {
    pl::Tensor deviceMask = mask.to(pl::kCUDA); // expect: placement-transfer-in-loop
    // Moving each batch to the device is the normal pattern: not reported.
    total += batch.to(pl::kCUDA) * deviceMask;
  }
  return total;
}
