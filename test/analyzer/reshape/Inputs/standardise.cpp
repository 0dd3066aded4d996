// A seed: one mixed-device bug through a helper with a default argument.
#include <pl/pl.h>

pl::Tensor load_batch(int rows, int columns = 4) { return pl::ones({rows, columns}); }

void standardise(const pl::Device &device) {
  const pl::Tensor host_readings = load_batch(32);
  const pl::Tensor column_means = host_readings.mean({0});
  const pl::Tensor readings = host_readings.to(device);
  for (int step = 0; step < 2; ++step) {
    const pl::Tensor centred = readings - column_means; // expect: placement-mixed-device
    (void)centred;
  }
}

int main() { standardise(pl::Device("sim:0")); }
