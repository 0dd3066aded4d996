#include <sample/model.h>

#include <pl/pl.h>

pl::Tensor evaluate(const pl::Tensor &input) { return sample::biased(input); }
