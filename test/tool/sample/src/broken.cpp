// Does not compile: the run must report it and go on with the other files.
#include <pl/pl.h>

pl::Tensor broken(const pl::Tensor &input) {
  return input.no_such_method();
}
