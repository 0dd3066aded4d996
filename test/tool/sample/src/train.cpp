#include <sample/model.h>

#include <pl/pl.h>

pl::Tensor trainStep(const pl::Tensor &batch) {
  if (!pl::cuda::is_available())
    return batch;
  pl::Tensor weights = pl::randn({4, 4});
  pl::Tensor input = batch.to(pl::kCUDA);
  return pl::matmul(input, weights); // expect: placement-mixed-device
}

pl::Tensor moveWeights(pl::Tensor weights) {
  if (!pl::cuda::is_available())
    return weights;
  weights.to(pl::kCUDA); // expect: placement-discarded-transfer
  return sample::biased(weights);
}

pl::Tensor freshState(const pl::Device &device) {
  return pl::zeros({4, 4}).to(device); // expect: placement-create-then-move
}
