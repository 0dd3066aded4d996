// A small stand-in for the CUDA runtime's <cuda_runtime.h> (and the cuBLAS
// declarations the tests use), for parsing .cu code as clang does with
// `-x cuda --cuda-host-only -nocudainc -nocudalib` where no toolkit is
// installed: the launch attributes, dim3, streams, and the call that a
// `<<<...>>>` launch becomes (as clang's own CUDA tests declare it).
// Include it first (`-include cuda_runtime.h`): clang's wrappers of the
// standard headers use __host__ and __device__.
#pragma once

#include <cstddef>
#include <cstdlib>

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))

struct dim3 {
  unsigned x, y, z;
  __host__ __device__ dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};

typedef struct CUstream_st *cudaStream_t;
typedef enum cudaError { cudaSuccess = 0 } cudaError_t;

extern "C" int __cudaPushCallConfiguration(dim3 gridSize, dim3 blockSize, size_t sharedSize = 0,
                                           cudaStream_t stream = 0);
extern "C" cudaError_t cudaSetDevice(int device);
extern "C" cudaError_t cudaGetDevice(int *device);
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t stream);

typedef struct cublasContext *cublasHandle_t;
typedef enum { CUBLAS_STATUS_SUCCESS = 0 } cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 } cublasOperation_t;
extern "C" cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream);
extern "C" cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa,
                                      cublasOperation_t transb, int m, int n, int k,
                                      const float *alpha, const float *A, int lda, const float *B,
                                      int ldb, const float *beta, float *C, int ldc);
