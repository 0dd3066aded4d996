// RUN: %check_placement %s placement-transfer-in-loop %t -- -- %mock_includes
//
// A function a loop calls (a helper, a lambda, a std::function's target, a
// std algorithm's callback, a method) makes its transfers once per
// iteration: each is judged as if written in the loop and reported where it
// is, in the callee, with a note at the caller's loop. An invariant move
// needs what the calls give unchanged in the loop (a callee moving what it
// makes itself is fresh data); a sync counts also on what the callee makes;
// a round trip is against the loop's own transfer of what the call gives.
// A call outside any loop, or only on some iterations, is not this rule's.
#include <torch/torch.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <optional>
#include <vector>

void consume(const torch::Tensor &t);

torch::Tensor weighted(const torch::Tensor &logits, const torch::Tensor &weights, torch::Device device) {
  return logits * weights.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'weights' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE+5]]:3: note: hoist the transfer before this loop
}

void helperCalledWithTheSameWeights(torch::Device device, const std::vector<torch::Tensor> &batches) {
  torch::Tensor weights = torch::ones({3});
  for (const torch::Tensor &batch : batches)
    consume(weighted(batch.to(device), weights, device));
}

torch::Tensor normalised(const torch::Tensor &x, const torch::Tensor &scale, torch::Device device) {
  return x / scale.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'scale' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE+9]]:3: note: hoist the transfer before this loop
}

torch::Tensor step(const torch::Tensor &x, const torch::Tensor &scale, torch::Device device) {
  return normalised(x, scale, device);
}

void helperTwoCallsDown(torch::Device device, const std::vector<torch::Tensor> &batches) {
  torch::Tensor scale = torch::full({3}, 2.0);
  for (const torch::Tensor &batch : batches)
    consume(step(batch.to(device), scale, device));
}

void lambdaCalledAtOnce(torch::Device device, const std::vector<torch::Tensor> &batches) {
  torch::Tensor bias = torch::zeros({3});
  for (const torch::Tensor &batch : batches) {
    torch::Tensor out = [&] { return batch.to(device) + bias.to(device); }();
    // CHECK-MESSAGES: :[[@LINE-1]]:62: warning: 'bias' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: hoist the transfer before this loop
    consume(out);
  }
}

// Not the same tensor on every iteration, or no loop.
void helperCalledWithEachBatch(torch::Device device, const std::vector<torch::Tensor> &batches,
                               const torch::Tensor &logits) {
  for (size_t i = 0; i < batches.size(); ++i)
    consume(weighted(logits, batches[i], device));
}

void helperCalledOnce(torch::Device device, const torch::Tensor &logits) {
  torch::Tensor weights = torch::ones({3});
  consume(weighted(logits, weights, device));
}

torch::Tensor freshNoise(torch::Device device) { return torch::randn({3}).to(device); }

void helperMakingItsOwnTensor(torch::Device device, int steps) {
  for (int i = 0; i < steps; ++i)
    consume(freshNoise(device));
}

void lambdaMovingTheBatch(torch::Device device, const std::vector<torch::Tensor> &batches) {
  for (const torch::Tensor &batch : batches) {
    auto upload = [&] { return batch.to(device); };
    consume(upload());
  }
}

// A lambda handed to a std algorithm is called by it: its transfers of what
// it captures happen on every iteration of the loop around the call.
void forEachCallbackInALoop(torch::Device device, const std::vector<torch::Tensor> &batches) {
  torch::Tensor scale = torch::ones({3});
  for (const torch::Tensor &batch : batches) {
    std::array<torch::Tensor, 1> parts{batch};
    std::for_each(parts.begin(), parts.end(), [&](const torch::Tensor &part) { consume(part * scale.to(device)); });
    // CHECK-MESSAGES: :[[@LINE-1]]:101: warning: 'scale' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: hoist the transfer before this loop
  }
}

void forEachCallbackMovingTheElement(torch::Device device, const std::vector<std::vector<torch::Tensor>> &batches) {
  for (const std::vector<torch::Tensor> &batch : batches)
    std::for_each(batch.begin(), batch.end(), [&](const torch::Tensor &part) { consume(part.to(device)); });
}

// A std::function calls the lambda stored in it.
struct StepTask {
  std::function<void()> run;
};

