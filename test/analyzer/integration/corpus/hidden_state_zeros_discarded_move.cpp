// issue 19 class 17 (one bug, one report): a factory's tensor whose move is discarded.
// BUG (discarded-transfer; the GRU call then mixes devices). A speech
// enhancement GRU's initial state is made with `torch::zeros` and "moved"
// with `h0.to(device);`, result thrown away. That is one bug, a discarded
// transfer: it must not also be reported as create-then-move (the move never
// happened; the user fixes the discard first). The GRU call that fails
// because of it is reported as mixed-device.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t layers = 2, batch = 16, hidden = 256;
  torch::nn::GRU gru(torch::nn::GRUOptions(257, hidden).num_layers(layers).batch_first(true));
  torch::nn::Linear mask_head(hidden, 257);
  gru->to(device);
  mask_head->to(device);
  torch::Tensor noisy;
  torch::load(noisy, "noisy_spectrogram.pt"); // [16, T, 257]
  auto x = noisy.to(device);
  auto h0 = torch::zeros({layers, batch, hidden});
  h0.to(device); // expect: placement-discarded-transfer
  torch::NoGradGuard no_grad;
  auto out = std::get<0>(gru->forward(x, h0)); // expect: placement-mixed-device
  auto enhanced = x * torch::sigmoid(mask_head(out));
  torch::save(enhanced.cpu(), "enhanced.pt");
  return 0;
}
