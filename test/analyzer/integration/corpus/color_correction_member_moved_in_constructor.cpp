// placement-non-leaf-parameter: a class whose constructor stores a moved
// requires-grad tensor in a member, and whose fit() builds the optimizer over
// that member. BUG. A camera colour-correction fitter starts its 3x3 matrix
// near the identity, marks it requires_grad and moves it to the device in the
// constructor's member initializer: on a GPU the member is the copy .to()
// made, a non-leaf, so fit()'s Adam steps over a tensor whose grad() stays
// undefined and the matrix never changes (the "requires_grad then .to(device)"
// mistake behind PyTorch-forums threads on parameters that do not update,
// here split between a constructor and a method). The finding is the move in
// the constructor. Look-alike: color_correction_member_requires_grad_after_move.cpp.
#include <torch/torch.h>

#include <iostream>

class ColorCorrection {
public:
  explicit ColorCorrection(torch::Device device)
      : m_matrix((torch::eye(3) + 0.01 * torch::randn({3, 3})).requires_grad_().to(device)) {} // expect: placement-non-leaf-parameter

  void fit(const torch::Tensor &measured, const torch::Tensor &reference, int64_t iterations) {
    torch::optim::Adam optimizer({m_matrix}, torch::optim::AdamOptions(1e-2));
    for (int64_t i = 0; i < iterations; ++i) {
      auto loss = torch::mse_loss(measured.matmul(m_matrix), reference);
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
    }
  }

  torch::Tensor apply(const torch::Tensor &pixels) const { return pixels.matmul(m_matrix).clamp(0, 1); }

private:
  torch::Tensor m_matrix;
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto measured = torch::rand({24, 3}, torch::device(device));
  auto reference = measured.flip({1});
  ColorCorrection correction(device);
  correction.fit(measured, reference, 500);
  std::cout << correction.apply(measured) << "\n";
  return 0;
}
