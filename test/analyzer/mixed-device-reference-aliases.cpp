// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
// RUN: %check_placement -check-suffix=MOVES %s placement-create-then-move,placement-transfer-in-loop %t -- -- %mock_includes
//
// A local reference is another name for the place it binds (a variable, a
// field, an element): reads through it read that place, and writes through
// it (assignment, an in-place op, copy_, passing it by non-const reference)
// write that place. A `const auto &` alias sees later changes of what it
// names. Only a reference whose target the analyzer cannot name (bound to
// one of two variables) makes its targets unknown. The MOVES run checks
// the rules that ask whether a variable changes or is read (transfer in a
// loop, create then move) through the same references.
#include <torch/torch.h>

void consume(const torch::Tensor &t);

struct RecurrentState {
  torch::Tensor hidden;
  torch::Tensor cell;
};

void moveToGpu(torch::Tensor &t) { t = t.cuda(); }

// `Tensor &h = state.hidden; h = h.to(device)` moves the field itself.
void hiddenMovedThroughReference(const torch::Tensor &tokens) {
  RecurrentState state{torch::zeros({1, 8}), torch::zeros({1, 8})};
  torch::Tensor &h = state.hidden;
  h = h.to(torch::kCUDA);
  // CHECK-MESSAGES-MOVES: :[[@LINE-1]]:9: warning: 'zeros' creates a tensor on the host only to move it to cuda; create it there [placement-create-then-move]
  // CHECK-MESSAGES-MOVES: :[[@LINE-4]]:24: note: 'h' was created on cpu here
  consume(tokens.cuda() + state.hidden);
}

void cellLeftOnTheHost(const torch::Tensor &tokens) {
  RecurrentState state{torch::zeros({1, 8}), torch::zeros({1, 8})};
  torch::Tensor &h = state.hidden;
  h = h.to(torch::kCUDA);
  // CHECK-MESSAGES-MOVES: :[[@LINE-1]]:9: warning: 'zeros' creates a tensor on the host only to move it to cuda; create it there [placement-create-then-move]
  // CHECK-MESSAGES-MOVES: :[[@LINE-4]]:24: note: 'h' was created on cpu here
  consume(state.hidden * state.cell);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'state.hidden' is on cuda but 'state.cell' is on cpu in call to 'operator*' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'state.hidden' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-8]]:46: note: 'state.cell' was created on cpu here
}

void hiddenReadThroughReferenceAfterTheMove(const torch::Tensor &tokens) {
  RecurrentState state{torch::zeros({1, 8}), torch::zeros({1, 8})};
  torch::Tensor &h = state.hidden;
  state.hidden = state.hidden.to(torch::kCUDA);
  consume(h + torch::ones({1, 8}));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'h' is on cuda but 'torch::ones({1, 8})' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:31: note: 'h' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'torch::ones({1, 8})' was created on cpu here
}

// An accumulator bound by reference: `acc += loss` writes `total`.
void hostAccumulatorByReference(torch::nn::Linear model, int steps) {
  model->to(torch::kCUDA);
  torch::Tensor total = torch::zeros({});
  for (int step = 0; step < steps; ++step) {
    torch::Tensor loss = model(torch::randn({8, 4}).cuda()).mean();
    // CHECK-MESSAGES-MOVES: :[[@LINE-1]]:53: warning: 'randn' creates a tensor on the host only to move it to cuda, on every iteration; create it there, once, before the loop [placement-create-then-move]
    auto &acc = total;
    acc += loss;
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'acc' is on cpu but 'loss' is on cuda in call to 'operator+=' [placement-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-7]]:25: note: 'acc' was created on cpu here
    // CHECK-MESSAGES: :[[@LINE-6]]:61: note: 'loss' was assigned a tensor on cuda here
  }
  consume(total);
}

void deviceAccumulatorByReference(torch::nn::Linear model, int steps) {
  model->to(torch::kCUDA);
  torch::Tensor total = torch::zeros({}, torch::kCUDA);
  auto &acc = total;
  for (int step = 0; step < steps; ++step) {
    torch::Tensor loss = model(torch::randn({8, 4}).cuda()).mean();
    // CHECK-MESSAGES-MOVES: :[[@LINE-1]]:53: warning: 'randn' creates a tensor on the host only to move it to cuda, on every iteration; create it there, once, before the loop [placement-create-then-move]
    acc += loss;
  }
  consume(total);
}