void storedTaskCalledInALoop(torch::Device device, const std::vector<torch::Tensor> &batches) {
  torch::Tensor w = torch::ones({3});
  for (const torch::Tensor &b : batches) {
    StepTask step{[&] { consume(b.to(device) * w.to(device)); }};
    // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: 'w' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: hoist the transfer before this loop
    step.run();
  }
}

void storedTaskMovingTheBatch(torch::Device device, const std::vector<torch::Tensor> &batches) {
  for (const torch::Tensor &b : batches) {
    StepTask step{[&] { consume(b.to(device)); }};
    step.run();
  }
}

// A sync in a helper called on every iteration: the host waits for the
// device once per iteration, as if `loss.item()` were written in the loop.
float meanSquare(const torch::Tensor &output) {
  torch::Tensor loss = (output * output).mean();
  return loss.item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'loss' is copied from cuda to the host on every iteration of the loop [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE+5]]:3: note: in this loop
}

float syncInAHelperEachStep(const std::vector<torch::Tensor> &batches) {
  float total = 0;
  for (const torch::Tensor &batch : batches)
    total += meanSquare(batch.to(torch::kCUDA));
  // The same helper called by a second loop is the same finding.
  for (const torch::Tensor &batch : batches)
    total += meanSquare(batch.to(torch::kCUDA));
  return total;
}

// The device in a variable of the caller: it may be CUDA.
float lossOnDevice(const torch::Tensor &batch, torch::Device device) {
  torch::Tensor out = batch.to(device);
  torch::Tensor loss = out.sum();
  return loss.item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'loss' may be on a CUDA device (the device in 'device') and is copied to the host on every iteration of the loop [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE+5]]:3: note: in this loop
}

float syncOnACallersDevice(torch::Device device, const std::vector<torch::Tensor> &batches) {
  float total = 0;
  for (const torch::Tensor &batch : batches)
    total += lossOnDevice(batch, device);
  return total;
}

// Look-alikes: the helper called once, after the loop; under a periodic
// branch; for a tensor on the host; from a loop around an inner loop (once
// per epoch).
float syncHelperCalledOnce(const std::vector<torch::Tensor> &batches) {
  torch::Tensor sum = torch::zeros({4}, torch::kCUDA);
  for (const torch::Tensor &batch : batches)
    sum += batch.to(torch::kCUDA);
  return meanSquare(sum);
}

float syncHelperEveryHundredSteps(const std::vector<torch::Tensor> &batches) {
  float last = 0;
  for (size_t step = 0; step < batches.size(); ++step)
    if (step % 100 == 0)
      last = meanSquare(batches[step].to(torch::kCUDA));
  return last;
}

float syncHelperOnHostTensors(int steps) {
  float total = 0;
  for (int i = 0; i < steps; ++i)
    total += meanSquare(torch::full({4}, i));
  return total;
}

float syncHelperOncePerEpoch(int epochs, const std::vector<torch::Tensor> &batches) {
  float total = 0;
  for (int e = 0; e < epochs; ++e) {
    torch::Tensor sum = torch::zeros({4}, torch::kCUDA);
    for (const torch::Tensor &batch : batches)
      sum += batch.to(torch::kCUDA);
    total += meanSquare(sum);
  }
  return total;
}

// A helper that loops over a data set and syncs once at its end: called
// once per epoch, the sync is not the hot path.
float accuracyOver(const std::vector<torch::Tensor> &batches) {
  torch::Tensor correct = torch::zeros({}, torch::kCUDA);
  for (const torch::Tensor &batch : batches)
    correct += batch.to(torch::kCUDA).sum();
  return correct.item<float>();
}

void evaluatedOncePerEpoch(int epochs, const std::vector<torch::Tensor> &batches) {
  for (int e = 0; e < epochs; ++e)
    std::printf("%f\n", accuracyOver(batches));
}

// A helper that queues a non_blocking download of each batch's result:
// the host waits for nothing in the loop (an evaluation gathering its
// predictions).
torch::Tensor toHostAsync(const torch::Tensor &t) { return t.to(torch::kCPU, /*non_blocking=*/true); }

void predictionsGatheredWithoutBlocking(const std::vector<torch::Tensor> &batches,
                                        std::vector<torch::Tensor> &predictions) {
  for (const torch::Tensor &batch : batches)
    predictions.push_back(toHostAsync(batch.to(torch::kCUDA).argmax(1)));
}

