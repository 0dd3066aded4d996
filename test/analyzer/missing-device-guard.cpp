// RUN: %check_placement %s placement-missing-device-guard %t -- -- -x cuda --cuda-host-only -nocudainc -nocudalib -Wno-unknown-cuda-version -include cuda_runtime.h %mock_includes
//
// A function taking tensors that launches work on the current CUDA device
// (a `<<<...>>>` launch, work given the current device's stream or cuBLAS
// handle) needs a device guard set from its tensors' device on every path to
// the launch: a guard declared before it in a scope still open, a guard
// given a device by set_device, or cudaSetDevice. Parsed as CUDA (host
// side) over mocks of the CUDA runtime and of c10's guards, whose real
// headers need the toolkit.
#include <torch/torch.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

__global__ void scale_kernel(float *out, const float *in, float factor, int64_t n) {}

at::Tensor unguardedLaunch(const at::Tensor &input, float factor) {
  at::Tensor output = torch::zeros({2}, input.options());
  scale_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), factor, input.numel());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launched on the current CUDA device with no device guard on this path in 'unguardedLaunch'; with its tensors on another GPU it runs on the wrong device [placement-missing-device-guard]
  // CHECK-MESSAGES: :[[@LINE-4]]:46: note: a device guard set from the device of 'input' makes the work run where 'input' is
  return output;
}

void unguardedLaunchOnCurrentStream(at::Tensor output, const at::Tensor &input) {
  scale_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launched on the current CUDA device with no device guard on this path in 'unguardedLaunchOnCurrentStream'; with its tensors on another GPU it runs on the wrong device [placement-missing-device-guard]
  // CHECK-MESSAGES: :[[@LINE-3]]:48: note: a device guard set from the device of 'output' makes the work run where 'output' is
      output.data_ptr<float>(), input.data_ptr<float>(), 2.0f, input.numel());
}

// One finding a function: the stream taken first, the launch then.
void streamTakenBeforeLaunch(at::Tensor output, const at::Tensor &input) {
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: work given 'getCurrentCUDAStream' runs on the current CUDA device with no device guard on this path in 'streamTakenBeforeLaunch'; with its tensors on another GPU it runs on the wrong device [placement-missing-device-guard]
  // CHECK-MESSAGES: :[[@LINE-3]]:41: note: a device guard set from the device of 'output' makes the work run where 'output' is
  scale_kernel<<<1, 256, 0, stream>>>(output.data_ptr<float>(), input.data_ptr<float>(), 2.0f,
                                      input.numel());
}

at::Tensor cublasOnCurrentHandle(const at::Tensor &a, const at::Tensor &b, at::Tensor c) {
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: work given 'getCurrentCUDABlasHandle' runs on the current CUDA device with no device guard on this path in 'cublasOnCurrentHandle'; with its tensors on another GPU it runs on the wrong device [placement-missing-device-guard]
  // CHECK-MESSAGES: :[[@LINE-3]]:52: note: a device guard set from the device of 'a' makes the work run where 'a' is
  float one = 1, zero = 0;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, a.data_ptr<float>(), 2,
              b.data_ptr<float>(), 2, &zero, c.data_ptr<float>(), 2);
  return c;
}

at::Tensor optionalGuardFromDeviceOf(const at::Tensor &input) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(input));
  at::Tensor output = torch::zeros({2}, input.options());
  scale_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      output.data_ptr<float>(), input.data_ptr<float>(), 2.0f, input.numel());
  return output;
}

void guardFromDevice(at::Tensor output, const at::Tensor &input) {
  at::cuda::CUDAGuard device_guard(input.device());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  scale_kernel<<<1, 256, 0, stream>>>(output.data_ptr<float>(), input.data_ptr<float>(), 2.0f,
                                      input.numel());
}

void guardFromIndexBraced(at::Tensor output, const at::Tensor &input) {
  at::cuda::CUDAGuard device_guard{(c10::DeviceIndex)input.get_device()};
  scale_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), 2.0f, input.numel());
}

void genericDeviceGuard(at::Tensor output, const at::Tensor &input) {
  c10::DeviceGuard device_guard(input.device());
  scale_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), 2.0f, input.numel());
}

void optionalGuardSetLater(at::Tensor output, const at::Tensor &input) {
  at::cuda::OptionalCUDAGuard device_guard;
  device_guard.set_device(input.device());
  scale_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), 2.0f, input.numel());
}

void optionalGuardNeverSet(at::Tensor output, const at::Tensor &input) {
  at::cuda::OptionalCUDAGuard device_guard;
  scale_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), 2.0f, input.numel());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launched on the current CUDA device with no device guard on this path in 'optionalGuardNeverSet'; with its tensors on another GPU it runs on the wrong device [placement-missing-device-guard]
  // CHECK-MESSAGES: :[[@LINE-4]]:39: note: a device guard set from the device of 'output' makes the work run where 'output' is
}