// Loaded batches are on the host; a reference to a batch's field is that field.
void batchFieldMovedThroughReference(torch::nn::Linear model) {
  model->to(torch::kCUDA);
  auto loader = torch::data::make_data_loader(64);
  for (auto &batch : *loader) {
    auto &images = batch.data;
    images = images.to(torch::kCUDA);
    consume(model(batch.data));
  }
}

void batchFieldLeftOnTheHost(torch::nn::Linear model) {
  model->to(torch::kCUDA);
  auto loader = torch::data::make_data_loader(64);
  for (auto &batch : *loader) {
    auto &images = batch.data;
    torch::Tensor moved = images.to(torch::kCUDA);
    consume(model(batch.data));
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'batch.data' is on cpu but 'model' is on cuda in call to 'forward' [placement-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-5]]:14: note: 'batch.data' was created on cpu here
    // CHECK-MESSAGES: :[[@LINE-8]]:10: note: 'model' was moved to cuda here
  }
}

// A copy made through the alias leaves the variable where it was.
void weightsCopiedThroughReference(const torch::Tensor &x) {
  torch::Tensor w = torch::randn({4, 4});
  auto &weights = w;
  torch::Tensor onGpu = weights.cuda();
  consume(torch::matmul(x.cuda(), w));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'x.cuda()' is on cuda but 'w' is on cpu in call to 'matmul' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: 'x.cuda()' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-6]]:21: note: 'w' was created on cpu here
}

void weightsMovedThroughReference(const torch::Tensor &x) {
  torch::Tensor w = torch::randn({4, 4});
  auto &weights = w;
  weights = weights.cuda();
  // CHECK-MESSAGES-MOVES: :[[@LINE-1]]:21: warning: 'randn' creates a tensor on the host only to move it to cuda; create it there [placement-create-then-move]
  // CHECK-MESSAGES-MOVES: :[[@LINE-4]]:21: note: 'weights' was created on cpu here
  consume(torch::matmul(x.cuda(), w));
}

