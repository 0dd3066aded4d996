// RUN: %check_placement %s placement-unguarded-cuda %t -- -- %mock_includes
// RUN: %check_placement -check-suffix=USER %s placement-unguarded-cuda %t -- \
// RUN:   -config="{CheckOptions: {AvailabilityChecks: 'has_gpu;::gpus'}}" -- %mock_includes
//
// How many devices a check ensures is compared with the index asked for:
// is_available() ensures one, device_count() > 1 two. A helper of this file
// is guarded when every call of it is. The user's own checks count when
// listed in AvailabilityChecks.
#include <torch/torch.h>
#include <algorithm>
#include <functional>
#include <vector>
void consume(const torch::Tensor &t);
bool has_gpu();
int gpus();

// Counts and indices.
void secondGpuUnderIsAvailable(torch::Tensor x) {
  if (torch::cuda::is_available())
    consume(x.to(torch::Device(torch::kCUDA, 1)));
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: cuda:1 is requested where the checks on this path ensure only 1 CUDA device; the program fails on a machine with fewer than 2 GPUs; compare cuda::device_count() with the index [placement-unguarded-cuda]
  // CHECK-MESSAGES-USER: :[[@LINE-2]]:32: warning: cuda:1 is requested where the checks on this path ensure only 1 CUDA device; the program fails on a machine with fewer than 2 GPUs; compare cuda::device_count() with the index [placement-unguarded-cuda]
}
void fourthGpuUnderTwo(torch::Tensor x) {
  if (torch::cuda::device_count() > 1)
    consume(x.to(torch::Device("cuda:3")));
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: cuda:3 is requested where the checks on this path ensure only 2 CUDA devices; the program fails on a machine with fewer than 4 GPUs; compare cuda::device_count() with the index [placement-unguarded-cuda]
  // CHECK-MESSAGES-USER: :[[@LINE-2]]:32: warning: cuda:3 is requested where the checks on this path ensure only 2 CUDA devices; the program fails on a machine with fewer than 4 GPUs; compare cuda::device_count() with the index [placement-unguarded-cuda]
}
void secondGpuUnderTwo(torch::Tensor x) {
  if (torch::cuda::device_count() >= 2)
    consume(x.to(torch::Device(torch::kCUDA, 1)));
}
void everyGpuInALoop(torch::Tensor x) {
  for (int i = 0; i < torch::cuda::device_count(); ++i)
    consume(x.to(torch::Device(torch::kCUDA, i)));
}
void countInAVariable(torch::Tensor x) {
  const auto gpuCount = torch::cuda::device_count();
  if (gpuCount < 2)
    return;
  consume(x.to(torch::Device(torch::kCUDA, 1)));
}
void eitherCheckFails(torch::Tensor x) {
  if (!torch::cuda::is_available() || torch::cuda::device_count() < 2)
    throw std::runtime_error("needs two GPUs");
  consume(x.to(torch::Device(torch::kCUDA, 1)));
}
void comparedWithFalse(torch::Tensor x) {
  if (torch::cuda::is_available() == false)
    return;
  consume(x.cuda());
}
// A flag changed after the check no longer says CUDA is there.
void flagOverridden(torch::Tensor x, bool force) {
  bool useGpu = torch::cuda::is_available();
  if (force)
    useGpu = true;
  if (useGpu)
    consume(x.cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES-USER: :[[@LINE-2]]:15: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
}

// Helpers and their callers.
void uploadChecked(torch::Tensor x) { consume(x.cuda()); }
void runChecked(torch::Tensor x) {
  if (torch::cuda::is_available())
    uploadChecked(x);
}
void uploadSometimes(torch::Tensor x) { consume(x.cuda()); }
// CHECK-MESSAGES: :[[@LINE-1]]:51: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
// CHECK-MESSAGES-USER: :[[@LINE-2]]:51: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
// CHECK-MESSAGES: :[[@LINE+6]]:5: note: 'uploadSometimes' is called here with no availability check
// CHECK-MESSAGES-USER: :[[@LINE+5]]:5: note: 'uploadSometimes' is called here with no availability check
void runSometimes(torch::Tensor x, bool quick) {
  if (torch::cuda::is_available())
    uploadSometimes(x);
  if (quick)
    uploadSometimes(x);
}
// Never called here: another file may call it without a check.
void uploadExported(torch::Tensor x) { consume(x.cuda()); }
// CHECK-MESSAGES: :[[@LINE-1]]:50: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
// CHECK-MESSAGES-USER: :[[@LINE-2]]:50: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
// Handed out as a callback: its callers are unknown.
void uploadCallback(torch::Tensor x) { consume(x.cuda()); }
// CHECK-MESSAGES: :[[@LINE-1]]:50: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
// CHECK-MESSAGES-USER: :[[@LINE-2]]:50: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
void registerCallback(std::function<void(torch::Tensor)> callback);
void runCallback(torch::Tensor x) {
  if (torch::cuda::is_available())
    uploadCallback(x);
  registerCallback(uploadCallback);
}
// A class whose constructor and method ask for CUDA, used under a check.
struct Trainer {
  torch::nn::Linear model{4, 2};
  Trainer() { model->to(torch::kCUDA); }
  void upload(torch::Tensor x) { consume(x.cuda()); }
};
void train(torch::Tensor x) {
  if (!torch::cuda::is_available())
    return;
  Trainer trainer;
  trainer.upload(x);
}
// Two levels up; the second GPU needs a count.
void placeOnSecond(torch::Tensor x) { consume(x.to(torch::Device(torch::kCUDA, 1))); }
// CHECK-MESSAGES: :[[@LINE-1]]:66: warning: cuda:1 is requested where the checks on this path ensure only 1 CUDA device; the program fails on a machine with fewer than 2 GPUs; compare cuda::device_count() with the index [placement-unguarded-cuda]
// CHECK-MESSAGES-USER: :[[@LINE-2]]:66: warning: cuda:1 is requested where the checks on this path ensure only 1 CUDA device; the program fails on a machine with fewer than 2 GPUs; compare cuda::device_count() with the index [placement-unguarded-cuda]
// CHECK-MESSAGES: :[[@LINE+5]]:3: note: 'placeOnSecond' is called here where the checks ensure only 1 CUDA device
// CHECK-MESSAGES-USER: :[[@LINE+4]]:3: note: 'placeOnSecond' is called here where the checks ensure only 1 CUDA device
void placeOnFirst(torch::Tensor x) { consume(x.to(torch::kCUDA)); }
void place(torch::Tensor x) {
  placeOnFirst(x);
  placeOnSecond(x);
}
int main() {
  torch::Tensor x = torch::ones({2});
  if (torch::cuda::is_available())
    place(x);
}

// A helper that asks for CUDA only when its caller says so: a call that
// passes false (or leaves the default) runs nothing that needs a GPU.
torch::Tensor prepare(const torch::Tensor &x, bool use_gpu = false) {
  if (use_gpu)
    return x.cuda();
  return x;
}

void prepareOnTheHostOrUnderACheck(const torch::Tensor &x) {
  consume(prepare(x, false));
  consume(prepare(x));
  if (torch::cuda::is_available())
    consume(prepare(x, true));
}

torch::Tensor load(const torch::Tensor &x, bool to_gpu) {
  if (!to_gpu)
    return x;
  return x.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES: :[[@LINE+7]]:11: note: 'load' is called here with no availability check
  // CHECK-MESSAGES-USER: :[[@LINE-3]]:12: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES-USER: :[[@LINE+5]]:11: note: 'load' is called here with no availability check
}

void loadWithTrueUnchecked(const torch::Tensor &x) {
  consume(load(x, false));
  consume(load(x, true));
}

// Called with false only: the request never runs in this file.
void uploadOnRequest(torch::Tensor &t, bool upload) {
  if (upload)
    t = t.cuda();
}

void neverUploads(torch::Tensor &t) {
  uploadOnRequest(t, false);
  uploadOnRequest(t, /*upload=*/false);
}

// Where the caller's options or tensor already are on CUDA, moving there
// asks for nothing the caller has not got.
void placeLikeTheOptions(torch::nn::Linear &layer, const torch::TensorOptions &options) {
  if (options.device() == torch::kCUDA)
    layer->to(torch::kCUDA);
}

void placeLikeTheInput(const torch::Tensor &input, torch::Tensor &weights) {
  if (input.is_cuda())
    weights = weights.cuda();
}

// A device the function made itself proves nothing.
void compareOwnDevice(torch::Tensor &weights) {
  torch::Device own(torch::kCPU);
  if (own == torch::kCUDA)
    weights = weights.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES-USER: :[[@LINE-2]]:23: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
}

// The user's own checks (AvailabilityChecks: has_gpu, ::gpus).
void userFlag(torch::Tensor x) {
  if (has_gpu())
    consume(x.cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
}
void userCount(torch::Tensor x) {
  if (gpus() > 1)
    consume(x.to(torch::Device(torch::kCUDA, 1)));
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
}

// A helper taking the caller's flag (`if (use_cuda)` on a `bool` or a
// `const bool&` parameter): guarded where every caller passes a flag it set
// from an availability check, here two levels up.
void moveBatch(const bool &use_cuda, torch::Tensor &batch) {
  if (use_cuda)
    batch = batch.to(torch::kCUDA);
}
void prepareBatch(const bool &use_cuda, torch::Tensor &batch) { moveBatch(use_cuda, batch); }
void trainWithFlag(bool force_cpu) {
  const bool use_cuda = !force_cpu && torch::cuda::is_available();
  torch::Tensor batch = torch::ones({4});
  prepareBatch(use_cuda, batch);
  consume(batch);
}

// Its look-alike, a bug: the flag passed on is the user's wish alone.
void moveIfAsked(bool want_gpu, torch::Tensor &batch) {
  if (want_gpu)
    batch = batch.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES: :[[@LINE+6]]:3: note: 'moveIfAsked' is called here with no availability check
  // CHECK-MESSAGES-USER: :[[@LINE-3]]:19: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES-USER: :[[@LINE+4]]:3: note: 'moveIfAsked' is called here with no availability check
}
void trainAsked(bool want_gpu) {
  torch::Tensor batch = torch::ones({4});
  moveIfAsked(want_gpu, batch);
  consume(batch);
}
int runAsked(int argc) {
  trainAsked(argc > 1);
  return 0;
}

// A helper called from a lambda runs where the lambda is written: under the
// check for runBatches, outside every check for runBatchesUnchecked.
void uploadBatch(torch::Tensor &batch) { batch = batch.to(torch::kCUDA); }
void runBatches(std::vector<torch::Tensor> &batches) {
  if (!torch::cuda::is_available())
    return;
  std::for_each(batches.begin(), batches.end(), [&](torch::Tensor &b) { uploadBatch(b); });
}
void uploadOther(torch::Tensor &batch) { batch = batch.to(torch::kCUDA); }
// CHECK-MESSAGES: :[[@LINE-1]]:59: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
// CHECK-MESSAGES: :[[@LINE+4]]:73: note: 'uploadOther' is called here with no availability check
// CHECK-MESSAGES-USER: :[[@LINE-3]]:59: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
// CHECK-MESSAGES-USER: :[[@LINE+2]]:73: note: 'uploadOther' is called here with no availability check
void runBatchesUnchecked(std::vector<torch::Tensor> &batches) {
  std::for_each(batches.begin(), batches.end(), [&](torch::Tensor &b) { uploadOther(b); });
}

// A flag kept in a field, set by the constructor or an aggregate's
// initialisation: judged by what the object's construction passes.
struct Uploader {
  bool use_cuda;
  explicit Uploader(bool use_cuda_value) : use_cuda(use_cuda_value) {}
  void upload(torch::Tensor &batch) {
    if (use_cuda)
      batch = batch.cuda();
  }
};
void uploadWithCheckedFlag(torch::Tensor &batch) {
  const bool use_cuda = torch::cuda::is_available();
  Uploader uploader(use_cuda);
  uploader.upload(batch);
}
struct WishfulUploader {
  bool use_cuda;
  void upload(torch::Tensor &batch) {
    if (use_cuda)
      batch = batch.cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
    // CHECK-MESSAGES: :[[@LINE+7]]:12: note: 'upload' is called here with no availability check
    // CHECK-MESSAGES-USER: :[[@LINE-3]]:21: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
    // CHECK-MESSAGES-USER: :[[@LINE+5]]:12: note: 'upload' is called here with no availability check
  }
};
void uploadAsAsked(torch::Tensor &batch, bool want_gpu) {
  WishfulUploader uploader{want_gpu};
  uploader.upload(batch);
}

// One bug, one report across functions: a constructor that asks for cuda:1
// on every path has thrown on a machine with one GPU before the caller's
// own request of cuda:1 runs; that request is not a second finding.
struct SplitNetImpl : torch::nn::Module {
  SplitNetImpl() : head(register_module("head", torch::nn::Linear(4, 4))) {
    head->to(torch::Device(torch::kCUDA, 1));
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: cuda:1 is requested where the checks on this path ensure only 1 CUDA device; the program fails on a machine with fewer than 2 GPUs; compare cuda::device_count() with the index [placement-unguarded-cuda]
    // CHECK-MESSAGES: :[[@LINE+11]]:12: note: 'SplitNet' is called here where the checks ensure only 1 CUDA device
    // CHECK-MESSAGES-USER: :[[@LINE-3]]:28: warning: cuda:1 is requested where the checks on this path ensure only 1 CUDA device; the program fails on a machine with fewer than 2 GPUs; compare cuda::device_count() with the index [placement-unguarded-cuda]
    // CHECK-MESSAGES-USER: :[[@LINE+9]]:12: note: 'SplitNet' is called here where the checks ensure only 1 CUDA device
  }
  torch::Tensor forward(const torch::Tensor &x) { return head(x); }
  torch::nn::Linear head;
};
TORCH_MODULE(SplitNet);
int runSplit() {
  if (!torch::cuda::is_available())
    return 0;
  SplitNet net;
  consume(torch::ones({4}).to(torch::Device(torch::kCUDA, 1)));
  return 0;
}
// Its look-alike: the helper asking for cuda:1 runs on some paths only, so
// the caller's request is a failure of its own on the others.
void placeHead(torch::nn::Linear &head) { head->to(torch::Device(torch::kCUDA, 1)); }
// CHECK-MESSAGES: :[[@LINE-1]]:66: warning: cuda:1 is requested where the checks on this path ensure only 1 CUDA device; the program fails on a machine with fewer than 2 GPUs; compare cuda::device_count() with the index [placement-unguarded-cuda]
// CHECK-MESSAGES: :[[@LINE+8]]:5: note: 'placeHead' is called here where the checks ensure only 1 CUDA device
// CHECK-MESSAGES-USER: :[[@LINE-3]]:66: warning: cuda:1 is requested where the checks on this path ensure only 1 CUDA device; the program fails on a machine with fewer than 2 GPUs; compare cuda::device_count() with the index [placement-unguarded-cuda]
// CHECK-MESSAGES-USER: :[[@LINE+6]]:5: note: 'placeHead' is called here where the checks ensure only 1 CUDA device
int runMaybeSplit(bool split) {
  if (!torch::cuda::is_available())
    return 0;
  torch::nn::Linear head(4, 4);
  if (split)
    placeHead(head);
  consume(torch::ones({4}).to(torch::Device(torch::kCUDA, 1)));
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: cuda:1 is requested where the checks on this path ensure only 1 CUDA device; the program fails on a machine with fewer than 2 GPUs; compare cuda::device_count() with the index [placement-unguarded-cuda]
  // CHECK-MESSAGES-USER: :[[@LINE-2]]:45: warning: cuda:1 is requested where the checks on this path ensure only 1 CUDA device; the program fails on a machine with fewer than 2 GPUs; compare cuda::device_count() with the index [placement-unguarded-cuda]
  return 0;
}
