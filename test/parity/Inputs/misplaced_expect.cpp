// A parity self-test input: the `// expect:` comment sits one line below the
// bug, so parity.py must report the analyzer's finding as unexpected.
#include <pl/pl.h>

pl::Tensor centre(const pl::Device &device) {
  const pl::Tensor readings = pl::rand({8, 4}, device);
  const pl::Tensor means = pl::rand({4});
  const pl::Tensor centred = readings - means;
  return centred; // expect: placement-mixed-device
}
