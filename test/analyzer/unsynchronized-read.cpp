// RUN: %check_placement %s placement-unsynchronized-read %t -compile-fixed -- -- %mock_includes
//
// A non_blocking download returns at once; its host tensor holds the values
// only after a synchronisation. Each program with the bug is followed by its
// correct look-alike.
#include <torch/torch.h>
#include <c10/cuda/CUDAGuard.h>
#include <iostream>
#include <vector>

void consume(float v);
void log_metrics(const torch::Tensor &t);

struct Net : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor &x);
};

// Evaluation copies the logits back without blocking, then reads them.
void evaluateReadsLogitsAtOnce(Net &model, const torch::Tensor &batch) {
  torch::Tensor logits = model.forward(batch.to(torch::kCUDA));
  torch::Tensor host = logits.to(torch::kCPU, /*non_blocking=*/true);
  float best = host.max().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'host' is read on the host before the non_blocking copy that fills it is synchronized; it may hold stale or partial values [placement-unsynchronized-read]
  // CHECK-MESSAGES: :[[@LINE-3]]:31: note: copied here with non_blocking=true; synchronize before reading it
  // CHECK-FIXES: {{^}}  torch::cuda::synchronize();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  float best = host.max().item<float>();{{$}}
  consume(best);
}

void evaluateSynchronizesFirst(Net &model, const torch::Tensor &batch) {
  torch::Tensor logits = model.forward(batch.to(torch::kCUDA));
  torch::Tensor host = logits.to(torch::kCPU, /*non_blocking=*/true);
  torch::cuda::synchronize(); // the copy has landed
  float best = host.max().item<float>();
  consume(best);
}

// The stream the copy ran on is synchronised: as good.
void streamSynchronized(const torch::Tensor &batch) {
  torch::Tensor scores = batch.to(torch::kCUDA).softmax(1);
  torch::Tensor host = scores.to(torch::kCPU, true);
  at::cuda::getCurrentCUDAStream().synchronize();
  log_metrics(host);
}

// Printing and passing to a helper read the values too; its sizes do not.
void printedBeforeSync(torch::Device device, const torch::Tensor &batch) {
  torch::Tensor loss = (batch.to(device) * 2).mean();
  torch::Tensor host = loss.to(torch::kCPU, true);
  std::cout << host.sizes() << "\n";
  std::cout << host << "\n";
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'host' is read on the host before the non_blocking copy that fills it is synchronized; it may hold stale or partial values [placement-unsynchronized-read]
  // CHECK-MESSAGES: :[[@LINE-4]]:29: note: copied here with non_blocking=true; synchronize before reading it
  log_metrics(host);
}

// A blocking op on the device in between (item() of a device tensor) waits
// for the queued copy.
void itemOfADeviceTensorWaits(const torch::Tensor &batch) {
  torch::Tensor d = batch.to(torch::kCUDA) * 2;
  torch::Tensor host = d.to(torch::kCPU, true);
  float total = d.sum().item<float>();
  log_metrics(host + total);
}

// A blocking download is complete when it returns.
void blockingDownload(const torch::Tensor &batch) {
  torch::Tensor d = batch.to(torch::kCUDA) * 2;
  torch::Tensor host = d.to(torch::kCPU);
  consume(host.item<float>());
}

// The host buffer filled in place by copy_ is read before the copy lands.
void copyIntoPinnedBuffer(const torch::Tensor &batch) {
  torch::Tensor staging = torch::empty({64}, torch::TensorOptions().pinned_memory(true));
  torch::Tensor d = batch.to(torch::kCUDA) * 2;
  staging.copy_(d, /*non_blocking=*/true);
  log_metrics(staging);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'staging' is read on the host before the non_blocking copy that fills it is synchronized; it may hold stale or partial values [placement-unsynchronized-read]
  // CHECK-MESSAGES: :[[@LINE-3]]:11: note: copied here with non_blocking=true; synchronize before reading it
  // CHECK-FIXES: {{^}}  torch::cuda::synchronize();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  log_metrics(staging);{{$}}
}

void copyIntoPinnedBufferThenSynchronize(const torch::Tensor &batch) {
  torch::Tensor staging = torch::empty({64}, torch::TensorOptions().pinned_memory(true));
  torch::Tensor d = batch.to(torch::kCUDA) * 2;
  staging.copy_(d, /*non_blocking=*/true);
  torch::cuda::synchronize(); // the copy has landed
  log_metrics(staging);
}

// A blocking copy_ from the device into a host tensor waits for the work
// queued before it, the non_blocking download included.
void blockingCopyIntoHostWaits(const torch::Tensor &batch) {
  torch::Tensor d = batch.to(torch::kCUDA) * 2;
  torch::Tensor host = d.to(torch::kCPU, /*non_blocking=*/true);
  torch::Tensor summary = torch::empty({1});
  summary.copy_(d.sum());
  log_metrics(host + summary);
}

