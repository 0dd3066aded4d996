// placement-create-then-move (measured apart from the three scored rules).
// BUG. The decoder's initial hidden state is built with torch::zeros on the
// host and moved to `device` at once: a host allocation and a copy for
// nothing; `torch::zeros(..., torch::device(device))` makes it there.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::GRU decoder(torch::nn::GRUOptions(32, 64).num_layers(2));
  torch::nn::Linear readout(64, 32);
  torch::load(decoder, "decoder.pt");
  torch::load(readout, "readout.pt");
  decoder->to(device);
  readout->to(device);
  torch::NoGradGuard no_grad;

  torch::Tensor hidden = torch::zeros({2, 1, 64}).to(device); // expect: placement-create-then-move
  torch::Tensor input = torch::zeros({1, 1, 32}, torch::device(device));
  std::vector<torch::Tensor> outputs;
  for (int t = 0; t < 100; ++t) {
    auto [output, next] = decoder->forward(input, hidden);
    hidden = next;
    input = readout(output);
    outputs.push_back(input);
  }
  std::cout << torch::cat(outputs).sizes() << "\n";
  return 0;
}
