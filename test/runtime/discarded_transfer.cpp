// Compiled by ctest with -Werror: with DISCARD_TO / DISCARD_CUDA /
// DISCARD_CPU it discards a transfer's result and must fail to compile,
// naming placement-discarded-transfer; without, it must compile.
#include <pl/pl.h>

void transfers(pl::Tensor t, pl::nn::Linear &model) {
#if defined(DISCARD_TO)
  t.to(pl::Device("sim:0"));
#elif defined(DISCARD_CUDA)
  t.cuda();
#elif defined(DISCARD_CPU)
  t.cpu();
#else
  t = t.to(pl::Device("sim:0"));
  const pl::Tensor back = t.cpu();
  (void)back;
  (void)t.to(pl::kDouble);
  model->to(pl::Device("sim:0")); // Module::to moves in place: nothing to use
#endif
}