// In-place ops and copy_ through a reference write the variable.
void inPlaceThroughReference() {
  torch::Tensor buffer = torch::empty({4}, torch::kCUDA);
  torch::Tensor &out = buffer;
  out.add_(torch::ones({4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'out' is on cuda but 'torch::ones({4})' is on cpu in call to 'add_' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:26: note: 'out' was created on cuda here
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'torch::ones({4})' was created on cpu here
}

void copyIntoThroughReference() {
  torch::Tensor buffer = torch::empty({4}, torch::kCUDA);
  torch::Tensor &out = buffer;
  out.copy_(torch::ones({4}));
  consume(buffer + torch::ones({4}, torch::kCUDA));
}

// A helper taking `Tensor &` moves what the reference names.
void movedByHelperThroughReference() {
  torch::Tensor x = torch::randn({4});
  auto &alias = x;
  moveToGpu(alias);
  consume(x + torch::randn({4}, torch::kCUDA));
}

void hostTensorMetAfterHelperMove() {
  torch::Tensor x = torch::randn({4});
  auto &alias = x;
  moveToGpu(alias);
  consume(x + torch::randn({4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'x' is on cuda but 'torch::randn({4})' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-137]]:42: note: 'x' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'torch::randn({4})' was created on cpu here
}

// A const alias sees the variable as it is when read, not when bound.
void constAliasSeesTheMove() {
  torch::Tensor x = torch::randn({4});
  const auto &view = x;
  x = x.cuda();
  // CHECK-MESSAGES-MOVES: :[[@LINE-1]]:9: warning: 'randn' creates a tensor on the host only to move it to cuda; create it there [placement-create-then-move]
  // CHECK-MESSAGES-MOVES: :[[@LINE-4]]:21: note: 'x' was created on cpu here
  consume(view + torch::ones({4}, torch::kCUDA));
}

void constAliasOfHostTensor() {
  torch::Tensor x = torch::randn({4});
  const auto &view = x;
  consume(view + torch::ones({4}, torch::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'view' is on cpu but 'torch::ones({4}, torch::kCUDA)' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'view' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'torch::ones({4}, torch::kCUDA)' was created on cuda here
}

// A reference to a reference names the same place.
void chainOfReferences() {
  torch::Tensor x = torch::randn({4});
  auto &first = x;
  auto &second = first;
  second = second.cuda();
  // CHECK-MESSAGES-MOVES: :[[@LINE-1]]:19: warning: 'randn' creates a tensor on the host only to move it to cuda; create it there [placement-create-then-move]
  // CHECK-MESSAGES-MOVES: :[[@LINE-5]]:21: note: 'second' was created on cpu here
  consume(x + torch::ones({4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'x' is on cuda but 'torch::ones({4})' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:19: note: 'x' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'torch::ones({4})' was created on cpu here
}

// A reference to one of two tensors: which one is not known, so a write
// through it leaves both unknown (nothing is reported; a known false
// negative when both stay on the host).
void referenceToEitherTensor(bool useFirst) {
  torch::Tensor a = torch::randn({4});
  torch::Tensor b = torch::randn({4});
  auto &chosen = useFirst ? a : b;
  chosen = chosen.cuda();
  consume(a + torch::ones({4}, torch::kCUDA));
  consume(b + torch::ones({4}, torch::kCUDA));
}

// A reference to a temporary is a tensor of its own.
void constReferenceToTemporary(const torch::Tensor &x) {
  const torch::Tensor &moved = x.cuda();
  consume(moved + torch::ones({4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'moved' is on cuda but 'torch::ones({4})' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:34: note: 'moved' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'torch::ones({4})' was created on cpu here
}

// Read through a reference in a loop and never changed: the same copy on
// every iteration.
void tableMovedThroughReferenceEveryIteration(int steps) {
  torch::Tensor table = torch::randn({16, 4});
  for (int step = 0; step < steps; ++step) {
    const auto &lookup = table;
    consume(lookup.to(torch::kCUDA));
    // CHECK-MESSAGES-MOVES: :[[@LINE-1]]:20: warning: 'lookup' is moved to cuda on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES-MOVES: :[[@LINE-4]]:3: note: hoist the transfer before this loop
  }
}

void stateChangedThroughReferenceEveryIteration(int steps) {
  torch::Tensor state = torch::randn({16, 4});
  auto &current = state;
  for (int step = 0; step < steps; ++step) {
    current = current * 2;
    consume(state.to(torch::kCUDA));
  }
}

// Filled through one reference, then moved through another: the host tensor
// was used first, so it was not made only to be moved.
void filledThenMovedThroughReferences(const torch::Tensor &source) {
  torch::Tensor staging = torch::empty({16, 4});
  auto &filled = staging;
  filled.copy_(source);
  const auto &uploaded = staging;
  consume(uploaded.to(torch::kCUDA));
}

// A lambda sees, through a captured reference, what the reference names.
void lambdaReadsThroughReference() {
  torch::Tensor x = torch::randn({4});
  auto &alias = x;
  auto shifted = [&] { return alias + torch::ones({4}, torch::kCUDA); };
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: 'alias' is on cpu but 'torch::ones({4}, torch::kCUDA)' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'alias' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-3]]:39: note: 'torch::ones({4}, torch::kCUDA)' was created on cuda here
  // CHECK-MESSAGES: :[[@LINE+1]]:11: note: with the values this call gives it
  consume(shifted());
}

void lambdaCopiesThroughConstReference() {
  torch::Tensor x = torch::randn({4});
  const auto &alias = x;
  auto shifted = [alias] { return alias + torch::ones({4}, torch::kCUDA); };
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'alias' is on cpu but 'torch::ones({4}, torch::kCUDA)' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'alias' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-3]]:43: note: 'torch::ones({4}, torch::kCUDA)' was created on cuda here
  // CHECK-MESSAGES: :[[@LINE+1]]:11: note: with the values this call gives it
  consume(shifted());
}

void lambdaMovesThroughReference() {
  torch::Tensor x = torch::randn({4});
  auto &alias = x;
  auto upload = [&] { alias = alias.cuda(); };
  upload();
  consume(x + torch::ones({4}, torch::kCUDA));
}