// The guard's scope ends before the second launch.
void guardInNestedBlock(at::Tensor output, const at::Tensor &input) {
  {
    at::cuda::CUDAGuard device_guard(input.device());
    scale_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), 2.0f, input.numel());
  }
  scale_kernel<<<1, 256>>>(output.data_ptr<float>(), output.data_ptr<float>(), 2.0f, output.numel());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launched on the current CUDA device with no device guard on this path in 'guardInNestedBlock'; with its tensors on another GPU it runs on the wrong device [placement-missing-device-guard]
  // CHECK-MESSAGES: :[[@LINE-7]]:36: note: a device guard set from the device of 'output' makes the work run where 'output' is
}

// A temporary guard is gone at the end of its statement.
void temporaryGuard(at::Tensor output, const at::Tensor &input) {
  at::cuda::CUDAGuard(input.device());
  scale_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), 2.0f, input.numel());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launched on the current CUDA device with no device guard on this path in 'temporaryGuard'; with its tensors on another GPU it runs on the wrong device [placement-missing-device-guard]
  // CHECK-MESSAGES: :[[@LINE-4]]:32: note: a device guard set from the device of 'output' makes the work run where 'output' is
}

at::Tensor earlyReturnBeforeGuard(const at::Tensor &input) {
  at::Tensor output = torch::zeros({2}, input.options());
  if (input.numel() == 0)
    return output;
  const at::cuda::OptionalCUDAGuard device_guard(device_of(input));
  scale_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), 2.0f, input.numel());
  return output;
}

void launchBeforeGuard(at::Tensor output, const at::Tensor &input) {
  scale_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), 2.0f, input.numel());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launched on the current CUDA device with no device guard on this path in 'launchBeforeGuard'; with its tensors on another GPU it runs on the wrong device [placement-missing-device-guard]
  // CHECK-MESSAGES: :[[@LINE-3]]:35: note: a device guard set from the device of 'output' makes the work run where 'output' is
  at::cuda::CUDAGuard device_guard(input.device());
  scale_kernel<<<1, 256>>>(output.data_ptr<float>(), output.data_ptr<float>(), 2.0f, output.numel());
}

void guardOnOneBranch(at::Tensor output, const at::Tensor &input, bool fast) {
  if (fast) {
    at::cuda::CUDAGuard device_guard(input.device());
    scale_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), 2.0f, input.numel());
  } else {
    scale_kernel<<<1, 64>>>(output.data_ptr<float>(), input.data_ptr<float>(), 2.0f, input.numel());
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: kernel launched on the current CUDA device with no device guard on this path in 'guardOnOneBranch'; with its tensors on another GPU it runs on the wrong device [placement-missing-device-guard]
    // CHECK-MESSAGES: :[[@LINE-7]]:34: note: a device guard set from the device of 'output' makes the work run where 'output' is
  }
}

// TORCH_CHECK says where the tensors are; it does not make it current.
void checkIsNoGuard(at::Tensor output, const at::Tensor &input) {
  TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
  scale_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), 2.0f, input.numel());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launched on the current CUDA device with no device guard on this path in 'checkIsNoGuard'; with its tensors on another GPU it runs on the wrong device [placement-missing-device-guard]
  // CHECK-MESSAGES: :[[@LINE-4]]:32: note: a device guard set from the device of 'output' makes the work run where 'output' is
}

void guardInLoopBody(at::Tensor output, const at::Tensor &input) {
  for (int i = 0; i < 4; ++i) {
    at::cuda::CUDAGuard device_guard(input.device());
    scale_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), 2.0f, input.numel());
  }
}

// The stream guard sets the stream's device too.
void streamGuard(at::Tensor output, const at::Tensor &input) {
  at::cuda::CUDAStreamGuard stream_guard(
      at::cuda::getStreamFromPool(false, (c10::DeviceIndex)input.get_device()));
  scale_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      output.data_ptr<float>(), input.data_ptr<float>(), 2.0f, input.numel());
}

void deviceSwitchedForGood(at::Tensor output, const at::Tensor &input) {
  cudaSetDevice(input.get_device());
  scale_kernel<<<1, 256>>>(output.data_ptr<float>(), input.data_ptr<float>(), 2.0f, input.numel());
}

// Takes no tensors: its callers' business (missing-device-guard-callers.cpp).
void rawLauncher(float *out, const float *in, int64_t n) {
  scale_kernel<<<1, 256>>>(out, in, 2.0f, n);
}

// Waiting on the current stream launches nothing.
void waitsOnCurrentStream(const at::Tensor &input) {
  at::cuda::getCurrentCUDAStream().synchronize();
  if (at::cuda::getCurrentCUDAStream().query())
    return;
}
