// RUN: %check_placement --no-fix %s 'placement-*' %t -- -header-filter=.* -- %pl_includes
//
// Every check with -header-filter=.* over a translation unit that includes
// the whole runtime: the runtime's own headers are analysed as user code.
// No crash, no assertion, and no finding in the runtime itself.
#include <pl/pl.h>

int main() {
  pl::Tensor t = pl::ones({2, 2});
  return static_cast<int>((t + t).sum().item<float>());
}
