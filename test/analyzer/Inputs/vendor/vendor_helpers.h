// A third-party header included with -isystem: never analysed or reported,
// whatever the header filter says.
#pragma once
#include <pl/pl.h>

inline pl::Tensor vendorMix() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  a.cuda();
  return a + g;
}
