// Kernels inside and outside napkin ranges, for `ncu --nvtx --nvtx-include` (benchmarks/device/nvtx.sh).
//   napkin_demo_fill     outside every range
//   napkin_demo_scale    push/pop range "solve"   in domain "napkin"  -> "napkin@solve/"
//   napkin_demo_add      push/pop range "solve"   in domain "napkin"
//   napkin_demo_saxpy    push/pop range "step {i}" in domain "demo", i = 0, 1, 2 -> "demo@step 1/"
//   napkin_demo_reduce   NAPKIN_FUNC_RANGE in demo::reduce_all (registered name) -> "napkin@demo::reduce_all/"
//   napkin_demo_tail     start/end range "async job" in domain "napkin" -> "napkin@async job"
#include <napkin/nvtx.hpp>

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define DEMO_CHECK(call)                                                                     \
  do {                                                                                       \
    const cudaError_t e = (call);                                                            \
    if (e != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e));                 \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

NAPKIN_DOMAIN(demo_domain, "demo");

__global__ void napkin_demo_fill(float* x, int n, float v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = v;
}
__global__ void napkin_demo_scale(float* x, int n, float a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
__global__ void napkin_demo_add(float* y, const float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += x[i];
}
__global__ void napkin_demo_saxpy(float* y, const float* x, int n, float a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void napkin_demo_reduce(float* out, const float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, x[i]);
}
__global__ void napkin_demo_tail(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = -x[i];
}

namespace demo {
void reduce_all(float* out, const float* x, int n, int blocks) {
  NAPKIN_FUNC_RANGE();
  napkin_demo_reduce<<<blocks, 256>>>(out, x, n);
  DEMO_CHECK(cudaGetLastError());
}
}  // namespace demo

int main() {
  const int n = 1 << 20;
  const int blocks = (n + 255) / 256;
  float *x = nullptr, *y = nullptr, *sum = nullptr;
  DEMO_CHECK(cudaMalloc(&x, n * sizeof(float)));
  DEMO_CHECK(cudaMalloc(&y, n * sizeof(float)));
  DEMO_CHECK(cudaMalloc(&sum, sizeof(float)));
  napkin::name_device(0, "demo GPU");
  napkin::name_stream(cudaStreamLegacy, "default stream");

  napkin_demo_fill<<<blocks, 256>>>(x, n, 1.0f);
  napkin_demo_fill<<<blocks, 256>>>(y, n, 2.0f);
  DEMO_CHECK(cudaGetLastError());
  {
    napkin::range solve{"solve"};
    napkin_demo_scale<<<blocks, 256>>>(x, n, 3.0f);
    napkin_demo_add<<<blocks, 256>>>(y, x, n);
    DEMO_CHECK(cudaGetLastError());
  }
  for (int i = 0; i < 3; ++i) {
    napkin::range_in<demo_domain> step{"step {}", i};
    napkin_demo_saxpy<<<blocks, 256>>>(y, x, n, 0.5f);
    DEMO_CHECK(cudaGetLastError());
  }
  DEMO_CHECK(cudaMemset(sum, 0, sizeof(float)));
  demo::reduce_all(sum, y, n, blocks);
  {
    napkin::unique_range job{"async job"};
    napkin_demo_tail<<<blocks, 256>>>(y, n);
    DEMO_CHECK(cudaGetLastError());
  }
  float host_sum = 0;
  DEMO_CHECK(cudaMemcpy(&host_sum, sum, sizeof(float), cudaMemcpyDeviceToHost));
  // x = 3, y = 2 + 3 + 3 * (0.5 * 3) = 9.5 per element.
  std::printf("sum = %.0f (expected %.0f)\n", host_sum, 9.5 * n);
  DEMO_CHECK(cudaFree(x));
  DEMO_CHECK(cudaFree(y));
  DEMO_CHECK(cudaFree(sum));
  return 0;
}
