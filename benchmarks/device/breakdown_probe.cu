// Which metrics Nsight Compute takes the maximum of for its four SOL throughputs on this chip: a few kernels of
// distinct character, run once each, for `ncu --metrics breakdown:<throughput>` (benchmarks/device/breakdown.sh).
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#ifdef NAPKIN_PROBE_PROFILER
#include "napkin/profiler.hpp"
#endif

__global__ void copy_kernel(const float4* in, float4* out, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) out[i] = in[i];
}
// Shared-memory tree reduction with a barrier per step: LSU-pipe bound.
__global__ void smem_reduce_kernel(const float* in, float* out, int n) {
  __shared__ float s[1024];
  float acc = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) acc += in[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int step = blockDim.x / 2; step > 0; step /= 2) {
    if (threadIdx.x < step) s[threadIdx.x] += s[threadIdx.x + step];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
__global__ void transpose_naive_kernel(const float* in, float* out, int n) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[x * n + (y + j)] = in[(y + j) * n + x];
}
__global__ void fp64_chain_kernel(double* out, int iters) {
  double a = threadIdx.x * 1e-3, b = 1.000001, c = 1e-7;
  for (int i = 0; i < iters; ++i) { a = fma(a, b, c); b = fma(b, a, c); }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b;
}
__global__ void sfu_kernel(float* out, int iters) {
  float a = threadIdx.x * 1e-3f;
  for (int i = 0; i < iters; ++i) a = __sinf(a) + __expf(-a) + rsqrtf(a + 1.f);
  out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}
__global__ void bank_conflict_kernel(float* out, int iters) {
  __shared__ float s[32 * 33];
  for (int i = threadIdx.x; i < 32 * 33; i += blockDim.x) s[i] = i;
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < iters; ++i) acc += s[(threadIdx.x * 32 + i) % (32 * 32)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void atomic_kernel(const int* in, int* bins, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&bins[in[i] & 15], 1);
}

void run_all(float* a, float* b, size_t n) {
  copy_kernel<<<1056, 256>>>((const float4*)a, (float4*)b, n / 4);
  smem_reduce_kernel<<<1056, 1024>>>(a, b, int(n));
  transpose_naive_kernel<<<dim3(256, 256), dim3(32, 8)>>>(a, b, 8192);
  fp64_chain_kernel<<<264, 256>>>((double*)b, 4000);
  sfu_kernel<<<1056, 256>>>(b, 2000);
  bank_conflict_kernel<<<1056, 256>>>(b, 4000);
  atomic_kernel<<<1056, 256>>>((const int*)a, (int*)b, int(n));
}

// probe                  run every kernel once (the target for ncu)
// probe SET_FILE...      (built with -DNAPKIN_PROBE_PROFILER) per_kernel(application) with each file's metric
//                        list as a custom set: passes, wall time per measurement, every value
int main(int argc, char** argv) {
  const size_t n = 1 << 26;
  float *a, *b; cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4);
  cudaMemset(a, 0, n * 4);
#ifdef NAPKIN_PROBE_PROFILER
  for (int f = 1; f < argc; ++f) {
    std::vector<std::string> metrics;
    std::ifstream in(argv[f]);
    for (std::string line; std::getline(in, line);) if (!line.empty()) metrics.push_back(line);
    napkin::profiler prof(napkin::metric_sets::custom(argv[f], metrics));
    for (int rep = 0; rep < 4; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto reports = prof.per_kernel([&] { copy_kernel<<<1056, 256>>>((const float4*)a, (float4*)b, n / 4); },
                                           napkin::replay::application);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::printf("COST set=%s passes=%zu rep=%d per_kernel_application_s=%.4f\n", argv[f], prof.passes(), rep, s);
    }
    const auto reports = prof.per_kernel([&] { run_all(a, b, n); }, napkin::replay::application);
    for (const auto& r : reports.kernels)
      for (const auto& [k, v] : r.values) std::printf("VALUE set=%s kernel=%s %s=%.4f\n", argv[f], r.name.c_str(), k.c_str(), v);
  }
  if (argc > 1) return 0;
#endif
  (void)argc; (void)argv;
  run_all(a, b, n);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("probe: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
