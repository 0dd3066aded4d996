// RUN: %check_placement %s placement-missing-device-guard %t -- -- -x cuda --cuda-host-only -nocudainc -nocudalib -Wno-unknown-cuda-version -include cuda_runtime.h %mock_includes
//
// Where the guard may be instead: in every caller of the launcher in the
// unit (a launcher used otherwise, e.g. bound by its address, has callers
// nobody sees), or around a lambda that launches (AT_DISPATCH's). A launcher
// taking no tensors is reported at the call, in the function taking tensors
// that gives it their data with no guard.
#include <torch/torch.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

__global__ void shift_kernel(float *out, const float *in, int64_t n) {}

void launchGuardedByCallers(at::Tensor output, const at::Tensor &input) {
  shift_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      output.data_ptr<float>(), input.data_ptr<float>(), input.numel());
}

at::Tensor shiftForward(const at::Tensor &input) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(input));
  at::Tensor output = torch::zeros({2}, input.options());
  launchGuardedByCallers(output, input);
  return output;
}

at::Tensor shiftTwice(const at::Tensor &input) {
  at::cuda::CUDAGuard device_guard(input.device());
  at::Tensor output = torch::zeros({2}, input.options());
  launchGuardedByCallers(output, input);
  launchGuardedByCallers(output, output);
  return output;
}

void launchWithOneUnguardedCaller(at::Tensor output, const at::Tensor &input) {
  shift_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), input.numel());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launched on the current CUDA device with no device guard on this path in 'launchWithOneUnguardedCaller'; with its tensors on another GPU it runs on the wrong device [placement-missing-device-guard]
  // CHECK-MESSAGES: :[[@LINE+11]]:3: note: 'launchWithOneUnguardedCaller' is called here with no device guard
  // CHECK-MESSAGES: :[[@LINE-4]]:46: note: a device guard set from the device of 'output' makes the work run where 'output' is
}

void guardedCaller(at::Tensor output, const at::Tensor &input) {
  at::cuda::CUDAGuard device_guard(input.device());
  launchWithOneUnguardedCaller(output, input);
}

void unguardedCaller(at::Tensor output, const at::Tensor &input) {
  TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
  launchWithOneUnguardedCaller(output, input);
}

// Guarded two calls up.
void launchGuardedTwoUp(at::Tensor output, const at::Tensor &input) {
  shift_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), input.numel());
}
void middle(at::Tensor output, const at::Tensor &input) { launchGuardedTwoUp(output, input); }
void top(at::Tensor output, const at::Tensor &input) {
  c10::OptionalDeviceGuard device_guard(device_of(input));
  middle(output, input);
}

// Bound by its address (as PYBIND11_MODULE's m.def does): called from
// anywhere, so it guards itself.
void launchBound(at::Tensor output, const at::Tensor &input) {
  shift_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), input.numel());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launched on the current CUDA device with no device guard on this path in 'launchBound'; with its tensors on another GPU it runs on the wrong device [placement-missing-device-guard]
  // CHECK-MESSAGES: :[[@LINE-3]]:29: note: a device guard set from the device of 'output' makes the work run where 'output' is
}
void registerOps(void (*&bound)(at::Tensor, const at::Tensor &), at::Tensor output,
                 const at::Tensor &input) {
  at::cuda::CUDAGuard device_guard(input.device());
  launchBound(output, input);
  bound = &launchBound;
}

// Launchers on raw pointers: judged where a function taking tensors calls them.
void rawShift(float *out, const float *in, int64_t n) {
  shift_kernel<<<1, 256>>>(out, in, n);
}

void rawShiftOnStream(float *out, const float *in, int64_t n, cudaStream_t stream) {
  shift_kernel<<<1, 256, 0, stream>>>(out, in, n);
}

void rawShiftThroughHelper(float *out, const float *in, int64_t n) { rawShift(out, in, n); }

void callsRawLauncherUnguarded(at::Tensor output, const at::Tensor &input) {
  rawShift(output.data_ptr<float>(), input.data_ptr<float>(), input.numel());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'rawShift' launches work on the current CUDA device with no device guard on this path in 'callsRawLauncherUnguarded'; with its tensors on another GPU it runs on the wrong device [placement-missing-device-guard]
  // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the work is launched here
  // CHECK-MESSAGES: :[[@LINE-4]]:43: note: a device guard set from the device of 'output' makes the work run where 'output' is
}

void callsRawLauncherGuarded(at::Tensor output, const at::Tensor &input) {
  at::cuda::CUDAGuard device_guard(input.device());
  rawShift(output.data_ptr<float>(), input.data_ptr<float>(), input.numel());
  rawShiftThroughHelper(output.data_ptr<float>(), input.data_ptr<float>(), input.numel());
}

// The stream passed in is taken here, where the guard is.
void callsRawLauncherWithStream(at::Tensor output, const at::Tensor &input) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(input));
  rawShiftOnStream(output.data_ptr<float>(), input.data_ptr<float>(), input.numel(),
                   at::cuda::getCurrentCUDAStream());
}

void lambdaUnderGuard(at::Tensor output, const at::Tensor &input) {
  at::cuda::CUDAGuard device_guard(input.device());
  auto launch = [&] {
    shift_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), input.numel());
  };
  launch();
}

void guardInsideLambda(at::Tensor output, const at::Tensor &input) {
  [&] {
    at::cuda::CUDAGuard device_guard(input.device());
    shift_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), input.numel());
  }();
}

void lambdaWithoutGuard(at::Tensor output, const at::Tensor &input) {
  [&] {
    shift_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), input.numel());
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: kernel launched on the current CUDA device with no device guard on this path in 'lambdaWithoutGuard'; with its tensors on another GPU it runs on the wrong device [placement-missing-device-guard]
    // CHECK-MESSAGES: :[[@LINE-4]]:36: note: a device guard set from the device of 'output' makes the work run where 'output' is
  }();
}

// Takes no tensors: nothing to set a guard from.
void noTensors(float *out, const float *in, int64_t n) {
  shift_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(out, in, n);
}

// Its call of itself is no caller: the call from outside is guarded.
void launchRecursively(at::Tensor output, const at::Tensor &input, int depth) {
  if (depth > 0)
    launchRecursively(output, input, depth - 1);
  shift_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), input.numel());
}
void callsRecursiveLauncher(at::Tensor output, const at::Tensor &input) {
  at::cuda::CUDAGuard device_guard(input.device());
  launchRecursively(output, input, 2);
}