// ...but a blocking copy_ between host tensors waits for nothing.
void hostCopyDoesNotWait(const torch::Tensor &batch) {
  torch::Tensor d = batch.to(torch::kCUDA) * 2;
  torch::Tensor host = d.to(torch::kCPU, /*non_blocking=*/true);
  torch::Tensor scratch = torch::empty({64});
  scratch.copy_(torch::ones({64}));
  log_metrics(host);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'host' is read on the host before the non_blocking copy that fills it is synchronized; it may hold stale or partial values [placement-unsynchronized-read]
  // CHECK-MESSAGES: :[[@LINE-5]]:26: note: copied here with non_blocking=true; synchronize before reading it
  // CHECK-FIXES: {{^}}  torch::cuda::synchronize();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  log_metrics(host);{{$}}
}

// Synchronised only where the device is CUDA: elsewhere the device is the
// host, the download copied a host tensor and queued nothing.
void synchronizedWhenOnCuda(const torch::Tensor &batch, bool gpu) {
  const torch::Device device = gpu ? torch::kCUDA : torch::kCPU;
  torch::Tensor d = batch.to(device) * 2;
  torch::Tensor host = d.to(torch::kCPU, /*non_blocking=*/true);
  if (device.is_cuda()) torch::cuda::synchronize();
  log_metrics(host);
  torch::Tensor again = d.to(torch::kCPU, /*non_blocking=*/true);
  if (d.is_cuda()) torch::cuda::synchronize();
  log_metrics(again);
}

// Synchronised only where CUDA is there: where it is not, no download came
// from it. The test the other way round waits only where nothing is queued.
void synchronizedWhenCudaIsThere(const torch::Tensor &batch, torch::Device device) {
  torch::Tensor d = batch.to(device) * 2;
  torch::Tensor host = d.to(torch::kCPU, /*non_blocking=*/true);
  if (torch::cuda::is_available()) torch::cuda::synchronize();
  log_metrics(host);
}
void synchronizedWhenCudaIsNotThere(const torch::Tensor &batch, torch::Device device) {
  torch::Tensor d = batch.to(device) * 2;
  torch::Tensor host = d.to(torch::kCPU, /*non_blocking=*/true);
  if (!torch::cuda::is_available()) torch::cuda::synchronize();
  log_metrics(host);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'host' is read on the host before the non_blocking copy that fills it is synchronized; it may hold stale or partial values [placement-unsynchronized-read]
  // CHECK-MESSAGES: :[[@LINE-4]]:26: note: copied here with non_blocking=true; synchronize before reading it
}

// ...but not when the test is the other way round, or the read is on the
// CUDA edge before the synchronisation.
void synchronizedWhenNotOnCuda(const torch::Tensor &batch, bool gpu) {
  const torch::Device device = gpu ? torch::kCUDA : torch::kCPU;
  torch::Tensor d = batch.to(device) * 2;
  torch::Tensor host = d.to(torch::kCPU, /*non_blocking=*/true);
  if (!device.is_cuda()) torch::cuda::synchronize();
  log_metrics(host);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'host' is read on the host before the non_blocking copy that fills it is synchronized; it may hold stale or partial values [placement-unsynchronized-read]
  // CHECK-MESSAGES: :[[@LINE-4]]:26: note: copied here with non_blocking=true; synchronize before reading it
  torch::Tensor again = d.to(torch::kCPU, /*non_blocking=*/true);
  if (device.is_cuda())
    log_metrics(again);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'again' is read on the host before the non_blocking copy that fills it is synchronized; it may hold stale or partial values [placement-unsynchronized-read]
  // CHECK-MESSAGES: :[[@LINE-4]]:27: note: copied here with non_blocking=true; synchronize before reading it
}

// Predictions gathered without blocking into a list, concatenated on the
// host before anything waited for them.
torch::Tensor queueDownload(const torch::Tensor &t) { return t.to(torch::kCPU, /*non_blocking=*/true); }

torch::Tensor gatheredThenConcatenated(const std::vector<torch::Tensor> &batches) {
  std::vector<torch::Tensor> predictions;
  for (const torch::Tensor &batch : batches)
    predictions.push_back(queueDownload(batch.to(torch::kCUDA).relu()));
  return torch::cat(predictions);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'predictions' is read on the host before the non_blocking copy that fills it is synchronized; it may hold stale or partial values [placement-unsynchronized-read]
  // CHECK-MESSAGES: :[[@LINE-8]]:64: note: copied here with non_blocking=true; synchronize before reading it
}

