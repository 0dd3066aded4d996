// Streams: the calling thread's current stream per device, and a small pool
// of streams per device created on first use, as in c10::cuda. The default
// stream is the legacy one (nullptr). Pool streams are created blocking
// (cudaStreamDefault), so that work on them is ordered with the legacy
// default stream, which synchronous calls (cudaMemcpyPeer) and code outside
// pl use; two pool streams do run concurrently.
#pragma once

#include <cuda_runtime_api.h>

namespace pl::cuda::detail {

// nullptr (the default stream) until set_current_stream on this thread.
// `device` is a usable device's index.
cudaStream_t current_stream(int device) noexcept;
void set_current_stream(int device, cudaStream_t stream) noexcept;
// Pool streams of `device` in turn; high-priority ones come from a second pool.
cudaStream_t stream_from_pool(int device, bool high_priority);

} // namespace pl::cuda::detail
