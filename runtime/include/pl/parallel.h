// Intra-op parallelism of the cpu and sim kernels, like at::set_num_threads.
#pragma once

namespace pl {

// Threads a cpu kernel may use, the calling thread included (1: the caller
// only). Also applied to the BLAS behind matmul. Throws pl::Error for n < 1.
void set_num_threads(int n);
int get_num_threads();

} // namespace pl
