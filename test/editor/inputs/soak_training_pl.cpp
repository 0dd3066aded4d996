// A pl training loop for placelint-clangd's soak test (test_soak.py), which
// edits it hundreds of times at the line marked `soak: edits here`: a bug
// added there and removed, half a statement typed and undone. Its one
// finding as written is marked.
#include <iostream>

#include <pl/pl.h>

void train(const pl::Device &device) {
  pl::nn::Linear model(8, 1);
  model->to(device);
  pl::optim::SGD optimizer(model->parameters(), pl::optim::SGDOptions(0.01));
  pl::Tensor scale = pl::ones({1}).to(device); // expect: placement-create-then-move
  for (int step = 0; step < 100; ++step) {
    pl::Tensor inputs = pl::randn({32, 8}, pl::device(device));
    pl::Tensor targets = inputs.sum(1, true) * scale;
    // soak: edits here
    optimizer.zero_grad();
    pl::Tensor error = model(inputs) - targets;
    pl::Tensor loss = (error * error).mean();
    loss.backward();
    optimizer.step();
    if (step % 10 == 0)
      std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
}

int main() {
  train(pl::Device("sim:0"));
  return 0;
}
