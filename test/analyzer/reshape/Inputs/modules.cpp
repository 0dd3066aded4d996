// A seed: a module applied to an input left on the host, and a small helper
// whose result meets a tensor on the device.
#include <pl/pl.h>

struct ScorerImpl : pl::nn::Module {
  ScorerImpl() : pl::nn::Module("Scorer"), layer(register_module("layer", pl::nn::Linear(4, 2))) {}
  pl::Tensor forward(const pl::Tensor &input) const { return layer(input); }
  pl::nn::Linear layer;
};
PL_MODULE(Scorer);

pl::Tensor scaled(const pl::Tensor &values, double factor) { return values * factor; }

void score(const pl::Device &device) {
  Scorer scorer;
  scorer->to(device);
  const pl::Tensor batch = pl::ones({8, 4});
  const pl::Tensor offsets = pl::ones({4}, pl::device(device));
  const pl::Tensor scores = scorer(batch); // expect: placement-mixed-device
  const pl::Tensor shifted = scaled(batch, 2.0) + offsets; // expect: placement-mixed-device
  (void)scores;
  (void)shifted;
  (void)scaled(offsets, 3.0);
}

int main() { score(pl::Device("sim:0")); }