// A sync in a lambda called at once, a std algorithm's callback, a stored
// std::function and a method, each called on every iteration.
void syncInALambdaCalledAtOnce(const std::vector<torch::Tensor> &batches) {
  float total = 0;
  for (const torch::Tensor &batch : batches) {
    torch::Tensor loss = batch.to(torch::kCUDA).sum();
    total += [&] { return loss.item<float>(); }();
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'loss' is copied from cuda to the host on every iteration of the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: in this loop
  }
}

void syncInAForEachCallback(const std::vector<torch::Tensor> &batches) {
  float total = 0;
  for (const torch::Tensor &batch : batches) {
    std::array<torch::Tensor, 2> losses{batch.to(torch::kCUDA).sum(), batch.to(torch::kCUDA).mean()};
    std::for_each(losses.begin(), losses.end(), [&](const torch::Tensor &loss) { total += loss.item<float>(); });
    // CHECK-MESSAGES: :[[@LINE-1]]:96: warning: 'loss' is copied from cuda to the host on every iteration of the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: in this loop
  }
}

void syncInAStoredTask(const std::vector<torch::Tensor> &batches) {
  float total = 0;
  for (const torch::Tensor &batch : batches) {
    torch::Tensor loss = batch.to(torch::kCUDA).sum();
    StepTask log{[&] { total += loss.item<float>(); }};
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'loss' is copied from cuda to the host on every iteration of the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: in this loop
    log.run();
  }
}

struct LossMeter {
  float sum = 0;
  void add(const torch::Tensor &loss) { sum += loss.item<float>(); }
  // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: 'loss' is copied from cuda to the host on every iteration of the loop [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE+5]]:3: note: in this loop
};

float syncInAMethodEachStep(const std::vector<torch::Tensor> &batches) {
  LossMeter meter;
  for (const torch::Tensor &batch : batches)
    meter.add(batch.to(torch::kCUDA).sum());
  return meter.sum;
}

// Look-alike: the callback syncs host tensors.
void hostSyncInAForEachCallback(int steps) {
  float total = 0;
  for (int i = 0; i < steps; ++i) {
    std::array<torch::Tensor, 2> parts{torch::full({1}, i), torch::ones({1})};
    std::for_each(parts.begin(), parts.end(), [&](const torch::Tensor &part) { total += part.item<float>(); });
  }
}

// A round trip across the call: the loop moves the batch to the device and
// the helper moves it straight back.
torch::Tensor scoreOnTheHost(const torch::Tensor &batch) {
  return batch.to(torch::kCPU).sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'batch' is moved back to cpu right after it was moved to the device in 'device', on every iteration [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE+6]]:45: note: 'batch' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE+4]]:3: note: in this loop
}

void roundTripAcrossAHelper(torch::Device device, int steps) {
  for (int i = 0; i < steps; ++i) {
    torch::Tensor batch = torch::randn({8}).to(device);
    consume(scoreOnTheHost(batch));
  }
}

// Look-alike: the batch the helper is given was loaded on the host.
void helperGivenAHostBatch(int steps) {
  for (int i = 0; i < steps; ++i) {
    torch::Tensor batch = torch::randn({8});
    consume(scoreOnTheHost(batch));
  }
}

// A method that moves a field on every call, called once: moved once.
struct Inference {
  torch::Tensor mean = torch::ones({3});
  torch::Device device;
  explicit Inference(torch::Device d) : device(d) {}
  torch::Tensor run(const torch::Tensor &x) { return x - mean.to(device); }
  torch::Tensor runEach(const torch::Tensor &x) { return x - mean.to(device); }
  // CHECK-MESSAGES: :[[@LINE-1]]:67: warning: 'mean' is moved to the device in 'device' on every call of 'runEach' but does not change between calls [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE-2]]:17: note: move it once, where the object is made (or register it as a buffer)
};

void methodCalledOnce(torch::Device device, const torch::Tensor &x) {
  Inference model(device);
  consume(model.run(x.to(device)));
}

void methodCalledInALoop(torch::Device device, const std::vector<torch::Tensor> &batches) {
  Inference model(device);
  for (const torch::Tensor &batch : batches)
    consume(model.runEach(batch.to(device)));
}

