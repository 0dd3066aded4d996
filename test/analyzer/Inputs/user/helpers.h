// A user header for header-filter.cpp: analysed, and reported, only when
// the header filter matches it. Line numbers are pinned by that test.
#pragma once
#include <pl/pl.h>

inline pl::Tensor mixInHeader() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  return a + g;
}
