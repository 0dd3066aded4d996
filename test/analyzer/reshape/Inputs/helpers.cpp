// A look-alike: a helper of a few statements, statements that share nothing,
// and a call that sets state no name shows (the random seed).
#include <pl/pl.h>

pl::Tensor centred(const pl::Tensor &values) {
  const pl::Tensor mean = values.mean({0});
  return values - mean;
}

void summarise() {
  const pl::Tensor readings = pl::ones({8, 4});
  pl::manual_seed(7);
  const pl::Tensor noise = pl::randn({4});
  const pl::Tensor normal = centred(readings);
  const pl::Tensor total = normal.sum() + noise.sum();
}

int main() { summarise(); }
