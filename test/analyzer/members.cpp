// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// Fields of `this` are tracked within one member function. At entry they
// hold what the constructors and the other member functions may leave in
// them.
#include <pl/pl.h>

void consume(const pl::Tensor &t);

class Trainer {
public:
  Trainer() : weights_(pl::ones({4, 4})), bias_(pl::zeros({4}, pl::kCUDA)) {}

  void moveWeightsThenMix() {
    weights_ = weights_.to(pl::kCUDA);
    pl::Tensor host = pl::ones({4, 4});
    consume(weights_ + host);
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'weights_' is on cuda but 'host' is on cpu in call to 'operator+' [placement-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-4]]:25: note: 'weights_' was moved to cuda here
    // CHECK-MESSAGES: :[[@LINE-4]]:23: note: 'host' was created on cpu here
  }

  void thisArrowSpelling() {
    this->bias_ = pl::ones({4});
    consume(bias_ * pl::ones({4}, pl::kCUDA));
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'bias_' is on cpu but 'pl::ones({4}, pl::kCUDA)' is on cuda in call to 'operator*' [placement-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'bias_' was created on cpu here
    // CHECK-MESSAGES: :[[@LINE-3]]:21: note: 'pl::ones({4}, pl::kCUDA)' was created on cuda here
  }

  // The constructor put bias_ on cuda, thisArrowSpelling() on the cpu:
  // either may be what this function finds.
  void fieldsAsTheOtherMethodsLeaveThem() {
    consume(weights_ + bias_);
    consume(bias_ + pl::ones({4}));
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'bias_' may be on cuda but 'pl::ones({4})' is on cpu in call to 'operator+' [placement-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-25]]:49: note: 'bias_' was created on cuda here
    // CHECK-MESSAGES: :[[@LINE-3]]:21: note: 'pl::ones({4})' was created on cpu here
  }

  void sameDeviceFields() {
    weights_ = weights_.cuda();
    bias_ = bias_.to(pl::kCUDA);
    consume(weights_.matmul(bias_));
  }

  // Another object's field is not a field of this.
  void otherObject(Trainer &other) {
    weights_ = pl::ones({4, 4}, pl::kCUDA);
    consume(weights_ + other.weights_);
  }

  // A call to a non-const member function may move any field.
  void memberCallInvalidates() {
    weights_ = pl::ones({4, 4});
    moveWeightsThenMix();
    consume(weights_ + pl::ones({4, 4}, pl::kCUDA));
  }

private:
  pl::Tensor weights_;
  pl::Tensor bias_;
};
