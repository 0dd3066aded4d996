// A look-alike whose helpers keep their calls: one returns early, one calls itself.
#include <pl/pl.h>

pl::Tensor halved(const pl::Tensor &values, bool keep) {
  if (keep)
    return values;
  return values * 0.5;
}

pl::Tensor repeated(const pl::Tensor &values, int times) { return times == 0 ? values : repeated(values, times - 1); }

void run() {
  const pl::Tensor readings = pl::ones({4});
  const pl::Tensor half = halved(readings, false);
  const pl::Tensor again = repeated(readings, 2);
}

int main() { run(); }
