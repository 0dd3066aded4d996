// CUDA availability, like torch::cuda. Both are false/0, not errors, when
// the build has no CUDA support or the machine has no usable GPU.
#pragma once

namespace pl::cuda {

bool is_available();
int device_count();

} // namespace pl::cuda
