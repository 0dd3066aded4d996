// issue 19 class 6 (model parallel), pl: two nn::Sequential pieces on two devices, forward forgets a hop.
// BUG (mixed-device). The first stage runs on `first`, the second on
// `second` (two simulated accelerators, sim:0 and sim:1, or two GPUs given on
// the command line). forward moves the input to the first stage but hands
// its output to the second stage without moving it.
// Look-alike: model_parallel_sequential_hops.cpp.
#include <pl/pl.h>

#include <iostream>
#include <string>

struct TwoStageImpl : pl::nn::Module {
  TwoStageImpl(pl::Device first, pl::Device second)
      : pl::nn::Module("TwoStage"),
        stage1(register_module("stage1", pl::nn::Sequential(pl::nn::Linear(32, 128), pl::nn::ReLU()))),
        stage2(register_module("stage2", pl::nn::Sequential(pl::nn::Linear(128, 128), pl::nn::ReLU(),
                                                            pl::nn::Linear(128, 10)))),
        first_(first), second_(second) {
    stage1->to(first_);
    stage2->to(second_);
  }
  pl::Tensor forward(const pl::Tensor &x) const {
    auto h = stage1(x.to(first_));
    return stage2(h); // expect: placement-mixed-device
  }
  pl::nn::Sequential stage1, stage2;
  pl::Device first_, second_;
};
PL_MODULE(TwoStage);

int main(int argc, char **argv) {
  const pl::Device first(argc > 2 ? argv[1] : "sim:0");
  const pl::Device second(argc > 2 ? argv[2] : "sim:1");
  TwoStage model(first, second);
  pl::optim::SGD optimizer(model->parameters(), pl::optim::SGDOptions(0.01));
  for (int step = 0; step < 100; ++step) {
    auto x = pl::randn({16, 32});
    auto out = model(x);
    auto loss = (out * out).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  std::cout << "done\n";
  return 0;
}