// A field made on the host, moved to the device of the tensor a method is
// given (unknown in the method, the same field whatever it is), by a
// method another method calls once per call, itself called per frame: per
// frame too. Its look-alikes: the same chain reached once from an entry
// point; a field that moves with the object (already there).
torch::Tensor makeAnchors(int64_t n) { return torch::rand({n, 4}); }

class AnchorDecoder {
public:
  explicit AnchorDecoder(int64_t n) : anchors_(makeAnchors(n)) {}
  torch::Tensor predict(const torch::Tensor &features) { return decode(features * 2); }
  torch::Tensor predictOnce(const torch::Tensor &features) { return decodeOnce(features * 2); }

private:
  torch::Tensor decode(const torch::Tensor &deltas) const { return anchors_.to(deltas.device()) + deltas; }
  // CHECK-MESSAGES: :[[@LINE-1]]:77: warning: 'anchors_' is moved to the device of 'deltas' on every call of 'decode' but does not change between calls [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE-2]]:17: note: move it once, where the object is made (or register it as a buffer)
  torch::Tensor decodeOnce(const torch::Tensor &deltas) const { return anchors_.to(deltas.device()) + deltas; }
  torch::Tensor anchors_;
};

void framesThroughAMethodChain(torch::Device device, const std::vector<torch::Tensor> &frames) {
  AnchorDecoder decoder(16);
  for (const torch::Tensor &frame : frames)
    consume(decoder.predict(frame.to(device)));
}

torch::Tensor predictOnceFromAnEntry(torch::Device device, const torch::Tensor &frame) {
  AnchorDecoder decoder(16);
  return decoder.predictOnce(frame.to(device));
}

struct AnchorHead : torch::nn::Module {
  torch::Tensor anchors = register_buffer("anchors", torch::rand({16, 4}));
  torch::Tensor decode(const torch::Tensor &deltas) { return anchors.to(deltas.device()) + deltas; }
};

void framesThroughABuffer(torch::Device device, AnchorHead &head, const std::vector<torch::Tensor> &frames) {
  for (const torch::Tensor &frame : frames)
    consume(head.decode(frame.to(device)));
}

// The same tensor read through a getter lambda, or through a static member
// the loop sets from it at the top of each iteration.
void invariantThroughAGetter(torch::Device device, const std::vector<torch::Tensor> &batches) {
  torch::Tensor weights = torch::ones({3});
  for (const torch::Tensor &batch : batches) {
    auto heldWeights = [&] { return weights; };
    auto heldDevice = [&] { return device; };
    consume(batch.to(device) * heldWeights().to(heldDevice()));
    // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: 'heldWeights()' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: hoist the transfer before this loop
  }
}

struct HeldWeights {
  static inline std::optional<torch::Tensor> value;
};
struct HeldDevice {
  static inline std::optional<torch::Device> value;
};

void invariantThroughAStaticMember(torch::Device device, const std::vector<torch::Tensor> &batches) {
  torch::Tensor weights = torch::ones({3});
  for (const torch::Tensor &batch : batches) {
    HeldWeights::value = weights;
    HeldDevice::value = device;
    consume(batch.to(device) * HeldWeights::value.value().to(HeldDevice::value.value()));
    // CHECK-MESSAGES: :[[@LINE-1]]:59: warning: 'HeldWeights::value.value()' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: hoist the transfer before this loop
  }
}

// Look-alikes: the getter gives the batch; the static member is set from
// each batch, or only on some iterations.
void batchThroughAGetter(torch::Device device, const std::vector<torch::Tensor> &batches) {
  for (const torch::Tensor &batch : batches) {
    auto heldBatch = [&] { return batch; };
    consume(heldBatch().to(device));
  }
}

struct HeldBatch {
  static inline std::optional<torch::Tensor> value;
};

void batchThroughAStaticMember(torch::Device device, const std::vector<torch::Tensor> &batches) {
  for (const torch::Tensor &batch : batches) {
    HeldBatch::value = batch;
    consume(HeldBatch::value.value().to(device));
  }
}

void staticMemberSetOnSomeIterations(torch::Device device, const std::vector<torch::Tensor> &batches) {
  torch::Tensor weights = torch::ones({3});
  for (size_t step = 0; step < batches.size(); ++step) {
    if (step % 2 == 0)
      HeldBatch::value = weights;
    else
      HeldBatch::value = batches[step];
    consume(HeldBatch::value.value().to(device));
  }
}

