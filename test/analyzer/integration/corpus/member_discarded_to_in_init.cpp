// issue 8 class 5: a member moved with a discarded `.to()` in an init method.
// BUG. `Initialize` moves the module in place (fine) and then "moves" the
// plain anchor tensor with `anchors.to(device)`, throwing the result away:
// the anchors stay on the cpu and `decode` adds them to device offsets.
// Look-alike of member_assigned_in_init.cpp.
#include <torch/torch.h>

#include <iostream>

class BoxRegressorImpl : public torch::nn::Module {
public:
  BoxRegressorImpl(int64_t features, int64_t num_anchors)
      : trunk(register_module("trunk", torch::nn::Linear(features, 256))),
        deltas(register_module("deltas", torch::nn::Linear(256, num_anchors * 4))),
        anchors(torch::rand({num_anchors, 4})) {}

  void Initialize(torch::Device device) {
    to(device);
    anchors.to(device); // expect: placement-discarded-transfer
  }

  torch::Tensor decode(const torch::Tensor &features) {
    auto offsets = deltas(torch::relu(trunk(features))).view({features.size(0), -1, 4});
    return offsets + anchors; // expect: placement-mixed-device
  }

private:
  torch::nn::Linear trunk, deltas;
  torch::Tensor anchors;
};
TORCH_MODULE(BoxRegressor);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  BoxRegressor regressor(512, 9);
  regressor->Initialize(device);
  torch::optim::SGD optimizer(regressor->parameters(), 0.01);
  for (int64_t step = 0; step < 1000; ++step) {
    auto features = torch::randn({32, 512}, torch::device(device));
    auto targets = torch::rand({32, 9, 4}, torch::device(device));
    optimizer.zero_grad();
    auto loss = torch::smooth_l1_loss(regressor->decode(features), targets);
    loss.backward();
    optimizer.step();
    if (step % 100 == 0) {
      std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
    }
  }
  return 0;
}
