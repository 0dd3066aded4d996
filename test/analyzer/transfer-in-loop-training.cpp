// RUN: %check_placement %s placement-transfer-in-loop %t -- -- %mock_includes
//
// Training loops as libtorch programs write them: every loop shape, syncs on
// a Device variable's device (it may be CUDA), periodic work under
// `if (step % N == 0)`, and tensors an optimizer changes on every step.
#include <cstdio>
#include <iostream>

#include <torch/torch.h>

void consume(const torch::Tensor &t);

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

torch::Device pickDevice() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}

// The loss of every batch read on the host: a sync when the device is a GPU.
void lossReadEveryBatch() {
  torch::Device device = pickDevice();
  Net model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  auto loader = torch::data::make_data_loader(64);
  double total = 0;
  for (auto &batch : *loader) {
    torch::Tensor data = batch.data.to(device);
    torch::Tensor target = batch.target.to(device);
    optimizer.zero_grad();
    torch::Tensor loss = torch::nll_loss(model->forward(data), target);
    optimizer.step();
    total += loss.item<double>();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'loss' may be on a CUDA device (the device in 'device') and is copied to the host on every iteration of the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-8]]:3: note: in this loop
  }
  std::cout << total << "\n";
}

// Accumulated on the device, read once after the loop: no sync per batch.
void lossAccumulatedOnTheDevice() {
  torch::Device device = pickDevice();
  Net model;
  model->to(device);
  auto loader = torch::data::make_data_loader(64);
  torch::Tensor total = torch::zeros({}, torch::device(device));
  for (auto &batch : *loader) {
    torch::Tensor loss = torch::nll_loss(model->forward(batch.data.to(device)),
                                         batch.target.to(device));
    total += loss.detach();
  }
  std::cout << total.item<double>() << "\n";
}

// Logged every 100 steps: not every iteration.
void periodicLogging(int steps) {
  torch::Device device = pickDevice();
  Net model;
  model->to(device);
  for (int step = 0; step < steps; ++step) {
    torch::Tensor loss = model->forward(torch::randn({8, 4}).to(device)).sum();
    if (step % 100 == 0)
      std::printf("%f\n", loss.item<float>());
  }
}

// A detached copy of every step's output kept on the host.
void keepsEveryOutputOnTheHost(int steps) {
  std::vector<torch::Tensor> history;
  Net model;
  model->to(torch::kCUDA);
  int step = 0;
  while (step < steps) {
    torch::Tensor out = model->forward(torch::randn({8, 4}).cuda());
    history.push_back(out.detach().cpu());
    // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'out.detach()' is copied from cuda to the host on every iteration of the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: in this loop
    ++step;
  }
}

void doWhileAndNestedLoops(int epochs, int steps) {
  torch::Tensor table = torch::randn({16, 4});
  int epoch = 0;
  do {
    for (int i = 0; i < steps; ++i)
      consume(table.cuda());
      // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'table' is moved to cuda on every iteration but does not change in the loop [placement-transfer-in-loop]
      // CHECK-MESSAGES: :[[@LINE-3]]:5: note: hoist the transfer before this loop
    ++epoch;
  } while (epoch < epochs);
}

// An image the optimizer changes on every step, saved now and then: not
// invariant, and not every iteration.
void styleTransfer(int steps, torch::Device saveTo) {
  torch::Tensor image = torch::randn({1, 3, 8, 8}).cuda();
  torch::optim::Adam optimizer({image}, 0.01);
  for (int step = 0; step < steps; ++step) {
    optimizer.zero_grad();
    optimizer.step();
    if (step % 50 == 0)
      consume(image.cpu());
    consume(image.to(saveTo));
  }
}

// A member moved on every call of a method that runs once per batch.
struct Scaler {
  torch::Tensor scale = torch::ones({4});
  torch::Device device = torch::kCUDA;
  torch::Tensor apply(const std::vector<torch::Tensor> &batches) {
    torch::Tensor sum = torch::zeros({4}, torch::kCUDA);
    for (const torch::Tensor &b : batches)
      sum += b.to(device) * scale.to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'scale' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
      // CHECK-MESSAGES: :[[@LINE-3]]:5: note: hoist the transfer before this loop
    return sum;
  }
};

// A round trip through a host-only helper on every iteration.
torch::Tensor hostOnlyNormalise(const torch::Tensor &t) { return t / t.sum(); }
void roundTripThroughAHelper(int steps) {
  torch::Tensor state = torch::randn({4}).cuda();
  for (int i = 0; i < steps; ++i) {
    torch::Tensor host = state.cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'state' is copied from cuda to the host on every iteration of the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: in this loop
    state = hostOnlyNormalise(host).cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: 'hostOnlyNormalise(host)' is moved back to cuda right after it was moved to cpu, on every iteration [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-5]]:32: note: 'hostOnlyNormalise(host)' was moved to cpu here
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: in this loop
  }
}

// Syncs inside assertions and printing.
void syncsInMacrosAndPrinting(int steps) {
  torch::Tensor w = torch::randn({4}).cuda();
  for (int i = 0; i < steps; ++i) {
    w = w * 0.5;
    std::cout << w.sum().item<float>() << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'w.sum()' is copied from cuda to the host on every iteration of the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: in this loop
    std::printf("%f\n", w.max().template item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'w.max()' is copied from cuda to the host on every iteration of the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: in this loop
  }
}

// A member moved to the device on every call of a per-frame method.
class Renderer {
public:
  Renderer(torch::Device device, int64_t classes)
      : device_(device), palette_(torch::rand({classes, 3})) {}
  torch::Tensor colorize(const torch::Tensor &labels) {
    return palette_.to(device_).index_select(0, labels);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'palette_' is moved to the device in 'device_' on every call of 'colorize' but does not change between calls [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:17: note: move it once, where the object is made (or register it as a buffer)
  }
  // Moving the member itself, once, is the fix.
  void moveTo(torch::Device device) {
    device_ = device;
    palette_ = palette_.to(device);
  }
  torch::Tensor toHost() { return palette_.cpu(); }

private:
  torch::Device device_;
  torch::Tensor palette_;
};
