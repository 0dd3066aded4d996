// issue 19 class 10 (loops), pl: `.item()` on a helper's result every step, and a stored rollout uploaded in every epoch.
// BUG (transfer-in-loop, three times). `step_loss` returns the loss on the
// device; the epoch loop reads it with `.item()` on every minibatch. The
// rollout, collected on the host, is uploaded again in every one of the
// optimisation epochs.
// Look-alike: loop_accumulates_and_uploads_once.cpp.
#include <pl/pl.h>

#include <iostream>

pl::Tensor step_loss(pl::nn::Sequential &model, pl::optim::Optimizer &optimizer, const pl::Tensor &x,
                     const pl::Tensor &y) {
  auto error = model(x) - y;
  auto loss = (error * error).mean();
  optimizer.zero_grad();
  loss.backward();
  optimizer.step();
  return loss.detach();
}

int main(int argc, char **argv) {
  const pl::Device device(argc > 1 ? argv[1] : "cpu");
  pl::nn::Sequential model(pl::nn::Linear(12, 64), pl::nn::ReLU(), pl::nn::Linear(64, 1));
  model->to(device);
  pl::optim::Adam optimizer(model->parameters(), pl::optim::AdamOptions(3e-4));
  auto observations = pl::empty({256, 12});
  observations.copy_(pl::randn({256, 12}));
  auto returns = observations.sum({1}, true);
  for (int epoch = 0; epoch < 8; ++epoch) {
    auto obs = observations.to(device); // expect: placement-transfer-in-loop
    auto ret = returns.to(device); // expect: placement-transfer-in-loop
    double epoch_loss = 0.0;
    for (std::int64_t start = 0; start < 256; start += 32) {
      epoch_loss += step_loss(model, optimizer, obs.narrow(0, start, 32), ret.narrow(0, start, 32)).item<double>(); // expect: placement-transfer-in-loop
    }
    std::cout << "epoch " << epoch << " loss " << epoch_loss << "\n";
  }
  return 0;
}
