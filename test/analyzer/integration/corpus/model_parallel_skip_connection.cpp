// issue 19 class 6 (model parallel): a skip connection across the split.
// BUG (mixed-device). A small U-Net split over two GPUs: encoder on cuda:0,
// decoder and head on cuda:1 (devices held as members). forward hops the
// bottleneck to cuda:1 but concatenates the decoder's output with the
// encoder's skip features, still on cuda:0.
#include <torch/torch.h>

#include <iostream>

struct SplitUNetImpl : torch::nn::Module {
  SplitUNetImpl()
      : enc(register_module("enc", torch::nn::Sequential(
                                       torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 32, 3).padding(1)),
                                       torch::nn::ReLU()))),
        down(register_module("down", torch::nn::Sequential(
                                         torch::nn::MaxPool2d(2),
                                         torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).padding(1)),
                                         torch::nn::ReLU()))),
        up(register_module("up", torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(64, 32, 2).stride(2)))),
        head(register_module("head", torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 2, 1)))) {
    enc->to(first_);
    down->to(first_);
    up->to(second_);
    head->to(second_);
  }
  torch::Tensor forward(const torch::Tensor &x) {
    auto skip = enc->forward(x.to(first_));
    auto bottom = down->forward(skip);
    auto decoded = up(bottom.to(second_));
    return head(torch::cat({decoded, skip}, 1)); // expect: placement-mixed-device
  }
  const torch::Device first_{torch::kCUDA, 0};
  const torch::Device second_{torch::kCUDA, 1};
  torch::nn::Sequential enc, down;
  torch::nn::ConvTranspose2d up;
  torch::nn::Conv2d head;
};
TORCH_MODULE(SplitUNet);

int main() {
  if (torch::cuda::device_count() < 2)
    return 1;
  SplitUNet model;
  torch::optim::Adam optimizer(model->parameters(), 1e-3);
  torch::Tensor slices, masks;
  torch::load(slices, "ct_slices.pt");
  torch::load(masks, "ct_masks.pt");
  for (int64_t i = 0; i + 4 <= slices.size(0); i += 4) {
    auto logits = model->forward(slices.narrow(0, i, 4));
    auto target = masks.narrow(0, i, 4).to(logits.device());
    auto loss = torch::nn::functional::cross_entropy(logits, target);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