// ...and its look-alikes: synchronised after the loop, or where the device
// is CUDA.
// Downloads into the elements of a list of pinned buffers: writing an
// element reads nothing.
void snapshotIntoPinnedList(const std::vector<torch::Tensor> &shadow,
                            std::vector<torch::Tensor> &pinned) {
  for (size_t i = 0; i < shadow.size(); ++i)
    pinned[i].copy_(shadow[i], /*non_blocking=*/true);
  torch::cuda::synchronize(); // the snapshot has landed
  log_metrics(torch::cat(pinned));
}

torch::Tensor gatheredSynchronizedConcatenated(const std::vector<torch::Tensor> &batches) {
  std::vector<torch::Tensor> predictions;
  for (const torch::Tensor &batch : batches)
    predictions.push_back(queueDownload(batch.to(torch::kCUDA).relu()));
  torch::cuda::synchronize(); // every prediction has landed
  return torch::cat(predictions);
}

torch::Tensor gatheredOnEitherDevice(const std::vector<torch::Tensor> &batches, bool gpu) {
  const torch::Device device = gpu ? torch::kCUDA : torch::kCPU;
  std::vector<torch::Tensor> predictions;
  for (const torch::Tensor &batch : batches)
    predictions.push_back(queueDownload(batch.to(device).relu()));
  if (device.is_cuda()) torch::cuda::synchronize();
  return torch::cat(predictions);
}

