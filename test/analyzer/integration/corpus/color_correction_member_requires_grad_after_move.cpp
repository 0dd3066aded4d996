// placement-non-leaf-parameter: a class whose constructor moves a tensor to
// the device first and marks it requires_grad after, and whose fit() builds
// the optimizer over that member. CORRECT. As
// color_correction_member_moved_in_constructor.cpp, but requires_grad_() is
// called on the moved copy, which is then a leaf on the device: fit()'s Adam
// updates it.
#include <torch/torch.h>

#include <iostream>

class ColorCorrection {
public:
  explicit ColorCorrection(torch::Device device)
      : m_matrix((torch::eye(3) + 0.01 * torch::randn({3, 3})).to(device).requires_grad_()) {}

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
