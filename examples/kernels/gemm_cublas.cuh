// cuBLAS GEMMs for the roofline validation (and the profiler's reference GEMM): column-major
// C[m×n] = A[m×k]·B[k×n], alpha = 1, beta = 0. Needs CUDA::cublas.
#pragma once

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstddef>

#include "kernels.cuh"  // blocks_for

namespace napkin_kernels {

// FP32 on the CUDA cores: the default math mode never uses TF32 for cublasSgemm (it needs
// CUBLAS_TF32_TENSOR_OP_MATH); pedantic math makes that explicit.
inline cublasStatus_t sgemm(cublasHandle_t h, int m, int n, int k, const float* a, const float* b, float* c) {
  const float one = 1.0f, zero = 0.0f;
  const cublasStatus_t s = cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m, b, k, &zero, c, m);
}

// BF16 in and out, FP32 accumulate, on the tensor cores.
inline cublasStatus_t gemm_bf16(cublasHandle_t h, int m, int n, int k, const __nv_bfloat16* a,
                                const __nv_bfloat16* b, __nv_bfloat16* c) {
  const float one = 1.0f, zero = 0.0f;
  const cublasStatus_t s = cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, CUDA_R_16BF, m, b, CUDA_R_16BF, k, &zero, c,
                      CUDA_R_16BF, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

// `static`, as in kernels.cuh: safe to include from several translation units.
static __global__ void fill_bf16_kernel(__nv_bfloat16* p, std::size_t n, float value) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    p[i] = __float2bfloat16(value);
}

// p[i] = value for n elements; returns the launch status.
static inline cudaError_t fill_bf16(__nv_bfloat16* p, std::size_t n, float value, cudaStream_t s = nullptr) {
  fill_bf16_kernel<<<blocks_for(n, 256), 256, 0, s>>>(p, n, value);
  return cudaGetLastError();
}

}  // namespace napkin_kernels
