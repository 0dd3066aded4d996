// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// Library modules without parameters (activations, dropout, losses) have no
// device of their own: calling them never mismatches. A loss given a weight
// through its options holds that tensor. A loss's inputs must share one
// device; so must the tensor arguments of any API function.
#include <torch/torch.h>

void consume(const torch::Tensor &t);

void activationsAndDropoutRunAnywhere(torch::Device device) {
  torch::nn::ReLU relu;
  torch::nn::Dropout dropout(0.2);
  torch::Tensor x = torch::randn({8, 4}).to(torch::kCUDA);
  consume(dropout(relu(x)));
  consume(relu->forward(x));
  relu->to(torch::kCPU);
  consume(relu(x));
}

void lossWithoutWeightRunsWhereItsInputsAre() {
  torch::nn::CrossEntropyLoss criterion;
  torch::nn::MSELoss mse;
  torch::Tensor logits = torch::randn({8, 3}).cuda();
  torch::Tensor labels = torch::zeros({8}, torch::kLong).cuda();
  consume(criterion(logits, labels));
  consume(mse(logits, logits));
}

void lossTargetLeftOnTheHost() {
  torch::nn::CrossEntropyLoss criterion;
  torch::Tensor logits = torch::randn({8, 3}).cuda();
  torch::Tensor labels = torch::zeros({8}, torch::kLong);
  consume(criterion(logits, labels));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'logits' is on cuda but 'labels' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:47: note: 'logits' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:26: note: 'labels' was created on cpu here
}

void lossWeightOnTheHost() {
  torch::Tensor weights = torch::ones({3});
  torch::nn::CrossEntropyLoss criterion(torch::nn::CrossEntropyLossOptions().weight(weights));
  torch::Tensor logits = torch::randn({8, 3}).cuda();
  torch::Tensor labels = torch::zeros({8}, torch::kLong).cuda();
  consume(criterion(logits, labels));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'logits' is on cuda but 'criterion' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:47: note: 'logits' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-6]]:31: note: 'criterion' was created on cpu here
}

void lossWeightMovedWithTheLoss() {
  torch::Tensor weights = torch::ones({3});
  torch::nn::CrossEntropyLoss criterion(torch::nn::CrossEntropyLossOptions().weight(weights));
  criterion->to(torch::kCUDA);
  torch::Tensor logits = torch::randn({8, 3}).cuda();
  torch::Tensor labels = torch::zeros({8}, torch::kLong).cuda();
  consume(criterion(logits, labels));
}

void functionalLossTargetOnTheHost() {
  torch::Tensor logits = torch::randn({8, 3}).cuda();
  torch::Tensor labels = torch::zeros({8}, torch::kLong);
  consume(torch::nll_loss(logits, labels));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'logits' is on cuda but 'labels' is on cpu in call to 'nll_loss' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:47: note: 'logits' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:26: note: 'labels' was created on cpu here
  consume(torch::nn::functional::cross_entropy(logits, labels.cuda()));
}

// A class weight, passed as the optional<Tensor> it is declared as, must be
// with the inputs too, whatever its rank.
void functionalLossWeightOnTheHost() {
  torch::Tensor logits = torch::randn({8, 3}).cuda();
  torch::Tensor labels = torch::zeros({8}, torch::kLong).cuda();
  torch::Tensor weights = torch::ones({3});
  consume(torch::nll_loss(logits, labels, weights));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'logits' is on cuda but 'weights' is on cpu in call to 'nll_loss' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:47: note: 'logits' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:27: note: 'weights' was created on cpu here
  consume(torch::nll_loss(logits, labels, weights.cuda()));
  consume(torch::nll_loss(logits, labels));
}

void otherOpsCheckTheirTensors() {
  torch::Tensor x = torch::randn({8, 3}).cuda();
  torch::Tensor mask = torch::zeros({8, 3}, torch::kBool);
  consume(x.masked_fill(mask, 0.0));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'x' is on cuda but 'mask' is on cpu in call to 'masked_fill' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:42: note: 'x' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:24: note: 'mask' was created on cpu here
  consume(torch::where(mask.cuda(), x, x));
  consume(x.view_as(mask));
}

// After a mismatch the op throws: nothing downstream is reported again.
void noCascadeAfterAMismatch() {
  torch::Tensor x = torch::randn({8, 3}).cuda();
  torch::Tensor y = torch::randn({8, 3});
  torch::Tensor z = x + y;
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'x' is on cuda but 'y' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:42: note: 'x' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'y' was created on cpu here
  torch::Tensor w = z * torch::randn({8, 3});
  consume(w + x);
}
