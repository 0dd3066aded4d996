// issue 19 class 7 (consequences across functions): a member function of a trainer discards its move.
// BUG (discarded-transfer in the member function, mixed-device in its caller).
// A Trainer class moves its network to its device in the constructor. Its
// `prepare` member "moves" the batch with `x.to(m_device);` and returns the
// flattened cpu copy; `train_step` feeds that to the network on m_device.
#include <torch/torch.h>

#include <iostream>

class Trainer {
 public:
  Trainer(torch::nn::Sequential net, torch::Device device)
      : m_net(std::move(net)), m_device(device), m_optimizer(m_net->parameters(), torch::optim::AdamOptions(1e-3)) {
    m_net->to(m_device);
  }

  torch::Tensor train_step(const torch::Tensor &images, const torch::Tensor &labels) {
    m_optimizer.zero_grad();
    auto logits = m_net->forward(prepare(images)); // expect: placement-mixed-device
    auto loss = torch::nn::functional::cross_entropy(logits, labels.to(m_device));
    loss.backward();
    m_optimizer.step();
    return loss.detach();
  }

 private:
  torch::Tensor prepare(torch::Tensor x) const {
    x.to(m_device); // expect: placement-discarded-transfer
    return x.flatten(1);
  }

  torch::nn::Sequential m_net;
  torch::Device m_device;
  torch::optim::Adam m_optimizer;
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Trainer trainer(torch::nn::Sequential(torch::nn::Linear(784, 256), torch::nn::ReLU(), torch::nn::Linear(256, 10)),
                  device);
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>()), 128);
  for (int epoch = 0; epoch < 3; ++epoch) {
    torch::Tensor last;
    for (auto &batch : *loader)
      last = trainer.train_step(batch.data, batch.target);
    std::cout << "epoch " << epoch << " last loss " << last.item<float>() << "\n";
  }
  return 0;
}