// A helper taking a non-const reference it only reads (a common signature
// in training code) leaves the caller's tensor unchanged: the upload it
// makes each epoch is invariant.
torch::Tensor uploadRollout(torch::Tensor &observations, const torch::Device &device) {
  return observations.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'observations' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE+3]]:3: note: hoist the transfer before this loop
}
void epochsOverARollout(const torch::Device &device, torch::Tensor observations, int epochs) {
  for (int epoch = 0; epoch < epochs; ++epoch) {
    auto obs = uploadRollout(observations, device);
    consume(obs);
  }
}

// Its look-alike: the helper scales the rollout in place before the
// upload, so each epoch uploads new values.
torch::Tensor normaliseAndUpload(torch::Tensor &observations, const torch::Device &device) {
  observations.mul_(0.5);
  return observations.to(device);
}
void epochsNormalising(const torch::Device &device, torch::Tensor observations, int epochs) {
  for (int epoch = 0; epoch < epochs; ++epoch)
    consume(normaliseAndUpload(observations, device));
}

// A sync in a loop of the callee itself, on what the caller gives it: one
// copy to the host per iteration of the callee's loop (an element read
// with item() per sample), whoever calls it and however often. Reported
// where the caller's devices say the tensor is on a device, with the note
// at the callee's loop.
void countPerElement(std::vector<int64_t> &counts, const torch::Tensor &preds) {
  for (int64_t i = 0; i < preds.numel(); ++i)
    ++counts[preds[i].item<int64_t>()];
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'preds[i]' is copied from cuda to the host on every iteration of the loop [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: in this loop
}

void perElementSyncsOfEachBatch(const std::vector<torch::Tensor> &batches, std::vector<int64_t> &counts) {
  for (const torch::Tensor &batch : batches)
    countPerElement(counts, batch.to(torch::kCUDA).argmax(1));
}

// Look-alikes: the same helper given host tensors; a helper whose loop
// syncs only every hundredth element, or after an inner loop, or queues a
// non_blocking download.
void perElementReadsOfHostBatches(const std::vector<torch::Tensor> &batches, std::vector<int64_t> &counts) {
  for (const torch::Tensor &batch : batches)
    countPerElement(counts, batch.argmax(1));
}

void countEveryHundredth(std::vector<int64_t> &counts, const torch::Tensor &preds) {
  for (int64_t i = 0; i < preds.numel(); ++i)
    if (i % 100 == 0)
      ++counts[preds[i].item<int64_t>()];
}

void countAfterAnInnerLoop(std::vector<int64_t> &counts, const torch::Tensor &preds) {
  for (int64_t i = 0; i < preds.numel(); ++i) {
    torch::Tensor row = preds[i];
    for (int64_t j = 0; j < 4; ++j)
      row = row.add(preds[j]);
    ++counts[row.sum().item<int64_t>()];
  }
}

void gatherPerElementAsync(std::vector<torch::Tensor> &rows, const torch::Tensor &preds) {
  for (int64_t i = 0; i < preds.numel(); ++i)
    rows.push_back(preds[i].to(torch::kCPU, /*non_blocking=*/true));
}

void perElementLookAlikesOnTheDevice(const torch::Tensor &batch, std::vector<int64_t> &counts,
                                     std::vector<torch::Tensor> &rows) {
  torch::Tensor preds = batch.to(torch::kCUDA).argmax(1);
  countEveryHundredth(counts, preds);
  countAfterAnInnerLoop(counts, preds);
  gatherPerElementAsync(rows, preds);
}

// A sync in a function called in the loop of a function the caller calls
// once (a trainer's fit() calling a logger each step): every step of that
// loop, on the device the caller's tensor is on.
float lossValue(const torch::Tensor &loss) { return loss.item<float>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:58: warning: 'loss' is copied from cuda to the host on every iteration of the loop [placement-transfer-in-loop]

float fitSteps(const torch::Tensor &x, int steps) {
  float last = 0;
  for (int step = 0; step < steps; ++step)
    // CHECK-MESSAGES: :[[@LINE-1]]:3: note: in this loop
    last = lossValue((x * 2).sum());
  return last;
}

float fitOnTheDevice(int steps) { return fitSteps(torch::ones({4}, torch::kCUDA), steps); }

// Its look-alike: the same trainer given a host tensor.
float fitOnTheHost(int steps) { return fitSteps(torch::ones({4}), steps); }
