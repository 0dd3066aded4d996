// RUN: %check_placement --crash-only --expect-compile-errors %s 'placement-*' %t -- -- %mock_includes
//
// Code that does not compile: the analyzer must not crash or assert on the
// recovery expressions and invalid declarations Clang leaves in the AST.
#include <pl/pl.h>

void consume(const pl::Tensor &t);

void undeclaredNames() {
  pl::Tensor a = pl::ones({2});
  consume(a + undeclared);
  consume(missing.cuda() + a);
  a.to(noSuchDevice);
  for (int i = 0; i < 3; ++i)
    consume(unknownBatch(i).to(pl::kCUDA));
}

void wrongTypes() {
  pl::Tensor a = pl::ones({2}, 42, "extra");
  pl::Tensor b = a.too(pl::kCUDA);
  pl::Device d = 3.5;
  consume(pl::cat(a, b));
  consume(a.matmul());
}

void brokenStatements(bool flag) {
  pl::Tensor a = pl::ones({2})
  if (flag)
    a = a.cuda(;
  switch (a) {
  case 1:
    break;
  }
  for (auto &x : a)
    x.cpu();
}

struct Incomplete;
void incompleteTypes(Incomplete &i) {
  pl::Tensor t = i.tensor();
  t += i;
}

template <class T> pl::Tensor dependent(T value) { return value.to(pl::kCUDA) + pl::ones({2}); }
void instantiateBadly() { consume(dependent(3)); }
