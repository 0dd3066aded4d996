// issue 19 class 10 (loops), pl, correct look-alike.
// CORRECT. As loop_syncs_and_reuploads.cpp, but the rollout is uploaded once,
// before the epochs, and the losses are summed on the device and read once
// per epoch, after the minibatch loop.
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
  auto obs = observations.to(device);
  auto ret = returns.to(device);
  for (int epoch = 0; epoch < 8; ++epoch) {
    auto epoch_loss = pl::zeros({}, pl::device(device));
    for (std::int64_t start = 0; start < 256; start += 32) {
      epoch_loss += step_loss(model, optimizer, obs.narrow(0, start, 32), ret.narrow(0, start, 32));
    }
    std::cout << "epoch " << epoch << " loss " << epoch_loss.item<double>() << "\n";
  }
  return 0;
}