// In a training loop: the loss of each step is downloaded without blocking
// and logged at once.
void trainingLoopLogsEachLoss(Net &model, const std::vector<torch::Tensor> &batches) {
  std::vector<float> history;
  for (const torch::Tensor &batch : batches) {
    torch::Tensor loss = model.forward(batch.to(torch::kCUDA)).mean();
    torch::Tensor host = loss.detach().to(torch::kCPU, true);
    history.push_back(host.item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'host' is read on the host before the non_blocking copy that fills it is synchronized; it may hold stale or partial values [placement-unsynchronized-read]
    // CHECK-MESSAGES: :[[@LINE-3]]:40: note: copied here with non_blocking=true; synchronize before reading it
    // CHECK-FIXES: {{^}}    torch::cuda::synchronize();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    history.push_back(host.item<float>());{{$}}
  }
}

// ...and its look-alike synchronises once per step before reading.
void trainingLoopSynchronizesEachStep(Net &model, const std::vector<torch::Tensor> &batches) {
  std::vector<float> history;
  for (const torch::Tensor &batch : batches) {
    torch::Tensor loss = model.forward(batch.to(torch::kCUDA)).mean();
    torch::Tensor host = loss.detach().to(torch::kCPU, true);
    torch::cuda::synchronize();
    history.push_back(host.item<float>());
  }
}

// A download of a host tensor copies nothing.
void hostTensorNonBlocking(const torch::Tensor &batch) {
  torch::Tensor h = torch::ones({4});
  torch::Tensor same = h.to(torch::kCPU, true);
  consume(same.sum().item<float>());
}

// Keeping the downloaded tensor (a handle copy into a map or a field) reads
// none of its values; reading it later, before a synchronisation, does.
void keepsTheDownloadForLater(const torch::Tensor &batch, std::vector<torch::Tensor> &kept) {
  torch::Tensor host = batch.to(torch::kCUDA).relu().to(torch::kCPU, /*non_blocking=*/true);
  torch::Tensor alias;
  alias = host;
  kept.push_back(alias);
}

// Sent back to a device: the upload is queued on the stream behind the
// download that fills the host tensor, so the host reads none of it.
void swapsBackIn(const torch::Tensor &batch, torch::Tensor &onDevice) {
  torch::Tensor host = batch.to(torch::kCUDA).relu().to(torch::kCPU, /*non_blocking=*/true);
  onDevice = host.to(torch::kCUDA, /*non_blocking=*/true);
}

// A synchronisation on one path only (a profiling branch) leaves the copy
// pending on the other: the read after the join is reported.
void synchronizedOnlyWhenProfiling(const torch::Tensor &batch, bool profiling) {
  torch::Tensor host = (batch.to(torch::kCUDA) * 2).to(torch::kCPU, /*non_blocking=*/true);
  if (profiling)
    torch::cuda::synchronize();
  log_metrics(host);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'host' is read on the host before the non_blocking copy that fills it is synchronized; it may hold stale or partial values [placement-unsynchronized-read]
  // CHECK-MESSAGES: :[[@LINE-5]]:53: note: copied here with non_blocking=true; synchronize before reading it
  // CHECK-FIXES: {{^}}  if (profiling){{$}}
  // CHECK-FIXES-NEXT: {{^}}    torch::cuda::synchronize();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  torch::cuda::synchronize();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  log_metrics(host);{{$}}
}

void synchronizedOnEveryPath(const torch::Tensor &batch, bool profiling) {
  torch::Tensor host = (batch.to(torch::kCUDA) * 2).to(torch::kCPU, /*non_blocking=*/true);
  if (profiling) {
    torch::cuda::synchronize();
    consume(1.0f);
  } else {
    at::cuda::getCurrentCUDAStream().synchronize();
  }
  log_metrics(host);
}

// A helper that queues the download and returns at once: its caller reads
// a pending copy. One that synchronises before returning, or a call of a
// helper that waits for the device, completes it.
torch::Tensor toHostAsync(const torch::Tensor &t) {
  return t.detach().to(torch::kCPU, /*non_blocking=*/true);
}

torch::Tensor toHostAndWait(const torch::Tensor &t) {
  torch::Tensor host = t.detach().to(torch::kCPU, /*non_blocking=*/true);
  torch::cuda::synchronize();
  return host;
}

void waitForTheDevice() { torch::cuda::synchronize(); }

void readsWhatAHelperQueued(const torch::Tensor &batch) {
  torch::Tensor host = toHostAsync(batch.to(torch::kCUDA) * 2);
  log_metrics(host);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'host' is read on the host before the non_blocking copy that fills it is synchronized; it may hold stale or partial values [placement-unsynchronized-read]
  // CHECK-MESSAGES: :[[@LINE-15]]:21: note: copied here with non_blocking=true; synchronize before reading it
}

void readsWhatAHelperWaitedFor(const torch::Tensor &batch) {
  torch::Tensor host = toHostAndWait(batch.to(torch::kCUDA) * 2);
  log_metrics(host);
}

void readsAfterAHelperWaits(const torch::Tensor &batch) {
  torch::Tensor host = (batch.to(torch::kCUDA) * 2).to(torch::kCPU, /*non_blocking=*/true);
  waitForTheDevice();
  log_metrics(host);
}

// The pending copy handed to a helper that reads it: the read is in the
// helper, where the finding points; a helper given it after the
// synchronisation, or one that only keeps or re-uploads it, reads nothing
// early.
float firstValue(const torch::Tensor &host) { return host.data_ptr<float>()[0]; }
void keepForLater(std::vector<torch::Tensor> &kept, const torch::Tensor &host) { kept.push_back(host); }

void helperReadsThePendingCopy(const torch::Tensor &batch) {
  torch::Tensor host = (batch.to(torch::kCUDA) * 2).to(torch::kCPU, /*non_blocking=*/true);
  // CHECK-MESSAGES: :[[@LINE-5]]:54: warning: 'host' is read on the host before the non_blocking copy that fills it is synchronized; it may hold stale or partial values [placement-unsynchronized-read]
  // CHECK-MESSAGES: :[[@LINE-2]]:53: note: copied here with non_blocking=true; synchronize before reading it
  consume(firstValue(host));
}

void helperReadsAfterTheSynchronisation(const torch::Tensor &batch, std::vector<torch::Tensor> &kept) {
  torch::Tensor host = (batch.to(torch::kCUDA) * 2).to(torch::kCPU, /*non_blocking=*/true);
  keepForLater(kept, host);
  torch::cuda::synchronize();
  consume(firstValue(host));
}

// A download queued on a side stream under a stream guard: the current
// stream's synchronize() outside the guard waits for other work, not for
// it; the side stream's own, the current one's inside the guard, or a
// device-wide synchronize() complete it.
void snapshotOnSideStreamOtherStreamSynchronized(const torch::Tensor &weights) {
  at::cuda::CUDAStream side = at::cuda::getStreamFromPool();
  torch::Tensor snapshot;
  {
    at::cuda::CUDAStreamGuard onSide(side);
    snapshot = weights.to(torch::kCPU, /*non_blocking=*/true);
  }
  at::cuda::getCurrentCUDAStream().synchronize();
  log_metrics(snapshot);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'snapshot' is read on the host before the non_blocking copy that fills it is synchronized; it may hold stale or partial values [placement-unsynchronized-read]
  // CHECK-MESSAGES: :[[@LINE-5]]:24: note: copied here with non_blocking=true; synchronize before reading it
}

void snapshotOnSideStreamSynchronized(const torch::Tensor &weights) {
  at::cuda::CUDAStream side = at::cuda::getStreamFromPool();
  torch::Tensor snapshot;
  {
    at::cuda::CUDAStreamGuard onSide(side);
    snapshot = weights.to(torch::kCPU, /*non_blocking=*/true);
  }
  side.synchronize();
  log_metrics(snapshot);
}

void snapshotOnSideStreamCurrentSynchronizedInside(const torch::Tensor &weights) {
  at::cuda::CUDAStream side = at::cuda::getStreamFromPool();
  torch::Tensor snapshot;
  {
    at::cuda::CUDAStreamGuard onSide(side);
    snapshot = weights.to(torch::kCPU, /*non_blocking=*/true);
    at::cuda::getCurrentCUDAStream().synchronize();
  }
  log_metrics(snapshot);
}
